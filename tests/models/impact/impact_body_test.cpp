// The impact family in a scene: read from JSON, found through the ImpactTarget capability, dents
// under an absorbed projectile by the falloff formula and reports one impact event; a projectile
// that misses changes nothing.
#include "pliant/models/impact/falloff.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/impact_scene_body.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

namespace pliant::scene {
namespace {

constexpr const char* kScene = R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "panel",
  "family": "impact", "mesh": {"shape": "rect", "size": [0.2, 0.2], "cells": [20, 20]},
  "impact": {"resistance": 0.25, "falloff_radius": 0.05, "hardness": 2.0, "min_force": 1.0,
             "projectile_deceleration": 40.0,
             "regions": [{"region": "x>0.15", "resistance": 1.0}]}}]})";

TEST(ImpactBody, AbsorbedProjectileDentsByTheFalloff) {
  Result<Scene> scene = parse_scene(kScene, "panel.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  Body& body = world.body(0);
  ASSERT_EQ(body.family(), "impact");
  ImpactTarget* target = capability<ImpactTarget>(body);
  ASSERT_NE(target, nullptr);
  const auto rest =
      std::vector<Vec3>(body.surface_rest_positions().begin(), body.surface_rest_positions().end());
  const Vec3 aim = rest[10 * 21 + 10];  // the plate's centre node

  // A projectile passing beside the plate: no hit.
  EXPECT_EQ(target->impact({aim + Vec3(0.5, 0, 0.01), Vec3(0, 0, -2), 0.5, 0.0}, 0.01), Vec3::Zero());
  // One reaching the plate within the step is absorbed.
  const Vec3 v(0, 0, -2.0);
  EXPECT_EQ(target->impact({aim + Vec3(0, 0, 0.01), v, 0.5, 0.0}, 0.01), -v);
  int events = 0;
  for (int s = 0; s < 100; ++s) {
    world.step();
    for (const impact::ImpactEvent& e : body.events().get<impact::ImpactEvent>()) {
      ++events;
      EXPECT_NEAR((e.position - aim).norm(), 0.0, 1e-12);
      EXPECT_GT(e.affected_points, 10);
      EXPECT_DOUBLE_EQ(e.force, 0.5 * 40.0);
    }
  }
  EXPECT_EQ(events, 1);
  const double S = 4.0 / (2 * 40.0);
  const auto x = body.surface_positions();
  for (std::size_t n = 0; n < x.size(); ++n) {
    const double R = rest[n].x() > 0.15 ? 1.0 : 0.25;
    EXPECT_NEAR(x[n].z() - rest[n].z(), -(1 - R) * impact::falloff((rest[n] - aim).norm(), 0.05, 2.0) * S,
                1e-12);
  }
  ASSERT_NE(impact_target(body), nullptr);
  EXPECT_EQ(impact_target(body)->status(0).phase, impact::ProjectilePhase::stopped);
}

// A projectile accelerating toward the plate: until contact it is where constant acceleration puts
// it, x0 + v0·t + a·t²/2, and the target receives the acceleration too, so it meets the plate at the
// speed v² = v0² + 2·a·h and dents the centre node by (1 - R)·S with S = v²/(2·deceleration).
TEST(ProjectileInteraction, AcceleratesTowardTheTargetUntilContact) {
  const std::string text = R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "panel",
    "family": "impact", "mesh": {"shape": "rect", "size": [0.2, 0.2], "cells": [20, 20]},
    "impact": {"resistance": 0.25, "falloff_radius": 0.05, "hardness": 2.0, "projectile_deceleration": 40.0}}],
    "interactions": [{"type": "projectile", "start": [0.1, 0.1, 0.05], "velocity": [0, 0, -0.1],
                      "acceleration": [0, 0, -9.81], "mass": 0.5}]})";
  Result<Scene> scene = parse_scene(text, "fall.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const Vec3 x0(0.1, 0.1, 0.05), v0(0, 0, -0.1), a(0, 0, -9.81);
  const Vec3 aim = world.body(0).surface_rest_positions()[10 * 21 + 10];
  ASSERT_NEAR((aim - Vec3(0.1, 0.1, 0.0)).norm(), 0.0, 1e-12);
  // Contact at 4.905·t² + 0.1·t = 0.05, t = 0.0913 s: in the tenth step.
  int steps = 0;
  while (steps < 20 && !world.projectiles()[0].done) {
    world.step();
    ++steps;
    const ScriptedProjectile& p = world.projectiles()[0];
    const double t = steps * 0.01;
    if (!p.done) {
      EXPECT_NEAR((p.position - (x0 + v0 * t + 0.5 * t * t * a)).norm(), 0.0, 1e-12) << "step " << steps;
    }
  }
  EXPECT_EQ(steps, 10);
  for (int s = 0; s < 30; ++s) world.step();
  const double S = (v0.squaredNorm() + 2.0 * 9.81 * 0.05) / (2.0 * 40.0);
  const auto x = world.body(0).surface_positions();
  EXPECT_NEAR(x[10 * 21 + 10].z() - aim.z(), -(1.0 - 0.25) * S, 1e-9);
}

