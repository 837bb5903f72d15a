// DentTarget: the dent profile is the falloff formula, nothing moves below the minimum force or
// outside φ, misses pass by, the three query structures agree (point and mesh projectiles, second
// impacts on a deformed surface), and 1 and 2 threads give the same state.
#include "pliant/models/impact/dent_target.hpp"
#include "impact_test_meshes.hpp"
#include "pliant/models/impact/falloff.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::impact {
namespace {

constexpr double kDt = 1.0 / 60.0;

// Loops of 64 or more rays or nodes run on `threads` threads, so small meshes exercise the parallel
// paths too.
DentTarget make(const TriMesh& m, const ImpactMaterial& mat, ImpactMethod method, int threads = 1,
                std::vector<ImpactRegion> regions = {}) {
  auto t = DentTarget::create(m, mat, regions, {method, 0, threads, 64});
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.message());
  return std::move(t).value();
}

Projectile point_at(const Vec3& target, double height, double speed, double deceleration) {
  Projectile p;
  p.position = target + Vec3(0, 0, height);
  p.velocity = Vec3(0, 0, -speed);
  p.contact_deceleration = deceleration;
  p.mass = 2.0;
  return p;
}

void run(DentTarget& t, int max_steps = 600) {
  for (int s = 0; s < max_steps; ++s) {
    t.step(kDt);
    bool active = false;
    for (Index p = 0; p < t.projectile_count(); ++p)
      active |= t.status(p).phase == ProjectilePhase::flying || t.status(p).phase == ProjectilePhase::denting;
    if (!active) return;
  }
}

