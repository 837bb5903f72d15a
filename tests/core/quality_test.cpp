#include "pliant/core/quality.hpp"

#include "pliant/core/topology.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

#include <numbers>

namespace pliant {
namespace {

const double kRegularDihedral = std::acos(1.0 / 3.0) * 180.0 / std::numbers::pi;

TEST(Quality, RegularTetIsOptimalAndInvariantToSimilarity) {
  const TetMesh m = test::regular_tet();
  const auto& x = m.positions;
  const TetQuality q = tet_quality(x[0], x[1], x[2], x[3]);
  EXPECT_NEAR(q.radius_ratio, 1.0, 1e-12);
  EXPECT_NEAR(q.aspect, 1.0, 1e-12);
  EXPECT_NEAR(q.min_dihedral_deg, kRegularDihedral, 1e-9);
  EXPECT_NEAR(q.max_dihedral_deg, kRegularDihedral, 1e-9);
  EXPECT_NEAR(q.volume, 1.0 / (6.0 * std::sqrt(2.0)), 1e-12);
  // Scaled, rotated and translated: same shape measures, volume scales by s³.
  const double s = 0.003;
  const Mat3 rot = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  const auto map = [&](const Vec3& p) -> Vec3 { return s * (rot * p) + Vec3(5, -2, 1); };
  const TetQuality r = tet_quality(map(x[0]), map(x[1]), map(x[2]), map(x[3]));
  EXPECT_NEAR(r.radius_ratio, 1.0, 1e-9);
  EXPECT_NEAR(r.min_dihedral_deg, kRegularDihedral, 1e-6);
  EXPECT_NEAR(r.volume, q.volume * s * s * s, 1e-18);
  // Inverted: negative radius ratio and volume, same angles.
  const TetQuality inv = tet_quality(x[0], x[1], x[3], x[2]);
  EXPECT_NEAR(inv.radius_ratio, -1.0, 1e-12);
  EXPECT_LT(inv.volume, 0);
  EXPECT_NEAR(inv.min_dihedral_deg, kRegularDihedral, 1e-9);
}

TEST(Quality, CornerTetAndSliver) {
  // The unit corner tet: circumradius √3/2, inradius 1/(3+√3), dihedral angles 90° (×3), arccos(1/√3) (×3).
  const Vec3 o(0, 0, 0), ex(1, 0, 0), ey(0, 1, 0), ez(0, 0, 1);
  const TetQuality q = tet_quality(o, ex, ey, ez);
  const double r_in = 1.0 / (3.0 + std::sqrt(3.0)), r_circ = std::sqrt(3.0) / 2.0;
  EXPECT_NEAR(q.radius_ratio, 3 * r_in / r_circ, 1e-12);
  EXPECT_NEAR(q.max_dihedral_deg, 90.0, 1e-9);
  EXPECT_NEAR(q.min_dihedral_deg, std::acos(1 / std::sqrt(3.0)) * 180 / std::numbers::pi, 1e-9);
  EXPECT_NEAR(q.aspect, std::sqrt(2.0) / (2 * std::sqrt(6.0) * r_in), 1e-12);
  // A sliver: four nearly coplanar points on a square, well-shaped edges but almost no volume.
  const double h = 1e-3;
  const TetQuality s = tet_quality(Vec3(0, 0, 0), Vec3(1, 1, 0), Vec3(1, 0, h), Vec3(0, 1, h));
  EXPECT_GT(std::abs(s.volume), 0);
  EXPECT_LT(std::abs(s.radius_ratio), 0.01);
  EXPECT_GT(s.max_dihedral_deg, 179.0);
  EXPECT_LT(s.min_dihedral_deg, 1.0);
  // Fully degenerate: zero ratio, infinite aspect, no NaN.
  const TetQuality d = tet_quality(o, ex, ey, Vec3(1, 1, 0));
  EXPECT_EQ(d.radius_ratio, 0.0);
  EXPECT_TRUE(std::isinf(d.aspect));
  EXPECT_FALSE(std::isnan(d.min_dihedral_deg));
}

TEST(Quality, MeshSummaryOfStructuredBox) {
  const double h = 0.1;
  const TetMesh m = test::structured_box(3, 2, 2, h);
  const MeshQuality q = mesh_quality(m);
  EXPECT_EQ(q.tet_count, 72);
  EXPECT_EQ(q.inverted_count, 0);
  EXPECT_NEAR(q.total_volume, 12 * h * h * h, 1e-15);
  EXPECT_NEAR(total_volume(m), q.total_volume, 1e-15);
  EXPECT_NEAR(q.volume.mean, h * h * h / 6, 1e-15);
  // All Kuhn tets are congruent: min = max for every measure.
  EXPECT_NEAR(q.radius_ratio.min, q.radius_ratio.max, 1e-12);
  EXPECT_NEAR(q.min_dihedral_deg.min, 45.0, 1e-9);
  EXPECT_NEAR(q.max_dihedral_deg.max, 90.0, 1e-9);
  Index histogram_total = 0;
  for (Index c : q.radius_ratio_histogram) histogram_total += c;
  EXPECT_EQ(histogram_total, q.tet_count);
  const int bin = static_cast<int>(q.radius_ratio.min * 10);
  EXPECT_EQ(q.radius_ratio_histogram[bin], 72);
  // Surface area and enclosed volume of the boundary.
  const BoundarySurface s = extract_boundary(m);
  EXPECT_NEAR(surface_area(s.mesh), 2 * (0.3 * 0.2 + 0.2 * 0.2 + 0.3 * 0.2), 1e-14);
  EXPECT_NEAR(enclosed_volume(s.mesh), 12 * h * h * h, 1e-15);
}

TEST(Quality, TetsNamingMissingNodesAreSkipped) {
  TetMesh m = test::structured_box(1, 1, 1);
  m.tets.push_back({0, 1, 2, 99});
  const MeshQuality q = mesh_quality(m);
  EXPECT_EQ(q.tet_count, 6);
  EXPECT_NEAR(q.total_volume, 1.0, 1e-14);
  EXPECT_NEAR(total_volume(m), 1.0, 1e-14);
}

TEST(Quality, WorstTetIsFound) {
  TetMesh m = test::structured_box(2, 2, 2);
  // Flatten one tet by moving the centre node towards a face: the tets around it degrade, and the
  // worst one is among the tets touching node 13.
  m.positions[13].z() = 0.05;
  const MeshQuality q = mesh_quality(m);
  ASSERT_GE(q.worst_tet, 0);
  const Tet& t = m.tets[q.worst_tet];
  EXPECT_NE(std::find(t.begin(), t.end(), 13), t.end());
  EXPECT_LT(q.radius_ratio.min, 0.3);
}

}  // namespace
}  // namespace pliant
