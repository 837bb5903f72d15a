#include "pliant/core/geometry.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pliant {
namespace {

TEST(Geometry, UnitTetVolumeAndOrientation) {
  const Vec3 o(0, 0, 0), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  EXPECT_DOUBLE_EQ(signed_volume(o, x, y, z), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(signed_volume(o, y, x, z), -1.0 / 6.0);
  EXPECT_EQ(area_vector(o, x, y), Vec3(0, 0, 0.5));
}

TEST(Geometry, FaceAreaVectorsSumToZeroPointOutwardAndReproduceLinearFields) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    std::array<Vec3, 4> x;
    for (auto& p : x) p = Vec3(u(rng), u(rng), u(rng));
    double v = signed_volume(x[0], x[1], x[2], x[3]);
    if (std::abs(v) < 1e-3) continue;
    if (v < 0) {
      std::swap(x[2], x[3]);
      v = -v;
    }
    const auto s = face_area_vectors(x[0], x[1], x[2], x[3]);
    EXPECT_LT((s[0] + s[1] + s[2] + s[3]).norm(), 1e-14);
    // Each S_k equals the directly computed area vector of its face (S_3 is formed as -ΣS_0..2, so
    // this checks the identity rather than assuming it).
    EXPECT_LT((s[0] - area_vector(x[1], x[2], x[3])).norm(), 1e-14);
    EXPECT_LT((s[1] - area_vector(x[0], x[3], x[2])).norm(), 1e-14);
    EXPECT_LT((s[2] - area_vector(x[0], x[1], x[3])).norm(), 1e-14);
    EXPECT_LT((s[3] - area_vector(x[0], x[2], x[1])).norm(), 1e-14);
    const Vec3 centroid = (x[0] + x[1] + x[2] + x[3]) / 4;
    for (int k = 0; k < 4; ++k) {
      // Outward: points from node k's opposite face away from node k, i.e. S_k·(x_k - face point) < 0.
      EXPECT_LT(s[k].dot(x[k] - x[(k + 1) % 4]), 0) << k;
      EXPECT_GT(s[k].dot(centroid - x[k]), 0) << k;
    }
    // ∇N_k = -S_k/(3V) reproduces any linear field f(x) = g·x + c exactly: Σ f(x_k) ∇N_k = g.
    const Vec3 g(u(rng), u(rng), u(rng));
    const double c = u(rng);
    Vec3 grad = Vec3::Zero();
    for (int k = 0; k < 4; ++k) grad += (g.dot(x[k]) + c) * (-s[k] / (3 * v));
    EXPECT_LT((grad - g).norm(), 1e-9 * (1 + g.norm()));
    // And N_k(x_j) = δ_kj with N_k(x) = 1 - S_k·(x - x_k)/(3V).
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 4; ++j) EXPECT_NEAR(1 - s[k].dot(x[j] - x[k]) / (3 * v), k == j ? 1.0 : 0.0, 1e-9);
  }
}

}  // namespace
}  // namespace pliant
