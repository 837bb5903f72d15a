// Cutting: links crossing the swept blade go, constants stay exact on each side, pieces separate.
#include "pliant/models/meshless/cutting.hpp"
#include "pliant/core/ray.hpp"
#include "pliant/models/meshless/meshless_body.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pliant::meshless {
namespace {

// A blade through the plane x = 0.05, swept from above the bar to below it.
Blade vertical_blade() {
  return {Vec3(0.05, -0.1, 0.1), Vec3(0.05, 0.2, 0.1), Vec3(0.05, -0.1, -0.1), Vec3(0.05, 0.2, -0.1)};
}

// The plane rejection never changes the answer of the exact segment-triangle test: random blades (flat
// and twisted sweeps) against segments with ends on, just off and far off the blade's planes.
TEST(Cutting, BladeCrossingEqualsTheExactTest) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto point = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  int hits = 0, near_plane = 0;
  for (int b = 0; b < 200; ++b) {
    Blade blade{point(), point(), point(), point()};
    if (b % 2 == 0) blade.b1 = blade.a1 + (blade.b0 - blade.a0);  // a flat sweep (a parallelogram)
    const BladeCrossing crossing(blade);
    const Vec3 n = (blade.b0 - blade.a0).cross(blade.b1 - blade.a0).normalized();
    for (int s = 0; s < 200; ++s) {
      Vec3 p = point(), q = point();
      if (s % 4 == 1) {  // an end on the first triangle's plane, up to rounding
        p -= n * n.dot(p - blade.a0);
        ++near_plane;
      } else if (s % 4 == 2) {  // both ends a hair off the plane on one side
        p -= n * (n.dot(p - blade.a0) - 1e-13);
        q -= n * (n.dot(q - blade.a0) - 2e-13);
        ++near_plane;
      }
      const Ray ray{p, q - p};
      const bool exact = intersect_ray_triangle(ray, blade.a0, blade.b0, blade.b1, 1.0).has_value() ||
                         intersect_ray_triangle(ray, blade.a0, blade.b1, blade.a1, 1.0).has_value();
      ASSERT_EQ(crossing(p, q), exact) << b << " " << s;
      ASSERT_EQ(crosses(blade, p, q), exact) << b << " " << s;
      hits += exact;
    }
  }
  EXPECT_GT(hits, 1000);  // both answers are exercised
  EXPECT_GT(near_plane, 10000);
}

TEST(Cutting, NoLinkCrossesTheCutAndConstantsStayExact) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.1, 0.03, 0.03), 0.01, 0.5);
  const double mass = body.total_mass();
  const std::size_t links = body.link_count();
  std::vector<CutEvent> events;
  const Index removed = cut_links(body, body.position, vertical_blade(), 1e4, events);
  EXPECT_GT(removed, 0);
  EXPECT_EQ(body.link_count(), links - static_cast<std::size_t>(removed));
  EXPECT_FALSE(events.empty());
  for (std::size_t i = 0; i < body.rest.size(); ++i) {
    for (Index l = body.link_begin[i]; l < body.link_begin[i + 1]; ++l) {
      const auto j = static_cast<std::size_t>(body.link_target[static_cast<std::size_t>(l)]);
      EXPECT_FALSE(crosses(vertical_blade(), body.position[i], body.position[j]));
      EXPECT_EQ(body.rest[i].x() < 0.05, body.rest[j].x() < 0.05) << "a link across the plane x = 0.05";
    }
  }
  // The by-target lists agree with the links.
  EXPECT_EQ(body.in_link.size(), body.link_count());
  for (std::size_t j = 0; j < body.rest.size(); ++j) {
    for (Index k = body.in_begin[j]; k < body.in_begin[j + 1]; ++k) {
      EXPECT_EQ(body.link_target[static_cast<std::size_t>(body.in_link[static_cast<std::size_t>(k)])],
                static_cast<Index>(j));
    }
  }
  EXPECT_EQ(body.total_mass(), mass);
  // Each side still reproduces affine fields exactly (no neighbourhood there became degenerate).
  Mat3 A;
  A << 1.1, 0.2, 0.0, -0.1, 0.95, 0.3, 0.05, 0.0, 1.2;
  std::vector<Vec3> x;
  for (const Vec3& p : body.rest) x.push_back(A * p);
  for (Index i = 0; i < body.size(); ++i) {
    ASSERT_NE(body.fix[static_cast<std::size_t>(i)], NeighbourhoodFix::regularised);
    EXPECT_LT((deformation_gradient(body, x, i) - A).norm(), 1e-12) << i;
  }
}

