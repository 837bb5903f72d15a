// MLS rest constants: linear reproduction, densities, degenerate neighbourhoods.
#include "pliant/models/meshless/mls_body.hpp"
#include "shapes.hpp"

#include <memory>

#include <gtest/gtest.h>

namespace pliant::meshless {
namespace {

// An affine map x → A x + b applied to every phyxel.
std::vector<Vec3> affine(const MlsBody& body, const Mat3& A, const Vec3& b) {
  std::vector<Vec3> x;
  for (const Vec3& p : body.rest) x.push_back(A * p + b);
  return x;
}

void expect_reproduces(const MlsBody& body) {
  Mat3 A;
  A << 1.2, 0.3, -0.1, 0.05, 0.9, 0.2, -0.4, 0.1, 1.1;
  const auto x = affine(body, A, Vec3(0.3, -0.2, 0.7));
  for (Index i = 0; i < body.size(); ++i) {
    ASSERT_NE(body.fix[static_cast<std::size_t>(i)], NeighbourhoodFix::regularised);
    EXPECT_LT((deformation_gradient(body, x, i) - A).norm(), 1e-12) << "phyxel " << i;
  }
}

TEST(MlsBody, ReproducesAffineFieldsRegular) {
  expect_reproduces(test::box_body(Vec3::Zero(), Vec3(0.06, 0.05, 0.04), 0.01));
}

TEST(MlsBody, ReproducesAffineFieldsJittered) {
  expect_reproduces(test::box_body(Vec3::Zero(), Vec3(0.06, 0.05, 0.04), 0.01, 0.9));
}

TEST(MlsBody, ReproducesAffineFieldsOnPoissonDiskPoints) {
  const auto sd = SignedDistance::build(test::box_surface(Vec3::Zero(), Vec3(0.06, 0.05, 0.04)));
  ASSERT_TRUE(sd.ok());
  const auto points = sample_phyxels(*sd, {.spacing = 0.01, .seed = 2, .kind = SamplingKind::poisson});
  ASSERT_TRUE(points.ok()) << points.message();
  const auto body = build_mls_body(*points, {.spacing = 0.01, .materials = {test::jelly()}});
  ASSERT_TRUE(body.ok()) << body.message();
  expect_reproduces(*body);
}

TEST(MlsBody, InteriorDensityMatchesMaterial) {
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3::Constant(0.1), 0.01);
  for (Index i = 0; i < body.size(); ++i) {
    const auto iu = static_cast<std::size_t>(i);
    const Vec3& p = body.rest[iu];
    const double to_surface = std::min(p.minCoeff(), (Vec3::Constant(0.1) - p).minCoeff());
    if (to_surface > body.support[iu]) {
      // The kernel sum over a lattice of spacing s approximates ρ ∫w = ρ.
      EXPECT_NEAR(body.density[iu], 1000.0, 30.0);
      EXPECT_NEAR(body.volume[iu], 1e-6, 3e-8);
    } else if (to_surface < 0.01) {
      EXPECT_LT(body.density[iu], 900.0);  // the outer layer misses about half its neighbours
      EXPECT_GT(body.volume[iu], 1.1e-6);
    }
  }
}

TEST(MlsBody, CoplanarLayerIsEnlargedOntoTheNextLayer) {
  // A 4×4 layer at z = 0 and one at z = 2.5 s: at h = 2.2 s the lower layer sees only itself.
  const double s = 0.01;
  std::vector<Vec3> points;
  for (double z : {0.0, 2.5 * s}) {
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) points.emplace_back(i * s, j * s, z);
    }
  }
  const auto body = build_mls_body(points, {.spacing = s, .materials = {test::jelly()}});
  ASSERT_TRUE(body.ok());
  for (Index i = 0; i < body->size(); ++i) {
    EXPECT_EQ(body->fix[static_cast<std::size_t>(i)], NeighbourhoodFix::enlarged);
    EXPECT_LE(body->condition[static_cast<std::size_t>(i)], 1e4);
    EXPECT_GT(body->support[static_cast<std::size_t>(i)], 2.5 * s);
  }
}

