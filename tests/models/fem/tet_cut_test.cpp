#include "pliant/models/fem/cut/tet_cut.hpp"

#include "pliant/core/topology.hpp"

#include "fem_test_util.hpp"

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace pliant::fem {
namespace {

double tet_volume(const std::vector<Vec3>& p, const Tet& t) {
  return (p[t[1]] - p[t[0]]).dot((p[t[2]] - p[t[0]]).cross(p[t[3]] - p[t[0]])) / 6.0;
}

double total_volume(const TetMesh& m) {
  double v = 0.0;
  for (const Tet& t : m.tets) v += tet_volume(m.positions, t);
  return v;
}

/// A blade whose sweep is the rectangle {x = x0} × [y0, y1] × [z0, z1]: the edge along z swept along y.
TetCutBlade plane_x(double x0, double y0, double y1, double z0 = -1.0, double z1 = 2.0) {
  return {Vec3(x0, y0, z0), Vec3(x0, y0, z1), Vec3(x0, y1, z0), Vec3(x0, y1, z1)};
}

struct Applied {
  TetMesh mesh;
  std::vector<Vec3> x, v;
  std::vector<Index> map;
};

Applied apply(const TetMesh& mesh, const TetCutResult& cut) {
  Applied a{mesh, mesh.positions, {}, {}};
  a.map = apply_tet_cut(cut, a.mesh, a.x, a.v);
  return a;
}

/// Components among nodes used by some tet.
Index used_components(const TetMesh& m) {
  const Components c = connected_components(static_cast<Index>(m.positions.size()), unique_edges(m.tets));
  std::set<Index> labels;
  for (const Tet& t : m.tets) labels.insert(c.label[t[0]]);
  return static_cast<Index>(labels.size());
}

/// Every boundary edge in exactly two boundary faces, and the divergence-theorem volume of the
/// boundary equals the sum of the tet volumes (so the faces are outward).
void expect_closed_outward(const TetMesh& m) {
  const std::vector<Tri> faces = boundary_faces(m.tets);
  std::map<std::pair<Index, Index>, int> edge_count;
  double div_volume = 0.0;
  for (const Tri& f : faces) {
    for (int i = 0; i < 3; ++i) {
      Index a = f[i], b = f[(i + 1) % 3];
      if (a > b) std::swap(a, b);
      ++edge_count[{a, b}];
    }
    div_volume += m.positions[f[0]].dot(m.positions[f[1]].cross(m.positions[f[2]])) / 6.0;
  }
  int bad = 0;
  for (const auto& [e, n] : edge_count) {
    bad += n != 2;
  }
  EXPECT_EQ(bad, 0) << "boundary edges not in exactly two faces";
  EXPECT_NEAR(div_volume, total_volume(m), 1e-12 * std::abs(total_volume(m)) + 1e-15);
}

/// Stated minimum for snap 0.1: no new tet below 2e-4 of the smallest original tet's rest volume.
void expect_new_tets_positive(const TetMesh& before, const TetCutResult& cut, const TetMesh& after) {
  double smallest = std::numeric_limits<double>::max();
  for (const Tet& t : before.tets) smallest = std::min(smallest, tet_volume(before.positions, t));
  for (const Tet& t : cut.new_tets) EXPECT_GT(tet_volume(after.positions, t), 2e-4 * smallest);
}

/// Every node, old or new, is used by some tet (a cut leaves no orphan copies).
void expect_every_node_used(const TetMesh& m) {
  std::vector<char> used(m.positions.size(), 0);
  for (const Tet& t : m.tets)
    for (Index v : t) used[v] = 1;
  EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0);
}

TetMesh jittered_cube(unsigned seed = 3) {
  const Vec3 size(1.0, 1.0, 1.0);
  TetMesh m = test::box(size, {4, 4, 4});
  test::jitter_interior(m, size, 0.25, 0.2, seed);
  return m;
}

TEST(TetCut, SplitConservesRestVolumeAndKeepsEveryTetPositive) {
  const TetMesh mesh = jittered_cube();
  // An oblique blade through the whole cube.
  const TetCutBlade blade{Vec3(-1, -1, 0.3), Vec3(2, -1, 0.55), Vec3(-1, 2, 0.45), Vec3(2, 2, 0.7)};
  auto cut = cut_tets(mesh, mesh.positions, {}, {}, blade);
  ASSERT_TRUE(cut.ok()) << cut.message();
  EXPECT_GT(cut->tets_split, 20);
  EXPECT_EQ(cut->nodes_added, static_cast<Index>(cut->new_nodes.size()));
  const Applied a = apply(mesh, *cut);
  EXPECT_NEAR(total_volume(a.mesh), total_volume(mesh), 1e-13);
  expect_new_tets_positive(mesh, *cut, a.mesh);
  // Parents' weights sum to one and new rest positions are their combination.
  for (const TetCutNode& n : cut->new_nodes) {
    double s = 0.0;
    for (double w : n.weight) s += w;
    EXPECT_NEAR(s, 1.0, 1e-14);
  }
  expect_closed_outward(a.mesh);
  EXPECT_EQ(used_components(a.mesh), 2);
}

void check_straight_cut(double x0, bool expect_snapped) {
  const TetMesh mesh = test::box(Vec3(2.0, 1.0, 1.0), {6, 3, 3});
  const TetCutDef def;
  auto cut = cut_tets(mesh, mesh.positions, {}, {}, plane_x(x0, -1.0, 2.0), def);
  ASSERT_TRUE(cut.ok()) << cut.message();
  const Applied a = apply(mesh, *cut);
  expect_new_tets_positive(mesh, *cut, a.mesh);
  const bool snapped = std::any_of(cut->new_nodes.begin(), cut->new_nodes.end(),
                                   [](const TetCutNode& n) { return n.parent[1] < 0; });
  EXPECT_EQ(snapped, expect_snapped);
  expect_every_node_used(a.mesh);
  EXPECT_EQ(used_components(a.mesh), 2);
  // Every tet lies on one side of the plane, up to the snap distance (snap · longest edge).
  const double tol = def.snap * std::sqrt(3.0) / 3.0 + 1e-12;
  for (const Tet& t : a.mesh.tets) {
    double lo = 1e9, hi = -1e9;
    for (Index v : t) {
      lo = std::min(lo, a.mesh.positions[v].x() - x0);
      hi = std::max(hi, a.mesh.positions[v].x() - x0);
    }
    EXPECT_TRUE(lo >= -tol || hi <= tol) << "tet spans the cut: " << lo << " .. " << hi;
  }
  // The tets connected to the x = 0 end all lie left of the cut (no tet bridges the sides).
  const Components c =
      connected_components(static_cast<Index>(a.mesh.positions.size()), unique_edges(a.mesh.tets));
  const Index left = c.label[0];
  for (const Tet& t : a.mesh.tets) {
    Vec3 g = Vec3::Zero();
    for (Index v : t) g += 0.25 * a.mesh.positions[v];
    EXPECT_EQ(c.label[t[0]] == left, g.x() < x0);
  }
  EXPECT_NEAR(total_volume(a.mesh), 2.0, 1e-13);
  expect_closed_outward(a.mesh);
  // The cut faces lie on the plane (up to the snap distance) and cover the cross-section twice.
  double area = 0.0;
  for (const Tri& f : cut->cut_faces) {
    for (Index v : f) EXPECT_NEAR(a.mesh.positions[v].x(), x0, tol);
    area += 0.5 * (a.mesh.positions[f[1]] - a.mesh.positions[f[0]])
                      .cross(a.mesh.positions[f[2]] - a.mesh.positions[f[0]])
                      .norm();
  }
  EXPECT_NEAR(area, 2.0, 0.05);
}

TEST(TetCut, StraightCutThroughSlabGivesTwoSeparateClosedPieces) {
  check_straight_cut(1.07, false);  // crossings away from the nodes at x = 1
  check_straight_cut(1.02, true);   // crossings within the snap fraction: nodes at x = 1 are duplicated
  check_straight_cut(1.0, true);    // exactly through a layer of nodes
}

TEST(TetCut, TetsOutsideTheMaskAndFrozenNodesNeverChange) {
  const TetMesh mesh = jittered_cube(5);
  std::vector<std::uint8_t> cuttable(mesh.tets.size()), frozen(mesh.positions.size(), 0);
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    Vec3 g = Vec3::Zero();
    for (Index v : mesh.tets[t]) g += 0.25 * mesh.positions[v];
    cuttable[t] = g.y() < 0.6;
  }
  // Freeze the nodes near the cut in one corner.
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    frozen[i] = std::abs(mesh.positions[i].x() - 0.5) < 0.1 && mesh.positions[i].z() < 0.5;
  auto cut = cut_tets(mesh, mesh.positions, cuttable, frozen, plane_x(0.52, -1.0, 2.0));
  ASSERT_TRUE(cut.ok()) << cut.message();
  EXPECT_GT(cut->tets_split, 0);
  for (Index t : cut->removed_tets) EXPECT_TRUE(cuttable[t]) << "tet " << t;
  for (const TetCutNode& n : cut->new_nodes) {
    const bool copy = n.parent[1] < 0;  // a duplicated node on the cut
    if (copy) {
      EXPECT_FALSE(frozen[n.parent[0]]) << "frozen node " << n.parent[0] << " duplicated";
    }
  }
  // Crossings within the snap fraction of a frozen node split the edge there instead of snapping.
  int near_frozen = 0;
  for (const TetCutNode& n : cut->new_nodes)
    for (int k = 0; k < 2; ++k) near_frozen += n.parent[1] >= 0 && frozen[n.parent[k]] && n.weight[k] > 0.9;
  EXPECT_GT(near_frozen, 0);
  const Applied a = apply(mesh, *cut);
  expect_new_tets_positive(mesh, *cut, a.mesh);
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    if (cuttable[t]) continue;
    ASSERT_GE(a.map[t], 0);
    EXPECT_EQ(a.mesh.tets[a.map[t]], mesh.tets[t]);
  }
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) EXPECT_EQ(a.mesh.positions[i], mesh.positions[i]);
  // Frozen nodes stay in use by every tet that used them, or by their pieces.
  std::set<Index> used;
  for (const Tet& t : a.mesh.tets) used.insert(t.begin(), t.end());
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (frozen[i]) {
      EXPECT_TRUE(used.count(static_cast<Index>(i)));
    }
  EXPECT_NEAR(total_volume(a.mesh), total_volume(mesh), 1e-13);
  // The masked part holds the sides together.
  EXPECT_EQ(used_components(a.mesh), 1);
}

