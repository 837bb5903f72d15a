// Contact with rigid colliders against independent references: a FEM block resting under gravity on a
// plane carries its weight (ρ V g) through its contacts; a y-up table tilted by an angle does the
// same along its own normal; a block on an incline sticks while tan θ < μ and slides otherwise; a
// Green block pressed by a plane answers linearly (its exact linear solve); an impact target takes no
// response.
#include "pliant/core/mesh_distance.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace pliant::scene {
namespace {

constexpr double kG = 9.81;

// A FEM block of side 0.1 m, density 1000 kg/m³ (1 kg), gravity `g`, its min corner at `origin`.
// Mass-proportional damping `alpha` (unit: 1/s) is a drag −α·m·v on the whole block.
std::unique_ptr<Body> fem_block(const Vec3& origin, const Vec3& g, double dt, int cells = 2,
                                double alpha = 8.0, int newton_iterations = 3) {
  char json[1024];
  std::snprintf(json, sizeof json,
                R"({"name": "block", "family": "fem",
      "mesh": {"shape": "box", "origin": [%.17g, %.17g, %.17g], "size": [0.1, 0.1, 0.1], "cells": [%d, %d, %d]},
      "material": {"E": 2e5, "nu": 0.3, "density": 1000},
      "fem": {"element": "corotational", "damping": {"alpha": %.17g, "beta": 0.01}, "gravity": [%.17g, %.17g, %.17g],
              "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": %d, "tolerance": 1e-12}}})",
                origin.x(), origin.y(), origin.z(), cells, cells, cells, alpha, g.x(), g.y(), g.z(),
                newton_iterations);
  Result<std::unique_ptr<Body>> body = make_body(json, "contact.json", dt);
  EXPECT_TRUE(body.ok()) << body.message();
  return body.ok() ? std::move(body).value() : nullptr;
}

Collider plane(const Vec3& normal, const Vec3& position, double friction = 0.5) {
  Collider c;
  c.name = "floor";
  c.shape = ColliderShape::plane;
  c.normal = normal.normalized();
  c.pose.position = position;
  c.friction = friction;
  return c;
}

Vec3 mean(std::span<const Vec3> x) {
  Vec3 m = Vec3::Zero();
  for (const Vec3& p : x) m += p;
  return m / static_cast<double>(x.size());
}

TEST(Contact, FemBlockRestingOnAPlaneCarriesItsWeight) {
  const double dt = 1.0 / 60.0;
  World world(dt);
  world.add_body(fem_block(Vec3(0.0, 0.0, 0.0), Vec3(0.0, 0.0, -kG), dt));
  ASSERT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3::Zero())).ok());
  for (int s = 0; s < 600; ++s) world.step();
  ASSERT_EQ(world.contact_events().size(), 1u);
  const ContactEvent e = world.contact_events()[0];
  EXPECT_EQ(e.contacts, 9);  // the bottom face's 3 × 3 nodes
  EXPECT_NEAR(e.normal_force, 1.0 * kG, 1e-6 * kG);
  EXPECT_LT(e.tangential_force, 1e-6 * kG);
  EXPECT_EQ(e.slipping, 0);
  // Held at the margins (2 × 0.5 mm) above the plane: nothing below it.
  const auto x = world.body(0).surface_positions();
  for (const Vec3& p : x) EXPECT_GT(p.z(), 1e-3 - 1e-12);
  EXPECT_EQ(e.max_penetration, 0.0);
  // At rest: no drift over the next 600 steps.
  const Vec3 before = mean(x);
  for (int s = 0; s < 600; ++s) world.step();
  EXPECT_LT((mean(world.body(0).surface_positions()) - before).norm(), 1e-9);
  EXPECT_NEAR(world.contact_events()[0].normal_force, kG, 1e-6 * kG);
  // The profile names the contact stages.
  bool detect = false, solve = false;
  for (const auto& st : world.profile().stages) {
    detect |= st.name == "contact.detect";
    solve |= st.name == "contact.solve";
  }
  EXPECT_TRUE(detect && solve);
}

