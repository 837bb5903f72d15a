#include "pliant/core/bvh.hpp"

#include "pliant/core/geometry.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pliant {
namespace {

std::optional<RayHit> brute_raycast(const TriMesh& m, const Ray& ray, double t_max) {
  std::optional<RayHit> best;
  for (Index i = 0; i < static_cast<Index>(m.triangle_count()); ++i) {
    const Tri& t = m.triangles[i];
    if (auto h =
            intersect_ray_triangle(ray, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]], t_max)) {
      h->triangle = i;
      t_max = h->t;
      best = h;
    }
  }
  return best;
}

// A soup of random small triangles in the unit cube plus a sphere surface: overlapping boxes,
// varied sizes.
TriMesh test_surface(std::mt19937& rng) {
  TriMesh m = test::sphere_surface(3);
  std::uniform_real_distribution<double> u(-1.5, 1.5), s(-0.15, 0.15);
  for (int i = 0; i < 600; ++i) {
    const Vec3 c(u(rng), u(rng), u(rng));
    const Index base = static_cast<Index>(m.positions.size());
    for (int k = 0; k < 3; ++k) m.positions.push_back(c + Vec3(s(rng), s(rng), s(rng)));
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

void expect_same_hits(const TriMesh& m, const TriangleBvh& bvh, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-2, 2);
  int hits = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const Ray ray{Vec3(u(rng), u(rng), u(rng)), Vec3(u(rng), u(rng), u(rng))};
    const double t_max = trial % 4 == 0 ? 0.5 : std::numeric_limits<double>::infinity();
    const auto expect = brute_raycast(m, ray, t_max);
    const auto got = bvh.raycast(ray, t_max);
    ASSERT_EQ(got.has_value(), expect.has_value()) << trial;
    // The occlusion query agrees, and names a triangle the ray really meets within t_max.
    const Index any = bvh.any_hit(ray, t_max);
    ASSERT_EQ(any >= 0, expect.has_value()) << trial;
    if (any >= 0) {
      const Tri& t = m.triangles[any];
      EXPECT_TRUE(intersect_ray_triangle(ray, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]], t_max))
          << trial;
    }
    if (!got) continue;
    ++hits;
    // Same distance; the triangle may differ only on an exact tie (shared edge).
    EXPECT_DOUBLE_EQ(got->t, expect->t) << trial;
    const Tri& t = m.triangles[got->triangle];
    const Vec3 p = got->weights()[0] * m.positions[t[0]] + got->weights()[1] * m.positions[t[1]] +
                   got->weights()[2] * m.positions[t[2]];
    EXPECT_LT((p - ray.at(got->t)).norm(), 1e-9);
  }
  EXPECT_GT(hits, 150);  // enough hits that the comparison means something
}

TEST(Bvh, RaycastEqualsBruteForce) {
  std::mt19937 rng(5);
  const TriMesh m = test_surface(rng);
  const TriangleBvh bvh(m);
  EXPECT_EQ(bvh.triangle_count(), m.triangle_count());
  EXPECT_LE(bvh.depth(), TriangleBvh::kMaxDepth);
  expect_same_hits(m, bvh, rng);
}

TEST(Bvh, EveryBoxBoundsItsTrianglesAndChildren) {
  std::mt19937 rng(8);
  const TriMesh m = test_surface(rng);
  const TriangleBvh bvh(m);
  const auto& nodes = bvh.nodes();
  std::vector<int> seen(m.triangle_count(), 0);
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto& n = nodes[k];
    if (n.count == 0) {
      ASSERT_GT(static_cast<std::size_t>(n.first), k);
      for (int c = 0; c < 2; ++c) {
        EXPECT_TRUE(n.box.contains(nodes[n.first + c].box.min) && n.box.contains(nodes[n.first + c].box.max));
      }
    }
  }
  // Every triangle is reachable exactly once through overlapping() with the root box.
  const auto all = bvh.overlapping(bvh.bounds());
  ASSERT_EQ(all.size(), m.triangle_count());
  for (Index i : all) ++seen[i];
  for (int c : seen) EXPECT_EQ(c, 1);
}

TEST(Bvh, RefitFollowsDeformation) {
  std::mt19937 rng(9);
  TriMesh m = test_surface(rng);
  TriangleBvh bvh(m);
  // Deform: a shear and a swirl, then refit; queries must equal brute force on the new positions.
  for (Vec3& p : m.positions) {
    p = Vec3(p.x() + 0.4 * p.y() * p.z(), p.y() + 0.3 * std::sin(2 * p.x()), 1.2 * p.z());
  }
  bvh.refit(m.positions);
  expect_same_hits(m, bvh, rng);
}

TEST(Bvh, RefitOfMovedNodesEqualsFullRefit) {
  std::mt19937 rng(13);
  TriMesh m = test_surface(rng);
  TriangleBvh local(m), full(m);
  std::uniform_real_distribution<double> d(-0.2, 0.2);
  std::uniform_int_distribution<Index> pick(0, static_cast<Index>(m.positions.size()) - 1);
  for (int round = 0; round < 3; ++round) {
    std::vector<Index> moved;
    for (int k = 0; k < 40; ++k) {
      const Index n = pick(rng);
      m.positions[static_cast<std::size_t>(n)] += Vec3(d(rng), d(rng), d(rng));
      moved.push_back(n);
    }
    local.refit_nodes(m.positions, moved);
    full.refit(m.positions);
    ASSERT_EQ(local.nodes().size(), full.nodes().size());
    for (std::size_t k = 0; k < full.nodes().size(); ++k) {
      ASSERT_EQ(local.nodes()[k].box.min, full.nodes()[k].box.min) << k;
      ASSERT_EQ(local.nodes()[k].box.max, full.nodes()[k].box.max) << k;
    }
    expect_same_hits(m, local, rng);
  }
}

