// Instruments (a probe: a capsule with a spherical tip) against independent references: the probe's
// force is Newton's third law of its contacts; over a Green body the snapshot's stiffness is the touched
// nodes' capacitance system (James & Pai 1999), so the haptic-rate force F + K·Δx predicts the next
// step's contact force exactly; driven by a device through the virtual coupling (Colgate et al. 1995),
// the force the hand feels once the probe stops is the quasi-static contact force (Green: to 1e-6 at
// every sample; a dynamic FEM body: within 2 % after settling, and the floor under it carries its
// weight plus that force); a press-and-slide renders passively on every family; bad instruments are
// refused with one line.
#include "pliant/scene/instrument.hpp"
#include "pliant/scene/haptic_renderer.hpp"
#include "pliant/scene/reactions.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/virtual_coupling.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace pliant::scene {
namespace {

constexpr double kG = 9.81;

// The probe pointing down (its shaft along world +z), its tip at `tip`.
Instrument probe(const Vec3& tip, double friction = 10.0) {
  Instrument in;
  in.name = "probe";
  in.radius = 0.008;
  in.length = 0.06;
  in.pose.position = tip;
  in.pose.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitX()));
  in.friction = friction;
  in.device = true;
  return in;
}

// A Green block 0.04 m a side, clamped at its base, its top at z = 0.04.
std::unique_ptr<Body> green_block(double dt) {
  Result<std::unique_ptr<Body>> body = make_body(
      R"({"name": "g", "family": "green", "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [4, 4, 4]},
          "material": {"E": 1e5, "nu": 0.3}, "fixed": ["zmin"]})",
      "green.json", dt);
  EXPECT_TRUE(body.ok()) << body.message();
  return body.ok() ? std::move(body).value() : nullptr;
}

