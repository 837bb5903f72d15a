// Linear tetrahedron kernels; see linear_tet.hpp for the formulas and their source (Nikitina et al. 2003).
#include "pliant/models/fem/elements/linear_tet.hpp"

#include "pliant/core/geometry.hpp"

#include <cmath>

namespace pliant::fem {

TetGradients tet_gradients(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  const std::array<Vec3, 4> S = face_area_vectors(x0, x1, x2, x3);
  TetGradients g;
  g.volume = signed_volume(x0, x1, x2, x3);
  const double scale = -1.0 / (3.0 * g.volume);
  for (int k = 0; k < 4; ++k) g.grad[k] = scale * S[k];
  return g;
}

StrainOperator strain_operator(const TetGradients& g) {
  StrainOperator B = StrainOperator::Zero();
  for (int k = 0; k < 4; ++k) {
    const Vec3& d = g.grad[k];
    const int c = 3 * k;
    // Rows follow Nikitina et al.'s (2003) Δ: [∂x,0,0], [0,∂y,0], [0,0,∂z], [∂y,∂x,0], [∂z,0,∂x], [0,∂z,∂y].
    B(0, c + 0) = d.x();
    B(1, c + 1) = d.y();
    B(2, c + 2) = d.z();
    B(3, c + 0) = d.y();
    B(3, c + 1) = d.x();
    B(4, c + 0) = d.z();
    B(4, c + 2) = d.x();
    B(5, c + 1) = d.z();
    B(5, c + 2) = d.y();
  }
  return B;
}

Mat3 tet_stiffness_block(const TetGradients& g, const materials::Material& m, int a, int b) {
  const Vec3& ga = g.grad[a];
  const Vec3& gb = g.grad[b];
  // (Δᵀ D Δ)_ab expanded: λ ∇N_a ∇N_bᵀ (volumetric) + μ (∇N_b ∇N_aᵀ + (∇N_a·∇N_b) I) (deviatoric).
  Mat3 K = m.lambda * (ga * gb.transpose()) + m.mu * (gb * ga.transpose());
  K.diagonal().array() += m.mu * ga.dot(gb);
  return g.volume * K;
}

Mat12 tet_stiffness(const TetGradients& g, const materials::Material& m) {
  Mat12 K;
  for (int a = 0; a < 4; ++a) {
    K.block<3, 3>(3 * a, 3 * a) = tet_stiffness_block(g, m, a, a);
    for (int b = a + 1; b < 4; ++b) {
      const Mat3 Kab = tet_stiffness_block(g, m, a, b);
      K.block<3, 3>(3 * a, 3 * b) = Kab;
      K.block<3, 3>(3 * b, 3 * a) = Kab.transpose();
    }
  }
  return K;
}

Mat12 tet_stiffness(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                    const materials::Material& m) {
  return tet_stiffness(tet_gradients(x0, x1, x2, x3), m);
}

Mat12 tet_stiffness_reference(const TetGradients& g, const materials::Material& m) {
  const StrainOperator B = strain_operator(g);
  return B.transpose() * materials::elasticity_matrix(m) * B * g.volume;
}

Vec6 tet_strain(const TetGradients& g, const Vec12& u) { return strain_operator(g) * u; }

Vec6 tet_stress(const Vec6& strain, const materials::Material& m) {
  return materials::elasticity_matrix(m) * strain;
}

double von_mises(const Vec6& s) {
  const double dxy = s[0] - s[1], dyz = s[1] - s[2], dzx = s[2] - s[0];
  return std::sqrt(0.5 * (dxy * dxy + dyz * dyz + dzx * dzx) +
                   3.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

}  // namespace pliant::fem
