#include "pliant/core/self_intersection.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/core/ray.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <utility>

namespace pliant {
namespace {

using PairSet = std::set<std::pair<Index, Index>>;

PairSet pairs_of(const SelfIntersections& found) {
  PairSet s;
  for (const TriangleCrossing& c : found.pairs) s.insert({c.first, c.second});
  return s;
}

double distance_to_triangle(const TriMesh& m, Index t, const Vec3& p) {
  const Tri& tri = m.triangles[t];
  double u = 0, v = 0;
  return (closest_point_on_triangle(p, m.positions[tri[0]], m.positions[tri[1]], m.positions[tri[2]], u, v) -
          p)
      .norm();
}

// Every reported point lies on both of its triangles: the property that makes it worth printing.
void expect_points_on_both(const TriMesh& m, const SelfIntersections& found, double tolerance) {
  for (const TriangleCrossing& c : found.pairs) {
    EXPECT_LT(distance_to_triangle(m, c.first, c.point), tolerance) << c.first << " " << c.second;
    EXPECT_LT(distance_to_triangle(m, c.second, c.point), tolerance) << c.first << " " << c.second;
  }
}

// ---- an independent reference: segment-through-triangle tests with signed volumes ----

int sign(double x) { return (x > 0) - (x < 0); }

// Whether segment pq passes through the interior of triangle abc (generic position: no ties).
bool segment_crosses(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  if (sign(signed_volume(a, b, c, p)) * sign(signed_volume(a, b, c, q)) >= 0) return false;
  const int s0 = sign(signed_volume(p, q, a, b)), s1 = sign(signed_volume(p, q, b, c)),
            s2 = sign(signed_volume(p, q, c, a));
  return s0 == s1 && s1 == s2 && s0 != 0;
}

// In generic position two triangles meet iff an edge of one passes through the other; sharing one node
// v, their intersection is a segment from v whose far end lies on the edge opposite v of one of them.
bool reference_crossing(const TriMesh& m, Index ia, Index ib) {
  const Tri &a = m.triangles[ia], &b = m.triangles[ib];
  int shared = 0, sa = -1, sb = -1;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (a[i] == b[j]) {
        ++shared;
        sa = i;
        sb = j;
      }
  if (shared >= 2) return false;
  const auto x = [&](Index v) { return m.positions[v]; };
  const auto edge_through = [&](const Tri& s, int k, const Tri& t) {
    return segment_crosses(x(s[k]), x(s[(k + 1) % 3]), x(t[0]), x(t[1]), x(t[2]));
  };
  if (shared == 1) return edge_through(a, (sa + 1) % 3, b) || edge_through(b, (sb + 1) % 3, a);
  for (int k = 0; k < 3; ++k)
    if (edge_through(a, k, b) || edge_through(b, k, a)) return true;
  return false;
}

PairSet reference_pairs(const TriMesh& m) {
  PairSet s;
  for (Index i = 0; i < static_cast<Index>(m.triangles.size()); ++i)
    for (Index j = i + 1; j < static_cast<Index>(m.triangles.size()); ++j)
      if (reference_crossing(m, i, j)) s.insert({i, j});
  return s;
}

// The same narrow phase over all pairs: checks the broad phase misses nothing.
PairSet brute_force_pairs(const TriMesh& m) {
  PairSet s;
  for (Index i = 0; i < static_cast<Index>(m.triangles.size()); ++i)
    for (Index j = i + 1; j < static_cast<Index>(m.triangles.size()); ++j)
      if (triangle_pair_crossing(m, i, j)) s.insert({i, j});
  return s;
}

TEST(SelfIntersection, TwoCrossingTrianglesMeetWhereTheirCutsOverlap) {
  // Triangle 0 in z = 0 meets the plane x = 0.5 along y in [0, 1.5]; triangle 1 in x = 0.5 meets z = 0
  // along y in [0.25, 3]. The overlap is y in [0.25, 1.5], its middle y = 0.875.
  TriMesh m;
  m.positions = {Vec3(0, 0, 0),       Vec3(2, 0, 0),      Vec3(0, 2, 0),
                 Vec3(0.5, 0.25, -1), Vec3(0.5, 0.25, 1), Vec3(0.5, 3, 0)};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  const SelfIntersections found = find_self_intersections(m);
  ASSERT_EQ(found.total, 1);
  ASSERT_EQ(found.pairs.size(), 1u);
  EXPECT_EQ(found.pairs[0].first, 0);
  EXPECT_EQ(found.pairs[0].second, 1);
  EXPECT_NEAR((found.pairs[0].point - Vec3(0.5, 0.875, 0)).norm(), 0.0, 1e-12);

  // Lift triangle 1 so that its cut starts at y = 1.6, past triangle 0's cut: they miss.
  m.positions[3] = Vec3(0.5, 1.6, -1);
  m.positions[4] = Vec3(0.5, 1.6, 1);
  EXPECT_TRUE(find_self_intersections(m).none());
}

TEST(SelfIntersection, SharingOnlyANodeIsNoCrossing) {
  // A fan of two triangles around node 0, folded but not crossing.
  TriMesh m;
  m.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-1, 0, 0.3), Vec3(0, -1, 0.5)};
  m.triangles = {{0, 1, 2}, {0, 3, 4}};
  EXPECT_TRUE(find_self_intersections(m).none());
  // The same with the node duplicated (an unwelded surface such as STL): still only touching.
  m.positions.push_back(Vec3(0, 0, 0));
  m.triangles[1] = {5, 3, 4};
  EXPECT_TRUE(find_self_intersections(m).none());
  // Coplanar and touching at the node only.
  m.positions[3] = Vec3(-1, 0, 0);
  m.positions[4] = Vec3(0, -1, 0);
  EXPECT_TRUE(find_self_intersections(m).none());
  // Coplanar and overlapping: the second triangle folded back onto the first.
  m.positions[3] = Vec3(1, 0.5, 0);
  m.positions[4] = Vec3(0.5, 1, 0);
  const SelfIntersections folded = find_self_intersections(m);
  EXPECT_EQ(folded.total, 1);
  expect_points_on_both(m, folded, 1e-6);
}

