// Area-preserving tearing, deletion tearing and the consistency rules 1-5.
#include "pliant/models/springs/tearing.hpp"
#include "pliant/models/springs/consistency.hpp"

#include "pliant/meshing/hex_disc.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace pliant::springs {
namespace {

inline std::size_t u(Index i) { return static_cast<std::size_t>(i); }

SpringMesh hex(Index rings, double radius = 1.0) {
  auto tri = meshing::hex_disc({.radius = radius, .rings = rings});
  EXPECT_TRUE(tri.ok());
  auto m = build_spring_mesh(*tri, {.stiffness = 10.0, .node_mass = 1e-3, .max_stretch = 1.2});
  EXPECT_TRUE(m.ok()) << m.message();
  return std::move(m).value();
}

Index nearest(const SpringMesh& m, const Vec3& p) {
  Index best = 0;
  for (Index i = 1; i < m.node_count(); ++i)
    if ((m.rest_position[u(i)] - p).norm() < (m.rest_position[u(best)] - p).norm()) best = i;
  return best;
}

double total_mass(const SpringMesh& m) {
  double s = 0;
  for (double x : m.mass) s += x;
  return s;
}

TEST(Consistency, FreshDiscHoldsAllRules) {
  const SpringMesh m = hex(4);
  const auto st = check_consistency(m);
  EXPECT_TRUE(st.ok()) << st.message();
}

TEST(Consistency, NamesTheViolation) {
  // Rule 2: two triangles on the same three nodes (a folded pillow).
  TriMesh pillow;
  pillow.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  pillow.triangles = {Tri{0, 1, 2}, Tri{0, 2, 1}};
  auto pm = build_spring_mesh(pillow, {.node_mass = 1e-3});
  ASSERT_TRUE(pm.ok()) << pm.message();
  auto s0 = check_consistency(*pm);
  ASSERT_FALSE(s0.ok());
  EXPECT_NE(s0.message().find("rule 2: triangles 0 and 1"), std::string::npos) << s0.message();

  // Rule 5: a bow tie, two triangles joined only by node 0.
  TriMesh bow;
  bow.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-1, 0, 0), Vec3(0, -1, 0)};
  bow.triangles = {Tri{0, 1, 2}, Tri{0, 3, 4}};
  auto bm = build_spring_mesh(bow, {.node_mass = 1e-3});
  ASSERT_TRUE(bm.ok()) << bm.message();
  auto s2 = check_consistency(*bm);
  ASSERT_FALSE(s2.ok());
  EXPECT_NE(s2.message().find("rule 5: at node 0"), std::string::npos) << s2.message();
  EXPECT_TRUE(check_consistency(*bm, {.rule5 = false}).ok());

  // Rule 1 and rule 4: a handle node hanging on two springs without a triangle.
  SpringMesh h = hex(1);
  const Index extra = h.node_count();
  h.rest_position.push_back(Vec3(3, 0, 0));
  h.position.push_back(Vec3(3, 0, 0));
  h.velocity.push_back(Vec3::Zero());
  h.mass.push_back(1e-3);
  h.inv_mass.push_back(1e3);
  h.stiffness_factor.push_back(1);
  h.tear_factor.push_back(1);
  h.weight.push_back(1);
  h.origin.push_back(extra);
  h.node_springs.add_node();
  h.node_triangles.add_node();
  const Index s = h.spring_count();
  h.spring_nodes.push_back({extra, 1});
  h.rest_length.push_back(2);
  h.stiffness.push_back(10);
  h.damping.push_back(0);
  h.max_length.push_back(3);
  h.spring_factor.push_back(1);
  h.spring_triangles.push_back({-1, -1});
  h.node_springs.add(extra, s);
  h.node_springs.add(1, s);
  ASSERT_TRUE(check_spring_mesh(h).ok()) << check_spring_mesh(h).message();
  auto s3 = check_consistency(h);
  ASSERT_FALSE(s3.ok());
  EXPECT_NE(s3.message().find("rule 1: node 7"), std::string::npos) << s3.message();
  EXPECT_TRUE(check_consistency(h, {.allow_free_springs = true}).ok());
}