TEST(TetCut, PartialCutEndingMidBodyLeavesTheMeshConnectedAndConforming) {
  const TetMesh mesh = jittered_cube(7);
  auto cut = cut_tets(mesh, mesh.positions, {}, {}, plane_x(0.47, -1.0, 0.55));
  ASSERT_TRUE(cut.ok()) << cut.message();
  EXPECT_GT(cut->tets_split, 0);
  EXPECT_GT(cut->tets_refined, 0);
  const Applied a = apply(mesh, *cut);
  expect_new_tets_positive(mesh, *cut, a.mesh);
  EXPECT_EQ(used_components(a.mesh), 1);
  EXPECT_NEAR(total_volume(a.mesh), total_volume(mesh), 1e-13);
  expect_closed_outward(a.mesh);
  // Interior faces are shared by exactly two tets (conforming).
  std::map<std::array<Index, 3>, int> face_count;
  for (const Tet& t : a.mesh.tets)
    for (const auto& f : {std::array{t[0], t[1], t[2]}, std::array{t[0], t[1], t[3]},
                          std::array{t[0], t[2], t[3]}, std::array{t[1], t[2], t[3]}}) {
      auto s = f;
      std::sort(s.begin(), s.end());
      ++face_count[s];
    }
  for (const auto& [f, n] : face_count) EXPECT_LE(n, 2);
}