TEST(Bvh, OverlappingEqualsBruteForce) {
  std::mt19937 rng(10);
  const TriMesh m = test_surface(rng);
  const TriangleBvh bvh(m);
  std::uniform_real_distribution<double> u(-1.5, 1.5), w(0, 0.6);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 c(u(rng), u(rng), u(rng));
    const Aabb box{c, c + Vec3(w(rng), w(rng), w(rng))};
    std::vector<Index> expect;
    for (Index i = 0; i < static_cast<Index>(m.triangle_count()); ++i) {
      Aabb tb;
      for (Index v : m.triangles[i]) tb.extend(m.positions[v]);
      if (tb.overlaps(box)) expect.push_back(i);
    }
    EXPECT_EQ(bvh.overlapping(box), expect);
  }
}

TEST(Bvh, NearestEqualsBruteForce) {
  std::mt19937 rng(12);
  const TriMesh m = test_surface(rng);
  const TriangleBvh bvh(m);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 300; ++trial) {
    const Vec3 q(u(rng), u(rng), u(rng));
    double best = std::numeric_limits<double>::infinity();
    for (const Tri& t : m.triangles) {
      double a = 0, b = 0;
      best = std::min(
          best,
          (closest_point_on_triangle(q, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]], a, b) - q)
              .squaredNorm());
    }
    const auto hit = bvh.nearest(q);
    ASSERT_TRUE(hit);
    EXPECT_DOUBLE_EQ(hit->distance_squared, best);
    const Tri& t = m.triangles[hit->triangle];
    const Vec3 p =
        (1 - hit->u - hit->v) * m.positions[t[0]] + hit->u * m.positions[t[1]] + hit->v * m.positions[t[2]];
    EXPECT_LT((p - hit->point).norm(), 1e-12);
    EXPECT_FALSE(bvh.nearest(q, 0.999 * best).has_value());
  }
}

TEST(Bvh, ClosestPointOnTriangleMatchesDenseSampling) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
    const Vec3 q(2 * u(rng), 2 * u(rng), 2 * u(rng));
    double bu = 0, bv = 0;
    const Vec3 p = closest_point_on_triangle(q, a, b, c, bu, bv);
    EXPECT_GE(bu, 0);
    EXPECT_GE(bv, 0);
    EXPECT_LE(bu + bv, 1 + 1e-12);
    EXPECT_LT((p - ((1 - bu - bv) * a + bu * b + bv * c)).norm(), 1e-12);
    double sampled = std::numeric_limits<double>::infinity();
    const int n = 200;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j)
        sampled = std::min(
            sampled,
            (q - ((1.0 - (i + j) / double(n)) * a + (i / double(n)) * b + (j / double(n)) * c)).norm());
    EXPECT_LE((p - q).norm(), sampled + 1e-12);
    EXPECT_GE((p - q).norm(), sampled - 0.02);
  }
}

TEST(Bvh, DegenerateInputs) {
  TriangleBvh empty;
  EXPECT_FALSE(empty.raycast(Ray{}).has_value());
  EXPECT_TRUE(empty.overlapping(Aabb{Vec3::Zero(), Vec3::Ones()}).empty());
  EXPECT_FALSE(empty.nearest(Vec3::Zero()).has_value());
  // Many identical triangles (all centroids equal) and one far away: still correct.
  TriMesh m;
  m.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(5, 5, 5), Vec3(6, 5, 5), Vec3(5, 6, 5)};
  for (int i = 0; i < 100; ++i) m.triangles.push_back({0, 1, 2});
  m.triangles.push_back({3, 4, 5});
  const TriangleBvh bvh(m);
  const auto hit = bvh.raycast(Ray{Vec3(5.2, 5.2, 9), Vec3(0, 0, -1)});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->triangle, 100);
  EXPECT_DOUBLE_EQ(hit->t, 4.0);
}

TEST(Bvh, BadIndicesAreLeftOutAndRefitWithOtherSizeRebuilds) {
  TriMesh m = test::sphere_surface(1);
  m.triangles.push_back({0, 1, 5000});
  TriangleBvh bvh(m);
  EXPECT_EQ(bvh.triangle_count(), m.triangle_count() - 1);
  EXPECT_TRUE(bvh.raycast(Ray{Vec3(0, 0, 0), Vec3(0.1, 0.2, 1)}).has_value());
  // Refit with more nodes: rebuilt, still consistent; the bad triangle is still left out.
  m.positions.push_back(Vec3(7, 7, 7));
  bvh.refit(m.positions);
  EXPECT_EQ(bvh.triangle_count(), m.triangle_count() - 1);
  const auto hit = bvh.raycast(Ray{Vec3(0, 0, 0), Vec3(0, 0, 1)});
  ASSERT_TRUE(hit);
  EXPECT_LT(hit->triangle, static_cast<Index>(m.triangle_count() - 1));
}

TEST(Bvh, LargeSurfaceDepthIsBounded) {
  const TriMesh m = test::sphere_surface(6);  // 32768 triangles
  const TriangleBvh bvh(m);
  EXPECT_LE(bvh.depth(), 30);
  const auto hit = bvh.raycast(Ray{Vec3(0, 0, 0), Vec3(0.3, 0.2, 0.9)});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->t * Vec3(0.3, 0.2, 0.9).norm(), 1.0,
              2e-3);  // the chord surface lies inside the unit sphere
}

}  // namespace
}  // namespace pliant
