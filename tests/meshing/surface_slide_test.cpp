// Sliding surface nodes in the sliver pass (SliverOptions::surface_slide_deg): a surface node of a
// sliver moves along its nearly flat surround, on the input surface, within the stated distance.
#include "pliant/core/geometry.hpp"
#include "pliant/core/quality.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/sliver_pass.hpp"

#include "meshing/mesh_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace pliant::meshing {
namespace {

// The mesh's smallest dihedral angle (unit: degree).
double min_dihedral(const TetMesh& mesh) { return mesh_quality(mesh).min_dihedral_deg.min; }

// Moves surface node v `fraction` of the way towards the middle of the opposite edge of one of its
// boundary triangles: that triangle flattens, and so does the tet on it.
void squash_towards_opposite_edge(TetMesh& mesh, Index v, double fraction) {
  for (const Tri& f : boundary_faces(mesh.tets)) {
    if (std::find(f.begin(), f.end(), v) == f.end()) continue;
    Vec3 mid = Vec3::Zero();
    for (Index u : f)
      if (u != v) mid += 0.5 * mesh.positions[static_cast<std::size_t>(u)];
    Vec3& p = mesh.positions[static_cast<std::size_t>(v)];
    p += fraction * (mid - p);
    return;
  }
}

double surface_area(const TetMesh& mesh) {
  double area = 0;
  for (const Tri& f : boundary_faces(mesh.tets))
    area += area_vector(mesh.positions[f[0]], mesh.positions[f[1]], mesh.positions[f[2]]).norm();
  return area;
}

// One side of the Hausdorff distance between two boundaries, brute force: the largest distance from
// points of a's boundary triangles (a barycentric grid of n per edge) to b's boundary triangles.
double one_sided_distance(const TetMesh& a, const TetMesh& b, int n) {
  const std::vector<Tri> fa = boundary_faces(a.tets), fb = boundary_faces(b.tets);
  double worst = 0;
  for (const Tri& f : fa) {
    for (int i = 0; i <= n; ++i) {
      for (int j = 0; i + j <= n; ++j) {
        const Vec3 p =
            (static_cast<double>(n - i - j) * a.positions[f[0]] + static_cast<double>(i) * a.positions[f[1]] +
             static_cast<double>(j) * a.positions[f[2]]) /
            n;
        double best = std::numeric_limits<double>::infinity();
        for (const Tri& g : fb) {
          double u = 0, w = 0;
          best = std::min(best, (closest_point_on_triangle(p, b.positions[g[0]], b.positions[g[1]],
                                                           b.positions[g[2]], u, w) -
                                 p)
                                    .norm());
        }
        worst = std::max(worst, best);
      }
    }
  }
  return worst;
}

double hausdorff(const TetMesh& a, const TetMesh& b, int n) {
  return std::max(one_sided_distance(a, b, n), one_sided_distance(b, a, n));
}

TEST(SurfaceSlide, SlidesAFlatFaceNodeOutOfASliverWithinTheFace) {
  TetMesh mesh = box_mesh({.size = Vec3(1, 1, 1), .cells = {4, 4, 4}}).value();
  const Index v = 1 + 5 * 2 + 25 * 4;  // grid node (1, 2, 4) on the top face z = 1, next to its edge x = 0
  ASSERT_EQ(mesh.positions[static_cast<std::size_t>(v)].z(), 1.0);
  squash_towards_opposite_edge(mesh, v, 0.95);
  ASSERT_GT(test::tet_volumes(mesh).min, 0.0);
  const double squashed = min_dihedral(mesh);
  ASSERT_LT(squashed, 5.0);
  const TetMesh input = mesh;

  // Without sliding (no peeling, flips or splits either, so only node moves inside act) the sliver stays.
  TetMesh fixed_surface = input;
  const SliverReport kept = remove_slivers(
      fixed_surface, {.min_dihedral_deg = 10.0, .peel_boundary = false, .flip_and_split = false});
  EXPECT_EQ(kept.surface_moves, 0);
  EXPECT_LT(kept.min_dihedral_after, 10.0);

  const SliverReport report = remove_slivers(
      mesh,
      {.min_dihedral_deg = 10.0, .peel_boundary = false, .flip_and_split = false, .surface_slide_deg = 5.0});
  EXPECT_GE(report.surface_moves, 1);
  EXPECT_GE(report.surface_nodes_moved, 1);
  EXPECT_EQ(report.slivers_after, 0);
  EXPECT_GE(min_dihedral(mesh), 10.0);
  EXPECT_NEAR(report.min_dihedral_after, min_dihedral(mesh), 1e-12);
  EXPECT_GT(test::tet_volumes(mesh).min, 0.0);
  // The box's faces are planes: a node slid within one stays in it, so the box keeps its shape and volume.
  EXPECT_NEAR(test::tet_volumes(mesh).total, 1.0, 1e-12);
  EXPECT_NEAR(report.volume_after, report.volume_before, 1e-12);
  EXPECT_LE(report.surface_deviation, 1e-12);
  EXPECT_LE(hausdorff(input, mesh, 4), 1e-12);
  // Every coordinate at 0 or 1 (a node on that face) stays there, and nodes on the box's edges and
  // corners, where the surface is not flat, do not move at all.
  ASSERT_EQ(mesh.positions.size(), input.positions.size());
  for (std::size_t u = 0; u < input.positions.size(); ++u) {
    int on_faces = 0;
    for (int k = 0; k < 3; ++k) {
      const double c = input.positions[u][k];
      if (c == 0.0 || c == 1.0) {
        ++on_faces;
        EXPECT_NEAR(mesh.positions[u][k], c, 1e-15) << "node " << u;
      }
    }
    if (on_faces >= 2) {
      EXPECT_EQ(mesh.positions[u], input.positions[u]) << "node " << u;
    }
  }
}

TEST(SurfaceSlide, StaysWithinTheStatedDistanceOfACurvedInput) {
  // The ball's boundary nodes lie on the sphere and its boundary triangles are within about 10° of one
  // plane around each node; one node squashed into a sliver along the surface, then put back on the
  // sphere.
  TetMesh mesh = ball_mesh({.radius = 1.0, .resolution = 8}).value();
  const std::vector<Tri> faces = boundary_faces(mesh.tets);
  const Index v = faces[faces.size() / 3][0];
  squash_towards_opposite_edge(mesh, v, 0.85);
  mesh.positions[static_cast<std::size_t>(v)].normalize();
  ASSERT_GT(test::tet_volumes(mesh).min, 0.0);
  const TetMesh input = mesh;
  const double squashed = min_dihedral(mesh);
  ASSERT_LT(squashed, 10.0);

  TetMesh fixed_surface = input;
  const SliverReport kept = remove_slivers(fixed_surface, {.min_dihedral_deg = 20.0, .peel_boundary = false});

  const SliverReport report = remove_slivers(mesh, {.min_dihedral_deg = 20.0,
                                                    .peel_boundary = false,
                                                    .surface_slide_deg = 20.0,
                                                    .surface_tolerance = 0.01});
  EXPECT_GE(report.surface_moves, 1);
  EXPECT_GT(report.min_dihedral_after, kept.min_dihedral_after + 1.0);
  EXPECT_GE(report.min_dihedral_after, squashed);
  EXPECT_GT(test::tet_volumes(mesh).min, 0.0);
  // The bound, 1% of the mean boundary edge (tight enough that it stops some slides here), against an
  // independent sampling twice as fine as the pass's own.
  const double distance = hausdorff(input, mesh, 8);
  EXPECT_GT(report.surface_tolerance, 0.0);
  EXPECT_LE(report.surface_deviation, report.surface_tolerance);
  EXPECT_LE(distance, report.surface_tolerance);
  // Slid nodes stay on the input surface itself (projected onto its triangles).
  const std::vector<Tri> input_faces = boundary_faces(input.tets);
  for (const Tri& f : boundary_faces(mesh.tets)) {
    for (Index u : f) {
      const Vec3& p = mesh.positions[static_cast<std::size_t>(u)];
      double nearest = std::numeric_limits<double>::infinity();
      for (const Tri& g : input_faces) {
        double a = 0, b = 0;
        nearest =
            std::min(nearest, (closest_point_on_triangle(p, input.positions[g[0]], input.positions[g[1]],
                                                         input.positions[g[2]], a, b) -
                               p)
                                  .norm());
      }
      EXPECT_LE(nearest, 1e-12) << "node " << u;
    }
  }
  // A boundary that moved by at most d changes the enclosed volume by at most d times its area.
  const double dv = std::abs(test::tet_volumes(mesh).total - test::tet_volumes(input).total);
  EXPECT_LE(dv, distance * surface_area(input));
  EXPECT_NEAR(report.volume_after - report.volume_before,
              test::tet_volumes(mesh).total - test::tet_volumes(input).total, 1e-12);
}

TEST(SurfaceSlide, KeepsNodesOnTheBoxEdgesWhereTheSurfaceIsNotFlat) {
  TetMesh mesh = box_mesh({.size = Vec3(1, 1, 1), .cells = {4, 4, 4}}).value();
  // Grid node (0, 2, 4), on the edge x = 0, z = 1, squashed along that edge towards (0, 3, 4): the
  // box keeps its shape, but the tets at the node flatten.
  const Index v = 0 + 5 * 2 + 25 * 4;
  mesh.positions[static_cast<std::size_t>(v)].y() += 0.95 * 0.25;
  ASSERT_GT(test::tet_volumes(mesh).min, 0.0);
  ASSERT_LT(min_dihedral(mesh), 10.0);
  const TetMesh input = mesh;
  const SliverReport report =
      remove_slivers(mesh, {.min_dihedral_deg = 10.0, .peel_boundary = false, .surface_slide_deg = 5.0});
  EXPECT_GT(test::tet_volumes(mesh).min, 0.0);
  EXPECT_GE(report.min_dihedral_after, min_dihedral(input));
  // Its triangles lie in two planes at 90°: it stays, as do all nodes on edges and corners, and the
  // box's shape and volume with them.
  for (std::size_t u = 0; u < input.positions.size(); ++u) {
    int on_faces = 0;
    for (int k = 0; k < 3; ++k) on_faces += input.positions[u][k] == 0.0 || input.positions[u][k] == 1.0;
    if (on_faces >= 2) {
      EXPECT_EQ(mesh.positions[u], input.positions[u]) << "node " << u;
    }
  }
  EXPECT_NEAR(test::tet_volumes(mesh).total, 1.0, 1e-12);
  EXPECT_LE(hausdorff(input, mesh, 4), 1e-12);
}

TEST(SurfaceSlide, ZeroSlideAngleMovesNoSurfaceNode) {
  TetMesh mesh = box_mesh({.size = Vec3(1, 1, 1), .cells = {4, 4, 4}}).value();
  squash_towards_opposite_edge(mesh, 2 + 5 * 2 + 25 * 4, 0.9);
  const TetMesh input = mesh;
  std::set<Index> boundary;
  for (const Tri& f : boundary_faces(mesh.tets))
    for (Index u : f) boundary.insert(u);
  const SliverReport report =
      remove_slivers(mesh, {.min_dihedral_deg = 10.0, .peel_boundary = false, .surface_slide_deg = 0.0});
  EXPECT_EQ(report.surface_moves, 0);
  EXPECT_EQ(report.surface_tolerance, 0.0);
  for (Index u : boundary)
    EXPECT_EQ(mesh.positions[static_cast<std::size_t>(u)], input.positions[static_cast<std::size_t>(u)]);
}

}  // namespace
}  // namespace pliant::meshing
