// Ray and ray–triangle intersection: the picking primitive shared by the viewer's grab ray, the
// BVH and the impact model.
//
// intersect_ray_triangle implements T. Möller and B. Trumbore, "Fast, minimum storage ray-triangle
// intersection", Journal of Graphics Tools 2(1), 1997: solve origin + t·d = (1-u-v)a + u·b + v·c
// by Cramer's rule with scalar triple products, rejecting early on the barycentric bounds.
#pragma once

#include "pliant/core/types.hpp"

#include <cmath>
#include <limits>
#include <optional>

namespace pliant {

/// A ray origin + t·direction, t ≥ 0. The direction need not be unit length; t is measured in
/// multiples of it (with a unit direction, t is a distance in m).
struct Ray {
  Vec3 origin = Vec3::Zero();      ///< start point (unit: m)
  Vec3 direction = Vec3::UnitZ();  ///< direction, non-zero (unit: m per unit of t)

  Vec3 at(double t) const { return origin + t * direction; }
};

/// Where a ray meets a triangle (a, b, c): p = (1-u-v)·a + u·b + v·c = origin + t·direction.
struct RayHit {
  Index triangle = -1;  ///< triangle index in its mesh (-1 from the bare kernel, which knows none)
  double t = 0;         ///< ray parameter of the hit (unit: of the ray direction; m if it is unit)
  double u = 0;         ///< barycentric weight of the triangle's second node
  double v = 0;         ///< barycentric weight of the triangle's third node

  /// The barycentric weights of nodes (a, b, c).
  Vec3 weights() const { return {1.0 - u - v, u, v}; }
};

/// Möller–Trumbore ray–triangle test, two-sided (hits from either face count, as picking needs).
/// Returns the hit with t in [0, t_max], barycentric u, v ≥ 0, u + v ≤ 1 (edges included, so a ray
/// through a shared edge hits at least one of its triangles), or nothing.
///
/// Parallel rays: the determinant det = d·(e1×e2) = |d|·|e1×e2|·cos(angle between d and the
/// normal). The test compares it with a relative epsilon, |det| ≤ 1e-12·|d|·|e1×e2|, so it rejects
/// rays within ~1e-12 rad of the triangle's plane whatever the units and sizes, and rejects
/// degenerate (zero-area) triangles, instead of dividing by a rounding-noise determinant.
inline std::optional<RayHit> intersect_ray_triangle(const Ray& ray, const Vec3& a, const Vec3& b,
                                                    const Vec3& c,
                                                    double t_max = std::numeric_limits<double>::infinity()) {
  const Vec3 e1 = b - a;
  const Vec3 e2 = c - a;
  const Vec3 p = ray.direction.cross(e2);
  const double det = e1.dot(p);
  const double scale = ray.direction.norm() * e1.cross(e2).norm();
  if (!(std::abs(det) > 1e-12 * scale)) return std::nullopt;  // also rejects NaN input
  const double inv_det = 1.0 / det;
  const Vec3 s = ray.origin - a;
  const double u = s.dot(p) * inv_det;
  if (u < 0.0 || u > 1.0) return std::nullopt;
  const Vec3 q = s.cross(e1);
  const double v = ray.direction.dot(q) * inv_det;
  if (v < 0.0 || u + v > 1.0) return std::nullopt;
  const double t = e2.dot(q) * inv_det;
  if (t < 0.0 || t > t_max) return std::nullopt;
  return RayHit{-1, t, u, v};
}

}  // namespace pliant
