// A finite rigid cylinder and where a point lies inside it: the geometry of the cylinder tool that
// moves through a membrane (Grimm 2005). The scene's scripted tool turns a contact into a penalty force
// along the normal, the springs family's tool projects the node onto the surface; both read the same
// contact.
#pragma once

#include "pliant/core/types.hpp"

#include <cmath>
#include <optional>

namespace pliant {

/// A solid cylinder: its lateral surface of `radius` around the axis through `centre`, cut off at
/// ±half_length along the axis.
struct Cylinder {
  Vec3 centre = Vec3::Zero();       ///< (unit: m)
  Vec3 axis = Vec3(0.0, 1.0, 0.0);  ///< unit direction of the axis
  double radius = 0.006;            ///< (unit: m), > 0
  double half_length = 0.1;         ///< half the length along the axis (unit: m), ≥ 0
};

/// A point inside a cylinder.
struct CylinderContact {
  double along = 0.0;  ///< the point's coordinate along the axis, from the centre (unit: m)
  double depth = 0.0;  ///< radius − distance from the axis: how far the lateral surface is (unit: m)
  Vec3 normal = Vec3::Zero();  ///< unit radial direction from the axis towards the point: out of the cylinder
};

/// The contact of point p with the cylinder, or nothing when p lies outside: beyond an end
/// (|along| > half_length) or at a distance from the axis ≥ radius. The lateral surface is the only
/// way out (the end caps push nothing). A point on the axis (distance ≤ 1e-12 radius) gets the fixed
/// normal axis.unitOrthogonal(), so the result does not depend on rounding.
inline std::optional<CylinderContact> cylinder_contact(const Cylinder& c, const Vec3& p) {
  const Vec3 d = p - c.centre;
  const double along = d.dot(c.axis);
  if (std::abs(along) > c.half_length) return std::nullopt;
  const Vec3 radial = d - along * c.axis;
  const double r = radial.norm();
  if (r >= c.radius) return std::nullopt;
  const Vec3 normal = r > 1e-12 * c.radius ? Vec3(radial / r) : c.axis.unitOrthogonal();
  return CylinderContact{along, c.radius - r, normal};
}

/// The point of the lateral surface straight out from a contact: centre + along·axis + radius·normal
/// (unit: m).
inline Vec3 cylinder_surface_point(const Cylinder& c, const CylinderContact& contact) {
  return c.centre + contact.along * c.axis + c.radius * contact.normal;
}

}  // namespace pliant
