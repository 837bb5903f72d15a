// Aabb: an axis-aligned bounding box, the building block of the BVH and of bounding-box queries.
#pragma once

#include "pliant/core/types.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace pliant {

/// Axis-aligned box [min, max] (unit: m). Default-constructed it is empty (min = +∞, max = -∞), so
/// extend() and merge() need no special first case.
struct Aabb {
  Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());   ///< lower corner (unit: m)
  Vec3 max = Vec3::Constant(-std::numeric_limits<double>::infinity());  ///< upper corner (unit: m)

  /// True when the box holds no point (some min > max).
  bool empty() const { return (min.array() > max.array()).any(); }

  void extend(const Vec3& p) {
    min = min.cwiseMin(p);
    max = max.cwiseMax(p);
  }
  void merge(const Aabb& other) {
    min = min.cwiseMin(other.min);
    max = max.cwiseMax(other.max);
  }

  /// Centre point (unit: m); meaningless for an empty box.
  Vec3 centre() const { return 0.5 * (min + max); }
  /// Edge lengths (unit: m); zero for an empty box.
  Vec3 extent() const { return empty() ? Vec3::Zero() : Vec3(max - min); }
  /// Length of the diagonal (unit: m); zero for an empty box. The natural length scale of a mesh.
  double diagonal() const { return extent().norm(); }
  /// Total surface area (unit: m²), the cost weight of the BVH's surface area heuristic.
  double surface_area() const {
    const Vec3 e = extent();
    return 2.0 * (e.x() * e.y() + e.y() * e.z() + e.z() * e.x());
  }

  /// Whether p lies inside or on the box.
  bool contains(const Vec3& p) const {
    return (p.array() >= min.array()).all() && (p.array() <= max.array()).all();
  }
  /// Whether the two boxes share at least one point (touching counts).
  bool overlaps(const Aabb& o) const {
    return (min.array() <= o.max.array()).all() && (o.min.array() <= max.array()).all();
  }
  /// Squared distance from p to the box (unit: m²), zero inside.
  double squared_distance(const Vec3& p) const {
    const Vec3 d = (min - p).cwiseMax(p - max).cwiseMax(Vec3::Zero());
    return d.squaredNorm();
  }
  /// The box grown by `margin` on every side (unit: m).
  Aabb inflated(double margin) const {
    return {(min.array() - margin).matrix(), (max.array() + margin).matrix()};
  }

  /// Slab test of the ray origin + t·direction against the box for t in [t_min, t_max]. On a hit,
  /// returns true and sets `t_enter` to the parameter where the ray enters the clipped range.
  /// `inv_direction` is 1/direction per component (±∞ for a zero component); a zero direction
  /// component is handled by testing the origin against that slab, so no 0·∞ NaN can arise.
  bool intersect_ray(const Vec3& origin, const Vec3& direction, const Vec3& inv_direction, double t_min,
                     double t_max, double& t_enter) const {
    for (int a = 0; a < 3; ++a) {
      if (direction[a] == 0.0) {
        if (origin[a] < min[a] || origin[a] > max[a]) return false;
        continue;
      }
      double t0 = (min[a] - origin[a]) * inv_direction[a];
      double t1 = (max[a] - origin[a]) * inv_direction[a];
      if (t0 > t1) std::swap(t0, t1);
      t_min = std::max(t_min, t0);
      t_max = std::min(t_max, t1);
      if (t_min > t_max) return false;
    }
    t_enter = t_min;
    return true;
  }
};

/// Bounding box of a point list (unit: m); empty for an empty list. Non-finite points are skipped.
inline Aabb bounding_box(const std::vector<Vec3>& points) {
  Aabb box;
  for (const Vec3& p : points) {
    if (p.allFinite()) box.extend(p);
  }
  return box;
}

}  // namespace pliant
