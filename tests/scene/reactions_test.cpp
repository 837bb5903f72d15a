// Reactions as data (reactions.hpp): the rows of a scripted grab equal its body's own reaction, a
// collider's row is minus the contact force it applies (a resting block's weight), the CSV has one
// line per step and source, and the summary statistics are those of the rows.
#include "pliant/scene/reactions.hpp"
#include "pliant/scene/checked_grab.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

namespace pliant::scene {
namespace {

constexpr double kG = 9.81;

std::unique_ptr<Body> body_from(const std::string& json, double dt) {
  Result<std::unique_ptr<Body>> body = make_body(json, "reactions.json", dt);
  EXPECT_TRUE(body.ok()) << body.message();
  return body.ok() ? std::move(body).value() : nullptr;
}

// A Green block 4 cm a side, clamped at its base.
std::unique_ptr<Body> green_block(double dt) {
  return body_from(
      R"({"name": "g", "family": "green", "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]},
          "material": {"E": 1e5, "nu": 0.3}, "fixed": ["zmin"]})",
      dt);
}

Collider plane(const std::string& name, const Vec3& normal, const Vec3& position) {
  Collider c;
  c.name = name;
  c.shape = ColliderShape::plane;
  c.normal = normal.normalized();
  c.pose.position = position;
  return c;
}

// The point straight below (x, y) on the top of a body whose top is below z = 1.
SurfacePoint top_point(World& world, double x, double y) {
  const std::optional<WorldHit> hit = world.pick(Ray{Vec3(x, y, 1.0), -Vec3::UnitZ()});
  EXPECT_TRUE(hit.has_value());
  return hit ? hit->point : SurfacePoint{};
}

TEST(Reactions, GreenGrabRowsAreTheBodysOwnReaction) {
  const double dt = 0.01;
  World world(dt);
  world.add_body(green_block(dt));
  // A plane far below touches nothing: its row stays zero.
  ASSERT_TRUE(world.add_collider(plane("floor", Vec3::UnitZ(), Vec3(0.0, 0.0, -1.0))).ok());
  ScriptedGrab g;
  g.body = 0;
  g.point = top_point(world, 0.013, 0.017);
  g.start = 0.05;  // grabbed at the end of step 5
  g.release = 0.15;
  g.track = {{0.0, Vec3::Zero()}, {0.1, Vec3(0.001, 0.0, 0.003)}};
  world.add(g);

  ReactionSeries series(world);
  ASSERT_EQ(series.names(), (std::vector<std::string>{"grab:0", "collider:floor"}));
  constexpr int kSteps = 20;
  std::vector<Vec3> expected;
  for (int s = 1; s <= kSteps; ++s) {
    world.step();
    series.record(world);
    const ScriptedGrab& held = world.scripted_grabs()[0];
    const Body& body = world.body(0);
    // While held, exactly the body's reaction; before the start and after the release, zero.
    expected.push_back(body.holds(held.id) ? body.grab_reaction(held.id) : Vec3::Zero());
  }
  ASSERT_EQ(series.rows(), static_cast<std::size_t>(kSteps));
  double peak = 0.0;
  int held_rows = 0;
  for (std::size_t r = 0; r < series.rows(); ++r) {
    EXPECT_EQ(series.steps()[r], r + 1);
    EXPECT_DOUBLE_EQ(series.times()[r], dt * static_cast<double>(r + 1));
    EXPECT_EQ(series.forces()[2 * r], expected[r]) << "row " << r;
    EXPECT_EQ(series.forces()[2 * r + 1], Vec3::Zero()) << "the floor touches nothing";
    held_rows += expected[r] != Vec3::Zero();
    peak = std::max(peak, expected[r].norm());
  }
  // Pulled up by up to 3 mm from step 6 to the release at step 15: the body pulls back (down).
  EXPECT_GE(held_rows, 8);
  EXPECT_EQ(series.forces()[0], Vec3::Zero());
  EXPECT_EQ(series.forces()[2 * (kSteps - 1)], Vec3::Zero()) << "released";
  EXPECT_LT(series.forces()[2 * 12].z(), 0.0);
  const std::vector<ReactionSeries::Stats> stats = series.stats();
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_DOUBLE_EQ(stats[0].peak, peak);
  EXPECT_GT(stats[0].max_jump, 0.0);
  EXPECT_EQ(stats[1].peak, 0.0);
  EXPECT_EQ(stats[1].max_jump, 0.0);

  // The CSV: a header and steps × (grabs + colliders) lines, each reading back the same numbers.
  const std::string csv = series.csv();
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "step,time,name,fx,fy,fz");
  std::size_t lines = 0;
  while (std::getline(in, line)) {
    const std::size_t r = lines / 2, k = lines % 2;
    char name[64];
    unsigned long long step = 0;
    double t = 0, fx = 0, fy = 0, fz = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%llu,%lf,%63[^,],%lf,%lf,%lf", &step, &t, name, &fx, &fy, &fz), 6)
        << line;
    EXPECT_EQ(step, r + 1);
    EXPECT_EQ(std::string(name), series.names()[k]);
    EXPECT_EQ(Vec3(fx, fy, fz), series.forces()[lines]) << "numbers read back exactly: " << line;
    ++lines;
  }
  EXPECT_EQ(lines, static_cast<std::size_t>(kSteps) * 2);
}

