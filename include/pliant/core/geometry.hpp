// Geometric kernels on tetrahedra and triangles. Free functions without state.
#pragma once

#include "pliant/core/types.hpp"

#include <array>

namespace pliant {

/// Signed volume of tetrahedron (a, b, c, d): (b-a)·((c-a)×(d-a))/6, positive when positively
/// oriented (unit: m³).
double signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Area vector ½(b-a)×(c-a) of triangle (a, b, c): its normal scaled by its area (unit: m²).
Vec3 area_vector(const Vec3& a, const Vec3& b, const Vec3& c);

/// The Nikitina et al. (2003) face area vectors S_k of a positively oriented tetrahedron: S_k is the outward
/// area vector of the face opposite node k (unit: m²). They sum to zero, and the linear shape function
/// gradients are ∇N_k = -S_k / (3V).
std::array<Vec3, 4> face_area_vectors(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3);

}  // namespace pliant

namespace pliant {

/// Closest point of triangle (a, b, c) to p, with its barycentric weights: the result is
/// (1-u-v)·a + u·b + v·c, u, v ≥ 0, u + v ≤ 1 (unit: m). Degenerate triangles give the closest point
/// of their edges.
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double& u,
                               double& v);

}  // namespace pliant