TEST(TetCut, ABladeMovedThroughInTwoStepsSeparatesTheBody) {
  TetMesh mesh = jittered_cube(9);
  const double total = total_volume(mesh);
  std::vector<Vec3> x = mesh.positions, v;
  // The blade's edge along z sweeps y from -1 to 0.55 in one step, then on to 2 in the next; each
  // cut is given the sweep accumulated since the blade entered (as the header asks).
  for (const auto& [y0, y1] : {std::pair{-1.0, 0.55}, std::pair{-1.0, 2.0}}) {
    auto cut = cut_tets(mesh, x, {}, {}, plane_x(0.47, y0, y1));
    ASSERT_TRUE(cut.ok()) << cut.message();
    EXPECT_GT(cut->tets_split, 0);
    const TetMesh before = mesh;
    apply_tet_cut(*cut, mesh, x, v);
    expect_new_tets_positive(before, *cut, mesh);
    expect_every_node_used(mesh);
    EXPECT_NEAR(total_volume(mesh), total, 1e-13);
    expect_closed_outward(mesh);
  }
  EXPECT_EQ(used_components(mesh), 2);
}

/// Interior faces shared by at most two tets.
void expect_conforming(const TetMesh& m) {
  std::map<std::array<Index, 3>, int> face_count;
  for (const Tet& t : m.tets)
    for (const auto& f : {std::array{t[0], t[1], t[2]}, std::array{t[0], t[1], t[3]},
                          std::array{t[0], t[2], t[3]}, std::array{t[1], t[2], t[3]}}) {
      auto s = f;
      std::sort(s.begin(), s.end());
      ++face_count[s];
    }
  int bad = 0;
  for (const auto& [f, n] : face_count) bad += n > 2;
  EXPECT_EQ(bad, 0);
}

