#include "pliant/meshing/surface_repair.hpp"

#include "pliant/core/self_intersection.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/surface_check.hpp"

#include "meshing/mesh_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pliant::meshing {
namespace {

TriMesh sphere(double radius = 1.0, int subdivisions = 3) {
  return icosphere({.radius = radius, .subdivisions = subdivisions}).value();
}

// The repaired surface is what a mesher accepts: closed, consistently oriented, one piece, no
// crossings (check_closed_surface), and the independent edge count agrees.
void expect_meshable(const TriMesh& s) {
  const auto info = check_closed_surface(s);
  EXPECT_TRUE(info.ok()) << info.message();
  EXPECT_TRUE(test::closed_and_consistent(s.triangles));
  EXPECT_TRUE(find_self_intersections(s).none());
}

TEST(SurfaceRepair, LeavesAGoodSurfaceAlone) {
  const TriMesh s = sphere();
  RepairReport report;
  const TriMesh out = repair_surface(s, {}, &report).value();
  EXPECT_EQ(out.triangles, s.triangles);
  EXPECT_EQ(out.positions.size(), s.positions.size());
  EXPECT_TRUE(report.notices().empty());
}

TEST(SurfaceRepair, FillsAPunchedHoleAndKeepsTheVolume) {
  const TriMesh s = sphere();
  const double volume = test::flux_volume(s);
  // Punch out every triangle around node 0: a hole bounded by its 5 neighbours (an icosahedron corner).
  TriMesh punched = s;
  std::erase_if(punched.triangles, [](const Tri& t) { return std::find(t.begin(), t.end(), 0) != t.end(); });
  ASSERT_EQ(punched.triangles.size(), s.triangles.size() - 5);
  ASSERT_FALSE(check_closed_surface(punched).ok());
  RepairReport report;
  const TriMesh out = repair_surface(punched, {}, &report).value();
  expect_meshable(out);
  EXPECT_EQ(report.holes_filled, 1);
  EXPECT_EQ(report.hole_triangles, 5);  // a fan of 5 around the loop's centroid
  // The fan is flatter than the cap it replaces: the volume loses at most that cap, a few 1e-4 here.
  EXPECT_NEAR(test::flux_volume(out), volume, 2e-3 * volume);
  EXPECT_LT(test::flux_volume(out), volume);

  // A limit below the loop's length leaves the hole for the check to report.
  RepairReport limited;
  const TriMesh open = repair_surface(punched, {.max_hole_edges = 4}, &limited).value();
  EXPECT_EQ(limited.holes_filled, 0);
  EXPECT_FALSE(check_closed_surface(open).ok());
}

TEST(SurfaceRepair, CountsDuplicateTrianglesExactly) {
  TriMesh s = sphere();
  const std::size_t count = s.triangles.size();
  // 7 duplicates, as written (rotated corners, reversed winding, repeated twice).
  for (int i = 0; i < 3; ++i) s.triangles.push_back(s.triangles[static_cast<std::size_t>(10 * i)]);
  const Tri t = s.triangles[40];
  s.triangles.push_back({t[1], t[2], t[0]});
  s.triangles.push_back({t[0], t[2], t[1]});
  s.triangles.push_back(s.triangles[50]);
  s.triangles.push_back(s.triangles[50]);
  RepairReport report;
  const TriMesh out = repair_surface(s, {}, &report).value();
  EXPECT_EQ(report.duplicate_triangles, 7);
  EXPECT_EQ(out.triangles.size(), count);
  expect_meshable(out);
  EXPECT_NEAR(test::flux_volume(out), test::flux_volume(sphere()), 1e-12);
}

TEST(SurfaceRepair, RemovesDegenerateTrianglesKeepingTheSurfaceClosed) {
  TriMesh s = sphere(1.0, 2);
  const double volume = test::flux_volume(s);
  // A flat cap: node m at the middle of edge a-b of triangle (a, b, x), that triangle split at m, and
  // the zero-area triangle (a, b, m) closing the surface against the neighbour across a-b.
  const Tri abx = s.triangles[0];
  const Index a = abx[0], b = abx[1], x = abx[2];
  const auto m = static_cast<Index>(s.positions.size());
  s.positions.push_back(
      0.5 * (s.positions[static_cast<std::size_t>(a)] + s.positions[static_cast<std::size_t>(b)]));
  s.triangles[0] = {a, m, x};
  s.triangles.push_back({m, b, x});
  s.triangles.push_back({a, b, m});
  // Two with a repeated node.
  s.triangles.push_back({a, a, x});
  s.triangles.push_back({b, x, x});
  ASSERT_TRUE(test::flux_volume(s) == test::flux_volume(s));
  RepairReport report;
  const TriMesh out = repair_surface(s, {}, &report).value();
  EXPECT_EQ(report.degenerate_triangles, 3);
  expect_meshable(out);
  // Removing a flat triangle and splitting its neighbour at the flat corner changes no volume.
  EXPECT_NEAR(test::flux_volume(out), volume, 1e-12);
}

TEST(SurfaceRepair, KeepsTheLargestPieceUnlessAskedForAll) {
  TriMesh s = sphere(1.0, 2);
  const TriMesh small = sphere(0.25, 1);
  const auto offset = static_cast<Index>(s.positions.size());
  for (const Vec3& p : small.positions) s.positions.push_back(p + Vec3(5, 0, 0));
  for (const Tri& t : small.triangles) s.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  RepairReport report;
  const TriMesh out = repair_surface(s, {}, &report).value();
  EXPECT_EQ(report.pieces, 2);
  EXPECT_EQ(report.pieces_dropped, 1);
  EXPECT_NEAR(report.dropped_volume, test::flux_volume(small), 1e-12);
  EXPECT_EQ(out.triangles.size(), sphere(1.0, 2).triangles.size());
  expect_meshable(out);
  const TriMesh both = repair_surface(s, {.keep_all_pieces = true}).value();
  EXPECT_EQ(both.triangles.size(), s.triangles.size());
}

TEST(SurfaceRepair, WeldsNodesWithinTheTolerance) {
  TriMesh s = sphere(1.0, 1);
  // Every triangle gets its own three nodes, each moved by 1e-12 m: an unwelded STL with round-off.
  TriMesh soup;
  for (const Tri& t : s.triangles) {
    Tri u;
    for (int k = 0; k < 3; ++k) {
      u[static_cast<std::size_t>(k)] = static_cast<Index>(soup.positions.size());
      soup.positions.push_back(s.positions[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])] +
                               Vec3::Constant(1e-12 * static_cast<double>(k)));
    }
    soup.triangles.push_back(u);
  }
  RepairReport report;
  const TriMesh out = repair_surface(soup, {}, &report).value();
  EXPECT_EQ(out.positions.size(), s.positions.size());
  EXPECT_EQ(report.welded_nodes, static_cast<Index>(soup.positions.size() - s.positions.size()));
  expect_meshable(out);
}