TEST(Cutting, PiecesSeparateUnderGravity) {
  MeshlessBodyDef def;
  def.sampling.spacing = 0.01;
  def.mls.materials = {test::jelly()};
  def.gravity = Vec3(0, 0, -9.81);
  // A given substep (about half the stable one): every step takes equal substeps, so the free fall
  // below is exact (the default shortens substeps within a step while the held piece stretches).
  def.dt = 5e-4;
  auto built = MeshlessBody::build(test::box_surface(Vec3::Zero(), Vec3(0.1, 0.03, 0.03)), def);
  ASSERT_TRUE(built.ok()) << built.message();
  MeshlessBody b = std::move(built).value();
  const double mass = b.phyxels().total_mass();
  for (Index i = 0; i < b.phyxels().size(); ++i) {
    if (b.phyxels().rest[static_cast<std::size_t>(i)].x() < 0.01) b.set_fixed(i, true);
  }
  EXPECT_FALSE(b.cut({Vec3(1, 1, 1), Vec3(2, 1, 1), Vec3(1, 1, 2), Vec3(2, 1, 2)}));              // misses
  EXPECT_FALSE(b.cut({Vec3(0.05, 0, 0), Vec3(0.05, 0, 0), Vec3(0.05, 0, 0), Vec3(0.05, 0, 0)}));  // no area
  ASSERT_TRUE(b.cut(vertical_blade()));
  Profile profile;
  const auto right_centre = [&] {
    Vec3 c = Vec3::Zero();
    double m = 0.0;
    for (std::size_t i = 0; i < b.phyxels().rest.size(); ++i) {
      if (b.phyxels().rest[i].x() < 0.05) continue;
      c += b.phyxels().mass[i] * b.phyxels().position[i];
      m += b.phyxels().mass[i];
    }
    return Vec3(c / m);
  };
  const Vec3 c0 = right_centre();
  b.step(0.01, profile);
  EXPECT_FALSE(b.cut_events().empty());
  for (int s = 1; s < 20; ++s) b.step(0.01, profile);
  // The free piece falls like a free body: its internal forces cancel and nothing holds it.
  const double per_step = std::ceil(0.01 / b.substep() * (1.0 - 1e-12));  // substeps per step
  const double h = 0.01 / per_step, n = 20 * per_step;
  EXPECT_NEAR((right_centre() - c0).z(), -9.81 * h * h * n * (n + 1) / 2, 1e-9);
  // The held piece hangs from its support: it sags, it does not fall.
  double lowest_left = 1e300;
  for (std::size_t i = 0; i < b.phyxels().rest.size(); ++i) {
    if (b.phyxels().rest[i].x() < 0.05) lowest_left = std::min(lowest_left, b.phyxels().position[i].z());
  }
  EXPECT_GT(lowest_left, -0.02);
  EXPECT_LT((right_centre() - c0).z(), -0.15);
  EXPECT_EQ(b.phyxels().total_mass(), mass);
  // The surface follows each piece: the vertices at x = 0.1 fell with the right piece.
  for (std::size_t v = 0; v < b.surface().vertex_count(); ++v) {
    if (b.surface().rest_positions()[v].x() > 0.09) {
      EXPECT_LT(b.surface_positions()[v].z(), -0.1);
    }
  }
}

}  // namespace
}  // namespace pliant::meshless