// The linearised backward Euler step (one Newton iteration, the solver's default) with held nodes that
// move: a block set on a plane (its base within the margins) is lifted onto the targets in its first
// step while its held nodes carry that move's velocity. Its contacts hold every step, always pushing,
// and it settles where the converged step (three iterations) settles it.
TEST(Contact, LinearisedStepHoldsABlockSetOnAPlane) {
  const double dt = 1.0 / 60.0;
  std::vector<Vec3> settled[2];
  for (int k = 0; k < 2; ++k) {
    World world(dt);
    world.add_body(fem_block(Vec3::Zero(), Vec3(0.0, 0.0, -kG), dt, 2, 8.0, k == 0 ? 1 : 3));
    ASSERT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3::Zero())).ok());
    for (int s = 0; s < 300; ++s) {
      world.step();
      ASSERT_EQ(world.contact_events().size(), 1u) << "step " << s;
      EXPECT_EQ(world.contact_events()[0].contacts, 9) << "step " << s;
      EXPECT_GT(world.contact_events()[0].normal_force, 0.0) << "step " << s;
    }
    EXPECT_NEAR(world.contact_events()[0].normal_force, kG, 1e-6 * kG);
    const auto x = world.body(0).surface_positions();
    settled[k].assign(x.begin(), x.end());
  }
  for (std::size_t i = 0; i < settled[0].size(); ++i) EXPECT_LT((settled[0][i] - settled[1][i]).norm(), 1e-9);
}

// A y-up world: gravity along −y on a table tilted by 10° about z; μ = 1 > tan 10°, so it sticks and
// the collider's total force is the weight, straight up.
TEST(Contact, TiltedYUpTableHoldsTheWeight) {
  const double dt = 1.0 / 60.0;
  World world(dt);
  const double theta = 10.0 * M_PI / 180.0;
  const Vec3 n(-std::sin(theta), std::cos(theta), 0.0);
  // The block's lower edge (x = 0.1 m) touches the table, tilted 10° under the block: it tips onto it.
  world.add_body(fem_block(Vec3(0.0, 0.0, 0.0), Vec3(0.0, -kG, 0.0), dt));
  Collider table = plane(n, Vec3(0.1, 0.0, 0.0), 1.0);
  ASSERT_TRUE(world.add_collider(table).ok());
  for (int s = 0; s < 900; ++s) world.step();
  ASSERT_EQ(world.contact_events().size(), 1u);
  const ContactEvent e = world.contact_events()[0];
  EXPECT_GT(e.contacts, 0);
  EXPECT_EQ(e.slipping, 0);
  EXPECT_LT((e.force - Vec3(0.0, kG, 0.0)).norm(), 1e-6 * kG) << e.force.transpose();
  EXPECT_NEAR(e.normal_force, kG * std::cos(theta), 1e-6 * kG);
  EXPECT_NEAR(e.tangential_force, kG * std::sin(theta), 1e-6 * kG);
}

// A block on an incline of angle θ under gravity along −z (the plane's normal tilted about y).
struct Incline {
  double along0 = 0.0, along1 = 0.0, along2 = 0.0;  // mean position along the slope at 1, 1.5, 2 s (unit: m)
  int slipping = 0;
  double held_moved = 0.0;  // largest move of a bottom-face node from 1/120 s to 2 s (unit: m)
  double mean_moved = 0.0;  // the mean position's move over the same time (unit: m)
  ContactEvent last;        // the contact event at 2 s
};
Incline incline(double theta_degrees, double mu, double alpha = 8.0) {
  const double dt = 1.0 / 120.0;
  World world(dt);
  const double th = theta_degrees * M_PI / 180.0;
  // Gravity rotated into the incline's frame instead of the block: the block sits flat on a z = 0
  // plane with gravity tilted by θ, which is the same problem.
  // Its bottom just inside the margins (1 mm): held where it is, not lifted onto them.
  world.add_body(
      fem_block(Vec3(0.0, 0.0, 0.999e-3), Vec3(kG * std::sin(th), 0.0, -kG * std::cos(th)), dt, 2, alpha));
  Collider c = plane(Vec3::UnitZ(), Vec3::Zero(), mu);
  BodyContact bc;
  bc.friction = mu;
  world.set_contact(0, bc);
  EXPECT_TRUE(world.add_collider(c).ok());
  Incline out;
  std::vector<Vec3> first;
  for (int s = 1; s <= 240; ++s) {
    world.step();
    const auto x = world.body(0).surface_positions();
    if (s == 1) first.assign(x.begin(), x.end());
    const double a = mean(x).x();
    if (s == 120) out.along0 = a;
    if (s == 180) out.along1 = a;
    if (s == 240) out.along2 = a;
  }
  out.slipping = world.contact_events().empty() ? 0 : world.contact_events()[0].slipping;
  if (!world.contact_events().empty()) out.last = world.contact_events()[0];
  const auto x = world.body(0).surface_positions();
  for (std::size_t i = 0; i < x.size(); ++i)
    if (first[i].z() < 0.01) out.held_moved = std::max(out.held_moved, (x[i] - first[i]).norm());
  out.mean_moved = (mean(x) - mean(first)).norm();
  return out;
}