TEST(SelfIntersection, AFanOfSliversFromATriangulatedPolygonHasNone) {
  // Ear clipping a long comb-shaped polygon leaves fans of slivers around one corner, their wedges at
  // it 1e-4 rad wide: coplanar, sharing that node, overlapping nowhere.
  TriMesh m;
  m.positions.push_back(Vec3(0, 0, 0));
  for (int k = 0; k <= 50; ++k) m.positions.push_back(Vec3(150 + k, 6, 0));
  for (Index k = 1; k <= 50; ++k) m.triangles.push_back({0, k, k + 1});
  EXPECT_TRUE(find_self_intersections(m).none());
  // A sliver laid over the second one (sharing only the corner) overlaps it: found, on both.
  m.positions.push_back(Vec3(151.3, 6, 0));
  m.positions.push_back(Vec3(151.7, 6, 0));
  m.triangles.push_back({0, 52, 53});
  const SelfIntersections folded = find_self_intersections(m);
  EXPECT_EQ(pairs_of(folded), (PairSet{{1, 50}}));
  expect_points_on_both(m, folded, 1e-9);
}

TEST(SelfIntersection, SharingANodeAndCrossingAwayFromItIsFound) {
  // Triangle 1 stands in the plane x = y through the shared node 0 and cuts triangle 0 along the
  // segment from the origin to (0.5, 0.5, 0): reported at its middle.
  TriMesh m;
  m.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.5, 0.5, -1), Vec3(0.5, 0.5, 1)};
  m.triangles = {{0, 1, 2}, {0, 3, 4}};
  const SelfIntersections found = find_self_intersections(m);
  ASSERT_EQ(found.total, 1);
  EXPECT_NEAR((found.pairs[0].point - Vec3(0.25, 0.25, 0)).norm(), 0.0, 1e-12);
}

TEST(SelfIntersection, ACornerRestingOnAnotherTriangleTouches) {
  TriMesh m;
  m.positions = {Vec3(0, 0, 0),       Vec3(1, 0, 0),     Vec3(0, 1, 0),
                 Vec3(0.25, 0.25, 0), Vec3(0.3, 0.2, 1), Vec3(0.2, 0.3, 1)};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  SelfIntersections found = find_self_intersections(m);
  ASSERT_EQ(found.total, 1);
  EXPECT_NEAR((found.pairs[0].point - Vec3(0.25, 0.25, 0)).norm(), 0.0, 1e-12);
  // A gap of 1e-6 (far above the 1e-10 relative tolerance) separates them.
  m.positions[3].z() = 1e-6;
  EXPECT_TRUE(find_self_intersections(m).none());
}

