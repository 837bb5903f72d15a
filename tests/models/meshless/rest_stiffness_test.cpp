// The assembled rest tangent: its products equal MlsForceModel's matrix-free ones, it equals central
// finite differences of the forces at rest (Green strain and the volume term, whose tangent at rest
// is the linear one), it is symmetric, and its free-only form is the free rows and columns.
#include "shapes.hpp"
#include "vector_fields.hpp"

#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/meshless/mls_force_model.hpp"
#include "pliant/models/meshless/rest_factor_euler.hpp"
#include "pliant/models/meshless/rest_stiffness.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>

namespace pliant::meshless {
namespace {

MlsBody small_body(double jitter) {
  MlsDef def;
  def.volume_stiffness = 3e4;  // Pa
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.04, 0.03, 0.03), 0.01, jitter, def);
  for (Index i = 0; i < body.size(); ++i)
    if (body.rest[static_cast<std::size_t>(i)].x() < 0.01) body.set_fixed(i, true);
  return body;
}

TEST(RestStiffness, ProductsMatchTheMatrixFreeTangentAndFiniteDifferences) {
  for (double jitter : {0.0, 0.4}) {
    const MlsBody body = small_body(jitter);
    const Eigen::SparseMatrix<double> K = rest_stiffness(body);
    ASSERT_EQ(K.rows(), 3 * body.size());
    const MlsForceModel model(body);
    for (unsigned seed : {1u, 2u, 3u}) {
      const std::vector<Vec3> p = pliant::test::random_field(body.rest.size(), seed);
      std::vector<Vec3> kp(p.size(), Vec3::Zero());
      model.add_stiffness_product(body.rest, p, 1.0, kp);
      const Eigen::VectorXd assembled = K * pliant::test::flatten(p);
      EXPECT_LT((assembled - pliant::test::flatten(kp)).norm(), 1e-12 * assembled.norm()) << jitter;

      // -(f(X + εp) - f(X - εp)) / 2ε, Green strain with the volume term.
      const double eps = 1e-7;  // m
      std::vector<Vec3> plus = body.rest, minus = body.rest, fp(p.size()), fm(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) {
        plus[i] += eps * p[i];
        minus[i] -= eps * p[i];
      }
      model.elastic_forces(plus, fp);
      model.elastic_forces(minus, fm);
      const Eigen::VectorXd fd = -(pliant::test::flatten(fp) - pliant::test::flatten(fm)) / (2.0 * eps);
      EXPECT_LT((assembled - fd).norm(), 1e-6 * assembled.norm()) << jitter;
    }
    const Eigen::SparseMatrix<double> Kt = K.transpose();
    EXPECT_LT((K - Kt).norm(), 1e-14 * K.norm()) << jitter;
  }
}

TEST(RestStiffness, FreeOnlyIsTheFreeRowsAndColumns) {
  const MlsBody body = small_body(0.0);
  const Eigen::SparseMatrix<double> K = rest_stiffness(body), Kf = rest_stiffness(body, true);
  std::vector<Eigen::Index> free;
  for (Index i = 0; i < body.size(); ++i)
    if (body.inv_mass[static_cast<std::size_t>(i)] > 0.0)
      for (int k = 0; k < 3; ++k) free.push_back(3 * i + k);
  ASSERT_GT(free.size(), 0u);
  ASSERT_LT(free.size(), static_cast<std::size_t>(K.rows()));
  ASSERT_EQ(Kf.rows(), static_cast<Eigen::Index>(free.size()));
  const Eigen::MatrixXd dense = Eigen::MatrixXd(K), dense_free = Eigen::MatrixXd(Kf);
  double worst = 0.0;
  for (std::size_t c = 0; c < free.size(); ++c)
    for (std::size_t r = 0; r < free.size(); ++r)
      worst =
          std::max(worst, std::abs(dense_free(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) -
                                   dense(free[r], free[c])));
  EXPECT_EQ(worst, 0.0);
  // Positive definite on the free phyxels (the fixed ones remove the rigid motions).
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(dense_free);
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
}

// The factored step solves the same linear system as dynamics::Integrator's backward Euler with
// Jacobi-CG: run to a tight tolerance, the two agree to it, over steps that bend the body under
// gravity (Green strain, volume term, mass damping).
TEST(RestFactorEuler, SameStepAsJacobiConjugateGradients) {
  const MlsBody body = small_body(0.3);
  const MlsForceModel model(body, {.gravity = Vec3(0.0, 0.0, -9.81), .mass_damping = 2.0});
  const double h = 0.02;  // s: several times the stable explicit step
  EXPECT_GT(h, 3.0 * symplectic_euler_stable_step(body, 1.0));
  auto factored = RestFactorEuler::build(model, body, h);
  ASSERT_TRUE(factored.ok()) << factored.message();
  EXPECT_GT(factored->factor_nonzeros(), 0);
  dynamics::Integrator cg({.scheme = dynamics::Scheme::backward_euler,
                           .dt = h,
                           .cg_tolerance = 1e-13,
                           .cg_max_iterations = 5000});
  std::vector<Vec3> xa = body.rest, va(xa.size(), Vec3::Zero()), xb = xa, vb = va;
  double largest = 0.0;
  for (int s = 0; s < 20; ++s) {
    factored->step(model, xa, va);
    cg.step(model, xb, vb);
    ASSERT_LT(cg.last_cg_iterations(), 5000);
    for (std::size_t i = 0; i < xa.size(); ++i) {
      EXPECT_LT((va[i] - vb[i]).norm(), 1e-9 * (1e-3 + vb[i].norm())) << s << " " << i;
      EXPECT_LT((xa[i] - xb[i]).norm(), 1e-12 + 1e-9 * (xb[i] - body.rest[i]).norm()) << s << " " << i;
      largest = std::max(largest, (xb[i] - body.rest[i]).norm());
    }
    for (Index i = 0; i < body.size(); ++i)
      if (body.inv_mass[static_cast<std::size_t>(i)] == 0.0) {
        EXPECT_EQ(xa[static_cast<std::size_t>(i)], body.rest[static_cast<std::size_t>(i)]);
      }
  }
  EXPECT_GT(largest, 1e-5);  // m: the body did move
}

TEST(RestFactorEuler, RejectsABadStep) {
  const MlsBody body = small_body(0.0);
  const MlsForceModel model(body);
  EXPECT_FALSE(RestFactorEuler::build(model, body, 0.0).ok());
  EXPECT_FALSE(RestFactorEuler::build(model, body, std::nan("")).ok());
}

}  // namespace
}  // namespace pliant::meshless