TEST(Contact, InclineSticksBelowTheFrictionAngle) {
  const Incline r = incline(20.0, 0.5);  // tan 20° = 0.36 < 0.5
  EXPECT_EQ(r.slipping, 0);
  EXPECT_LT(std::abs(r.along2 - r.along0), 1e-6);
}

TEST(Contact, InclineSlidesAboveTheFrictionAngle) {
  const Incline r = incline(30.0, 0.2);  // tan 30° = 0.58 > 0.2
  EXPECT_GT(r.slipping, 0);
  // Downhill (+x) by millimetres a second over the last 2 s, where the sticking incline moves below
  // 1e-6 m.
  EXPECT_GT(r.along1 - r.along0, 1e-3);
  EXPECT_GT(r.along2 - r.along1, 1e-3);
}

// Coulomb's law for the slide, a = g (sin θ − μ cos θ) within 2 %, measured from the second difference
// of the mean position over 0.5 s intervals, without mass-proportional damping (α M v is a drag on the
// whole block, 8 N per m/s with α = 8, a force Coulomb's law does not have). Before the contact patch
// slid as a whole with its velocity carried, a slip restarted from rest every step and the block crept
// at a ≈ −0.002 m/s².
TEST(Contact, InclineSlideAcceleratesAsCoulombSays) {
  const double theta = 30.0, mu = 0.2;
  const Incline r = incline(theta, mu, 0.0);
  EXPECT_GT(r.slipping, 0);
  const double h = 0.5;
  const double a = (r.along2 - 2.0 * r.along1 + r.along0) / (h * h);
  const double th = theta * M_PI / 180.0;
  const double expected = kG * (std::sin(th) - mu * std::cos(th));
  RecordProperty("acceleration_m_s2", std::to_string(a));
  EXPECT_NEAR(a, expected, 0.02 * expected) << "a = " << a << " m/s²";
  // At the step's end the patch's tangential force is μ times its normal force.
  EXPECT_NEAR(r.last.tangential_force, mu * r.last.normal_force, 0.02 * mu * r.last.normal_force);
}

// The undamped block below the friction angle (tan 20° = 0.36 < μ = 0.5) sticks from the first step:
// its bottom nodes stay where they touched (below 1e-9 m over 2 s) and the block only shears
// elastically (G = E/2.6 under ρ V g sin θ / A = 335 Pa: a top shift of 0.44 mm, the mean below it),
// and the contacts carry the tangential weight, ρ V g sin θ.
TEST(Contact, UndampedInclineSticksBelowTheFrictionAngle) {
  const Incline r = incline(20.0, 0.5, 0.0);
  RecordProperty("held_moved_m", std::to_string(r.held_moved));
  RecordProperty("mean_moved_m", std::to_string(r.mean_moved));
  EXPECT_EQ(r.slipping, 0);
  EXPECT_LT(r.held_moved, 1e-9);
  EXPECT_LT(r.mean_moved, 0.44e-3);
  EXPECT_LT(r.last.tangential_force, 0.5 * r.last.normal_force);
}

