#include "pliant/meshing/sliver_pass.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/core/quality.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/meshing/box.hpp"

#include "meshing/mesh_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

namespace pliant::meshing {
namespace {

// The mesh's smallest dihedral angle (unit: degree).
double min_dihedral(const TetMesh& mesh) { return mesh_quality(mesh).min_dihedral_deg.min; }

TEST(SliverPass, SmoothsAnInteriorNodeOutOfASliverWithoutTouchingTheBoundary) {
  TetMesh mesh = box_mesh({.size = Vec3(1, 1, 1), .cells = {4, 4, 4}}).value();
  std::set<Index> boundary;
  for (const Tri& f : boundary_faces(mesh.tets))
    for (Index v : f) boundary.insert(v);
  // Node (2, 2, 2), the centre: moved 95% of the way onto the nearest plane of a face opposite it in one
  // of its tets. Every other such plane is at least as far, so no tet inverts, but one becomes flat.
  const Index v = 2 + 5 * 2 + 25 * 2;
  ASSERT_EQ(boundary.count(v), 0U);
  double nearest = std::numeric_limits<double>::infinity();
  Vec3 normal = Vec3::Zero();
  for (const Tet& t : mesh.tets) {
    if (std::find(t.begin(), t.end(), v) == t.end()) continue;
    std::vector<Vec3> face;
    for (Index u : t)
      if (u != v) face.push_back(mesh.positions[static_cast<std::size_t>(u)]);
    Vec3 n = (face[1] - face[0]).cross(face[2] - face[0]).normalized();
    double d = n.dot(mesh.positions[static_cast<std::size_t>(v)] - face[0]);
    if (d < 0) n = -n, d = -d;
    if (d < nearest) nearest = d, normal = n;
  }
  mesh.positions[static_cast<std::size_t>(v)] -= 0.95 * nearest * normal;
  const TetMesh before = mesh;
  ASSERT_LT(min_dihedral(mesh), 10.0);
  ASSERT_GT(test::tet_volumes(mesh).min, 0.0);

  const SliverReport report = remove_slivers(mesh, {.min_dihedral_deg = 10.0});
  EXPECT_GE(report.slivers_before, 1);
  EXPECT_EQ(report.slivers_after, 0);
  EXPECT_GE(report.nodes_moved, 1);
  EXPECT_EQ(report.tets_peeled, 0);
  EXPECT_GE(min_dihedral(mesh), 10.0);
  EXPECT_NEAR(report.min_dihedral_after, min_dihedral(mesh), 1e-12);
  EXPECT_EQ(mesh.tets, before.tets);
  EXPECT_GT(test::tet_volumes(mesh).min, 0.0);
  // Interior moves cannot change the total volume, and boundary nodes stay exactly where they were.
  EXPECT_NEAR(test::tet_volumes(mesh).total, 1.0, 1e-12);
  for (Index b : boundary)
    EXPECT_EQ(mesh.positions[static_cast<std::size_t>(b)], before.positions[static_cast<std::size_t>(b)]);
}

TetMesh oriented(TetMesh mesh) {
  for (Tet& t : mesh.tets) {
    const auto& x = mesh.positions;
    if (signed_volume(x[static_cast<std::size_t>(t[0])], x[static_cast<std::size_t>(t[1])],
                      x[static_cast<std::size_t>(t[2])], x[static_cast<std::size_t>(t[3])]) < 0)
      std::swap(t[2], t[3]);
  }
  return mesh;
}

// A square p0..p3 with p2 lifted by `lift`: the flat tet on it has its two upper faces on the surface
// (all four nodes too) and lies on two tets with apex q, which share the edge p1-p3 with it.
TetMesh sliver_on_two(double lift) {
  TetMesh mesh;
  mesh.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, lift), Vec3(0, 1, 0), Vec3(0.5, 0.5, -1)};
  mesh.tets = {{0, 1, 2, 3}, {0, 1, 3, 4}, {1, 2, 3, 4}};
  return oriented(mesh);
}

// The same flat tet on three tets with apexes q (under p0) and q' (under p2): four tets around p1-p3,
// and neither lower neighbour forms a convex pair with it, so no flip applies.
TetMesh sliver_on_three(double lift) {
  TetMesh mesh;
  mesh.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0),        Vec3(1, 1, lift),
                    Vec3(0, 1, 0), Vec3(0.25, 0.25, -1), Vec3(0.75, 0.75, -1)};
  mesh.tets = {{0, 1, 2, 3}, {0, 1, 3, 4}, {1, 2, 3, 5}, {1, 3, 4, 5}};
  return oriented(mesh);
}