TEST(Tearing, HoleAtInnerNodeFollowsTheLeastStretchedSpring) {
  SpringMesh m = hex(4);
  const Index centre = nearest(m, Vec3::Zero());
  // Stretch the membrane along y only: springs along x keep l/l0 = 1 and are the crack springs.
  for (auto& p : m.position) p.y() *= 1.1;
  const double area = total_rest_area(m);
  const double mass = total_mass(m);
  const Index nodes = m.node_count(), springs = m.spring_count(), tris = m.triangle_count();
  Tearing tearing;
  ASSERT_EQ(node_type(m, centre), NodeType::inner);
  ASSERT_EQ(tearing.tear_node(m, centre), 1);
  const TearEvent ev = tearing.events()[0];
  EXPECT_EQ(ev.kind, TearKind::hole);
  EXPECT_EQ(ev.node, centre);
  EXPECT_EQ(m.node_count(), nodes + 1);
  EXPECT_EQ(m.spring_count(), springs + 2);
  EXPECT_EQ(m.triangle_count(), tris);
  EXPECT_NEAR(total_rest_area(m), area, 1e-12 * area);
  EXPECT_NEAR(total_mass(m), mass, 1e-12 * mass);
  const auto st = check_consistency(m);
  ASSERT_TRUE(st.ok()) << st.message();
  // Both crack springs run along x, one on each side: the slit tips are (±h, 0) and are now crack
  // seeds whose edge neighbours are the centre and its copy.
  const double h = 1.0 / 4;
  const Index tip1 = nearest(m, Vec3(h, 0, 0)), tip2 = nearest(m, Vec3(-h, 0, 0));
  EXPECT_EQ(node_type(m, tip1), NodeType::crack_seed);
  EXPECT_EQ(node_type(m, tip2), NodeType::crack_seed);
  EXPECT_EQ(node_type(m, centre), NodeType::edge);
  EXPECT_EQ(node_type(m, ev.new_node), NodeType::edge);
  EXPECT_EQ(triangle_components(m), 1);
}

TEST(Tearing, CrackRunsAcrossTheDiscAndSplitsIt) {
  SpringMesh m = hex(4);
  for (auto& p : m.position) p.y() *= 1.1;  // uniform pull across the x axis
  Tearing tearing({.seed_threshold = 0.01, .edge_threshold = 100.0, .inner_threshold = 100.0});
  ASSERT_EQ(tearing.tear_node(m, nearest(m, Vec3::Zero())), 1);
  // Crack seeds (lowest threshold) now carry the crack to the rim on both sides, then tear through.
  int propagations = 0, through = 0;
  for (int i = 0; i < 50; ++i) {
    if (tearing.step(m) == 0) break;
    for (const TearEvent& e : tearing.events()) {
      propagations += e.kind == TearKind::propagate;
      through += e.kind == TearKind::tear_through;
      EXPECT_NE(e.kind, TearKind::hole);
      EXPECT_NE(e.kind, TearKind::branch);
    }
    const auto st = check_consistency(m);
    ASSERT_TRUE(st.ok()) << "after step " << i << ": " << st.message();
  }
  // 9 nodes on the x axis: centre (hole), 3 inner ones per side propagate, the 2 rim nodes tear through.
  EXPECT_EQ(propagations, 6);
  EXPECT_EQ(through, 2);
  EXPECT_EQ(triangle_components(m), 2);
  // Every triangle lies on one side of the x axis, and each half keeps its area.
  EXPECT_NEAR(total_rest_area(m), 1.5 * std::sqrt(3.0), 1e-12);
}

TEST(Tearing, NothingTearsBelowThresholds) {
  SpringMesh m = hex(3);
  for (auto& p : m.position) p *= 1.01;
  Tearing tearing({.seed_threshold = 10, .edge_threshold = 10, .inner_threshold = 10});
  EXPECT_EQ(tearing.step(m), 0);
  EXPECT_TRUE(tearing.events().empty());
  // Compression never tears: shrink to 80 %.
  for (auto& p : m.position) p *= 0.8;
  Tearing eager({.seed_threshold = 1e-9, .edge_threshold = 1e-9, .inner_threshold = 1e-9});
  EXPECT_EQ(eager.step(m), 0);
}

TEST(Tearing, RandomPullsKeepRulesAndArea) {
  // Thousands of pulls: a random node moved in a random direction, then a few tearing steps with
  // low thresholds; rules 1-5 and the rest area are checked after every tear.
  int pulls = 0, kinds[4] = {0, 0, 0, 0};
  for (unsigned seed = 1; seed <= 24; ++seed) {
    std::mt19937 rng(seed);
    SpringMesh m = hex(5);
    const double area = total_rest_area(m), mass = total_mass(m);
    const Index tris = m.triangle_count();
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    Tearing tearing({.seed_threshold = 0.2, .edge_threshold = 0.3 + 0.02 * seed, .inner_threshold = 0.6});
    for (int k = 0; k < 120; ++k, ++pulls) {
      std::uniform_int_distribution<Index> pick(0, m.node_count() - 1);
      const Index n = pick(rng);
      Vec3 d(uni(rng), uni(rng), 0.5 * uni(rng));
      m.position[u(n)] += 0.15 * d;
      for (int s = 0; s < 3; ++s) {
        if (tearing.step(m) == 0) break;
        for (const TearEvent& e : tearing.events())
          if (e.kind != TearKind::deletion) ++kinds[static_cast<int>(e.kind)];
        const auto st = check_consistency(m);
        ASSERT_TRUE(st.ok()) << "seed " << seed << " pull " << k << ": " << st.message();
        ASSERT_EQ(m.triangle_count(), tris);
        ASSERT_NEAR(total_rest_area(m), area, 1e-12 * area);
        ASSERT_NEAR(total_mass(m), mass, 1e-9 * mass);
      }
    }
  }
  EXPECT_GE(pulls, 2000);
  EXPECT_GT(kinds[static_cast<int>(TearKind::hole)], 0);
  EXPECT_GT(kinds[static_cast<int>(TearKind::propagate)], 0);
  EXPECT_GT(kinds[static_cast<int>(TearKind::branch)], 0);
  EXPECT_GT(kinds[static_cast<int>(TearKind::tear_through)], 0);
}

