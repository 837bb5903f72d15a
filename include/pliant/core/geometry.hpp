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

/// The seed-000 face area vectors S_k of a positively oriented tetrahedron: S_k is the outward area
/// vector of the face opposite node k (unit: m²). They sum to zero, and the linear shape function
/// gradients are ∇N_k = -S_k / (3V).
std::array<Vec3, 4> face_area_vectors(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3);

}  // namespace pliant
