#include "pliant/models/fem/elements/linear_tet.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include <random>

namespace pliant::fem {
using namespace pliant::materials;  // the materials the elements are tested with
namespace {

std::array<Vec3, 4> random_tet(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    std::array<Vec3, 4> x;
    for (auto& p : x) p = Vec3(u(rng), u(rng), u(rng));
    Mat3 E;
    E << x[1] - x[0], x[2] - x[0], x[3] - x[0];
    const double det = E.determinant();
    if (std::abs(det) < 0.05) continue;  // keep reasonably shaped tets
    if (det < 0) std::swap(x[2], x[3]);
    return x;
  }
}

const Material kMat{2.0e6, 1.0e6, 1000.0};  // λ = 2 MPa, μ = 1 MPa

TEST(LinearTet, GradientsMatchInverseJacobian) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 50; ++trial) {
    const auto x = random_tet(rng);
    const TetGradients g = tet_gradients(x[0], x[1], x[2], x[3]);
    // Independent route: N_1..N_3 are the barycentric coordinates ξ = J⁻¹ (x - x0), J = [x1-x0 x2-x0
    // x3-x0], so ∇N_k (k ≥ 1) are the rows of J⁻¹ and ∇N_0 = -Σ others.
    Mat3 J;
    J << x[1] - x[0], x[2] - x[0], x[3] - x[0];
    const Mat3 Jinv = J.inverse();
    EXPECT_NEAR(g.volume, J.determinant() / 6.0, 1e-14);
    for (int k = 1; k < 4; ++k) EXPECT_LT((g.grad[k] - Jinv.row(k - 1).transpose()).norm(), 1e-12);
    EXPECT_LT((g.grad[0] + Jinv.colwise().sum().transpose()).norm(), 1e-12);
    // Partition of unity and linear reproduction: Σ ∇N_k = 0, Σ x_k ∇N_kᵀ = I.
    Vec3 sum = Vec3::Zero();
    Mat3 lin = Mat3::Zero();
    for (int k = 0; k < 4; ++k) {
      sum += g.grad[k];
      lin += x[k] * g.grad[k].transpose();
    }
    EXPECT_LT(sum.norm(), 1e-12);
    EXPECT_LT((lin - Mat3::Identity()).norm(), 1e-12);
  }
}

TEST(LinearTet, BlockFormulaEqualsLiteralProduct) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 50; ++trial) {
    const auto x = random_tet(rng);
    const TetGradients g = tet_gradients(x[0], x[1], x[2], x[3]);
    const Mat12 K = tet_stiffness(g, kMat);
    const Mat12 R = tet_stiffness_reference(g, kMat);
    EXPECT_LT((K - R).norm(), 1e-12 * R.norm());
  }
}

TEST(LinearTet, SymmetricPsdWithExactlySixRigidZeroModes) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const auto x = random_tet(rng);
    const Mat12 K = tet_stiffness(x[0], x[1], x[2], x[3], kMat);
    EXPECT_LT((K - K.transpose()).norm(), 1e-14 * K.norm());
    Eigen::SelfAdjointEigenSolver<Mat12> eig(K);
    const auto& ev = eig.eigenvalues();
    const double top = ev[11];
    for (int i = 0; i < 6; ++i) EXPECT_LT(std::abs(ev[i]), 1e-10 * top) << "trial " << trial;
    for (int i = 6; i < 12; ++i) EXPECT_GT(ev[i], 1e-6 * top) << "trial " << trial;
    // Rigid motions (3 translations, 3 infinitesimal rotations) give zero force.
    for (int k = 0; k < 6; ++k) {
      Vec12 u;
      for (int a = 0; a < 4; ++a)
        u.segment<3>(3 * a) = k < 3 ? Vec3(Vec3::Unit(k)) : Vec3(Vec3::Unit(k - 3).cross(x[a]));
      EXPECT_LT((K * u).norm(), 1e-10 * K.norm() * u.norm());
    }
  }
}

TEST(LinearTet, AffineDisplacementGivesItsExactStrainAndStress) {
  std::mt19937 rng(4);
  const auto x = random_tet(rng);
  const TetGradients g = tet_gradients(x[0], x[1], x[2], x[3]);
  Mat3 F;
  F << 0.01, 0.002, -0.003, 0.004, -0.02, 0.001, 0.005, 0.006, 0.03;
  Vec12 u;
  for (int a = 0; a < 4; ++a) u.segment<3>(3 * a) = F * x[a] + Vec3(1, 2, 3);
  const Vec6 eps = tet_strain(g, u);
  Vec6 expected;
  expected << F(0, 0), F(1, 1), F(2, 2), F(0, 1) + F(1, 0), F(0, 2) + F(2, 0), F(1, 2) + F(2, 1);
  EXPECT_LT((eps - expected).norm(), 1e-14);
  // σ = λ tr(ε) I + 2μ ε in tensor form.
  const Mat3 e = 0.5 * (F + F.transpose());
  const Mat3 s = kMat.lambda * e.trace() * Mat3::Identity() + 2.0 * kMat.mu * e;
  const Vec6 sigma = tet_stress(eps, kMat);
  Vec6 expected_sigma;
  expected_sigma << s(0, 0), s(1, 1), s(2, 2), s(0, 1), s(0, 2), s(1, 2);
  EXPECT_LT((sigma - expected_sigma).norm(), 1e-8);
  // Element energy ½ uᵀ K u equals V · ½ ε:σ.
  const Mat12 K = tet_stiffness(g, kMat);
  EXPECT_NEAR(0.5 * u.dot(K * u), 0.5 * g.volume * (e.cwiseProduct(s)).sum(), 1e-9 * std::abs(u.dot(K * u)));
}

TEST(LinearTet, VonMisesOfUniaxialAndPureShear) {
  Vec6 s = Vec6::Zero();
  s[0] = 5.0;
  EXPECT_NEAR(von_mises(s), 5.0, 1e-14);
  s.setZero();
  s[3] = 2.0;
  EXPECT_NEAR(von_mises(s), 2.0 * std::sqrt(3.0), 1e-14);
  s << 7, 7, 7, 0, 0, 0;  // hydrostatic
  EXPECT_NEAR(von_mises(s), 0.0, 1e-14);
}

}  // namespace
}  // namespace pliant::fem
