// The impact octree against brute force: leaf lookup, triangle-leaf assignment by exhaustive
// separating-axis tests over every leaf, before and after deformation, and ray casts; the SAT test
// against sampled triangles.
#include "pliant/models/impact/octree.hpp"
#include "impact_test_meshes.hpp"
#include "pliant/models/impact/triangle_box.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace pliant::impact {
namespace {

TriMesh random_soup(std::mt19937& rng, int triangles, double size) {
  std::uniform_real_distribution<double> u(0.0, size), small(-0.15 * size, 0.15 * size);
  TriMesh m;
  for (int t = 0; t < triangles; ++t) {
    const Vec3 c(u(rng), u(rng), u(rng));
    for (int k = 0; k < 3; ++k) m.positions.push_back(c + Vec3(small(rng), small(rng), small(rng)));
    m.triangles.push_back({3 * t, 3 * t + 1, 3 * t + 2});
  }
  return m;
}

void expect_assignment_is_brute_force(const Octree& tree, const TriMesh& m) {
  const Vec3 half = Vec3::Constant(0.5 * tree.leaf_size());
  for (Index leaf = 0; leaf < tree.leaf_count(); ++leaf) {
    const Vec3 centre = tree.leaf_box(leaf).centre();
    std::vector<Index> expected;
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
      const Tri& tri = m.triangles[t];
      if (triangle_overlaps_box(m.positions[tri[0]], m.positions[tri[1]], m.positions[tri[2]], centre, half))
        expected.push_back(static_cast<Index>(t));
    }
    std::vector<Index> got(tree.leaf_triangles(leaf).begin(), tree.leaf_triangles(leaf).end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << "leaf " << leaf;
  }
  // Every node sits in the leaf whose box holds it, found by scanning all leaves.
  for (std::size_t n = 0; n < m.positions.size(); ++n) {
    Index holder = -1;
    for (Index leaf = 0; leaf < tree.leaf_count() && holder < 0; ++leaf)
      if (tree.leaf_box(leaf).contains(m.positions[n])) holder = leaf;
    ASSERT_GE(holder, 0);
    ASSERT_EQ(tree.leaf_of(m.positions[n]), holder);
    const auto nodes = tree.leaf_nodes(holder);
    ASSERT_NE(std::find(nodes.begin(), nodes.end(), static_cast<Index>(n)), nodes.end());
  }
}

TEST(TriangleBox, AgreesWithSampledTriangles) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec3 centre(0.1, -0.2, 0.05), half(0.3, 0.2, 0.4);
  const Aabb box{centre - half, centre + half};
  int overlaps = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
    const bool sat = triangle_overlaps_box(a, b, c, centre, half);
    double closest = 1e9;
    const int k = 60;
    for (int i = 0; i <= k; ++i)
      for (int j = 0; i + j <= k; ++j) {
        const Vec3 p = a + (b - a) * (double(i) / k) + (c - a) * (double(j) / k);
        closest = std::min(closest, std::sqrt(box.squared_distance(p)));
      }
    const double spacing = std::max({(b - a).norm(), (c - a).norm(), (c - b).norm()}) / k;
    if (closest == 0.0) {
      EXPECT_TRUE(sat) << trial;  // a sample lies in the box
    }
    if (closest > spacing) {
      EXPECT_FALSE(sat) << trial;  // the whole triangle stays away
    }
    overlaps += sat;
  }
  EXPECT_GT(overlaps, 200);
  EXPECT_LT(overlaps, 1800);
}

TEST(Octree, LeafLookupAndTriangleLeavesEqualBruteForce) {
  std::mt19937 rng(11);
  TriMesh m = random_soup(rng, 300, 1.0);
  Octree tree(m.positions, m.triangles, {3, 0.25});
  EXPECT_EQ(tree.leaf_count(), 512);
  expect_assignment_is_brute_force(tree, m);

  // Deform: move a third of the nodes; refresh moves their triangles to the leaves they occupy now.
  std::uniform_real_distribution<double> d(-0.1, 0.1);
  std::vector<Index> moved;
  for (Index n = 0; n < static_cast<Index>(m.positions.size()); n += 3) {
    m.positions[n] += Vec3(d(rng), d(rng), d(rng));
    moved.push_back(n);
  }
  tree.refresh(m.positions, m.triangles, moved);
  EXPECT_EQ(tree.rebuilds(), 0);
  expect_assignment_is_brute_force(tree, m);

  // A node thrown outside the root cube rebuilds the tree, which still equals brute force.
  m.positions[0] += Vec3(3.0, 0.0, 0.0);
  const Index one[] = {0};
  tree.refresh(m.positions, m.triangles, one);
  EXPECT_EQ(tree.rebuilds(), 1);
  expect_assignment_is_brute_force(tree, m);
}

TEST(Octree, RaycastEqualsBruteForceOnDeformedPlate) {
  TriMesh m = testing::plate(16, 1.0);
  Octree tree(m.positions, m.triangles, {});
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0), bump(-0.05, 0.05);
  std::vector<Index> moved;
  for (Index n = 0; n < static_cast<Index>(m.positions.size()); ++n) {
    m.positions[n].z() += bump(rng);
    moved.push_back(n);
  }
  tree.refresh(m.positions, m.triangles, moved);
  int hits = 0;
  for (int r = 0; r < 300; ++r) {
    const Ray ray{Vec3(u(rng), u(rng), 0.5), Vec3(0.3 * (u(rng) - 0.5), 0.3 * (u(rng) - 0.5), -1.0)};
    std::optional<double> brute;
    for (const Tri& t : m.triangles)
      if (auto h = intersect_ray_triangle(ray, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]], 2.0))
        if (!brute || h->t < *brute) brute = h->t;
    const auto got = tree.raycast(m.positions, m.triangles, ray, 2.0);
    ASSERT_EQ(got.has_value(), brute.has_value()) << r;
    if (got) {
      EXPECT_EQ(got->t, *brute) << r;
      ++hits;
    }
  }
  EXPECT_GT(hits, 150);
}

}  // namespace
}  // namespace pliant::impact