TEST(Falloff, MatchesFormula) {
  EXPECT_DOUBLE_EQ(falloff(0.0, 0.1, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(falloff(0.1, 0.1, 3.0), 0.0);
  EXPECT_DOUBLE_EQ(falloff(0.2, 0.1, 3.0), 0.0);
  EXPECT_DOUBLE_EQ(falloff(0.05, 0.1, 3.0), std::pow(0.75, 3.0));
  EXPECT_GT(falloff(0.05, 0.1, 1.0), falloff(0.05, 0.1, 4.0));  // harder: narrower
}

TEST(DentTarget, PointDentProfileIsTheFalloffFormula) {
  const TriMesh m = testing::plate(40, 1.0);
  ImpactMaterial mat{0.3, 0.12, 2.5, 1.0};
  // A stiffer strip (R = 0.8) for x > 0.55: its nodes follow their own resistance.
  std::vector<ImpactRegion> regions{{HalfSpaceRegion{0, Comparison::greater, 0.55}, {0.8, 0.12, 2.5, 1.0}}};
  for (ImpactMethod method : {ImpactMethod::brute_force, ImpactMethod::octree, ImpactMethod::bvh_grid}) {
    DentTarget t = make(m, mat, method, 1, regions);
    const Vec3 aim(0.51, 0.487, 0.0);
    const double speed = 3.0, dec = 100.0;
    t.launch(point_at(aim, 0.3, speed, dec));
    run(t);
    ASSERT_EQ(t.status(0).phase, ProjectilePhase::stopped) << to_string(method);
    const double S = speed * speed / (2 * dec);
    EXPECT_NEAR(t.dent(0).stopping_distance, S, 1e-12);
    EXPECT_NEAR(t.status(0).position.z(), -S, 1e-9);
    Index moved = 0;
    for (std::size_t n = 0; n < m.positions.size(); ++n) {
      const Vec3& x0 = m.positions[n];
      const double R = x0.x() > 0.55 ? 0.8 : 0.3;
      const double expected = (1 - R) * falloff((x0 - aim).norm(), 0.12, 2.5) * S;
      const Vec3 d = t.surface().positions[n] - x0;
      EXPECT_NEAR(d.z(), -expected, 1e-12) << n;
      EXPECT_EQ(d.x(), 0.0);
      EXPECT_EQ(d.y(), 0.0);
      if ((x0 - aim).norm() >= 0.12) {
        EXPECT_EQ(d.z(), 0.0);  // nothing outside φ
      }
      moved += d.z() != 0.0;
    }
    EXPECT_GT(moved, 50);
    EXPECT_EQ(moved, static_cast<Index>(t.dent(0).nodes.size()));
  }
}

TEST(DentTarget, NothingMovesBelowMinimumForce) {
  const TriMesh m = testing::plate(20, 1.0);
  DentTarget t = make(m, {0.0, 0.2, 2.0, 500.0}, ImpactMethod::bvh_grid);
  t.launch(point_at({0.5, 0.5, 0}, 0.2, 2.0, 100.0));  // 2 kg · 100 m/s² = 200 N < 500 N
  std::size_t events = 0;
  for (int s = 0; s < 120; ++s) {
    t.step(kDt);
    for (const ImpactEvent& e : t.events()) {
      ++events;
      EXPECT_EQ(e.affected_points, 0);
      EXPECT_EQ(e.depth, 0.0);
      EXPECT_DOUBLE_EQ(e.force, 200.0);
      EXPECT_NEAR(e.position.z(), 0.0, 1e-12);
      EXPECT_NEAR(std::abs(e.normal.z()), 1.0, 1e-12);
    }
  }
  EXPECT_EQ(events, 1u);
  EXPECT_EQ(t.status(0).phase, ProjectilePhase::stopped);
  EXPECT_EQ(t.surface().positions, m.positions);
}

TEST(DentTarget, MissPassesBy) {
  const TriMesh m = testing::plate(20, 1.0);
  DentTarget t = make(m, {}, ImpactMethod::octree);
  Projectile p = point_at({1.5, 0.5, 0}, 0.2, 3.0, 50.0);
  p.acceleration = Vec3(0, 0, -9.81);
  t.launch(p);
  run(t);
  EXPECT_EQ(t.status(0).phase, ProjectilePhase::passed);
  EXPECT_EQ(t.surface().positions, m.positions);
}

TEST(DentTarget, MeshProjectileEqualsBruteForce) {
  const TriMesh m = testing::plate(48, 1.0);
  const ImpactMaterial mat{0.2, 0.08, 1.5, 0.0};
  Projectile p;
  p.shape = testing::sphere(0.1, 12, 24);
  p.position = Vec3(0.47, 0.52, 0.35);
  p.velocity = Vec3(0.2, -0.1, -2.0);
  p.acceleration = Vec3(0, 0, -20.0);
  DentTarget ref = make(m, mat, ImpactMethod::brute_force);
  ref.launch(p);
  run(ref);
  const Dent& want = ref.dent(0);
  ASSERT_GT(want.hits.size(), 10u);  // vertex rays and inverse rays found surface under the sphere
  ASSERT_GT(want.nodes.size(), 50u);
  for (ImpactMethod method : {ImpactMethod::octree, ImpactMethod::bvh_grid}) {
    DentTarget t = make(m, mat, method);
    t.launch(p);
    run(t);
    const Dent& got = t.dent(0);
    ASSERT_EQ(got.nodes, want.nodes) << to_string(method);
    ASSERT_EQ(got.hits.size(), want.hits.size());
    for (std::size_t k = 0; k < want.nodes.size(); ++k) EXPECT_NEAR(got.weights[k], want.weights[k], 1e-12);
    for (std::size_t n = 0; n < m.positions.size(); ++n)
      EXPECT_NEAR((t.surface().positions[n] - ref.surface().positions[n]).norm(), 0.0, 1e-12);
  }
  // Intensity is (1 - R)·f of the distance to the nearest direct hit: the deepest nodes (under the
  // sphere, found by inverse rays) move the full (1 - R)·S.
  double wmax = 0;
  for (double w : want.weights) wmax = std::max(wmax, w);
  EXPECT_DOUBLE_EQ(wmax, 1.0 - mat.resistance);
}

// Two sphere shots at one spot, the second into the first's dent, on two threads: every structure
// dents exactly as brute force (the inverse rays' occlusion queries, the k-d tree of hits and the
// per-dent marks of hit nodes, which must be cleared before the second shot).
TEST(DentTarget, SecondMeshProjectileEqualsBruteForce) {
  const TriMesh m = testing::plate(40, 1.0);
  const ImpactMaterial mat{0.2, 0.06, 2.0, 0.0};
  Projectile p;
  p.shape = testing::sphere(0.1, 10, 20);
  p.position = Vec3(0.5, 0.5, 0.2);
  p.velocity = Vec3(0.0, 0.0, -2.0);
  p.contact_deceleration = 60.0;
  Projectile q = p;
  q.position = Vec3(0.53, 0.5, 0.25);
  q.velocity = Vec3(-0.3, 0.0, -2.5);
  auto shoot = [&](ImpactMethod method) {
    DentTarget t = make(m, mat, method, 2);
    t.launch(p);
    run(t);
    t.launch(q);
    run(t);
    return t;
  };
  const DentTarget ref = shoot(ImpactMethod::brute_force);
  ASSERT_GT(ref.dent(1).nodes.size(), 30u);
  ASSERT_NE(ref.dent(1).nodes, ref.dent(0).nodes);
  for (ImpactMethod method : {ImpactMethod::octree, ImpactMethod::bvh_grid}) {
    const DentTarget t = shoot(method);
    for (Index shot = 0; shot < 2; ++shot) {
      ASSERT_EQ(t.dent(shot).nodes, ref.dent(shot).nodes) << to_string(method) << " shot " << shot;
      ASSERT_EQ(t.dent(shot).hits.size(), ref.dent(shot).hits.size());
      for (std::size_t k = 0; k < ref.dent(shot).nodes.size(); ++k)
        EXPECT_NEAR(t.dent(shot).weights[k], ref.dent(shot).weights[k], 1e-12);
    }
    for (std::size_t n = 0; n < m.positions.size(); ++n)
      EXPECT_NEAR((t.surface().positions[n] - ref.surface().positions[n]).norm(), 0.0, 1e-12);
  }
}

TEST(DentTarget, SecondImpactHitsTheDeformedSurface) {
  const TriMesh m = testing::plate(32, 1.0);
  const ImpactMaterial mat{0.0, 0.15, 1.0, 0.0};
  std::vector<std::vector<Vec3>> hit_points;
  for (ImpactMethod method : {ImpactMethod::brute_force, ImpactMethod::octree, ImpactMethod::bvh_grid}) {
    DentTarget t = make(m, mat, method);
    t.launch(point_at({0.5, 0.5, 0}, 0.2, 4.0, 40.0));  // a deep dent, S = 0.2 m
    run(t);
    // A slanted second shot into the dent's wall: it must meet the deformed surface.
    Projectile p = point_at({0.5, 0.5, 0}, 0.3, 2.0, 40.0);
    p.position += Vec3(0.2, 0.0, 0.0);
    p.velocity = Vec3(-1.0, 0.0, -2.0);
    t.launch(p);
    std::vector<Vec3> hits;
    for (int s = 0; s < 600 && t.status(1).phase == ProjectilePhase::flying; ++s) {
      t.step(kDt);
      for (const ImpactEvent& e : t.events()) hits.push_back(e.position);
    }
    ASSERT_EQ(hits.size(), 1u) << to_string(method);
    // The hit lies on the dented surface, below the flat plate.
    EXPECT_LT(hits[0].z(), -0.01);
    // And a brute-force cast on the deformed mesh along the same line meets it at the same place.
    const Ray ray{p.position, p.velocity};
    std::optional<double> brute;
    const auto& x = t.surface().positions;
    for (const Tri& tri : t.surface().triangles)
      if (auto h = intersect_ray_triangle(ray, x[tri[0]], x[tri[1]], x[tri[2]]))
        if (!brute || h->t < *brute) brute = h->t;
    // (the first shot has stopped, so the surface did not move since the second shot's contact)
    ASSERT_TRUE(brute.has_value());
    EXPECT_NEAR((ray.at(*brute) - hits[0]).norm(), 0.0, 1e-9);
    hit_points.push_back(hits);
  }
  EXPECT_NEAR((hit_points[1][0] - hit_points[0][0]).norm(), 0.0, 1e-12);
  EXPECT_NEAR((hit_points[2][0] - hit_points[0][0]).norm(), 0.0, 1e-12);
}

TEST(DentTarget, SeveralProjectilesAtOnceEqualEachAlone) {
  const TriMesh m = testing::plate(30, 1.0);
  const ImpactMaterial mat{0.1, 0.1, 2.0, 0.0};
  const Projectile a = point_at({0.25, 0.25, 0}, 0.2, 2.0, 60.0);
  const Projectile b = point_at({0.75, 0.7, 0}, 0.5, 3.0, 60.0);
  DentTarget both = make(m, mat, ImpactMethod::octree);
  both.launch(a);
  both.launch(b);
  run(both);
  DentTarget only_a = make(m, mat, ImpactMethod::octree), only_b = make(m, mat, ImpactMethod::octree);
  only_a.launch(a);
  only_b.launch(b);
  run(only_a);
  run(only_b);
  for (std::size_t n = 0; n < m.positions.size(); ++n) {
    const Vec3 sum = only_a.surface().positions[n] + only_b.surface().positions[n] - m.positions[n];
    EXPECT_NEAR((both.surface().positions[n] - sum).norm(), 0.0, 1e-12);
  }
}

TEST(DentTarget, SameStateOnOneAndTwoThreads) {
  const TriMesh m = testing::plate(60, 1.0);
  Projectile p;
  p.shape = testing::sphere(0.12, 16, 32);
  p.position = Vec3(0.5, 0.5, 0.4);
  p.velocity = Vec3(0, 0, -2.5);
  p.contact_deceleration = 30.0;
  std::uint64_t hashes[2];
  for (int threads : {1, 2}) {
    DentTarget t = make(m, {0.1, 0.1, 2.0, 0.0}, ImpactMethod::bvh_grid, threads);
    t.launch(p);
    t.launch(point_at({0.2, 0.8, 0}, 0.3, 2.0, 30.0));
    run(t);
    EXPECT_GT(t.dent(0).nodes.size(), 100u);
    hashes[threads - 1] = t.state_hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

TEST(DentTarget, RejectsBadInput) {
  EXPECT_FALSE(DentTarget::create(testing::plate(2, 1.0), {1.5, 0.1, 2.0, 0.0}).ok());
  EXPECT_FALSE(DentTarget::create(testing::plate(2, 1.0), {0.5, -0.1, 2.0, 0.0}).ok());
  EXPECT_FALSE(DentTarget::create(TriMesh{}, {}).ok());
}

}  // namespace
}  // namespace pliant::impact

namespace pliant::impact {
namespace {

// A session of many impacts: drop_finished forgets stopped and passed projectiles only, keeps the
// rest in launch order, and leaves the dents in the surface. Without it the target kept every
// projectile ever launched (2.4 kB an impact in the soak of docs/soak.md).
TEST(DentTarget, DropFinishedForgetsOnlyFinishedProjectilesAndKeepsTheDents) {
  const TriMesh m = testing::plate(20, 1.0);
  DentTarget t = make(m, {}, ImpactMethod::bvh_grid);
  Projectile miss = point_at({1.5, 0.5, 0}, 0.2, 3.0, 50.0);
  miss.acceleration = Vec3(0, 0, -9.81);
  t.launch(point_at({0.5, 0.5, 0}, 0.2, 3.0, 50.0));  // dents, then stops
  t.launch(miss);                                     // passes by
  run(t);
  ASSERT_EQ(t.status(0).phase, ProjectilePhase::stopped);
  ASSERT_EQ(t.status(1).phase, ProjectilePhase::passed);
  const std::vector<Vec3> dented = t.surface().positions;
  ASSERT_NE(dented, m.positions);
  Projectile late = point_at({0.3, 0.3, 0}, 5.0, 1.0, 50.0);  // still flying after one step
  t.launch(late);
  t.step(kDt);
  ASSERT_EQ(t.status(2).phase, ProjectilePhase::flying);
  const Vec3 flying_at = t.status(2).position;

  t.drop_finished();
  ASSERT_EQ(t.projectile_count(), 1);
  EXPECT_EQ(t.status(0).phase, ProjectilePhase::flying);
  EXPECT_EQ(t.status(0).position, flying_at);
  EXPECT_EQ(t.surface().positions, dented);

  // A hundred impacts, each dropped after it finishes: the target never holds more than one.
  for (int i = 0; i < 100; ++i) {
    t.launch(point_at({0.5, 0.5, 0}, 0.05, 1.0, 50.0));
    for (int s = 0; s < 60; ++s) {
      t.step(kDt);
      t.drop_finished();
    }
    EXPECT_LE(t.projectile_count(), 2) << "impact " << i;
  }
}

}  // namespace
}  // namespace pliant::impact