TEST(TetCut, RandomBladesKeepEveryInvariant) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u(-0.3, 1.3);
  int split_total = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const TetMesh mesh = jittered_cube(100 + trial);
    // A planar sweep: an edge a0-b0 translated by d (full or partial cuts, any angle); every other
    // trial twists the end b1 out of that plane (cut along the mean plane).
    const Vec3 a0(u(rng), u(rng), u(rng)), b0(u(rng), u(rng), u(rng)),
        d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5), twist(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    const TetCutBlade blade{a0, b0, a0 + d, b0 + d + (trial % 2 ? 0.3 : 0.0) * twist};
    auto cut = cut_tets(mesh, mesh.positions, {}, {}, blade);
    ASSERT_TRUE(cut.ok()) << cut.message();
    split_total += cut->tets_split;
    const Applied a = apply(mesh, *cut);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_NEAR(total_volume(a.mesh), total_volume(mesh), 1e-13);
    expect_new_tets_positive(mesh, *cut, a.mesh);
    expect_every_node_used(a.mesh);
    expect_conforming(a.mesh);
    expect_closed_outward(a.mesh);
  }
  EXPECT_GT(split_total, 100);
}

TEST(TetCut, RandomBladesMasksAndFrozenNodesKeepEveryInvariant) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> u(-0.3, 1.3), unit(0.0, 1.0);
  const double snaps[] = {0.0, 0.05, 0.1, 0.15, 0.2};
  for (int trial = 0; trial < 40; ++trial) {
    const TetMesh mesh = jittered_cube(300 + trial);
    const Vec3 a0(u(rng), u(rng), u(rng)), b0(u(rng), u(rng), u(rng)),
        d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    const TetCutBlade blade{a0, b0, a0 + d, b0 + d};
    // Cuttable: tets on one side of a random plane; frozen: a random tenth of the nodes.
    const Vec3 n = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5).normalized();
    const double offset = 0.4 * (unit(rng) - 0.5);
    std::vector<std::uint8_t> cuttable(mesh.tets.size()), frozen(mesh.positions.size());
    for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
      Vec3 g = Vec3::Zero();
      for (Index v : mesh.tets[t]) g += 0.25 * mesh.positions[v];
      cuttable[t] = (g - Vec3(0.5, 0.5, 0.5)).dot(n) > offset;
    }
    for (auto& f : frozen) f = unit(rng) < 0.1;
    const double snap = snaps[trial % 5];
    auto cut = cut_tets(mesh, mesh.positions, cuttable, frozen, blade, {TetCutMode::split, snap});
    ASSERT_TRUE(cut.ok()) << cut.message();
    const Applied a = apply(mesh, *cut);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_NEAR(total_volume(a.mesh), total_volume(mesh), 1e-13);
    for (const Tet& t : cut->new_tets) EXPECT_GT(tet_volume(a.mesh.positions, t), 0.0);
    for (Index t : cut->removed_tets) EXPECT_TRUE(cuttable[t]);
    for (const TetCutNode& node : cut->new_nodes)
      if (node.parent[1] < 0) {
        EXPECT_FALSE(frozen[node.parent[0]]);
      }
    expect_every_node_used(a.mesh);
    expect_conforming(a.mesh);
    expect_closed_outward(a.mesh);
  }
}