// A FEM block of 1 kg resting on a plane under gravity: once settled, the plane's row is the weight
// pressing down on it, −m·g ẑ. The tolerance is 1e-6 of the weight, as in the contact tests: 10 s of
// mass damping α = 8 /s leaves no transient (e^−80), so what is left is the contact solver's
// tolerance, not the dynamics.
TEST(Reactions, RestingBlockPressesItsWeightOnTheFloor) {
  const double dt = 1.0 / 60.0;
  World world(dt);
  world.add_body(body_from(R"({"name": "block", "family": "fem",
      "mesh": {"shape": "box", "origin": [0, 0, 0], "size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]},
      "material": {"E": 2e5, "nu": 0.3, "density": 1000},
      "fem": {"element": "corotational", "damping": {"alpha": 8, "beta": 0.01}, "gravity": [0, 0, -9.81],
              "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
                           dt));
  ASSERT_TRUE(world.add_collider(plane("table", Vec3::UnitZ(), Vec3::Zero())).ok());
  ReactionSeries series(world);
  ASSERT_EQ(series.names(), std::vector<std::string>{"collider:table"});
  for (int s = 0; s < 600; ++s) {
    world.step();
    series.record(world);
  }
  const Vec3 last = series.forces().back();
  EXPECT_LT((last - Vec3(0.0, 0.0, -kG)).norm(), 1e-6 * kG) << last.transpose();
  // The same value as the World's contact event, with the opposite sign.
  std::vector<Vec3> now;
  reaction_forces(world, now);
  ASSERT_EQ(now.size(), 1u);
  ASSERT_EQ(world.contact_events().size(), 1u);
  EXPECT_EQ(now[0], -world.contact_events()[0].force);
  EXPECT_EQ(series.rows(), 600u);
}

// A point where every node is already held is refused with the reason, not a slot −1.
TEST(Reactions, GrabWhereEverythingIsHeldIsRefused) {
  World world(0.01);
  world.add_body(green_block(0.01));
  Body& b = world.body(0);
  const SurfacePoint p = top_point(world, 0.013, 0.017);
  for (const SurfacePoint corner : {SurfacePoint{p.triangle, 0.0, 0.0}, SurfacePoint{p.triangle, 1.0, 0.0},
                                    SurfacePoint{p.triangle, 0.0, 1.0}})
    ASSERT_TRUE(checked_grab(b, corner, 0.0).ok());
  const Result<GrabId> fourth = checked_grab(b, p, 0.0);
  ASSERT_FALSE(fourth.ok());
  EXPECT_NE(fourth.message().find("can hold nothing"), std::string::npos) << fourth.message();
}

}  // namespace
}  // namespace pliant::scene
