// Signed distance, its grid and phyxel sampling against exact geometry.
#include "pliant/models/meshless/sampling.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/models/meshless/signed_distance.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace pliant::meshless {
namespace {

TEST(SignedDistance, BoxDistancesAndSignsAreExact) {
  const auto sd = SignedDistance::build(test::box_surface(Vec3(0, 0, 0), Vec3(1, 2, 3)));
  ASSERT_TRUE(sd.ok());
  EXPECT_NEAR((*sd)(Vec3(0.5, 1.0, 1.5)), -0.5, 1e-14);  // centre: nearest faces x = 0, 1
  EXPECT_NEAR((*sd)(Vec3(0.2, 1.0, 1.5)), -0.2, 1e-14);
  EXPECT_NEAR((*sd)(Vec3(-0.3, 1.0, 1.5)), 0.3, 1e-14);               // outside a face
  EXPECT_NEAR((*sd)(Vec3(2.0, 3.0, 1.5)), std::sqrt(2.0), 1e-14);     // outside an edge
  EXPECT_NEAR((*sd)(Vec3(-1.0, -1.0, -1.0)), std::sqrt(3.0), 1e-14);  // outside a corner
  // Just outside and inside an edge and a corner, where only the pseudonormal gets the sign right.
  EXPECT_GT((*sd)(Vec3(1.0 + 1e-6, 2.0 + 1e-6, 1.0)), 0.0);
  EXPECT_LT((*sd)(Vec3(1.0 - 1e-6, 2.0 - 1e-6, 1.0)), 0.0);
  EXPECT_GT((*sd)(Vec3(1e-3, -1e-3, 1e-3)), 0.0);
  EXPECT_LT((*sd)(Vec3(1e-3, 1e-3, 1e-3)), 0.0);
}

TEST(SignedDistance, RejectsOpenSurface) {
  TriMesh open = test::box_surface(Vec3::Zero(), Vec3::Ones());
  open.triangles.pop_back();
  const auto sd = SignedDistance::build(open);
  ASSERT_FALSE(sd.ok());
  EXPECT_NE(sd.message().find("closed surface"), std::string::npos);
}

TEST(SignedDistance, GridInterpolatesSphereDistance) {
  const auto sphere = meshing::icosphere({.radius = 1.0, .subdivisions = 4});
  ASSERT_TRUE(sphere.ok());
  const auto sd = SignedDistance::build(*sphere);
  ASSERT_TRUE(sd.ok());
  const auto grid = sample_sdf_grid(*sd, 0.1, 2);
  ASSERT_TRUE(grid.ok());
  // Inscribed polyhedron: its distance is within the chord sag (1 - cos(edge/2) ≈ 2e-3) of |p| - 1.
  for (const Vec3& p : {Vec3(0.31, -0.22, 0.13), Vec3(0.8, 0.1, -0.3), Vec3(1.1, 0.2, 0.05)}) {
    EXPECT_NEAR(grid->interpolate(p), p.norm() - 1.0, 0.02) << p.transpose();
    EXPECT_NEAR((*sd)(p), p.norm() - 1.0, 3e-3) << p.transpose();
  }
}

TEST(Sampling, RegularBoxHasExactCountAndMass) {
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.1, 0.05, 0.03), 0.01);
  ASSERT_EQ(body.size(), 10 * 5 * 3);
  // Mass = ρ · (sampled volume) = ρ V for a lattice-aligned box.
  EXPECT_NEAR(body.total_mass(), 1000.0 * 0.1 * 0.05 * 0.03, 1e-12);
  for (const Vec3& p : body.rest) {
    EXPECT_GT(p.minCoeff(), 0.0);
    EXPECT_LT(p.x(), 0.1);
  }
}

TEST(Sampling, SphereCountMatchesVolumeAndJitterStaysInside) {
  const auto sphere = meshing::icosphere({.radius = 0.05, .subdivisions = 3});
  ASSERT_TRUE(sphere.ok());
  const auto sd = SignedDistance::build(*sphere);
  ASSERT_TRUE(sd.ok());
  const double s = 0.005, volume = 4.0 / 3.0 * std::numbers::pi * std::pow(0.05, 3);
  for (double jitter : {0.0, 0.8}) {
    const auto points = sample_phyxels(*sd, {.spacing = s, .jitter = jitter, .seed = 3});
    ASSERT_TRUE(points.ok());
    EXPECT_NEAR(static_cast<double>(points->size()) * s * s * s, volume, 0.05 * volume) << jitter;
    for (const Vec3& p : *points) EXPECT_LE((*sd)(p), 0.0);
  }
  const auto a = sample_phyxels(*sd, {.spacing = s, .jitter = 0.8, .seed = 3});
  const auto b = sample_phyxels(*sd, {.spacing = s, .jitter = 0.8, .seed = 4});
  EXPECT_NE(a->front(), b->front());  // the seed matters
}

}  // namespace
}  // namespace pliant::meshless