TEST(TetCut, BladeMissingTheBodyChangesNothing) {
  const TetMesh mesh = jittered_cube();
  for (const TetCutBlade& blade : {plane_x(3.0, -1.0, 2.0), plane_x(0.5, 1.5, 2.5)}) {
    for (TetCutMode mode : {TetCutMode::split, TetCutMode::remove}) {
      auto cut = cut_tets(mesh, mesh.positions, {}, {}, blade, {mode, 0.1});
      ASSERT_TRUE(cut.ok()) << cut.message();
      EXPECT_TRUE(cut->empty());
      EXPECT_TRUE(cut->new_tets.empty());
    }
  }
}

/// Independent reference: does segment p-q cross triangle (a, b, c)? (Möller & Trumbore 1997.)
bool segment_hits(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 d = q - p, e1 = b - a, e2 = c - a, h = d.cross(e2);
  const double det = e1.dot(h);
  if (std::abs(det) < 1e-300) return false;
  const Vec3 s = p - a;
  const double u = s.dot(h) / det;
  const Vec3 qv = s.cross(e1);
  const double v = d.dot(qv) / det, t = e2.dot(qv) / det;
  return u >= 0 && v >= 0 && u + v <= 1 && t >= 0 && t <= 1;
}

TEST(TetCut, RemoveModeRemovesExactlyTheCrossedTets) {
  const TetMesh mesh = jittered_cube(11);
  const TetCutBlade blade{Vec3(0.31, -0.5, 0.2), Vec3(0.42, -0.5, 0.83), Vec3(0.61, 0.62, 0.2),
                          Vec3(0.72, 0.62, 0.83)};
  auto cut = cut_tets(mesh, mesh.positions, {}, {}, blade, {TetCutMode::remove, 0.1});
  ASSERT_TRUE(cut.ok()) << cut.message();
  std::vector<Index> expected;
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    const Tet& tet = mesh.tets[t];
    bool hit = false;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const Vec3 &p = mesh.positions[tet[i]], &q = mesh.positions[tet[j]];
        hit = hit || segment_hits(p, q, blade.a0, blade.b0, blade.b1) ||
              segment_hits(p, q, blade.a0, blade.b1, blade.a1);
      }
    if (hit) expected.push_back(static_cast<Index>(t));
  }
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(cut->removed_tets, expected);
  EXPECT_EQ(cut->tets_removed, static_cast<Index>(expected.size()));
  EXPECT_TRUE(cut->new_tets.empty());
  EXPECT_TRUE(cut->new_nodes.empty());
}

