#include "pliant/meshing/tube.hpp"

#include "pliant/core/quality.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <numbers>

namespace pliant::meshing {
namespace {

using ::testing::HasSubstr;

TEST(TubeMesh, VolumeEqualsThePolygonalPrismExactly) {
  const TubeDef def{.inner_radius = 0.03,
                    .outer_radius = 0.05,
                    .length = 0.4,
                    .segments_around = 17,
                    .segments_along = 9,
                    .segments_through = 3};
  const auto mesh = tube_mesh(def);
  ASSERT_TRUE(mesh.ok()) << mesh.message();
  EXPECT_EQ(mesh->node_count(), static_cast<std::size_t>(17 * 10 * 4));
  EXPECT_EQ(mesh->tet_count(), static_cast<std::size_t>(17 * 9 * 3 * 6));
  // Independent formula: n isosceles triangles of apex angle 2π/n per polygon, times the length.
  const double n = 17, apex = 2 * std::numbers::pi / n;
  const double exact = 0.4 * n * 0.5 * std::sin(apex) * (0.05 * 0.05 - 0.03 * 0.03);
  EXPECT_NEAR(tube_polygonal_volume(def), exact, 1e-15);
  const auto vol = test::tet_volumes(*mesh);
  EXPECT_GT(vol.min, 0.0);
  EXPECT_NEAR(vol.total, exact, 1e-12 * exact);
}

TEST(TubeMesh, BoundaryIsClosedOutwardAndConformsAcrossTheSeam) {
  const TubeDef def{.segments_around = 12, .segments_along = 5, .segments_through = 2};
  const auto mesh = tube_mesh(def);
  ASSERT_TRUE(mesh.ok());
  const BoundarySurface boundary = extract_boundary(*mesh);
  // Inner and outer walls (2 · na · nz quads) and two end rings (2 · na · nr quads), two triangles each:
  // any non-conforming face, at the seam or elsewhere, would add triangles here.
  EXPECT_EQ(boundary.mesh.triangle_count(), static_cast<std::size_t>(4 * 12 * (5 + 2)));
  EXPECT_TRUE(test::closed_and_consistent(boundary.mesh.triangles));
  const double exact = tube_polygonal_volume(def);
  EXPECT_NEAR(test::flux_volume(boundary.mesh), exact, 1e-12 * exact);
  // Genus 1: χ = V − E + F = 0 for the torus-like boundary.
  const auto edges = unique_edges(boundary.mesh.triangles);
  EXPECT_EQ(static_cast<long long>(boundary.mesh.node_count()) - static_cast<long long>(edges.size()) +
                static_cast<long long>(boundary.mesh.triangle_count()),
            0);
}

TEST(TubeMesh, NodesLieBetweenTheRadiiAndTheWallsAreExact) {
  const TubeDef def{.inner_radius = 0.2,
                    .outer_radius = 0.25,
                    .length = 2.0,
                    .segments_around = 8,
                    .segments_along = 4,
                    .segments_through = 3};
  const auto mesh = tube_mesh(def);
  ASSERT_TRUE(mesh.ok());
  int on_inner = 0, on_outer = 0;
  for (const Vec3& p : mesh->positions) {
    const double r = std::hypot(p.x(), p.y());
    EXPECT_GE(r, def.inner_radius - 1e-15);
    EXPECT_LE(r, def.outer_radius + 1e-15);
    EXPECT_GE(p.z(), 0.0);
    EXPECT_LE(p.z(), def.length);
    on_inner += std::abs(r - def.inner_radius) < 1e-15;
    on_outer += std::abs(r - def.outer_radius) < 1e-15;
  }
  EXPECT_EQ(on_inner, 8 * 5);
  EXPECT_EQ(on_outer, 8 * 5);
}

TEST(TubeMesh, VolumeConvergesToTheAnnulusTimesLength) {
  // The inscribed polygon loses a fraction 1 − sin(θ)/θ ≈ θ²/6 of the area, θ = 2π/n.
  const double analytic = std::numbers::pi * (0.1 * 0.1 - 0.09 * 0.09) * 1.0;
  double previous_error = 1.0;
  for (Index n : {8, 32, 128, 512}) {
    const auto mesh = tube_mesh({.inner_radius = 0.09,
                                 .outer_radius = 0.1,
                                 .length = 1.0,
                                 .segments_around = n,
                                 .segments_along = 2,
                                 .segments_through = 1});
    ASSERT_TRUE(mesh.ok());
    const double error = 1.0 - test::tet_volumes(*mesh).total / analytic;
    const double theta = 2 * std::numbers::pi / n;
    EXPECT_GT(error, 0.0);
    EXPECT_LT(error, theta * theta / 6.0 * 1.0001);
    EXPECT_LT(error, previous_error / 10.0);
    previous_error = error;
  }
  EXPECT_LT(previous_error, 3e-5);
}

TEST(TubeMesh, DefaultPipeHasNearCubicCells) {
  // The defaults aim at ~1 cm cubes split into Kuhn tets (radius ratio 0.72, dihedral 45°..90° for an
  // exact cube); the curvature of the wall moves them a little.
  const auto mesh = tube_mesh({});
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->node_count(), 7872u);
  const MeshQuality q = mesh_quality(*mesh);
  EXPECT_EQ(q.inverted_count, 0);
  EXPECT_GT(q.radius_ratio.min, 0.6);
  EXPECT_GT(q.min_dihedral_deg.min, 30.0);
  EXPECT_LT(q.max_dihedral_deg.max, 100.0);
}

TEST(TubeMesh, RejectsImpossibleParametersNamingTheField) {
  EXPECT_THAT(tube_mesh({.inner_radius = 0.2, .outer_radius = 0.1}).message(),
              HasSubstr("inner_radius must be less than outer_radius (got 0.2 ≥ 0.1)"));
  EXPECT_THAT(tube_mesh({.inner_radius = 0.1, .outer_radius = 0.1}).message(),
              HasSubstr("less than outer_radius"));
  EXPECT_THAT(tube_mesh({.inner_radius = 0.0}).message(),
              HasSubstr("inner_radius must be a finite number > 0"));
  EXPECT_THAT(tube_mesh({.length = std::numeric_limits<double>::quiet_NaN()}).message(), HasSubstr("length"));
  EXPECT_THAT(tube_mesh({.segments_around = 2}).message(), HasSubstr("segments_around must be at least 3"));
  EXPECT_THAT(tube_mesh({.segments_along = 0}).message(), HasSubstr("segments_along must be at least 1"));
  EXPECT_THAT(tube_mesh({.segments_through = -1}).message(), HasSubstr("segments_through"));
  EXPECT_THAT(tube_mesh({.segments_around = 1 << 20, .segments_along = 1 << 20}).message(),
              HasSubstr("more than the limit"));
}

}  // namespace
}  // namespace pliant::meshing
