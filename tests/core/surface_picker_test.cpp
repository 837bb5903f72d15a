// SurfacePicker against a brute-force Möller–Trumbore scan, across refits and topology changes.
#include "pliant/core/surface_picker.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pliant {
namespace {

// Two unit squares (two triangles each) at heights z0 and z1.
void squares(double z0, double z1, std::vector<Vec3>& x, std::vector<Tri>& t) {
  x.clear();
  t.clear();
  for (double z : {z0, z1}) {
    const Index b = static_cast<Index>(x.size());
    x.insert(x.end(), {Vec3(0, 0, z), Vec3(1, 0, z), Vec3(1, 1, z), Vec3(0, 1, z)});
    t.push_back({b, b + 1, b + 2});
    t.push_back({b, b + 2, b + 3});
  }
}

std::optional<double> brute(const Ray& ray, const std::vector<Vec3>& x, const std::vector<Tri>& t) {
  std::optional<double> best;
  for (const Tri& tri : t) {
    if (auto h = intersect_ray_triangle(ray, x[tri[0]], x[tri[1]], x[tri[2]]); h && (!best || h->t < *best))
      best = h->t;
  }
  return best;
}

TEST(SurfacePicker, ClosestHitOverSurfacesMatchesBruteForceThroughRefitAndRetopology) {
  std::vector<Vec3> a, b;
  std::vector<Tri> ta, tb;
  squares(0.0, 0.5, a, ta);   // surface 0
  squares(0.25, 2.0, b, tb);  // surface 1
  SurfacePicker picker;
  picker.resize(2);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.05, 0.95);
  for (int round = 0; round < 3; ++round) {
    picker.update(0, a, ta, round == 2 ? 1 : 0);  // round 2: a new topology version forces a rebuild
    picker.update(1, b, tb, 0);
    for (int k = 0; k < 50; ++k) {
      const Ray ray{Vec3(u(rng), u(rng), 5.0), Vec3(0, 0, -1)};
      const auto hit = picker.pick(ray);
      const auto ta_t = brute(ray, a, ta), tb_t = brute(ray, b, tb);
      ASSERT_TRUE(hit && ta_t && tb_t);
      const double expect = std::min(*ta_t, *tb_t);
      EXPECT_NEAR(hit->hit.t, expect, 1e-12);
      EXPECT_EQ(hit->surface, *ta_t < *tb_t ? 0u : 1u);
    }
    for (Vec3& p : a) p.z() += 1.0;  // surface 0 moves up past surface 1's lower square
  }
  EXPECT_FALSE(picker.pick({Vec3(3, 3, 5), Vec3(0, 0, -1)}));  // beside everything
}

}  // namespace
}  // namespace pliant