// A Green block clamped at its base, pressed by a plane of normal −z lowered into its top by δ: the
// top nodes are held at δ + margins below their rest height (sticking where they touched), and the
// Green body's exact linear solve makes the total force proportional to that displacement.
double green_press(double delta) {
  const double dt = 0.01;
  World world(dt);
  Result<std::unique_ptr<Body>> body = make_body(
      R"({"name": "g", "family": "green", "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]},
          "material": {"E": 1e5, "nu": 0.3}, "fixed": ["zmin"]})",
      "green.json", dt);
  EXPECT_TRUE(body.ok()) << body.message();
  world.add_body(std::move(body).value());
  // μ = 10: every node sticks where it touched (the clamped base stops the block's lateral bulge, so
  // its top corners pull outwards hard).
  BodyContact grip;
  grip.friction = 10.0;
  world.set_contact(0, grip);
  EXPECT_TRUE(world.add_collider(plane(-Vec3::UnitZ(), Vec3(0.0, 0.0, 0.04 - delta), 10.0)).ok());
  world.step();
  // How deep the plane went into the undeformed top, before the first response.
  EXPECT_NEAR(world.contact_events()[0].max_penetration, delta, 1e-12);
  for (int s = 0; s < 2; ++s) world.step();
  EXPECT_EQ(world.contact_events().size(), 1u);
  if (world.contact_events().empty()) return 0.0;
  const ContactEvent& e = world.contact_events()[0];
  EXPECT_EQ(e.contacts, 9);
  EXPECT_EQ(e.slipping, 0);
  EXPECT_EQ(e.max_penetration, 0.0);
  for (const Vec3& x : world.body(0).surface_positions()) EXPECT_LE(x.z(), 0.04 - delta - 1e-3 + 1e-12);
  return e.normal_force;
}

TEST(Contact, GreenBlockPressedAnswersLinearly) {
  // Held displacements 1.5 mm and 3 mm (δ plus the 1 mm of margins).
  const double f1 = green_press(0.5e-3), f2 = green_press(2.0e-3);
  EXPECT_GT(f1, 0.0);
  EXPECT_NEAR(f2, 2.0 * f1, 1e-9 * f1);
}

// Body–body contact. A FEM block of 1 kg (0.1 m, 4 cells a side: the finer surface, so its nodes are
// held) resting on a 4 kg FEM slab (0.2 × 0.2 × 0.1 m, 2 cells a side) that rests on a plane.
struct Stack {
  World world{1.0 / 60.0};
  Stack(double top_gap = 1e-3, double offset_x = 0.05) {
    const double dt = world.time_step();
    const Vec3 g(0.0, 0.0, -kG);
    char json[1024];
    std::snprintf(json, sizeof json,
                  R"({"name": "slab", "family": "fem",
        "mesh": {"shape": "box", "origin": [0, 0, 0], "size": [0.2, 0.2, 0.1], "cells": [2, 2, 1]},
        "material": {"E": 2e5, "nu": 0.3, "density": 1000},
        "fem": {"element": "corotational", "damping": {"alpha": 8.0, "beta": 0.01}, "gravity": [0, 0, %.17g],
                "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
                  -kG);
    Result<std::unique_ptr<Body>> slab = make_body(json, "slab.json", dt);
    EXPECT_TRUE(slab.ok()) << slab.message();
    world.add_body(std::move(slab).value());
    world.add_body(fem_block(Vec3(offset_x, 0.05, 0.1 + top_gap), g, dt, 4));
    EXPECT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3::Zero())).ok());
  }
  // The event of body `b` against collider `c` or other body `o`, or nullptr.
  const ContactEvent* event(Index b, Index c, Index o) const {
    for (const ContactEvent& e : world.contact_events())
      if (e.body == b && e.collider == c && e.other_body == o) return &e;
    return nullptr;
  }
};