TEST(SelfIntersection, ASphereHasNone) {
  for (int levels : {0, 1, 3}) {
    const TriMesh m = test::sphere_surface(levels);
    EXPECT_TRUE(find_self_intersections(m).none()) << levels;
  }
  // Far from the origin and tiny (a 1 mm sphere 1 km away): the tolerance is relative to the triangles.
  TriMesh far = test::sphere_surface(3);
  for (Vec3& p : far.positions) p = Vec3(1000, -2000, 500) + 1e-3 * p;
  EXPECT_TRUE(find_self_intersections(far).none());
}

TEST(SelfIntersection, ANodePushedThroughTheOppositeSideNamesTheCrossedTriangles) {
  TriMesh m = test::sphere_surface(3);
  const Index pole = 4;  // (0, 0, 1)
  const Vec3 pushed(0.15, 0.1, -1.25);
  m.positions[pole] = pushed;
  const SelfIntersections found = find_self_intersections(m);
  ASSERT_GT(found.total, 0);
  expect_points_on_both(m, found, 1e-9);
  const PairSet reported = pairs_of(found);
  // Each edge from the pushed node to a ring node leaves the sphere through one triangle (found by
  // ray casting against the unmoved triangles); that triangle and both fan triangles on the edge cross.
  int checked = 0;
  for (Index f = 0; f < static_cast<Index>(m.triangles.size()); ++f) {
    const Tri& t = m.triangles[f];
    for (int k = 0; k < 3; ++k) {
      if (t[k] != pole) continue;
      const Vec3 ring = m.positions[t[(k + 1) % 3]];
      const Ray ray{ring, pushed - ring};
      for (Index g = 0; g < static_cast<Index>(m.triangles.size()); ++g) {
        const Tri& s = m.triangles[g];
        if (s[0] == pole || s[1] == pole || s[2] == pole) continue;
        if (s[0] == t[(k + 1) % 3] || s[1] == t[(k + 1) % 3] || s[2] == t[(k + 1) % 3]) continue;
        const auto hit =
            intersect_ray_triangle(ray, m.positions[s[0]], m.positions[s[1]], m.positions[s[2]], 1.0);
        if (!hit) continue;
        EXPECT_TRUE(reported.count({std::min(f, g), std::max(f, g)})) << "triangles " << f << " and " << g;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 3);
  // Every crossing involves a triangle of the pushed node's fan, near the bottom of the sphere.
  for (const TriangleCrossing& c : found.pairs) {
    const Tri &a = m.triangles[c.first], &b = m.triangles[c.second];
    const bool a_fan = a[0] == pole || a[1] == pole || a[2] == pole;
    const bool b_fan = b[0] == pole || b[1] == pole || b[2] == pole;
    EXPECT_NE(a_fan, b_fan) << c.first << " " << c.second;
    EXPECT_LT(c.point.z(), -0.8);
  }
  EXPECT_EQ(reported, reference_pairs(m));
}

// A closed box [0,1]² x [0,1] whose top and bottom are n x n grids of squares (two triangles each) and
// whose walls are one strip of quads; the top's inner nodes are pushed down by depth·bump(x, y).
TriMesh dented_box(int n, double depth) {
  TriMesh m;
  const auto node = [&](int i, int j, int layer) { return layer * (n + 1) * (n + 1) + j * (n + 1) + i; };
  for (int layer = 0; layer < 2; ++layer)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const double x = double(i) / n, y = double(j) / n;
        const double bump = std::sin(M_PI * x) * std::sin(M_PI * y);
        m.positions.push_back(Vec3(x, y, layer == 1 ? 1.0 - depth * bump : 0.0));
      }
  for (int layer = 0; layer < 2; ++layer)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const Index a = node(i, j, layer), b = node(i + 1, j, layer), c = node(i + 1, j + 1, layer),
                    d = node(i, j + 1, layer);
        m.triangles.push_back({a, b, c});
        m.triangles.push_back({a, c, d});
      }
  // The boundary loop of the grid, then a quad between bottom and top per loop edge.
  std::vector<std::pair<int, int>> loop;
  for (int i = 0; i < n; ++i) loop.push_back({i, 0});
  for (int j = 0; j < n; ++j) loop.push_back({n, j});
  for (int i = n; i > 0; --i) loop.push_back({i, n});
  for (int j = n; j > 0; --j) loop.push_back({0, j});
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const auto [i0, j0] = loop[k];
    const auto [i1, j1] = loop[(k + 1) % loop.size()];
    const Index a = node(i0, j0, 0), b = node(i1, j1, 0), c = node(i1, j1, 1), d = node(i0, j0, 1);
    m.triangles.push_back({a, b, c});
    m.triangles.push_back({a, c, d});
  }
  return m;
}