TEST(SliverPass, FlipsASliverAwayKeepingTheRegion) {
  TetMesh mesh = sliver_on_two(0.02);
  const double total = test::tet_volumes(mesh).total;
  ASSERT_LT(min_dihedral(mesh), 10.0);
  const SliverReport report = remove_slivers(mesh, {.min_dihedral_deg = 10.0});
  // The three tets around p1-p3 become the two around p0-p2's face with q: a 3-2 flip.
  EXPECT_EQ(report.flips, 1);
  EXPECT_EQ(report.tets_peeled, 0);
  ASSERT_EQ(mesh.tets.size(), 2U);
  EXPECT_NEAR(test::tet_volumes(mesh).total, total, 1e-15);
  EXPECT_GT(test::tet_volumes(mesh).min, 0.0);
  EXPECT_EQ(report.slivers_after, 0);
  EXPECT_GE(min_dihedral(mesh), 10.0);
}

TEST(SliverPass, SplitsAnInteriorEdgeOfASurfaceSliverKeepingTheRegion) {
  TetMesh mesh = sliver_on_three(0.02);
  const double total = test::tet_volumes(mesh).total;
  const std::vector<Vec3> before = mesh.positions;
  const SliverReport report = remove_slivers(mesh, {.min_dihedral_deg = 10.0});
  // p1-p3 is the sliver's only edge off the surface: split, its middle node moved out of the plane.
  EXPECT_EQ(report.flips, 0);
  EXPECT_EQ(report.splits, 1);
  EXPECT_EQ(report.tets_peeled, 0);
  EXPECT_EQ(mesh.tets.size(), 8U);  // each of the 4 tets around p1-p3 in two
  ASSERT_EQ(mesh.positions.size(), before.size() + 1);
  for (std::size_t v = 0; v < before.size(); ++v) EXPECT_EQ(mesh.positions[v], before[v]);
  EXPECT_NEAR(test::tet_volumes(mesh).total, total, 1e-15);
  EXPECT_GT(test::tet_volumes(mesh).min, 0.0);
  EXPECT_EQ(report.slivers_after, 0);
  EXPECT_GE(min_dihedral(mesh), 10.0);
}

TEST(SliverPass, PeelsASurfaceSliverAndReportsItsVolume) {
  TetMesh mesh = sliver_on_three(0.02);
  const double sliver = test::tet_volumes(TetMesh{mesh.positions, {mesh.tets[0]}}).total;
  const double total = test::tet_volumes(mesh).total;
  ASSERT_LT(min_dihedral(mesh), 10.0);
  const SliverReport report = remove_slivers(mesh, {.min_dihedral_deg = 10.0, .flip_and_split = false});
  EXPECT_EQ(report.flips, 0);
  EXPECT_EQ(report.tets_peeled, 1);
  EXPECT_EQ(report.nodes_dropped, 0);
  EXPECT_NEAR(report.peeled_volume, sliver, 1e-15);
  ASSERT_EQ(mesh.tets.size(), 3U);
  EXPECT_NEAR(test::tet_volumes(mesh).total, total - sliver, 1e-15);
  EXPECT_EQ(report.slivers_after, 0);
  EXPECT_GE(min_dihedral(mesh), 10.0);
}

TEST(SliverPass, KeepsTheSurfaceWhenToldAndNamesTheWorstTet) {
  TetMesh mesh = sliver_on_three(0.02);
  const TetMesh before = mesh;
  const SliverReport report =
      remove_slivers(mesh, {.min_dihedral_deg = 10.0, .peel_boundary = false, .flip_and_split = false});
  EXPECT_EQ(report.tets_peeled, 0);
  EXPECT_EQ(report.nodes_moved, 0);  // no interior node to move
  EXPECT_EQ(mesh.tets, before.tets);
  EXPECT_EQ(report.slivers_after, 1);
  EXPECT_EQ(report.worst_tet, 0);
  EXPECT_EQ(report.worst_boundary_nodes, 4);
  EXPECT_NEAR(report.worst_center.x(), 0.5, 1e-12);
  EXPECT_NEAR(report.worst_center.y(), 0.5, 1e-12);
  EXPECT_NEAR(report.worst_center.z(), 0.005, 1e-12);
}

}  // namespace
}  // namespace pliant::meshing