// The top block carries its weight into the slab, the slab both weights into the plane; the force
// the slab receives moves each step by the relaxation ω towards minus the block's contact force one
// step earlier (Newton's third law with the response's one-step lag, under-relaxed), and the two agree
// at rest.
TEST(Contact, BlockRestingOnABlockCarriesItsWeightIntoIt) {
  Stack stack;
  World& world = stack.world;
  Vec3 previous = Vec3::Zero(), previous_on_other = Vec3::Zero();
  bool had = false;
  int previous_contacts = 0;
  double worst_lag = 0.0;
  const double w = world.contact_solver().relaxation;
  for (int s = 0; s < 300; ++s) {
    world.step();
    const ContactEvent* e = stack.event(1, -1, 0);
    if (e && had && e->contacts == previous_contacts)
      worst_lag = std::max(
          worst_lag, (e->force_on_other - (previous_on_other + w * (-previous - previous_on_other))).norm());
    had = e != nullptr;
    previous_contacts = e ? e->contacts : 0;
    previous = e ? e->force : Vec3::Zero();
    previous_on_other = e ? e->force_on_other : Vec3::Zero();
  }
  EXPECT_LT(worst_lag, 1e-12);
  const ContactEvent* top = stack.event(1, -1, 0);
  const ContactEvent* bottom = stack.event(0, 0, -1);
  ASSERT_TRUE(top && bottom);
  EXPECT_EQ(top->collider, -1);
  // The slab's force on the block is its weight, straight up (the normal sum counts each node along
  // its own triangle's normal on the slab's slightly bent top, so it is near the weight, not equal).
  EXPECT_LT((top->force - Vec3(0.0, 0.0, kG)).norm(), 1e-6 * kG) << top->force.transpose();
  EXPECT_NEAR(top->normal_force, kG, 1e-3 * kG);
  EXPECT_LT((top->force + top->force_on_other).norm(), 1e-9 * kG);
  EXPECT_NEAR(bottom->normal_force, 5.0 * kG, 1e-6 * kG);  // both weights
  EXPECT_EQ(top->contacts, 25);                            // the block's bottom face, 5 × 5 nodes
  EXPECT_EQ(stack.event(0, -1, 1), nullptr);               // one event per pair, named by the held body
  // No node of the block below the slab's surface: held at the margins (2 × 0.5 mm) above it.
  const Body& slab = world.body(0);
  const auto xs = slab.surface_positions();
  const auto ts = slab.surface_triangles();
  Result<MeshDistance> surface = MeshDistance::build(
      TriMesh{std::vector<Vec3>(xs.begin(), xs.end()), std::vector<Tri>(ts.begin(), ts.end())});
  ASSERT_TRUE(surface.ok());
  double closest = std::numeric_limits<double>::infinity();
  for (const Vec3& p : world.body(1).surface_positions())
    closest = std::min(closest, surface->query(p)->distance);
  EXPECT_NEAR(closest, 1e-3, 1e-6);
  // At rest: no drift over the next 300 steps.
  const Vec3 before = mean(world.body(1).surface_positions());
  for (int s = 0; s < 300; ++s) world.step();
  EXPECT_LT((mean(world.body(1).surface_positions()) - before).norm(), 1e-8);
}

// A slave's patch slides on a master as on a collider: a FEM block (1 kg, 4 cells a side, no
// mass-proportional damping) on a FEM slab (0.6 × 0.2 × 0.1 m) that sticks to a plane (μ = 1), under
// gravity tilted by 15°, the block–slab pair's μ = √(0.04 × 1) = 0.2: the block slides along the slab
// at g (sin θ − μ cos θ) = 0.644 m/s² within 2 %, measured relative to the slab.
TEST(Contact, BlockSlidesOnABlockAsCoulombSays) {
  const double dt = 1.0 / 120.0, th = 15.0 * M_PI / 180.0;
  const Vec3 g(kG * std::sin(th), 0.0, -kG * std::cos(th));
  World world(dt);
  char json[1024];
  std::snprintf(json, sizeof json,
                R"({"name": "slab", "family": "fem",
      "mesh": {"shape": "box", "origin": [0, 0, 0.000999], "size": [0.6, 0.2, 0.1], "cells": [6, 2, 1]},
      "material": {"E": 2e5, "nu": 0.3, "density": 1000},
      "fem": {"element": "corotational", "damping": {"alpha": 8.0, "beta": 0.01}, "gravity": [%.17g, 0, %.17g],
              "integrator": "backward_euler", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
                g.x(), g.z());
  Result<std::unique_ptr<Body>> slab = make_body(json, "slab.json", dt);
  ASSERT_TRUE(slab.ok()) << slab.message();
  world.add_body(std::move(slab).value());
  world.add_body(fem_block(Vec3(0.02, 0.05, 0.100999 + 0.999e-3), g, dt, 4, 0.0));
  BodyContact grip, slick;
  grip.friction = 1.0;
  slick.friction = 0.04;
  world.set_contact(0, grip);
  world.set_contact(1, slick);
  ASSERT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3::Zero(), 1.0)).ok());
  double along[3] = {0.0, 0.0, 0.0};
  for (int s = 1; s <= 120; ++s) {
    world.step();
    const double rel =
        mean(world.body(1).surface_positions()).x() - mean(world.body(0).surface_positions()).x();
    if (s == 48) along[0] = rel;
    if (s == 84) along[1] = rel;
    if (s == 120) along[2] = rel;
  }
  bool block_on_slab = false, slab_sticks = false;
  for (const ContactEvent& e : world.contact_events()) {
    block_on_slab |= e.body == 1 && e.other_body == 0 && e.slipping > 0;
    slab_sticks |= e.body == 0 && e.collider == 0 && e.slipping == 0;
  }
  EXPECT_TRUE(block_on_slab && slab_sticks);
  const double h = 0.3;
  const double a = (along[2] - 2.0 * along[1] + along[0]) / (h * h);
  const double expected = kG * (std::sin(th) - 0.2 * std::cos(th));
  RecordProperty("acceleration_m_s2", std::to_string(a));
  EXPECT_NEAR(a, expected, 0.02 * expected) << "a = " << a << " m/s²";
}

