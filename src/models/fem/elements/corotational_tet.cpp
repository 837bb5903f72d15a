// Corotational tetrahedron (Müller & Gross 2004); see corotational_tet.hpp.
#include "pliant/models/fem/elements/corotational_tet.hpp"

#include "pliant/models/fem/elements/deformation_gradient.hpp"
#include "pliant/models/fem/elements/polar_decomposition.hpp"

namespace pliant::fem {
namespace {

// Rᵀ x - X, node by node.
Vec12 unrotated_displacement(const Mat3& R, const Vec12& X, const Vec12& x) {
  Vec12 u;
  for (int a = 0; a < 4; ++a) u.segment<3>(3 * a) = R.transpose() * x.segment<3>(3 * a) - X.segment<3>(3 * a);
  return u;
}

}  // namespace

Mat3 corotational_rotation(const Mat3& dm_inverse, const Vec12& positions) {
  return extract_rotation(deformation_gradient(dm_inverse, positions));
}

Vec12 corotational_force(const Mat12& K0, const Mat3& R, const Vec12& X, const Vec12& x) {
  const Vec12 k = K0 * unrotated_displacement(R, X, x);
  Vec12 f;
  for (int a = 0; a < 4; ++a) f.segment<3>(3 * a) = -(R * k.segment<3>(3 * a));
  return f;
}

Mat12 corotational_stiffness(const Mat12& K0, const Mat3& R) {
  Mat12 K;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      K.block<3, 3>(3 * a, 3 * b) = R * K0.block<3, 3>(3 * a, 3 * b) * R.transpose();
  return K;
}

double corotational_energy(const Mat12& K0, const Mat3& R, const Vec12& X, const Vec12& x) {
  const Vec12 u = unrotated_displacement(R, X, x);
  return 0.5 * u.dot(K0 * u);
}

}  // namespace pliant::fem
