// SpringsBody, the mass-spring run time: grabs move their node linearly over the substeps (checked
// against the same substeps done by hand with a MethodStepper), handles never alias, the reaction is
// Hooke's force, obstacles project free nodes onto the cylinder, the pressure decays only once
// something tore, and every step records its three stages.
#include "pliant/models/springs/springs_body.hpp"
#include "pliant/meshing/hex_disc.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::springs {
namespace {

std::size_t at(Index i) { return static_cast<std::size_t>(i); }

// Two free nodes 1 cm apart on one spring (k = 10 N/m, no damping, 1 g each).
SpringMesh pair() {
  auto r = build_spring_graph({Vec3(0, 0, 0), Vec3(0.01, 0, 0)}, {{0, 1}},
                              {.stiffness = 10.0, .damping = 0.0, .node_mass = 1e-3, .max_stretch = 1.5});
  EXPECT_TRUE(r.ok()) << r.message();
  return std::move(r).value();
}

TEST(SpringsBody, GrabMovesItsNodeLinearlyOverTheSubsteps) {
  const MethodDef method{.method = Method::mass_spring, .dt = 1e-3};
  SpringsBody body(pair(), {.method = method});
  const GrabId id = body.grab(0);
  ASSERT_TRUE(id.valid());
  const Vec3 target(-0.004, 0.002, 0.0);
  body.move_grab(id, target);
  Profile profile;
  body.step(4e-3, profile);  // four substeps of 1 ms

  // The same four substeps by hand: node 0 fixed and placed on the line to its target.
  SpringMesh ref = pair();
  ref.set_fixed(0, true);
  MethodStepper stepper(method);
  const Index held[1] = {0};
  stepper.set_interaction(ref, held);
  const Vec3 start = ref.position[0];
  for (int k = 1; k <= 4; ++k) {
    const double a = k / 4.0;
    ref.position[0] = (1.0 - a) * start + a * target;
    stepper.step(ref);
  }
  EXPECT_EQ(body.mesh().position[0], target);
  EXPECT_EQ(body.mesh().position[1], ref.position[1]);
  EXPECT_EQ(body.mesh().velocity[1], ref.velocity[1]);
  EXPECT_NE(ref.position[1], Vec3(0.01, 0, 0));  // the free node did move

  // The reaction is Hooke's force on the held node, towards the other end.
  const Vec3 d = body.mesh().position[1] - body.mesh().position[0];
  const Vec3 hooke = 10.0 * (d.norm() - 0.01) * d.normalized();
  EXPECT_LT((body.grab_reaction(id) - hooke).norm(), 1e-12 * hooke.norm());
}

TEST(SpringsBody, HandlesNeverAliasAndReleaseComesWithTheNextStep) {
  SpringsBody body(pair(), {.method = {.method = Method::dragnet}});
  EXPECT_FALSE(body.grab(-1).valid());
  EXPECT_FALSE(body.grab(2).valid());
  const GrabId first = body.grab(1);
  ASSERT_TRUE(first.valid());
  EXPECT_FALSE(body.grab(1).valid()) << "a node is held by one grab at a time";
  EXPECT_TRUE(body.mesh().fixed(1));
  body.release(first);
  EXPECT_FALSE(body.mesh().fixed(1)) << "release gives the node its own fixedness back";
  EXPECT_TRUE(body.released_grabs().empty());
  Profile profile;
  body.step(1e-3, profile);
  ASSERT_EQ(body.released_grabs().size(), 1u);
  EXPECT_EQ(body.released_grabs()[0].id, first);
  EXPECT_EQ(body.released_grabs()[0].node, 1);
  EXPECT_EQ(body.released_grabs()[0].after_tears, 0u);

  const GrabId second = body.grab(1);
  ASSERT_TRUE(second.valid());
  EXPECT_EQ(second.slot, first.slot);  // the slot is reused...
  EXPECT_NE(second, first);            // ...under a new generation
  EXPECT_EQ(body.grab_node(first), -1);
  EXPECT_EQ(body.grab_node(second), 1);
  const Vec3 before = body.mesh().position[1];
  body.move_grab(first, Vec3(1, 1, 1));  // a stale handle moves nothing
  body.step(1e-3, profile);
  EXPECT_EQ(body.mesh().position[1], before);
  EXPECT_TRUE(body.released_grabs().empty());

  // Every step records its three stages, in order.
  ASSERT_EQ(profile.stages.size(), 3u);
  EXPECT_EQ(profile.stages[0].name, "springs.interaction");
  EXPECT_EQ(profile.stages[1].name, "springs.solve");
  EXPECT_EQ(profile.stages[2].name, "springs.tear");
  for (const auto& s : profile.stages) EXPECT_GE(s.ms, 0.0);
}

TEST(SpringsBody, ObstaclesProjectFreeNodesOntoTheCylinder) {
  SpringMesh m = pair();
  m.set_fixed(1, true);
  SpringsBody body(std::move(m), {.method = {.method = Method::mass_spring, .dt = 1e-3}});
  // Both nodes inside a cylinder along z; node 0 is 3 mm from its axis, node 1 (fixed) 7 mm.
  const Cylinder c{Vec3(0.003, 0, 0), Vec3(0, 0, 1), 0.008, 0.01};
  body.set_obstacles({&c, 1});
  Profile profile;
  body.step(1e-3, profile);
  const Vec3 x0 = body.mesh().position[0];
  EXPECT_NEAR((x0 - c.centre).norm(), c.radius, 1e-15);
  EXPECT_NEAR(x0.y(), 0.0, 1e-15);  // straight out along the radial direction
  EXPECT_LT(x0.x(), 0.0);
  EXPECT_EQ(body.mesh().velocity[0], Vec3::Zero());
  EXPECT_EQ(body.mesh().position[1], Vec3(0.01, 0, 0)) << "fixed nodes are not pushed";
}

TEST(SpringsBody, PressureDecaysOnlyOnceSomethingTore) {
  auto disc = meshing::hex_disc({.radius = 0.05, .rings = 5});
  ASSERT_TRUE(disc.ok()) << disc.message();
  auto mesh = build_spring_mesh(*disc, {.stiffness = 100.0, .node_mass = 1e-3});
  ASSERT_TRUE(mesh.ok()) << mesh.message();
  const double dt = 1e-3, decay = 0.01, p0 = 5.0;
  SpringsBody body(std::move(mesh).value(),
                   {.method = {.method = Method::mass_spring, .dt = dt, .scheme = Scheme::symplectic_euler},
                    .pressure = p0,
                    .pressure_decay = decay});
  Profile profile;
  body.step(dt, profile);
  EXPECT_EQ(body.pressure(), p0);
  // The pressure pushes along the disc's normal (+z for its counter-clockwise triangles).
  double lift = 0.0;
  for (const Vec3& v : body.mesh().velocity) lift += v.z();
  EXPECT_GT(lift, 0.0);

  Index centre = 0;
  for (Index i = 1; i < body.mesh().node_count(); ++i)
    if (body.mesh().rest_position[at(i)].norm() < body.mesh().rest_position[at(centre)].norm()) centre = i;
  const Index nodes = body.mesh().node_count();
  ASSERT_GT(body.cut(centre), 0);
  EXPECT_EQ(body.tear_events()[0].kind, TearKind::hole);
  EXPECT_EQ(body.mesh().node_count(), nodes + 1);
  EXPECT_EQ(body.tear_count(), body.tear_events().size());
  body.step(dt, profile);
  EXPECT_DOUBLE_EQ(body.pressure(), p0 * std::exp(-dt / decay));
  EXPECT_TRUE(body.tear_events().empty()) << "tearing is off: the cut's events last until the next step";
}

TEST(SpringsBody, TearModeNamesRoundTrip) {
  for (TearMode m : {TearMode::off, TearMode::area_preserving, TearMode::deletion})
    EXPECT_EQ(tear_mode_from_name(tear_mode_name(m)), m);
  EXPECT_FALSE(tear_mode_from_name("none").has_value());
}

}  // namespace
}  // namespace pliant::springs
