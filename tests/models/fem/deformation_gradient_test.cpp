#include "pliant/models/fem/elements/deformation_gradient.hpp"

#include "element_test_util.hpp"
#include "fem_test_util.hpp"

#include <gtest/gtest.h>

namespace pliant::fem {
namespace {

TEST(DeformationGradient, AffineMapGivesItsMatrix) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 50; ++trial) {
    const auto X = test::random_tet(rng);
    Mat3 A;
    for (double& a : A.reshaped()) a = u(rng);  // any matrix, inverted and singular ones included
    if (trial == 0) A.col(2).setZero();
    const Vec3 b(u(rng), u(rng), u(rng));
    const Mat3 F = deformation_gradient(test::dm_inverse_of(X), test::stack(X, A, b));
    EXPECT_LT((F - A).norm(), 1e-12 * (1.0 + A.norm())) << "trial " << trial;
  }
}

TEST(DeformationGradient, ShapeGradientsMatchTheLinearElement) {
  // linear_tet computes ∇N_k = -S_k/(3V) from face area vectors, an independent route.
  std::mt19937 rng(12);
  for (int trial = 0; trial < 50; ++trial) {
    const auto X = test::random_tet(rng);
    const TetGradients g = tet_gradients(X[0], X[1], X[2], X[3]);
    const auto G = shape_gradients(test::dm_inverse_of(X));
    for (int k = 0; k < 4; ++k) EXPECT_LT((G.col(k) - g.grad[k]).norm(), 1e-11 * g.grad[k].norm());
  }
}

TEST(DeformationGradient, JacobianMapsPositionsToVecF) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const auto X = test::random_tet(rng);
    const Mat3 Dinv = test::dm_inverse_of(X);
    Vec12 x;
    for (double& v : x) v = u(rng);
    const Mat9x12 J = deformation_gradient_jacobian(Dinv);
    const Mat3 F = deformation_gradient(Dinv, x);
    // F is linear in x, so vec F = (dF/dx) x exactly, and translations do not change F.
    EXPECT_LT((J * x - Eigen::Map<const Vec9>(F.data())).norm(), 1e-12 * (1.0 + F.norm()));
    for (int d = 0; d < 3; ++d) {
      Vec12 t = Vec12::Zero();
      for (int k = 0; k < 4; ++k) t[3 * k + d] = 1.0;
      EXPECT_LT((J * t).norm(), 1e-12 * J.norm());
    }
    // Each column of dF/dx is the change of F when one coordinate of one node moves by one.
    for (int c = 0; c < 12; ++c) {
      Vec12 xp = x;
      xp[c] += 1.0;
      const Mat3 dF = deformation_gradient(Dinv, xp) - F;
      EXPECT_LT((J.col(c) - Eigen::Map<const Vec9>(dF.data())).norm(), 1e-12 * J.norm());
    }
  }
}

TEST(DeformationGradient, RestShapeOfAMesh) {
  const Vec3 size(1.0, 0.5, 0.4);
  TetMesh mesh = test::box(size, {3, 2, 2});
  test::jitter_interior(mesh, size, 0.2, 0.2);
  auto rest = build_rest_shape(mesh);
  ASSERT_TRUE(rest.ok()) << rest.message();
  ASSERT_EQ(rest->volume.size(), mesh.tet_count());
  double total = 0.0;
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    const Tet& tet = mesh.tets[t];
    const TetGradients g = tet_gradients(mesh.positions[tet[0]], mesh.positions[tet[1]],
                                         mesh.positions[tet[2]], mesh.positions[tet[3]]);
    EXPECT_NEAR(rest->volume[t], g.volume, 1e-14);
    const auto G = shape_gradients(rest->dm_inverse[t]);
    for (int k = 0; k < 4; ++k) EXPECT_LT((G.col(k) - g.grad[k]).norm(), 1e-10 * g.grad[k].norm());
    total += rest->volume[t];
  }
  EXPECT_NEAR(total, size.prod(), 1e-12);  // the jitter moves interior nodes only

  std::swap(mesh.tets[4][0], mesh.tets[4][1]);
  auto bad = build_rest_shape(mesh);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("tet 4"), std::string::npos) << bad.message();
  EXPECT_EQ(bad.message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace pliant::fem