// The viewer's "fire along the mouse ray": a point projectile from the ray's origin at the given
// speed along its direction, launched at the world's time, dents the plate where the ray meets it.
TEST(ProjectileInteraction, FiredAlongARayDentsWhereTheRayMeetsThePlate) {
  EXPECT_FALSE(projectile_along_ray(Ray{Vec3::Zero(), Vec3::Zero()}, 5.0, 0.1, 0.0));
  EXPECT_FALSE(projectile_along_ray(Ray{Vec3::Zero(), Vec3(0, 0, -1)}, 0.0, 0.1, 0.0));
  EXPECT_FALSE(projectile_along_ray(Ray{Vec3::Zero(), Vec3(0, 0, -1)}, 5.0, -1.0, 0.0));
  EXPECT_FALSE(projectile_along_ray(Ray{Vec3(NAN, 0, 0), Vec3(0, 0, -1)}, 5.0, 0.1, 0.0));

  Result<Scene> scene = parse_scene(kScene, "panel.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  for (int s = 0; s < 3; ++s) world.step();
  // A camera up and to the side, its ray through (0.07, 0.12, 0) on the plate (not a node).
  const Vec3 eye(0.3, -0.2, 0.4), on_plate(0.07, 0.12, 0.0);
  const Ray ray{eye, 3.0 * (on_plate - eye)};  // any length: only the direction counts
  const std::optional<ScriptedProjectile> p = projectile_along_ray(ray, 8.0, 0.5, world.time());
  ASSERT_TRUE(p);
  EXPECT_EQ(p->start, eye);
  EXPECT_NEAR((p->velocity - 8.0 * (on_plate - eye).normalized()).norm(), 0.0, 1e-12);
  EXPECT_EQ(p->mass, 0.5);
  EXPECT_EQ(p->time, world.time());
  EXPECT_EQ(p->shape, nullptr);
  world.add(*p);
  int events = 0;
  for (int s = 0; s < 40; ++s) {
    world.step();
    for (const impact::ImpactEvent& e : world.body(0).events().get<impact::ImpactEvent>()) {
      ++events;
      EXPECT_NEAR((e.position - on_plate).norm(), 0.0, 1e-12);
    }
  }
  EXPECT_EQ(events, 1);
  EXPECT_TRUE(world.projectiles()[0].done);
}

TEST(ImpactBody, RejectsBadKeys) {
  std::string bad = kScene;
  bad.replace(bad.find("\"resistance\": 0.25"), 18, "\"resistance\": 1.25");
  const Result<Scene> scene = parse_scene(bad, "panel.json");
  ASSERT_FALSE(scene.ok());
  EXPECT_NE(scene.message().find("resistance"), std::string::npos) << scene.message();
}

}  // namespace
}  // namespace pliant::scene

namespace pliant::scene {
namespace {

TEST(ProjectileInteraction, ImpactTargetsAreAskedFirstAndAbsorb) {
  const std::string text = R"({"pliant": 1, "time_step": 0.01, "bodies": [
    {"name": "panel", "family": "impact", "mesh": {"shape": "rect", "size": [0.2, 0.2], "cells": [20, 20]},
     "impact": {"resistance": 0.0, "falloff_radius": 0.05, "projectile_deceleration": 40.0}},
    {"name": "sheet", "family": "springs", "mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [6, 6]},
     "fixed": ["xmin"], "springs": {"method": "dragnet_mass_spring", "mass_damping": 5.0}}],
   "interactions": [
    {"type": "projectile", "start": [0.1, 0.1, 0.1], "velocity": [0, 0, -2], "acceleration": [0, 0, -9.81],
     "mass": 0.5, "time": 0.02},
    {"type": "projectile", "start": [0.08, 0.05, 0.1], "velocity": [0, 0, -2], "mass": 0.01, "time": 0.0}]})";
  // The sheet lies in the panel's plane, inside it: the panel, asked first, absorbs both.
  Result<Scene> scene = parse_scene(text, "two.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  int impacts = 0;
  for (int s = 0; s < 100; ++s) {
    world.step();
    impacts += static_cast<int>(world.body(0).events().get<impact::ImpactEvent>().size());
  }
  EXPECT_EQ(impacts, 2);  // both projectiles reach the panel first (it is asked first and spans both)
  for (const ScriptedProjectile& p : world.projectiles()) {
    EXPECT_TRUE(p.done);
    EXPECT_EQ(p.hit_body, 0);
  }
  // The panel is dented below its rest plane at the first aim point.
  double deepest = 0;
  for (const Vec3& x : world.body(0).surface_positions()) deepest = std::min(deepest, x.z());
  EXPECT_LT(deepest, -0.01);
}

TEST(ProjectileInteraction, BodiesWithoutImpactCapabilityGetTheMomentumAsAForce) {
  const std::string text = R"({"pliant": 1, "time_step": 0.01, "bodies": [
    {"name": "sheet", "family": "springs", "mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [6, 6]},
     "fixed": ["xmin"], "springs": {"method": "dragnet_mass_spring", "mass_damping": 5.0}}],
   "interactions": [{"type": "projectile", "start": [0.08, 0.05, 0.05], "velocity": [0, 0, -1], "mass": 0.001}]})";
  Result<Scene> scene = parse_scene(text, "sheet.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  for (int s = 0; s < 20; ++s) world.step();
  const ScriptedProjectile& p = world.projectiles()[0];
  EXPECT_TRUE(p.done);
  EXPECT_EQ(p.hit_body, 0);
  EXPECT_NEAR(p.position.z(), 0.0, 1e-12);
  double moved = 0;
  const auto x = world.body(0).surface_positions();
  const auto x0 = world.body(0).surface_rest_positions();
  for (std::size_t n = 0; n < x.size(); ++n) moved = std::max(moved, (x[n] - x0[n]).norm());
  EXPECT_GT(moved, 1e-6);  // the push moved the sheet
}

}  // namespace
}  // namespace pliant::scene