// A FEM block of side 0.1 m, 1 kg, under gravity, resting on a plane at z = 0 (its base 1 mm up: the
// two margins); 4 cells a side, so a surface node sits at the top's centre, where the probe presses
// (contact holds nodes: a probe narrower than the mesh spacing between nodes would meet none).
std::unique_ptr<Body> fem_block(double dt) {
  Result<std::unique_ptr<Body>> body = make_body(
      R"({"name": "block", "family": "fem",
          "mesh": {"shape": "box", "origin": [0, 0, 0.001], "size": [0.1, 0.1, 0.1], "cells": [4, 4, 4]},
          "material": {"E": 2e5, "nu": 0.3, "density": 1000},
          "fem": {"element": "corotational", "damping": {"alpha": 8.0, "beta": 0.01}, "gravity": [0, 0, -9.81],
                  "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
      "fem.json", dt);
  EXPECT_TRUE(body.ok()) << body.message();
  return body.ok() ? std::move(body).value() : nullptr;
}

Collider floor_plane() {
  Collider c;
  c.name = "floor";
  c.shape = ColliderShape::plane;
  c.normal = Vec3::UnitZ();
  c.friction = 1.0;
  return c;
}

// The coupling a Touch-class device gets at 1 kHz, without force limits (so nothing is clamped and
// the rendered force is the one compared).
HapticRenderSettings coupled() {
  HapticRenderSettings s;
  s.rate_hz = 1000.0;
  const double inf = std::numeric_limits<double>::infinity();
  s.limits = {inf, 1000.0, inf};
  Result<CouplingGains> g = coupling_gains({}, s.limits, s.rate_hz);
  EXPECT_TRUE(g.ok()) << g.message();
  s.coupling = g.value();
  return s;
}

// Runs the device loop in step with the world, without threads: `samples` haptic samples per world
// step, the hand at `hand(t)`, the probe at the coupling's proxy; `sample(t, force)` sees every
// rendered force with the world as the last step left it.
HapticForceStats run_coupled(World& world, Index instrument, const std::function<Vec3(double)>& hand,
                             double seconds, int samples,
                             const std::function<void(double, const Vec3&)>& sample = {}) {
  HapticRenderer renderer(coupled());
  EXPECT_TRUE(world.bind_haptic_instrument(0, instrument, hand(0.0)));
  const double dt = world.time_step();
  const int steps = static_cast<int>(std::lround(seconds / dt));
  for (int s = 0; s < steps; ++s) {
    for (int k = 0; k < samples; ++k) {
      const double t = s * dt + k * dt / samples;
      const Vec3 f = renderer.render(world.haptics().read().contacts[0], hand(t));
      if (sample) sample(t, f);
    }
    world.move_haptic_grab(0, renderer.target());
    world.step();
  }
  return renderer.stats();
}

// After `wait` seconds, press down `depth` over 0.3 s, hold; then slide `slide` along x over 0.5 s, hold.
std::function<Vec3(double)> press_and_slide(const Vec3& start, double depth, double slide,
                                            double wait = 0.0) {
  return [=](double t) {
    const double press = std::clamp((t - wait) / 0.3, 0.0, 1.0);
    const double along = std::clamp((t - wait - 0.5) / 0.5, 0.0, 1.0);
    return Vec3(start + Vec3(slide * along, 0.0, -depth * press));
  };
}

TEST(Instrument, ProbeOwnsACapsuleColliderAtItsTip) {
  World world(0.01);
  const Result<Index> i = world.add_instrument(probe(Vec3(0.1, 0.2, 0.3)));
  ASSERT_TRUE(i.ok()) << i.message();
  const Index c = world.instrument_collider(*i);
  ASSERT_EQ(world.collider_instrument(c), *i);
  const Collider& col = world.colliders()[static_cast<std::size_t>(c)];
  EXPECT_EQ(col.shape, ColliderShape::capsule);
  // The tip's lowest point is one radius below the tip centre; the back end one length above it.
  EXPECT_NEAR(col.distance(col.pose, Vec3(0.1, 0.2, 0.3 - 0.008)).distance, 0.0, 1e-12);
  EXPECT_NEAR(col.distance(col.pose, Vec3(0.1, 0.2, 0.3 + 0.06 + 0.008)).distance, 0.0, 1e-12);
  EXPECT_EQ(reaction_names(world), std::vector<std::string>{"instrument:probe"});
}

TEST(Instrument, BadInstrumentsAreRefusedWithOneLine) {
  World world(0.01);
  Instrument bad = probe(Vec3::Zero());
  bad.pose.position.x() = std::numeric_limits<double>::quiet_NaN();
  Result<Index> r = world.add_instrument(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "instrument \"probe\": position must be finite");
  bad = probe(Vec3::Zero());
  bad.radius = 0.0;
  r = world.add_instrument(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "instrument \"probe\": radius must be > 0 m");
  ASSERT_TRUE(world.add_instrument(probe(Vec3::Zero())).ok());
  Instrument second = probe(Vec3::Zero());
  second.name = "second";
  r = world.add_instrument(second);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("one device drives one instrument"), std::string::npos) << r.message();
  EXPECT_EQ(r.message().find('\n'), std::string::npos);
  // A NaN tip from the device never moves it.
  world.move_instrument(0, Pose{Vec3(std::nan(""), 0.0, 0.0), Eigen::Quaterniond::Identity()});
  world.step();
  EXPECT_TRUE(world.instrument_pose(0).position.allFinite());
}

// Over a Green body the snapshot is the exact linearisation of the held contacts: moving the tip by Δx
// (sticking contacts, no new one) changes the contact force by K·Δx to round-off. Fails with any other
// K, e.g. the sum of the contacts' own 3×3 stiffnesses (their coupling through the body left out).
TEST(Instrument, GreenSnapshotStiffnessIsTheContactsCapacitanceSystem) {
  World world(0.01);
  world.add_body(green_block(world.time_step()));
  BodyContact grip;
  grip.friction = 10.0;
  world.set_contact(0, grip);
  // A wide tip (radius 2.5 cm) 5 mm into the top: the nine nodes of the top's centre cells.
  Instrument wide = probe(Vec3(0.02, 0.02, 0.04 + 0.025 + 0.001 - 0.005));
  wide.radius = 0.025;
  const Vec3 tip = wide.pose.position;
  const Index p = world.add_instrument(wide).value();
  ASSERT_TRUE(world.bind_haptic_instrument(0, p, tip));
  for (int s = 0; s < 4; ++s) world.step();
  ASSERT_GT(world.instrument_contacts(p), 3);
  int compared = 0;
  for (int k = 0; k < 12; ++k) {
    const HapticContact c = world.haptics().read().contacts[0];
    ASSERT_TRUE(c.stiffness_exact);
    EXPECT_EQ(c.contacts, world.instrument_contacts(p));
    const Vec3 move(3e-6 * std::cos(k), 3e-6 * std::sin(k), -2e-6);
    const Vec3 predicted = haptic_force(c, c.position + move);
    EXPECT_GT((predicted - c.force).norm(), 1e-4 * c.force.norm());  // the move matters
    world.move_haptic_grab(0, c.position + move);
    world.step();
    if (world.instrument_contacts(p) != c.contacts) continue;  // a node came or went: a new system
    ++compared;
    const Vec3 f = world.instrument_force(p);
    EXPECT_LT((f - predicted).norm(), 1e-6 * f.norm())
        << "move " << k << ": " << f.transpose() << " vs " << predicted.transpose();
  }
  EXPECT_GE(compared, 8);
}

