// Floor grid and axes: the grid lies in its plane, under the bodies, on multiples of a 1-2-5 spacing,
// facing up; the axes point along X, Y and Z.
#include "pliant/render/guides.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::render {
namespace {

TEST(Guides, GridSpacingIsOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(grid_spacing(1.0), 0.1);
  EXPECT_DOUBLE_EQ(grid_spacing(0.3), 0.02);
  EXPECT_DOUBLE_EQ(grid_spacing(0.6), 0.05);
  EXPECT_DOUBLE_EQ(grid_spacing(0.099), 0.005);
  for (double extent : {0.013, 0.27, 3.3, 47.0}) {
    const double s = grid_spacing(extent);
    EXPECT_GE(extent / s, 10.0 - 1e-9) << extent;
    EXPECT_LT(extent / s, 25.0 + 1e-9) << extent;
  }
}

TEST(Guides, FloorGridLiesInItsPlaneUnderTheBodiesFacingUp) {
  const Aabb body{Vec3(-0.05, 0.02, 0.1), Vec3(0.15, 0.08, 0.2)};
  const TriMesh grid = floor_grid(body, -0.01, 0.001);
  ASSERT_FALSE(grid.triangles.empty());
  Aabb box;
  for (const Vec3& p : grid.positions) {
    EXPECT_DOUBLE_EQ(p.y(), -0.01);
    box.extend(p);
  }
  // Covers the body's footprint with room to spare.
  EXPECT_LT(box.min.x(), body.min.x() - 0.1);
  EXPECT_GT(box.max.x(), body.max.x() + 0.1);
  EXPECT_LT(box.min.z(), body.min.z() - 0.1);
  EXPECT_GT(box.max.z(), body.max.z() + 0.1);
  const double spacing = grid_spacing(2.0 * body.diagonal());
  for (const Tri& t : grid.triangles) {
    const Vec3 n =
        (grid.positions[t[1]] - grid.positions[t[0]]).cross(grid.positions[t[2]] - grid.positions[t[0]]);
    EXPECT_GT(n.y(), 0.0);
  }
  // Each strip's centre line sits on a multiple of the spacing.
  for (std::size_t q = 0; q + 3 < grid.positions.size(); q += 4) {
    const Vec3 mid = 0.5 * (grid.positions[q] + grid.positions[q + 1]);
    const double along = std::abs(grid.positions[q].x() - grid.positions[q + 1].x()) > 0 ? mid.x() : mid.z();
    EXPECT_NEAR(along / spacing, std::round(along / spacing), 1e-6);
  }
  EXPECT_TRUE(floor_grid(Aabb{}, 0.0, 0.001).triangles.empty());
}

TEST(Guides, AxesPointAlongXYZ) {
  const auto axes = axes_arrows(Vec3(1, 2, 3), 0.5);
  for (int a = 0; a < 3; ++a) {
    EXPECT_TRUE((axes[a].tip - axes[a].origin).isApprox(0.5 * Vec3::Unit(a)));
    EXPECT_EQ(axes[a].label, std::string(1, static_cast<char>('X' + a)));
  }
}

}  // namespace
}  // namespace pliant::render
