#include "pliant/meshing/box.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

namespace pliant::meshing {
namespace {

using ::testing::HasSubstr;

// A structured box whose split conforms has exactly two boundary triangles per boundary grid face; a
// non-conforming split would expose interior faces as extra "boundary" triangles.
void expect_valid_box(const BoxDef& def, int tets_per_cell) {
  const auto mesh = box_mesh(def);
  ASSERT_TRUE(mesh.ok()) << mesh.message();
  const long long nx = def.cells[0], ny = def.cells[1], nz = def.cells[2];
  EXPECT_EQ(mesh->node_count(), static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  EXPECT_EQ(mesh->tet_count(), static_cast<std::size_t>(nx * ny * nz * tets_per_cell));
  const double exact = def.size.prod();
  const auto vol = test::tet_volumes(*mesh);
  EXPECT_GT(vol.min, 0.0);
  EXPECT_NEAR(vol.total, exact, 1e-12 * exact);

  const BoundarySurface boundary = extract_boundary(*mesh);
  EXPECT_EQ(boundary.mesh.triangle_count(), static_cast<std::size_t>(4 * (nx * ny + ny * nz + nx * nz)));
  EXPECT_TRUE(test::closed_and_consistent(boundary.mesh.triangles));
  EXPECT_NEAR(test::flux_volume(boundary.mesh), exact, 1e-12 * exact);
}

TEST(BoxMesh, SixTetSplitFillsTheBoxAndConforms) {
  expect_valid_box(
      {.origin = Vec3(-1, 2, 0.5), .size = Vec3(2.0, 0.3, 0.7), .cells = {7, 3, 4}, .split = CellSplit::six},
      6);
  expect_valid_box({.size = Vec3(1, 1, 1), .cells = {1, 1, 1}, .split = CellSplit::six}, 6);
}

TEST(BoxMesh, DefaultIsTheFiveTetSplit) {
  // The default must be the split that does not lock for nearly incompressible materials.
  EXPECT_EQ(BoxDef{}.split, CellSplit::five);
  expect_valid_box({.size = Vec3(1.0, 0.5, 0.25), .cells = {3, 2, 2}}, 5);
}

TEST(BoxMesh, FiveTetSplitAlternatesParityAndConforms) {
  // Odd and even cell counts on every axis: conformity must hold whatever the parity at the far faces.
  expect_valid_box({.size = Vec3(1.0, 0.5, 0.25), .cells = {5, 4, 3}, .split = CellSplit::five}, 5);
  expect_valid_box({.size = Vec3(1.0, 1.0, 1.0), .cells = {2, 2, 2}, .split = CellSplit::five}, 5);
}

TEST(BoxMesh, FiveTetSplitHasTheCentralTetOfAThirdOfTheCell) {
  // In a unit cube the central tet has volume 1/3 and each corner tet 1/6.
  const auto mesh = box_mesh({.size = Vec3(1, 1, 1), .cells = {1, 1, 1}, .split = CellSplit::five});
  ASSERT_TRUE(mesh.ok());
  std::vector<double> volumes;
  for (const Tet& t : mesh->tets) {
    volumes.push_back(signed_volume(mesh->positions[t[0]], mesh->positions[t[1]], mesh->positions[t[2]],
                                    mesh->positions[t[3]]));
  }
  std::sort(volumes.begin(), volumes.end());
  EXPECT_NEAR(volumes.back(), 1.0 / 3.0, 1e-15);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(volumes[i], 1.0 / 6.0, 1e-15);
}

TEST(BoxMesh, CornersLandExactlyOnTheBox) {
  const BoxDef def{.origin = Vec3(0.1, -0.2, 0.3), .size = Vec3(0.7, 0.11, 0.13), .cells = {7, 3, 9}};
  const auto mesh = box_mesh(def);
  ASSERT_TRUE(mesh.ok());
  Vec3 lo = mesh->positions.front(), hi = mesh->positions.front();
  for (const Vec3& p : mesh->positions) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  EXPECT_EQ(lo, def.origin);
  EXPECT_EQ(hi, def.origin + def.size);
  EXPECT_EQ(mesh->positions.back(), def.origin + def.size);
}

TEST(BoxMesh, RejectsImpossibleParametersNamingTheField) {
  BoxDef def;
  def.cells = {4, 0, 4};
  EXPECT_THAT(box_mesh(def).message(), HasSubstr("cells.y must be at least 1 (got 0)"));
  def = {};
  def.size.z() = -0.5;
  EXPECT_THAT(box_mesh(def).message(), HasSubstr("size.z must be a finite number > 0 (got -0.5)"));
  def = {};
  def.size.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(box_mesh(def).message(), HasSubstr("size.x"));
  def = {};
  def.origin.y() = std::numeric_limits<double>::infinity();
  EXPECT_THAT(box_mesh(def).message(), HasSubstr("origin.y must be finite"));
}

TEST(BoxMesh, RefusesMeshesBeyondTheElementLimitBeforeAllocating) {
  const auto mesh = box_mesh({.cells = {100000, 100000, 100000}});
  ASSERT_FALSE(mesh.ok());
  EXPECT_THAT(mesh.message(), HasSubstr("more than the limit"));
}

}  // namespace
}  // namespace pliant::meshing