TEST(SurfaceRepair, CutsOutASelfIntersectionAndRefills) {
  TriMesh s = sphere(1.0, 3);
  const double volume = test::flux_volume(s);
  // Push one node inward until its fan pokes out through the far side of the sphere.
  const Vec3 p = s.positions[0];
  s.positions[0] = -1.2 * p;
  ASSERT_FALSE(find_self_intersections(s).none());
  RepairReport report;
  const TriMesh out = repair_surface(s, {}, &report).value();
  EXPECT_GT(report.crossings_before, 0);
  EXPECT_EQ(report.crossings_after, 0);
  EXPECT_GT(report.crossing_triangles_removed, 0);
  expect_meshable(out);
  // Two small patches (around the pushed node and where it came through) were replaced by fans.
  EXPECT_NEAR(test::flux_volume(out), volume, 0.03 * volume);
}

TEST(SurfaceRepair, RejectsWhatIsNotASurface) {
  TriMesh s = sphere(1.0, 1);
  s.triangles.push_back({0, 1, 999});
  const auto out = repair_surface(s);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.message().find("references node 999"), std::string::npos) << out.message();
  EXPECT_FALSE(repair_surface(sphere(), {.weld_tolerance = -1}).ok());
  EXPECT_FALSE(repair_surface(sphere(), {.max_hole_edges = -2}).ok());
}

}  // namespace
}  // namespace pliant::meshing

namespace pliant::meshing {
namespace {

TEST(SurfaceRepair, SeparatesSheetsTouchingAlongAnEdge) {
  // Two unit cubes meeting only along the edge x = y = 1: after welding, the 4 segments of that edge
  // are each shared by 4 triangles.
  const auto cube = [](Vec3 origin) {
    return extract_boundary(box_mesh({.origin = origin, .size = Vec3(1, 1, 1), .cells = {4, 4, 4}}).value())
        .mesh;
  };
  TriMesh s = cube(Vec3(0, 0, 0));
  const TriMesh other = cube(Vec3(1, 1, 0));
  const auto offset = static_cast<Index>(s.positions.size());
  s.positions.insert(s.positions.end(), other.positions.begin(), other.positions.end());
  for (const Tri& t : other.triangles) s.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  RepairReport report;
  const TriMesh out = repair_surface(s, {}, &report).value();
  EXPECT_EQ(report.welded_nodes, 5);
  EXPECT_EQ(report.non_manifold_edges, 4);
  EXPECT_GT(report.non_manifold_triangles_removed, 0);
  EXPECT_EQ(report.pieces_dropped, 1);
  expect_meshable(out);
  // One cube is kept, hollowed along the cut edge by the refill, which stays inside the column of cells
  // along that edge (the cut triangles and the loop's centroid all lie in it): 0.25 × 0.25 × 1 at most.
  const double volume = test::flux_volume(out);
  EXPECT_LT(volume, 1.0);
  EXPECT_GT(volume, 1.0 - 0.25 * 0.25);
}

}  // namespace
}  // namespace pliant::meshing