// Two blocks 5 cm apart on one plane: each carries its own weight, and they never touch.
TEST(Contact, BlocksApartDoNotTouch) {
  Stack stack(-0.1, 0.25);  // the block beside the slab, on the plane
  World& world = stack.world;
  for (int s = 0; s < 300; ++s) {
    world.step();
    for (const ContactEvent& e : world.contact_events()) EXPECT_EQ(e.other_body, -1);
  }
  ASSERT_TRUE(stack.event(1, 0, -1) && stack.event(0, 0, -1));
  EXPECT_NEAR(stack.event(1, 0, -1)->normal_force, 1.0 * kG, 1e-6 * kG);
  EXPECT_NEAR(stack.event(0, 0, -1)->normal_force, 4.0 * kG, 1e-6 * kG);
}

// Contact "bodies": false keeps a body touching colliders only: the block falls through the slab.
TEST(Contact, BodiesOffLetsABlockPassThrough) {
  Stack stack;
  BodyContact no_bodies;
  no_bodies.bodies = false;
  stack.world.set_contact(1, no_bodies);
  for (int s = 0; s < 120; ++s) stack.world.step();
  EXPECT_EQ(stack.event(1, -1, 0), nullptr);
  EXPECT_LT(mean(stack.world.body(1).surface_positions()).z(), 0.1);
}

// The example scene with μ = 0.2 everywhere. With the force handed to the block unrelaxed, its swing
// made the block slip on the table under the jelly, and a secant slide estimate that read the jelly's
// changing force as the slide's response blew the scene up within 2 s. Relaxed, the pair settles and
// the block no longer slips (no tangential load drives it); three seconds stay finite, in contact,
// the block on the table, whether or not a patch slips.
TEST(Contact, SlippingUnderAnotherBodyStaysFinite) {
  std::ifstream in(std::filesystem::path(PLIANT_EXAMPLES_DIR) / "contact_bodies.json");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  for (std::size_t at = text.find("\"friction\": 0.6"); at != std::string::npos;
       at = text.find("\"friction\": 0.6"))
    text.replace(at, 15, "\"friction\": 0.2");
  Result<Scene> scene = parse_scene(text, "contact_bodies.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  bool slipped = false;
  for (int s = 0; s < 300; ++s) {
    world.step();
    for (const ContactEvent& e : world.contact_events()) slipped |= e.collider == 0 && e.slipping > 0;
  }
  RecordProperty("block_slipped", slipped ? "yes" : "no");
  for (Index b = 0; b < 2; ++b)
    for (const Vec3& x : world.body(b).surface_positions()) {
      ASSERT_TRUE(x.allFinite());
      EXPECT_GT(x.z(), -1e-6);
      EXPECT_LT(x.norm(), 0.5);
    }
  bool jelly_on_block = false;
  for (const ContactEvent& e : world.contact_events()) jelly_on_block |= e.body == 1 && e.other_body == 0;
  EXPECT_TRUE(jelly_on_block);
}

// A meshless block (6 cm, 1000 kg/m³: 0.216 kg) resting on a plane: its contacts carry its whole
// weight, the held phyxels' own weight included and phyxels shared by neighbouring held vertices
// counted once.
TEST(Contact, MeshlessBlockRestingOnAPlaneCarriesItsWeight) {
  const double dt = 0.01;
  World world(dt);
  Result<std::unique_ptr<Body>> body = make_body(
      R"({"name": "jelly", "family": "meshless",
          "mesh": {"shape": "box", "origin": [-0.03, -0.03, 0.0], "size": [0.06, 0.06, 0.06], "cells": [4, 4, 4]},
          "material": {"E": 20000, "nu": 0.3, "density": 1000},
          "meshless": {"spacing": 0.01, "volume_stiffness": 20000, "mass_damping": 5, "gravity": [0, 0, -9.81]}})",
      "jelly.json", dt);
  ASSERT_TRUE(body.ok()) << body.message();
  world.add_body(std::move(body).value());
  BodyContact grip;
  grip.friction = 2.0;
  world.set_contact(0, grip);
  ASSERT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3::Zero(), 2.0)).ok());
  for (int s = 0; s < 600; ++s) world.step();
  ASSERT_EQ(world.contact_events().size(), 1u);
  const ContactEvent& e = world.contact_events()[0];
  const double weight = 0.216 * kG;
  EXPECT_NEAR(e.normal_force, weight, 1e-6 * weight);
  EXPECT_LT((e.force - Vec3(0.0, 0.0, weight)).norm(), 1e-6 * weight);
}

