#include "pliant/meshing/ball.hpp"

#include "pliant/core/quality.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numbers>

namespace pliant::meshing {
namespace {

using ::testing::HasSubstr;

TEST(BallMesh, ValidClosedOutwardAndInscribed) {
  const BallDef def{.center = Vec3(0.3, -0.1, 2.0), .radius = 0.25, .resolution = 6};
  const auto mesh = ball_mesh(def);
  ASSERT_TRUE(mesh.ok()) << mesh.message();
  EXPECT_EQ(mesh->node_count(), static_cast<std::size_t>(7 * 7 * 7));
  EXPECT_EQ(mesh->tet_count(), static_cast<std::size_t>(6 * 6 * 6 * 6));
  const auto vol = test::tet_volumes(*mesh);
  EXPECT_GT(vol.min, 0.0);

  const BoundarySurface boundary = extract_boundary(*mesh);
  // The cube's six faces of n² quads each, two triangles per quad: the split conforms across octants.
  EXPECT_EQ(boundary.mesh.triangle_count(), static_cast<std::size_t>(12 * 6 * 6));
  EXPECT_TRUE(test::closed_and_consistent(boundary.mesh.triangles));
  // The flux volume is taken about the origin, away from the centre: only a closed surface gives the
  // same value as the tets.
  EXPECT_NEAR(test::flux_volume(boundary.mesh), vol.total, 1e-12 * vol.total);
  for (const Vec3& p : boundary.mesh.positions) EXPECT_NEAR((p - def.center).norm(), def.radius, 1e-14);
  EXPECT_LT(vol.total, 4.0 / 3.0 * std::numbers::pi * std::pow(def.radius, 3));
}

TEST(BallMesh, VolumeConvergesToTheSphereFromBelow) {
  const double exact = 4.0 / 3.0 * std::numbers::pi;
  double previous = 0;
  for (Index n : {2, 4, 8, 16, 32}) {
    const auto mesh = ball_mesh({.radius = 1.0, .resolution = n});
    ASSERT_TRUE(mesh.ok());
    const auto vol = test::tet_volumes(*mesh);
    EXPECT_GT(vol.min, 0.0) << "resolution " << n;
    EXPECT_GT(vol.total, previous);
    EXPECT_LT(vol.total, exact);
    previous = vol.total;
  }
  // An inscribed polyhedron with chords h ≈ π/16 misses about h²/8 of the radius at the rim.
  EXPECT_GT(previous / exact, 0.998);
}

TEST(BallMesh, EveryTetKeepsAnInteriorNode) {
  // The per-octant mirrored split never makes a tet of four sphere nodes (which would be a sliver).
  const auto mesh = ball_mesh({.radius = 1.0, .resolution = 8});
  ASSERT_TRUE(mesh.ok());
  for (const Tet& t : mesh->tets) {
    int on_sphere = 0;
    for (Index v : t) on_sphere += std::abs(mesh->positions[v].norm() - 1.0) < 1e-12;
    EXPECT_LT(on_sphere, 4);
  }
}

TEST(BallMesh, NoSliversAtAnyResolution) {
  // Measured smallest dihedral angles: 45° (n = 2), 38° (4), 34° (8), 31° (32), decreasing slowly
  // towards the limit of the continuous map; 25° flags any split or mapping regression.
  for (Index n : {2, 4, 8, 16, 24}) {
    const auto mesh = ball_mesh({.radius = 0.5, .resolution = n});
    ASSERT_TRUE(mesh.ok());
    const MeshQuality q = mesh_quality(*mesh);
    EXPECT_GT(q.min_dihedral_deg.min, 25.0) << "resolution " << n;
    EXPECT_LT(q.max_dihedral_deg.max, 125.0) << "resolution " << n;
    EXPECT_GT(q.radius_ratio.min, 0.5) << "resolution " << n;
  }
}

TEST(BallMesh, RejectsImpossibleParameters) {
  EXPECT_THAT(ball_mesh({.resolution = 5}).message(), HasSubstr("resolution must be even (got 5)"));
  EXPECT_THAT(ball_mesh({.resolution = 0}).message(), HasSubstr("resolution must be at least 2"));
  EXPECT_THAT(ball_mesh({.radius = -1}).message(), HasSubstr("radius must be a finite number > 0 (got -1)"));
  EXPECT_THAT(ball_mesh({.resolution = 100000}).message(), HasSubstr("more than the limit"));
}

}  // namespace
}  // namespace pliant::meshing