// Driven by the device through the coupling, a probe pressed into a Green body and held: once it
// stops, the force every haptic sample renders is the quasi-static contact force to 1e-6.
TEST(Instrument, GreenProbeRendersTheQuasiStaticContactForceAtEverySample) {
  World world(0.01);
  world.add_body(green_block(world.time_step()));
  BodyContact grip;
  grip.friction = 10.0;
  world.set_contact(0, grip);
  const Vec3 start(0.02, 0.02, 0.04 + 0.008 + 0.001);
  const Index p = world.add_instrument(probe(start)).value();
  Vec3 last_tip = start;
  int still_steps = 0;
  std::size_t checked = 0;
  double worst = 0.0;
  const auto hand = press_and_slide(start, 0.004, 0.0);
  std::uint64_t last_step = 0;
  const HapticForceStats st = run_coupled(world, p, hand, 1.5, 10, [&](double, const Vec3& f) {
    if (world.step_count() != last_step) {
      last_step = world.step_count();
      const Vec3 tip = world.instrument_pose(p).position;
      still_steps = (tip - last_tip).norm() < 1e-12 ? still_steps + 1 : 0;
      last_tip = tip;
    }
    if (still_steps < 2) return;
    const Vec3 contact = world.instrument_force(p);
    worst = std::max(worst, (f - contact).norm() / contact.norm());
    ++checked;
  });
  EXPECT_GT(checked, 500u);
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(world.instrument_force(p).z(), 1.0);  // it pushes the probe up
  EXPECT_TRUE(st.passive);
}

// A dynamic FEM block on a floor, pressed by the coupled probe and held: after settling, every sample
// is within 2 % of the converged contact force, and the floor carries the block's weight plus it.
TEST(Instrument, FemProbeSettlesToTheContactForce) {
  World world(0.01);
  world.add_body(fem_block(world.time_step()));
  ASSERT_TRUE(world.add_collider(floor_plane()).ok());
  const Vec3 start(0.05, 0.05, 0.101 + 0.008 + 0.001);
  const Index p = world.add_instrument(probe(start, 1.0)).value();
  std::vector<Vec3> settled;
  run_coupled(world, p, press_and_slide(start, 0.004, 0.0), 2.5, 10, [&](double t, const Vec3& f) {
    if (t > 1.5) settled.push_back(f);
  });
  const Vec3 converged = world.instrument_force(p);
  ASSERT_GT(converged.z(), 1.0);
  double worst = 0.0;
  for (const Vec3& f : settled) worst = std::max(worst, (f - converged).norm() / converged.norm());
  EXPECT_LT(worst, 0.02);
  Vec3 floor = Vec3::Zero();
  for (const ContactEvent& e : world.contact_events())
    if (e.collider == 0) floor += e.force;
  // Newton on the block: floor + probe's push + weight = 0 at rest.
  EXPECT_NEAR(floor.z(), 1.0 * kG + converged.z(), 0.02 * (kG + converged.z()));
}

