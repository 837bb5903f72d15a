#include "pliant/core/ray.hpp"
#include "pliant/core/aabb.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pliant {
namespace {

TEST(Ray, HitPointAgreesWithBarycentricsAndMissesOutside) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1), w(0, 1);
  int hits = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
    // A target point with known barycentrics (some outside the triangle), a random origin.
    const double bu = 1.4 * w(rng) - 0.2, bv = 1.4 * w(rng) - 0.2;
    const Vec3 target = (1 - bu - bv) * a + bu * b + bv * c;
    const Vec3 origin(3 * u(rng), 3 * u(rng), 3 * u(rng));
    const Ray ray{origin, target - origin};
    const auto hit = intersect_ray_triangle(ray, a, b, c);
    const bool inside = bu >= 0 && bv >= 0 && bu + bv <= 1;
    const Vec3 n = (b - a).cross(c - a);
    const double cosine = std::abs(n.normalized().dot(ray.direction.normalized()));
    if (cosine < 1e-6) continue;  // too grazing for a clean comparison
    ASSERT_EQ(hit.has_value(), inside) << trial;
    if (!hit) continue;
    ++hits;
    EXPECT_NEAR(hit->t, 1.0, 1e-8);
    EXPECT_NEAR(hit->u, bu, 1e-8);
    EXPECT_NEAR(hit->v, bv, 1e-8);
    const Vec3 p = hit->weights()[0] * a + hit->weights()[1] * b + hit->weights()[2] * c;
    EXPECT_LT((p - ray.at(hit->t)).norm(), 1e-8);
    // Limiting t below the hit rejects it; the ray pointing away misses.
    EXPECT_FALSE(intersect_ray_triangle(ray, a, b, c, 0.99).has_value());
    EXPECT_FALSE(intersect_ray_triangle(Ray{origin, origin - target}, a, b, c).has_value());
  }
  EXPECT_GT(hits, 500);
}

TEST(Ray, ParallelAndDegenerateCasesMissWithoutNaN) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  // In the triangle's plane, through its interior: parallel, no hit.
  EXPECT_FALSE(intersect_ray_triangle(Ray{Vec3(-1, 0.2, 0), Vec3(1, 0, 0)}, a, b, c));
  // Nearly parallel at 1e-14 rad: rejected by the relative epsilon, whatever the scale.
  EXPECT_FALSE(intersect_ray_triangle(Ray{Vec3(-1, 0.2, 1e-14), Vec3(1, 0, -1e-14)}, a, b, c));
  EXPECT_FALSE(intersect_ray_triangle(Ray{Vec3(-1e-6, 0.2e-6, 1e-20), Vec3(1, 0, -1e-14)}, 1e-6 * a, 1e-6 * b,
                                      1e-6 * c));
  // Tiny triangles are still hit by a perpendicular ray (the epsilon is relative).
  const auto tiny =
      intersect_ray_triangle(Ray{Vec3(0.2e-9, 0.2e-9, 1), Vec3(0, 0, -1)}, 1e-9 * a, 1e-9 * b, 1e-9 * c);
  ASSERT_TRUE(tiny);
  EXPECT_NEAR(tiny->u, 0.2, 1e-9);
  // Degenerate triangle (collinear) and zero direction: no hit.
  EXPECT_FALSE(intersect_ray_triangle(Ray{Vec3(0.5, 0, 1), Vec3(0, 0, -1)}, a, b, Vec3(2, 0, 0)));
  EXPECT_FALSE(intersect_ray_triangle(Ray{Vec3(0.2, 0.2, 1), Vec3::Zero()}, a, b, c));
  // Back face hits too (two-sided), and a hit on a shared edge is included.
  EXPECT_TRUE(intersect_ray_triangle(Ray{Vec3(0.2, 0.2, -1), Vec3(0, 0, 1)}, a, b, c));
  EXPECT_TRUE(intersect_ray_triangle(Ray{Vec3(0.5, 0.5, 1), Vec3(0, 0, -1)}, a, b, c));
}

TEST(Aabb, EmptyExtendMergeAndQueries) {
  Aabb box;
  EXPECT_TRUE(box.empty());
  EXPECT_EQ(box.diagonal(), 0.0);
  box.extend(Vec3(1, 2, 3));
  EXPECT_FALSE(box.empty());
  EXPECT_EQ(box.diagonal(), 0.0);
  box.extend(Vec3(-1, 0, 3));
  EXPECT_EQ(box.centre(), Vec3(0, 1, 3));
  EXPECT_DOUBLE_EQ(box.diagonal(), std::sqrt(8.0));
  Aabb other;
  other.extend(Vec3(5, 5, 5));
  Aabb merged = box;
  merged.merge(other);
  EXPECT_EQ(merged.min, Vec3(-1, 0, 3));
  EXPECT_EQ(merged.max, Vec3(5, 5, 5));
  EXPECT_FALSE(box.overlaps(other));
  EXPECT_TRUE(merged.overlaps(other));
  EXPECT_TRUE(box.contains(Vec3(0, 1, 3)));
  EXPECT_DOUBLE_EQ(box.squared_distance(Vec3(2, 1, 3)), 1.0);
  EXPECT_DOUBLE_EQ(Aabb{}.surface_area(), 0.0);
  EXPECT_TRUE(bounding_box({Vec3(0, 0, 0), Vec3(NAN, 0, 0), Vec3(1, 1, 1)}).contains(Vec3(0.5, 0.5, 0.5)));
}

TEST(Aabb, SlabTestMatchesSampling) {
  const Aabb box{Vec3(0, 0, 0), Vec3(1, 2, 3)};
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-4, 4);
  for (int trial = 0; trial < 3000; ++trial) {
    Vec3 o(u(rng), u(rng), u(rng)), d(u(rng), u(rng), u(rng));
    if (trial % 3 == 0) d[trial % 2] = 0;  // axis-parallel rays
    const Vec3 inv = d.cwiseInverse();
    double t_enter = -1;
    const bool hit = box.intersect_ray(o, d, inv, 0, 10, t_enter);
    // Reference: does any sampled point of the segment lie in the (slightly grown) box?
    bool sampled = false;
    for (int k = 0; k <= 20000 && !sampled; ++k)
      sampled = box.inflated(1e-3).contains(o + (10.0 * k / 20000) * d);
    if (hit) {
      EXPECT_TRUE(box.inflated(1e-9).contains(o + t_enter * d)) << trial;
      EXPECT_TRUE(sampled) << trial;
    } else {
      EXPECT_FALSE(box.inflated(-1e-2).empty());
      bool deep = false;
      for (int k = 0; k <= 20000 && !deep; ++k)
        deep = box.inflated(-1e-2).contains(o + (10.0 * k / 20000) * d);
      EXPECT_FALSE(deep) << trial;
    }
  }
}

}  // namespace
}  // namespace pliant