// A springs membrane (0.1 m square, 8 × 8 cells, 1 kg/m²) lying flat just inside the margins of a
// plane: its contacts carry its whole weight, the held nodes' own weight included, to 1e-6 (before, a
// springs grab's reaction left the held node's weight out and the flat sheet reported none).
TEST(Contact, SpringsMembraneRestingOnAPlaneCarriesItsWeight) {
  const double dt = 0.01;
  World world(dt);
  Result<std::unique_ptr<Body>> body = make_body(
      R"({"name": "sheet", "family": "springs", "mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [8, 8]},
          "springs": {"gravity": [0, 0, -9.81], "mass_density": 1.0}})",
      "sheet.json", dt);
  ASSERT_TRUE(body.ok()) << body.message();
  world.add_body(std::move(body).value());
  ASSERT_TRUE(world.add_collider(plane(Vec3::UnitZ(), Vec3(0.0, 0.0, -0.0009))).ok());
  for (int s = 0; s < 300; ++s) world.step();
  ASSERT_EQ(world.contact_events().size(), 1u);
  const ContactEvent& e = world.contact_events()[0];
  const double weight = 1.0 * 0.1 * 0.1 * kG;  // areal density 1 kg/m² over 0.01 m²
  RecordProperty("membrane_normal_force_N", std::to_string(e.normal_force));
  EXPECT_EQ(e.contacts, 81);  // every node of the flat sheet
  EXPECT_NEAR(e.normal_force, weight, 1e-6 * weight);
  EXPECT_LT((e.force - Vec3(0.0, 0.0, weight)).norm(), 1e-6 * weight);
}

TEST(Contact, ColliderValidationNamesTheBadValue) {
  Collider c;
  c.name = "s";
  c.shape = ColliderShape::sphere;
  c.radius = 0.0;
  EXPECT_NE(validate(c).message().find("radius must be > 0"), std::string::npos);
  c.radius = 0.1;
  c.pose.position.x() = std::nan("");
  EXPECT_NE(validate(c).message().find("position must be finite"), std::string::npos);
  c.pose.position.x() = 0.0;
  c.friction = -1.0;
  EXPECT_FALSE(validate(c).ok());
  c.friction = 0.5;
  c.margin = 0.0;
  EXPECT_FALSE(validate(c).ok());
  c.margin = 1e-3;
  PoseKey far;
  far.pose.position.z() = std::numeric_limits<double>::infinity();
  c.track = {far};
  EXPECT_FALSE(validate(c).ok());
  World world;
  EXPECT_FALSE(world.add_collider(c).ok());
}

// The seed scene of the fuzzer with every collider shape loads and steps, and the floor carries the
// block.
TEST(Contact, SceneWithEveryShapeLoadsAndSteps) {
  Result<Scene> scene = load_scene(std::string(PLIANT_TESTS_DATA_DIR) + "/scenes/contact_colliders.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  ASSERT_EQ(scene->world->colliders().size(), 5u);
  EXPECT_EQ(scene->world->contact(0).friction, 0.4);
  for (int s = 0; s < scene->steps; ++s) scene->world->step();
  bool floor = false;
  for (const ContactEvent& e : scene->world->contact_events())
    floor |= e.collider == 0 && e.normal_force > 0.0;
  EXPECT_TRUE(floor);
}

}  // namespace
}  // namespace pliant::scene
