// Energy through contact: a FEM ball dropped on a plane or on a FEM block never has more total energy
// (kinetic + elastic + gravity, over every body) than it started with, beyond 1e-6 of the energy of its
// drop (m g h). Contact holds nodes at targets on the surface they touch: a hold that pushed a node out
// further than its margin, or a master force applied where the slave's reaction did no matching work,
// would add energy. The energies are each family's own (ReportsEnergy), checked first against a rigid
// free fall: ΔU = −M g·d for a box of mass M = ρV moved by d, no elastic energy, and for backward Euler
// the kinetic energy ½ M (n g dt)². The explicit families (springs' mass_spring, meshless' symplectic
// Euler) gain energy through contact today, so they are measured (docs/scene-format.md, "Energy"), not
// asserted here.
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

constexpr double kG = 9.81;

std::unique_ptr<Body> body_from(const std::string& json, double dt) {
  Result<std::unique_ptr<Body>> body = make_body(json, "energy.json", dt);
  EXPECT_TRUE(body.ok()) << body.message();
  return body.ok() ? std::move(body).value() : nullptr;
}

// A FEM ball of radius 3 cm centred at height `z`, undamped (backward Euler's own dissipation only).
std::string ball_json(double z) {
  char json[1024];
  std::snprintf(json, sizeof json, R"({"name": "ball", "family": "fem",
      "mesh": {"shape": "ball", "center": [0, 0, %.17g], "radius": 0.03, "resolution": 6},
      "material": {"E": 2e5, "nu": 0.3, "density": 1000},
      "fem": {"element": "corotational", "gravity": [0, 0, %.17g], "integrator": "backward_euler",
              "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
                z, -kG);
  return json;
}

// A FEM slab 0.2 × 0.2 × 0.05 m whose top is at z = 0, held on its base.
std::string slab_json() {
  char json[1024];
  std::snprintf(json, sizeof json, R"({"name": "slab", "family": "fem",
      "mesh": {"shape": "box", "origin": [-0.1, -0.1, -0.05], "size": [0.2, 0.2, 0.05], "cells": [4, 4, 1]},
      "fixed": ["zmin"], "material": {"E": 2e5, "nu": 0.3, "density": 1000},
      "fem": {"element": "corotational", "gravity": [0, 0, %.17g], "integrator": "backward_euler",
              "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
                -kG);
  return json;
}

// A box 0.1 × 0.1 × 0.05 m of density 1000 kg/m³ (5 kg) falling from rest for 20 steps of 1/120 s: its
// energies against the rigid translation it makes.
TEST(BodyEnergy, FreeFallIsARigidTranslation) {
  const double dt = 1.0 / 120.0, mass = 1000.0 * 0.1 * 0.1 * 0.05;
  const char* const bodies[] = {
      R"({"name": "box", "family": "fem",
          "mesh": {"shape": "box", "size": [0.1, 0.1, 0.05], "cells": [2, 2, 1]},
          "material": {"E": 2e5, "nu": 0.3, "density": 1000},
          "fem": {"element": "corotational", "gravity": [0, 0, -9.81], "integrator": "backward_euler",
                  "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-12}}})",
      R"({"name": "box", "family": "springs", "mesh": {"shape": "box", "size": [0.1, 0.1, 0.05], "cells": [2, 2, 1]},
          "springs": {"method": "mass_spring", "mass_density": 1000, "gravity": [0, 0, -9.81]}})"};
  for (const char* json : bodies) {
    World world(dt);
    world.add_body(body_from(json, dt));
    const Body& body = world.body(0);
    SCOPED_TRACE(std::string(body.family()));
    const ReportsEnergy* r = capability<ReportsEnergy>(body);
    ASSERT_NE(r, nullptr);
    const BodyEnergy e0 = r->energy();
    EXPECT_EQ(e0.kinetic, 0.0);
    EXPECT_NEAR(e0.elastic, 0.0, 1e-15);
    const std::vector<Vec3> x0(body.surface_positions().begin(), body.surface_positions().end());
    const int steps = 20;
    for (int s = 0; s < steps; ++s) world.step();
    const BodyEnergy e = r->energy();
    const double d = body.surface_positions()[0].z() - x0[0].z();  // every node moved alike
    for (std::size_t i = 0; i < x0.size(); ++i)
      EXPECT_NEAR(body.surface_positions()[i].z() - x0[i].z(), d, 1e-9 * std::abs(d));
    EXPECT_LT(d, -0.01);
    EXPECT_NEAR(e.gravity - e0.gravity, mass * kG * d, 1e-9 * mass * kG * std::abs(d));
    EXPECT_LT(std::abs(e.elastic), 1e-9 * e.kinetic);
    if (body.family() == "fem") {
      const double v = steps * kG * dt;  // backward Euler: v_n = n g dt under a uniform load
      EXPECT_NEAR(e.kinetic, 0.5 * mass * v * v, 1e-9 * 0.5 * mass * v * v);
    }
    EXPECT_GT(e.kinetic, 0.0);
  }
}

double total_energy(const World& world) {
  double e = 0.0;
  for (Index b = 0; b < static_cast<Index>(world.body_count()); ++b) {
    const ReportsEnergy* r = capability<ReportsEnergy>(world.body(b));
    EXPECT_NE(r, nullptr) << world.body(b).name();
    if (r) e += r->energy().total();
  }
  return e;
}

struct Drop {
  double worst_gain = 0.0;  // largest E(t) − E(0) (unit: J)
  double drop = 0.0;        // m g h of the fall (unit: J)
  double lowest = 0.0;      // the ball's lowest surface z (unit: m)
  bool touched = false;
};

// Drops the ball from 2 cm above `floor_z` (its lowest point) for `seconds`.
Drop drop(World& world, Index ball, double floor_z, double seconds) {
  Drop d;
  const ReportsEnergy* r = capability<ReportsEnergy>(world.body(ball));
  if (!r) return d;
  const double start = total_energy(world);
  const double m_g = r->energy().gravity;  // −Σ m g z = −m g z_c: the ball's m g from its centre's height
  double z_low = 1e9;
  for (const Vec3& p : world.body(ball).surface_positions()) z_low = std::min(z_low, p.z());
  double z_mean = 0.0;
  for (const Vec3& p : world.body(ball).surface_positions()) z_mean += p.z();
  z_mean /= static_cast<double>(world.body(ball).surface_positions().size());
  d.drop = std::abs(m_g) / z_mean * (z_low - floor_z);  // ≈ m g h with h the gap to the floor
  d.lowest = z_low;
  const int steps = static_cast<int>(seconds / world.time_step());
  for (int s = 0; s < steps; ++s) {
    world.step();
    d.worst_gain = std::max(d.worst_gain, total_energy(world) - start);
    d.touched = d.touched || !world.contact_events().empty();
    for (const Vec3& p : world.body(ball).surface_positions()) d.lowest = std::min(d.lowest, p.z());
  }
  return d;
}

TEST(ContactEnergy, BallOnAPlaneNeverGainsEnergy) {
  const double dt = 1.0 / 240.0;
  World world(dt);
  world.add_body(body_from(ball_json(0.05), dt));
  Collider floor;
  floor.name = "floor";
  floor.shape = ColliderShape::plane;
  floor.normal = Vec3::UnitZ();
  floor.friction = 0.5;
  ASSERT_TRUE(world.add_collider(floor).ok());
  const Drop d = drop(world, 0, 0.0, 0.6);
  EXPECT_TRUE(d.touched);
  EXPECT_GT(d.drop, 0.0);
  EXPECT_LT(d.worst_gain, 1e-6 * d.drop) << "gain " << d.worst_gain << " J of a " << d.drop << " J drop";
  EXPECT_GT(d.lowest, -1e-3);  // it did not fall through
}

TEST(ContactEnergy, BallOnABlockNeverGainsEnergy) {
  const double dt = 1.0 / 240.0;
  World world(dt);
  world.add_body(body_from(slab_json(), dt));
  world.add_body(body_from(ball_json(0.05), dt));
  const Drop d = drop(world, 1, 0.0, 0.6);
  EXPECT_TRUE(d.touched);
  EXPECT_LT(d.worst_gain, 1e-6 * d.drop) << "gain " << d.worst_gain << " J of a " << d.drop << " J drop";
  EXPECT_GT(d.lowest, -0.01);  // it did not sink through the slab
}

}  // namespace
}  // namespace pliant::scene
