// Geometric kernels on tetrahedra and triangles.
//
// The face area vectors follow the linear-tetrahedron formulation of seed 000 (reference note
// green-functions.md, "Linear tetrahedron"): N_k(x) = 1 - S_k·(x - x_k)/(3V), with S_k the outward
// area vector of the face opposite node k.
#include "pliant/core/geometry.hpp"

namespace pliant {

double signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

Vec3 area_vector(const Vec3& a, const Vec3& b, const Vec3& c) { return 0.5 * (b - a).cross(c - a); }

std::array<Vec3, 4> face_area_vectors(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  // Faces opposite nodes 0..3, each ordered counter-clockwise seen from outside a positively
  // oriented tet (the same local faces boundary_faces() emits). The last vector is computed as
  // minus the sum of the others: it is the exact identity ΣS_k = 0 (the closed surface of a
  // tetrahedron has zero total area vector), so gradients of constants vanish to the last bit.
  const Vec3 s0 = area_vector(x1, x2, x3);
  const Vec3 s1 = area_vector(x0, x3, x2);
  const Vec3 s2 = area_vector(x0, x1, x3);
  const Vec3 s3 = -(s0 + s1 + s2);
  return {s0, s1, s2, s3};
}

}  // namespace pliant
