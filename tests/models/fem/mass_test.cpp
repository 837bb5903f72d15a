#include "pliant/models/fem/assembly/mass.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/models/fem/assembly/rayleigh_damping.hpp"

#include "fem_test_util.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include <numeric>

namespace pliant::fem {
namespace {

struct Fixture {
  TetMesh mesh;
  std::vector<double> density;  // kg/m³ per tet
  double total_mass = 0.0;      // kg
};

Fixture jittered_box(unsigned seed) {
  Fixture f;
  const Vec3 size(0.6, 0.4, 0.3);
  f.mesh = test::box(size, {3, 2, 2});
  test::jitter_interior(f.mesh, size, 0.15, 0.25, seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> rho(500.0, 3000.0);
  for (const Tet& t : f.mesh.tets) {
    f.density.push_back(rho(rng));
    f.total_mass += f.density.back() * signed_volume(f.mesh.positions[t[0]], f.mesh.positions[t[1]],
                                                     f.mesh.positions[t[2]], f.mesh.positions[t[3]]);
  }
  return f;
}

TEST(Mass, ElementMatrices) {
  const double rho = 1200.0, V = 2e-3;
  const Mat12 M = consistent_tet_mass(rho, V);
  EXPECT_LT((M - M.transpose()).norm(), 0.0 + 1e-15);
  EXPECT_NEAR(M.sum(), 3.0 * rho * V, 1e-12);  // each component carries the element mass once
  EXPECT_DOUBLE_EQ(lumped_tet_mass(rho, V), rho * V / 4);
  // Row sums of the consistent matrix are the lumped masses.
  for (int r = 0; r < 12; ++r) EXPECT_NEAR(M.row(r).sum(), lumped_tet_mass(rho, V), 1e-14);
  // Per component, ρV/20 (J + I₄): eigenvalues ρV/4 (once) and ρV/20 (three times), each thrice.
  Eigen::SelfAdjointEigenSolver<Mat12> eig(M);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(eig.eigenvalues()[i], rho * V / 20, 1e-12);
  for (int i = 9; i < 12; ++i) EXPECT_NEAR(eig.eigenvalues()[i], rho * V / 4, 1e-12);
}

TEST(Mass, ConsistentMassIntegratesProductsOfLinearFields) {
  // uᵀ M v = ∫ ρ u·v dV for fields linear on each tet, against an independent degree-2 quadrature
  // (4 points, barycentric (a, b, b, b) and permutations, weights V/4; exact for quadratics).
  const Fixture f = jittered_box(3);
  auto M = assemble_consistent_mass(f.mesh, f.density);
  ASSERT_TRUE(M.ok()) << M.message();
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double a = 0.5854101966249685, b = 0.1381966011250105;
  for (int trial = 0; trial < 5; ++trial) {
    Mat3 A, B;
    for (double& x : A.reshaped()) x = u(rng);
    for (double& x : B.reshaped()) x = u(rng);
    const Vec3 c(u(rng), u(rng), u(rng)), d(u(rng), u(rng), u(rng));
    const auto ufield = [&](const Vec3& X) -> Vec3 { return A * X + c; };
    const auto vfield = [&](const Vec3& X) -> Vec3 { return B * X + d; };
    Eigen::VectorXd U(3 * f.mesh.node_count()), W(3 * f.mesh.node_count());
    for (std::size_t i = 0; i < f.mesh.node_count(); ++i) {
      U.segment<3>(3 * i) = ufield(f.mesh.positions[i]);
      W.segment<3>(3 * i) = vfield(f.mesh.positions[i]);
    }
    double integral = 0.0;
    for (std::size_t t = 0; t < f.mesh.tet_count(); ++t) {
      const Tet& tet = f.mesh.tets[t];
      const Vec3* X[4] = {&f.mesh.positions[tet[0]], &f.mesh.positions[tet[1]], &f.mesh.positions[tet[2]],
                          &f.mesh.positions[tet[3]]};
      const double V = signed_volume(*X[0], *X[1], *X[2], *X[3]);
      for (int q = 0; q < 4; ++q) {
        Vec3 p = Vec3::Zero();
        for (int k = 0; k < 4; ++k) p += (k == q ? a : b) * *X[k];
        integral += f.density[t] * V / 4 * ufield(p).dot(vfield(p));
      }
    }
    EXPECT_NEAR(U.dot(*M * W), integral, 1e-12 * std::abs(integral) + 1e-14);
  }
  // A unit field along one axis integrates to the total mass.
  Eigen::VectorXd ex = Eigen::VectorXd::Zero(3 * f.mesh.node_count());
  for (std::size_t i = 0; i < f.mesh.node_count(); ++i) ex[3 * i] = 1.0;
  EXPECT_NEAR(ex.dot(*M * ex), f.total_mass, 1e-12 * f.total_mass);
  EXPECT_NEAR(Eigen::MatrixXd(*M).sum(), 3 * f.total_mass, 1e-11 * f.total_mass);
  // Symmetric positive definite.
  const Eigen::MatrixXd dense(*M);
  EXPECT_LT((dense - dense.transpose()).norm(), 1e-15 * dense.norm());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(dense);
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
}

TEST(Mass, LumpedMassSumsToTheTotalAndMatchesRowSums) {
  const Fixture f = jittered_box(5);
  auto m = assemble_lumped_mass(f.mesh, f.density);
  auto M = assemble_consistent_mass(f.mesh, f.density);
  ASSERT_TRUE(m.ok() && M.ok());
  ASSERT_EQ(m->size(), f.mesh.node_count());
  EXPECT_NEAR(std::accumulate(m->begin(), m->end(), 0.0), f.total_mass, 1e-12 * f.total_mass);
  const Eigen::VectorXd rows = *M * Eigen::VectorXd::Ones(3 * f.mesh.node_count());
  for (std::size_t i = 0; i < f.mesh.node_count(); ++i) {
    EXPECT_GT((*m)[i], 0.0);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(rows[3 * i + c], (*m)[i], 1e-12 * (*m)[i]);
  }
}

TEST(Mass, BadInputIsOneLineNamingTheProblem) {
  Fixture f = jittered_box(6);
  std::vector<double> few(f.mesh.tet_count() - 1, 1000.0);
  auto a = assemble_lumped_mass(f.mesh, few);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.message().find("densities for"), std::string::npos) << a.message();
  f.density[3] = -5.0;
  auto b = assemble_consistent_mass(f.mesh, f.density);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.message().find("tet 3"), std::string::npos) << b.message();
  f.density[3] = std::nan("");
  EXPECT_FALSE(assemble_lumped_mass(f.mesh, f.density).ok());
  f.density[3] = 1000.0;
  std::swap(f.mesh.tets[7][1], f.mesh.tets[7][2]);
  auto c = assemble_consistent_mass(f.mesh, f.density);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.message().find("tet 7"), std::string::npos) << c.message();
  EXPECT_EQ(a.message().find('\n'), std::string::npos);
  EXPECT_EQ(b.message().find('\n'), std::string::npos);
  EXPECT_EQ(c.message().find('\n'), std::string::npos);
}