TEST(SelfIntersection, ADentThatStaysInsideIsNone) {
  // Flat top and bottom also exercise the coplanar test on every pair of neighbouring grid triangles.
  EXPECT_TRUE(find_self_intersections(dented_box(8, 0.0)).none());
  EXPECT_TRUE(find_self_intersections(dented_box(8, 0.6)).none());
  EXPECT_TRUE(find_self_intersections(dented_box(8, 0.99)).none());
}

TEST(SelfIntersection, ADentThroughTheBottomCrossesIt) {
  const TriMesh m = dented_box(8, 1.4);
  const SelfIntersections found = find_self_intersections(m);
  ASSERT_GT(found.total, 0);
  expect_points_on_both(m, found, 1e-9);
  const Index bottom_end = 2 * 8 * 8;  // triangles [0, 128) are the bottom, [128, 256) the top
  for (const TriangleCrossing& c : found.pairs) {
    EXPECT_LT(c.first, bottom_end);
    EXPECT_GE(c.second, bottom_end);
    EXPECT_LT(c.second, 2 * bottom_end);
    EXPECT_NEAR(c.point.z(), 0.0, 1e-12);
  }
  EXPECT_EQ(pairs_of(found), brute_force_pairs(m));
}

TEST(SelfIntersection, CapKeepsTheFirstPairsAndCountsAll) {
  const TriMesh m = dented_box(8, 1.4);
  const SelfIntersections all = find_self_intersections(m);
  ASSERT_GT(all.total, 3);
  const SelfIntersections capped = find_self_intersections(m, {.max_pairs = 3});
  EXPECT_EQ(capped.total, all.total);
  ASSERT_EQ(capped.pairs.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(capped.pairs[k].first, all.pairs[k].first);
    EXPECT_EQ(capped.pairs[k].second, all.pairs[k].second);
  }
}

TEST(SelfIntersection, RandomTriangleSoupsMatchTheReferences) {
  std::mt19937 rng(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0), offset(-0.15, 0.15);
  for (int trial = 0; trial < 20; ++trial) {
    TriMesh m;
    for (int t = 0; t < 120; ++t) {
      const Vec3 c(unit(rng), unit(rng), unit(rng));
      const Index first = static_cast<Index>(m.positions.size());
      for (int k = 0; k < 3; ++k) m.positions.push_back(c + Vec3(offset(rng), offset(rng), offset(rng)));
      m.triangles.push_back({first, first + 1, first + 2});
    }
    const SelfIntersections found = find_self_intersections(m, {.max_pairs = 100000});
    const PairSet reference = reference_pairs(m);
    EXPECT_FALSE(reference.empty());
    EXPECT_EQ(pairs_of(found), reference) << "trial " << trial;
    EXPECT_EQ(pairs_of(found), brute_force_pairs(m)) << "trial " << trial;
    EXPECT_EQ(found.total, static_cast<Index>(reference.size()));
    expect_points_on_both(m, found, 1e-9);
  }
}

TEST(SelfIntersection, RandomlyCrumpledSpheresMatchTheReferences) {
  // Nodes moved by up to 0.25 of the radius: neighbours sharing a node fold through each other.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(-0.25, 0.25);
  int crossings = 0;
  for (int trial = 0; trial < 20; ++trial) {
    TriMesh m = test::sphere_surface(2);
    for (Vec3& p : m.positions) p += Vec3(noise(rng), noise(rng), noise(rng));
    const SelfIntersections found = find_self_intersections(m, {.max_pairs = 100000});
    EXPECT_EQ(pairs_of(found), reference_pairs(m)) << "trial " << trial;
    EXPECT_EQ(pairs_of(found), brute_force_pairs(m)) << "trial " << trial;
    expect_points_on_both(m, found, 1e-9);
    crossings += found.total;
  }
  EXPECT_GT(crossings, 0);
}

TEST(SelfIntersection, BadTrianglesAreSkippedNotCrashedOn) {
  TriMesh m;
  m.positions = {Vec3(0, 0, 0),      Vec3(1, 0, 0),     Vec3(0, 1, 0),
                 Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), Vec3(NAN, 0, 0)};
  m.triangles = {{0, 1, 2}, {3, 4, 7}, {3, 4, 5}, {0, 0, 1}, {3, 3, 4}};
  EXPECT_TRUE(find_self_intersections(m).none());
  EXPECT_TRUE(find_self_intersections(TriMesh{}).none());
}

}  // namespace
}  // namespace pliant