TEST(MlsBody, SingleLayerIsRegularisedAndReported) {
  const double s = 0.01;
  std::vector<Vec3> points;
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 5; ++j) points.emplace_back(i * s, j * s, 0.0);
  }
  points.emplace_back(0.5, 0.5, 0.5);  // far away: no neighbour at all
  const auto body =
      build_mls_body(points, {.spacing = s, .materials = {test::jelly()}, .max_condition = 1e3});
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(body->count_fixes(NeighbourhoodFix::regularised), 25);
  EXPECT_EQ(body->count_fixes(NeighbourhoodFix::isolated), 1);
  for (Index i = 0; i < 25; ++i) {
    EXPECT_LE(body->condition[static_cast<std::size_t>(i)], 1e3 * (1 + 1e-9));
    EXPECT_TRUE(body->moment_inverse[static_cast<std::size_t>(i)].allFinite());
  }
  // In-plane gradients come out scaled by λ/(λ + δ): off by about 1/max_condition, not exact.
  Mat3 A = Mat3::Identity();
  A(0, 1) = 0.2;
  A(1, 0) = -0.1;
  std::vector<Vec3> x;
  for (const Vec3& p : body->rest) x.push_back(A * p);
  const double error = (deformation_gradient(*body, x, 12) - A).norm();
  EXPECT_GT(error, 0.0);
  EXPECT_LT(error, 2e-3 * (A - Mat3::Identity()).norm());
}

TEST(MlsBody, RejectsBadSettings) {
  const std::vector<Vec3> points{Vec3::Zero()};
  EXPECT_FALSE(build_mls_body(points, {.spacing = 0.0, .materials = {test::jelly()}}).ok());
  EXPECT_FALSE(build_mls_body(points, {.spacing = 0.01}).ok());
  EXPECT_FALSE(
      build_mls_body(points, {.spacing = 0.01, .materials = {test::jelly()}, .regions = {{Aabb{}, 3}}}).ok());
}

TEST(MlsBody, RegionsAssignMaterials) {
  MlsDef def;
  def.materials = {test::jelly(), materials::material_from_young_poisson(1e5, 0.3, 2000.0).value()};
  def.regions = {{Aabb{Vec3(-1, -1, -1), Vec3(0.05, 1, 1)}, 1}};
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.1, 0.02, 0.02), 0.01, 0.0, def);
  for (Index i = 0; i < body.size(); ++i) {
    const auto iu = static_cast<std::size_t>(i);
    const bool left = body.rest[iu].x() < 0.05;
    EXPECT_EQ(body.material[iu], left ? 1 : 0);
    EXPECT_NEAR(body.mass[iu], (left ? 2000.0 : 1000.0) * 1e-6, 1e-15);
  }
}

TEST(MlsBody, SurfaceRegionsAssignMaterialsInside) {
  // A box region given as a closed surface overrides a box region (later wins); phyxels at x < 0.05
  // and y < 0.01 are inside the surface, the rest of x < 0.05 keeps the box's material.
  MlsDef def;
  def.materials = {test::jelly(), materials::material_from_young_poisson(1e5, 0.3, 2000.0).value(),
                   materials::material_from_young_poisson(1e5, 0.3, 3000.0).value()};
  auto inside = SignedDistance::build(test::box_surface(Vec3(-1, -1, -1), Vec3(0.05, 0.01, 1)));
  ASSERT_TRUE(inside.ok());
  def.regions = {{Aabb{Vec3(-1, -1, -1), Vec3(0.05, 1, 1)}, 1},
                 {{}, 2, std::make_shared<const SignedDistance>(std::move(inside).value())}};
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.1, 0.02, 0.02), 0.01, 0.0, def);
  int in_surface = 0;
  for (Index i = 0; i < body.size(); ++i) {
    const auto iu = static_cast<std::size_t>(i);
    const bool left = body.rest[iu].x() < 0.05, low = body.rest[iu].y() < 0.01;
    const Index expected = left ? (low ? 2 : 1) : 0;
    in_surface += expected == 2;
    EXPECT_EQ(body.material[iu], expected) << body.rest[iu].transpose();
    EXPECT_NEAR(body.mass[iu], def.materials[static_cast<std::size_t>(expected)].density * 1e-6, 1e-15);
  }
  EXPECT_EQ(in_surface, 5 * 1 * 2);
}

}  // namespace
}  // namespace pliant::meshless
