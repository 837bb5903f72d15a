#include "pliant/meshing/uv_sphere.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace pliant::meshing {
namespace {

using ::testing::HasSubstr;

TEST(UvSphere, CountsClosedGenusZeroOnTheSphereOutward) {
  for (const auto& [rings, segments] : {std::pair<Index, Index>{2, 3}, {10, 20}, {16, 32}}) {
    const UvSphereDef def{.center = Vec3(1, -2, 0.5), .radius = 0.3, .rings = rings, .segments = segments};
    const auto mesh = uv_sphere(def);
    ASSERT_TRUE(mesh.ok()) << mesh.message();
    EXPECT_EQ(mesh->node_count(), static_cast<std::size_t>(2 + (rings - 1) * segments));
    EXPECT_EQ(mesh->triangle_count(), static_cast<std::size_t>(2 * segments * (rings - 1)));
    const auto edges = unique_edges(mesh->triangles);
    EXPECT_EQ(static_cast<long long>(mesh->node_count()) - static_cast<long long>(edges.size()) +
                  static_cast<long long>(mesh->triangle_count()),
              2);
    EXPECT_TRUE(test::closed_and_consistent(mesh->triangles));
    for (const Vec3& p : mesh->positions) EXPECT_NEAR((p - def.center).norm(), def.radius, 1e-15);
    for (const Tri& t : mesh->triangles) {
      const Vec3 c = (mesh->positions[t[0]] + mesh->positions[t[1]] + mesh->positions[t[2]]) / 3.0;
      const Vec3 n = area_vector(mesh->positions[t[0]], mesh->positions[t[1]], mesh->positions[t[2]]);
      EXPECT_GT(n.dot(c - def.center), 0.0);
    }
  }
  // Fine enough, the enclosed volume approaches the ball's from below.
  const auto fine = uv_sphere({.radius = 0.5, .rings = 64, .segments = 128});
  ASSERT_TRUE(fine.ok());
  const double ball = 4.0 / 3.0 * std::numbers::pi * std::pow(0.5, 3);
  const double v = test::flux_volume(*fine);
  EXPECT_LT(v, ball);
  EXPECT_GT(v, 0.99 * ball);
}

TEST(UvSphere, RejectsBadParameters) {
  EXPECT_THAT(uv_sphere({.radius = 0}).message(), HasSubstr("radius"));
  EXPECT_THAT(uv_sphere({.rings = 1}).message(), HasSubstr("rings"));
  EXPECT_THAT(uv_sphere({.segments = 2}).message(), HasSubstr("segments"));
  EXPECT_THAT(uv_sphere({.center = Vec3(NAN, 0, 0)}).message(), HasSubstr("center"));
}

}  // namespace
}  // namespace pliant::meshing