TEST(DeletionTearing, LosesAreaWhereAreaPreservingDoesNot) {
  SpringMesh m = hex(4);
  // Pull the upper half up by a step of 0.5 edge: the springs crossing y = 0 exceed 1.2 l0.
  for (Index i = 0; i < m.node_count(); ++i)
    if (m.position[u(i)].y() > 0.01) m.position[u(i)].y() += 0.125;
  SpringMesh copy = m;
  const double area = total_rest_area(m);
  const Index tris = m.triangle_count();
  DeletionTearing del;
  const int torn = del.step(m);
  EXPECT_GT(torn, 0);
  EXPECT_LT(m.triangle_count(), tris);
  EXPECT_LT(total_rest_area(m), area - 1e-6);
  const auto st = check_consistency(m, {.rule5 = false});
  EXPECT_TRUE(st.ok()) << st.message();
  // Surviving nodes keep their rest positions (under the node map when nodes were removed).
  if (del.node_map().empty()) {
    ASSERT_EQ(m.node_count(), copy.node_count());
    for (Index i = 0; i < copy.node_count(); ++i) EXPECT_EQ(m.rest_position[u(i)], copy.rest_position[u(i)]);
  } else {
    ASSERT_EQ(del.node_map().size(), u(copy.node_count()));
    for (Index i = 0; i < copy.node_count(); ++i) {
      const Index j = del.node_map()[u(i)];
      if (j >= 0) {
        EXPECT_EQ(m.rest_position[u(j)], copy.rest_position[u(i)]);
      }
    }
  }
  EXPECT_EQ(del.step(m), 0);  // nothing over-long remains

  // Area-preserving tearing of the same state keeps every triangle.
  Tearing tearing({.seed_threshold = 0.05, .edge_threshold = 0.1, .inner_threshold = 0.2});
  int events = 0;
  for (int i = 0; i < 200; ++i) {
    const int e = tearing.step(copy);
    if (e == 0) break;
    events += e;
  }
  EXPECT_GT(events, 0);
  EXPECT_EQ(copy.triangle_count(), tris);
  EXPECT_NEAR(total_rest_area(copy), area, 1e-12 * area);
  EXPECT_TRUE(check_consistency(copy).ok());
}

TEST(DeletionTearing, RemovesOrphanedNodesAndMapsTheRest) {
  // A hexagon: pulling one rim node far out over-stretches its two rim springs and the spoke; its two
  // triangles go, and the node (now in no triangle) is removed.
  SpringMesh m = hex(1);
  const Index far = nearest(m, Vec3(1, 0, 0));
  m.position[u(far)] = Vec3(5, 0, 0);
  const Vec3 keep = m.rest_position[u(m.node_count() - 1)];
  DeletionTearing del;
  // Each over-long spring is an event unless an earlier removal already dropped it (rule 4).
  const int torn = del.step(m);
  EXPECT_GE(torn, 2);
  EXPECT_LE(torn, 3);
  EXPECT_EQ(m.node_count(), 6);
  EXPECT_EQ(m.triangle_count(), 4);
  EXPECT_EQ(m.spring_count(), 12 - 3);
  ASSERT_EQ(del.node_map().size(), 7u);
  EXPECT_EQ(del.node_map()[u(far)], -1);
  const Index last = del.node_map()[6];
  if (far != 6) {
    ASSERT_GE(last, 0);
    EXPECT_EQ(m.rest_position[u(last)], keep);
  }
  const auto st = check_consistency(m);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_NEAR(total_rest_area(m), 4 * std::sqrt(3.0) / 4, 1e-12);
}

TEST(Tearing, NodeStressSumsHalfStretchedSpringStresses) {
  SpringMesh m = hex(1);
  const Index c = nearest(m, Vec3::Zero());
  m.position[u(c)] += Vec3(0.2, 0, 0);
  double expect = 0;
  for (Index s : m.node_springs.of(c)) {
    const double d = m.length(s) - m.rest_length[u(s)];
    if (d > 0) expect += 0.5 * m.stiffness[u(s)] * d;
  }
  EXPECT_GT(expect, 0);
  EXPECT_NEAR(node_stress(m, c), expect, 1e-12);
  m.weight[u(c)] = 3.0;
  EXPECT_NEAR(node_stress(m, c), 3.0 * expect, 1e-12);
}

}  // namespace
}  // namespace pliant::springs
