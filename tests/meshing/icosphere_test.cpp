#include "pliant/meshing/icosphere.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numbers>

namespace pliant::meshing {
namespace {

using ::testing::HasSubstr;

TEST(Icosphere, CountsAndEulerCharacteristicTwo) {
  for (Index s = 0; s <= 4; ++s) {
    const auto mesh = icosphere({.radius = 2.0, .subdivisions = s});
    ASSERT_TRUE(mesh.ok()) << mesh.message();
    const long long p = 1LL << (2 * s);  // 4^s
    EXPECT_EQ(mesh->node_count(), static_cast<std::size_t>(10 * p + 2));
    EXPECT_EQ(mesh->triangle_count(), static_cast<std::size_t>(20 * p));
    const auto edges = unique_edges(mesh->triangles);
    EXPECT_EQ(edges.size(), static_cast<std::size_t>(30 * p));
    EXPECT_EQ(static_cast<long long>(mesh->node_count()) - static_cast<long long>(edges.size()) +
                  static_cast<long long>(mesh->triangle_count()),
              2);
    EXPECT_TRUE(test::closed_and_consistent(mesh->triangles));
  }
}

TEST(Icosphere, NodesOnTheSphereTrianglesOutwardAndWellShaped) {
  const IcosphereDef def{.center = Vec3(1, 2, 3), .radius = 0.5, .subdivisions = 4};
  const auto mesh = icosphere(def);
  ASSERT_TRUE(mesh.ok());
  for (const Vec3& p : mesh->positions) EXPECT_NEAR((p - def.center).norm(), def.radius, 1e-15);
  for (const Tri& t : mesh->triangles) {
    const Vec3 n = area_vector(mesh->positions[t[0]], mesh->positions[t[1]], mesh->positions[t[2]]);
    EXPECT_GT(n.dot(mesh->positions[t[0]] - def.center), 0.0);
  }
  // Midpoint subdivision of the icosahedron keeps every angle within a few degrees of 60°; 45° leaves
  // room while catching a wrong split (which would create 30° or 90° angles).
  const auto [lo, hi] = test::angle_range(*mesh);
  EXPECT_GT(lo, 45.0);
  EXPECT_LT(hi, 80.0);
  const double sphere = 4.0 / 3.0 * std::numbers::pi * std::pow(def.radius, 3);
  const double v = test::flux_volume(*mesh);  // about the origin, not the centre: closed surfaces only
  EXPECT_LT(v, sphere);
  EXPECT_GT(v, 0.99 * sphere);
}

TEST(Icosphere, RejectsBadParameters) {
  EXPECT_THAT(icosphere({.radius = 0}).message(), HasSubstr("radius"));
  EXPECT_THAT(icosphere({.subdivisions = 10}).message(), HasSubstr("subdivisions must be between 0 and 9"));
  EXPECT_THAT(icosphere({.subdivisions = -1}).message(), HasSubstr("subdivisions"));
}

}  // namespace
}  // namespace pliant::meshing