TEST(RayleighDamping, ModalDampingIsAlphaPlusBetaOmegaSquared) {
  // For K φ = ω² M φ, φᵀ C φ / φᵀ M φ = α + β ω² (damping ratio α/(2ω) + βω/2), for the consistent
  // and the lumped mass.
  const Fixture f = jittered_box(7);
  const materials::Material mat = materials::material_from_young_poisson(1e6, 0.3, 1000.0).value();
  const SparseMatrix K = assemble_stiffness(f.mesh, mat);
  const double alpha = 2.0, beta = 1e-3;
  auto M = assemble_consistent_mass(f.mesh, f.density);
  auto m = assemble_lumped_mass(f.mesh, f.density);
  ASSERT_TRUE(M.ok() && m.ok());
  Eigen::VectorXd lumped(3 * m->size());
  for (std::size_t i = 0; i < m->size(); ++i) lumped.segment<3>(3 * i).setConstant((*m)[i]);
  struct Case {
    Eigen::MatrixXd mass;
    Result<SparseMatrix> damping;
  };
  Case cases[] = {{Eigen::MatrixXd(*M), rayleigh_damping(*M, K, alpha, beta)},
                  {Eigen::MatrixXd(lumped.asDiagonal()), rayleigh_damping(*m, K, alpha, beta)}};
  for (Case& c : cases) {
    ASSERT_TRUE(c.damping.ok()) << c.damping.message();
    const Eigen::MatrixXd C(*c.damping);
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> modes(Eigen::MatrixXd(K), c.mass);
    for (Eigen::Index i = 0; i < modes.eigenvalues().size(); ++i) {
      const Eigen::VectorXd phi = modes.eigenvectors().col(i);
      const double omega2 = std::max(modes.eigenvalues()[i], 0.0);
      const double ratio = phi.dot(C * phi) / phi.dot(c.mass * phi);
      EXPECT_NEAR(ratio, alpha + beta * omega2, 1e-8 * (alpha + beta * omega2));
    }
  }
}

TEST(RayleighDamping, RejectsMismatchedSizesAndBadCoefficients) {
  const Fixture f = jittered_box(8);
  const SparseMatrix K = assemble_stiffness(f.mesh, test::steel());
  auto m = assemble_lumped_mass(f.mesh, f.density);
  ASSERT_TRUE(m.ok());
  std::vector<double> fewer(m->begin(), m->end() - 1);
  EXPECT_FALSE(rayleigh_damping(fewer, K, 1.0, 0.0).ok());
  EXPECT_FALSE(rayleigh_damping(SparseMatrix(6, 6), K, 1.0, 0.0).ok());
  EXPECT_FALSE(rayleigh_damping(*m, K, -1.0, 0.0).ok());
  auto bad = rayleigh_damping(*m, K, 1.0, std::nan(""));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("beta"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace pliant::fem