// A press-and-slide under the coupling returns no more energy to the hand than it received, on every
// family the haptic verb drives.
TEST(Instrument, PressAndSlideIsPassiveOnGreenAndFem) {
  {
    World world(0.01);
    world.add_body(green_block(world.time_step()));
    const Vec3 start(0.02, 0.02, 0.04 + 0.008 + 0.001);
    const Index p = world.add_instrument(probe(start, 0.5)).value();
    const HapticForceStats st = run_coupled(world, p, press_and_slide(start, 0.004, 0.01), 1.5, 10);
    EXPECT_TRUE(st.passive) << "green: lowest balance " << st.min_energy_balance;
    EXPECT_GT(st.energy_received, 0.0);
    EXPECT_GT(st.max_force, 0.5);
  }
  {
    World world(0.01);
    world.add_body(fem_block(world.time_step()));
    ASSERT_TRUE(world.add_collider(floor_plane()).ok());
    const Vec3 start(0.05, 0.05, 0.101 + 0.008 + 0.001);
    const Index p = world.add_instrument(probe(start, 0.5)).value();
    // The hand waits 0.6 s for the block to settle on the floor under gravity: a body still falling
    // when the probe first touches it gives energy back (docs/haptics.md).
    const HapticForceStats st = run_coupled(world, p, press_and_slide(start, 0.004, 0.01, 0.6), 2.1, 10);
    EXPECT_TRUE(st.passive) << "fem: lowest balance " << st.min_energy_balance;
    EXPECT_GT(st.energy_received, 0.0);
    EXPECT_GT(st.max_force, 0.5);
  }
}

// The same press-and-slide over the two other dynamic families: a meshless jelly block resting on a
// floor and a springs membrane clamped at its edges (a trampoline), pressed at a node.
TEST(Instrument, PressAndSlideIsPassiveOnMeshlessAndSprings) {
  {
    World world(0.01);
    Result<std::unique_ptr<Body>> body = make_body(
        R"({"name": "jelly", "family": "meshless",
            "mesh": {"shape": "box", "origin": [0, 0, 0.001], "size": [0.06, 0.06, 0.06], "cells": [4, 4, 4]},
            "material": {"E": 20000, "nu": 0.3, "density": 1000},
            "meshless": {"spacing": 0.01, "volume_stiffness": 20000, "mass_damping": 5, "gravity": [0, 0, -9.81]}})",
        "jelly.json", world.time_step());
    ASSERT_TRUE(body.ok()) << body.message();
    world.add_body(std::move(body).value());
    ASSERT_TRUE(world.add_collider(floor_plane()).ok());
    // Over the top face's centre node (4 cells of 1.5 cm).
    const Vec3 start(0.03, 0.03, 0.061 + 0.008 + 0.001);
    const Index p = world.add_instrument(probe(start, 0.5)).value();
    const HapticForceStats st = run_coupled(world, p, press_and_slide(start, 0.004, 0.01, 0.6), 2.1, 10);
    EXPECT_TRUE(st.passive) << "meshless: lowest balance " << st.min_energy_balance;
    EXPECT_GT(st.energy_received, 0.0);
    EXPECT_GT(st.max_force, 0.1);
  }
  {
    World world(0.01);
    Result<std::unique_ptr<Body>> body = make_body(
        R"({"name": "sheet", "family": "springs", "mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [8, 8]},
            "fixed": ["xmin", "xmax", "ymin", "ymax"], "springs": {"mass_density": 1.0}})",
        "sheet.json", world.time_step());
    ASSERT_TRUE(body.ok()) << body.message();
    world.add_body(std::move(body).value());
    // Over the centre node of the flat sheet (z = 0).
    const Vec3 start(0.05, 0.05, 0.008 + 0.001);
    const Index p = world.add_instrument(probe(start, 0.5)).value();
    const HapticForceStats st = run_coupled(world, p, press_and_slide(start, 0.004, 0.01), 1.5, 10);
    EXPECT_TRUE(st.passive) << "springs: lowest balance " << st.min_energy_balance;
    EXPECT_GT(st.energy_received, 0.0);
    EXPECT_GT(st.max_force, 0.01);
  }
}

TEST(Instrument, SceneFileInstrumentLoadsAndWritesItsForce) {
  Result<Scene> sc = load_scene(std::string(PLIANT_TESTS_DATA_DIR) + "/scenes/probe_green.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& world = *sc->world;
  ASSERT_EQ(world.instruments().size(), 1u);
  EXPECT_TRUE(world.instruments()[0].device);
  // Without a device it follows its track (the scripted hand's path).
  for (int s = 0; s < 40; ++s) world.step();
  EXPECT_NEAR(world.instrument_pose(0).position.z(), 0.046, 1e-12);
  EXPECT_GT(world.instrument_contacts(0), 0);
  std::vector<Vec3> forces;
  reaction_forces(world, forces);
  ASSERT_EQ(forces.size(), 1u);
  EXPECT_EQ(forces[0], world.instrument_force(0));
  EXPECT_GT(forces[0].z(), 0.0);
}

}  // namespace
}  // namespace pliant::scene