TEST(TetCut, RotatedCurrentStateCutsTheSameRestTets) {
  const TetMesh mesh = jittered_cube(13);
  const TetCutBlade blade{Vec3(0.43, -0.5, -0.5), Vec3(0.57, -0.5, 1.5), Vec3(0.43, 0.7, -0.5),
                          Vec3(0.57, 0.7, 1.5)};
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(0.5 * M_PI, Vec3(0.3, 1.0, 0.2).normalized()).toRotationMatrix();
  const Vec3 shift(2.0, -1.0, 0.5);
  std::vector<Vec3> x;
  for (const Vec3& p : mesh.positions) x.push_back(R * p + shift);
  const TetCutBlade moved{R * blade.a0 + shift, R * blade.b0 + shift, R * blade.a1 + shift,
                          R * blade.b1 + shift};
  for (TetCutMode mode : {TetCutMode::split, TetCutMode::remove}) {
    auto ref = cut_tets(mesh, mesh.positions, {}, {}, blade, {mode, 0.1});
    auto rot = cut_tets(mesh, x, {}, {}, moved, {mode, 0.1});
    ASSERT_TRUE(ref.ok() && rot.ok());
    EXPECT_FALSE(ref->removed_tets.empty());
    EXPECT_EQ(ref->removed_tets, rot->removed_tets);
    // The same tets (vertex order within a tet may start elsewhere).
    const auto sorted = [](std::vector<Tet> tets) {
      for (Tet& t : tets) std::sort(t.begin(), t.end());
      return tets;
    };
    EXPECT_EQ(sorted(ref->new_tets), sorted(rot->new_tets));
    ASSERT_EQ(ref->new_nodes.size(), rot->new_nodes.size());
    for (std::size_t i = 0; i < ref->new_nodes.size(); ++i) {
      EXPECT_EQ(ref->new_nodes[i].parent, rot->new_nodes[i].parent);
      for (int k = 0; k < 4; ++k) EXPECT_NEAR(ref->new_nodes[i].weight[k], rot->new_nodes[i].weight[k], 1e-9);
    }
    // The state x of the new nodes follows the rotation.
    std::vector<Vec3> xr = x;
    interpolate_new_nodes(*rot, xr);
    std::vector<Vec3> x0 = mesh.positions;
    interpolate_new_nodes(*ref, x0);
    for (std::size_t i = mesh.positions.size(); i < xr.size(); ++i)
      EXPECT_LT((xr[i] - (R * x0[i] + shift)).norm(), 1e-9);
  }
}

TEST(TetCut, HostileInputGivesAClearError) {
  const TetMesh mesh = test::box(Vec3(1, 1, 1), {2, 2, 2});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  TetCutBlade bad = plane_x(0.5, -1, 2);
  bad.b1.y() = nan;
  auto r = cut_tets(mesh, mesh.positions, {}, {}, bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("non-finite"), std::string::npos) << r.message();

  const TetCutBlade flat{Vec3(0.5, 0, 0), Vec3(0.5, 0, 1), Vec3(0.5, 0, 0), Vec3(0.5, 0, 1)};
  r = cut_tets(mesh, mesh.positions, {}, {}, flat);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("zero area"), std::string::npos) << r.message();

  TetMesh broken = mesh;
  broken.tets[3][2] = 9001;
  r = cut_tets(broken, broken.positions, {}, {}, plane_x(0.5, -1, 2));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("9001"), std::string::npos) << r.message();

  broken = mesh;
  broken.tets[0][1] = -4;
  EXPECT_FALSE(cut_tets(broken, broken.positions, {}, {}, plane_x(0.5, -1, 2)).ok());

  const std::vector<std::uint8_t> short_mask(3, 1);
  r = cut_tets(mesh, mesh.positions, short_mask, {}, plane_x(0.5, -1, 2));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("cuttable"), std::string::npos) << r.message();
  EXPECT_FALSE(cut_tets(mesh, mesh.positions, {}, short_mask, plane_x(0.5, -1, 2)).ok());
  EXPECT_FALSE(cut_tets(mesh, std::span(mesh.positions).first(5), {}, {}, plane_x(0.5, -1, 2)).ok());
  EXPECT_FALSE(cut_tets(mesh, mesh.positions, {}, {}, plane_x(0.5, -1, 2), {TetCutMode::split, 0.3}).ok());
  EXPECT_FALSE(cut_tets(mesh, mesh.positions, {}, {}, plane_x(0.5, -1, 2), {TetCutMode::split, nan}).ok());
  std::vector<Vec3> xnan = mesh.positions;
  xnan[4].x() = nan;
  EXPECT_FALSE(cut_tets(mesh, xnan, {}, {}, plane_x(0.5, -1, 2)).ok());
}

}  // namespace
}  // namespace pliant::fem
