// Signed distance to the analytic rigid shapes of contact (plane, sphere, capsule, oriented box): for a
// query point, how far it is from the surface (negative inside: the penetration depth is its negative),
// the closest surface point and the outward normal there. Free functions in the shape's local frame
// (a Pose maps the world to it); no hidden state, so any number of threads may call them.
#pragma once

#include "pliant/core/types.hpp"

namespace pliant {

/// A query point's relation to a rigid surface.
struct SurfaceDistance {
  double distance = 0.0;       ///< signed: > 0 outside, < 0 inside (unit: m)
  Vec3 point = Vec3::Zero();   ///< closest surface point (unit: m)
  Vec3 normal = Vec3::Zero();  ///< unit outward normal at `point`
};

/// The half-space {x : n·x ≤ 0} bounded by the plane through the origin with unit normal `normal`
/// (pointing out of the solid).
SurfaceDistance plane_distance(const Vec3& normal, const Vec3& p);

/// The solid ball of `radius` (unit: m, > 0) about the origin. At the centre the normal is +z.
SurfaceDistance sphere_distance(double radius, const Vec3& p);

/// The capsule of `radius` (unit: m, > 0) about the segment from −half_length to +half_length
/// (unit: m, ≥ 0) along the local y axis. On the axis the normal is the fixed x direction.
SurfaceDistance capsule_distance(double radius, double half_length, const Vec3& p);

/// The box [−h, h] (h: half extents, unit: m, each > 0) about the origin. Inside, the nearest face
/// wins (ties: the lowest axis, then the + face); outside, the closest point of the box.
SurfaceDistance box_distance(const Vec3& half_extents, const Vec3& p);

}  // namespace pliant
