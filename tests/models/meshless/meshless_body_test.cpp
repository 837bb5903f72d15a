// MeshlessBody's run time: surface forces, grabs and the floor.
#include "pliant/models/meshless/meshless_body.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

namespace pliant::meshless {
namespace {

MeshlessBody cube(MeshlessBodyDef def = {}) {
  def.sampling.spacing = 0.01;
  def.mls.materials = {test::jelly()};
  auto b = MeshlessBody::build(test::box_surface(Vec3::Zero(), Vec3::Constant(0.04)), def);
  EXPECT_TRUE(b.ok()) << b.message();
  return std::move(b).value();
}

Vec3 momentum(const MeshlessBody& b) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < b.phyxels().rest.size(); ++i)
    p += b.phyxels().mass[i] * b.phyxels().velocity[i];
  return p;
}

TEST(MeshlessBody, SurfaceForceGivesItsImpulse) {
  MeshlessBody b = cube();
  Profile profile;
  const Vec3 f(0.01, -0.02, 0.03);
  b.add_surface_force(3, f);
  b.step(0.01, profile);
  EXPECT_LT((momentum(b) - 0.01 * f).norm(), 1e-15);  // internal forces cancel
  b.step(0.01, profile);                              // the force lasted one step
  EXPECT_LT((momentum(b) - 0.01 * f).norm(), 1e-15);
}

TEST(MeshlessBody, GrabHoldsItsVertexAndReleases) {
  MeshlessBodyDef def;
  def.mass_damping = 50.0;
  MeshlessBody b = cube(def);
  for (Index i = 0; i < b.phyxels().size(); ++i) {
    if (b.phyxels().rest[static_cast<std::size_t>(i)].x() < 0.01) b.set_fixed(i, true);  // the x = 0 side
  }
  Profile profile;
  const GrabId id = b.grab(7);  // the corner (0.04, 0.04, 0.04)
  ASSERT_GE(id.slot, 0);
  const Vec3 target = b.surface_positions()[7] + Vec3(0.004, 0.0, 0.002);
  b.move_grab(id, target);
  for (int s = 0; s < 30; ++s) b.step(0.01, profile);
  EXPECT_LT((b.surface_positions()[7] - target).norm(), 1e-14);
  EXPECT_GT(b.grab_reaction(id).norm(), 0.0);
  EXPECT_LT(b.grab_reaction(id).x(), 0.0);  // pulls back toward rest
  for (Index j : b.grab_phyxels(id)) EXPECT_EQ(b.phyxels().inv_mass[static_cast<std::size_t>(j)], 0.0);
  const auto held = std::vector<Index>(b.grab_phyxels(id).begin(), b.grab_phyxels(id).end());
  b.release(id);
  b.step(0.01, profile);
  ASSERT_EQ(b.released_grabs().size(), 1u);
  EXPECT_EQ(b.released_grabs()[0].node, 7);
  for (Index j : held) EXPECT_GT(b.phyxels().inv_mass[static_cast<std::size_t>(j)], 0.0);
  EXPECT_EQ(b.grab_reaction(id), Vec3::Zero());  // a released handle is dead
}

TEST(MeshlessBody, FloorStopsTheFall) {
  MeshlessBodyDef def;
  def.gravity = Vec3(0, 0, -9.81);
  def.floor = -0.01;
  def.mass_damping = 10.0;
  MeshlessBody b = cube(def);
  Profile profile;
  for (int s = 0; s < 60; ++s) b.step(0.01, profile);
  double lowest = 1e300;
  for (const Vec3& x : b.phyxels().position) lowest = std::min(lowest, x.z());
  EXPECT_GE(lowest, -0.01 + 0.005 - 1e-12);
  EXPECT_LT(lowest, -0.01 + 0.005 + 2e-3);  // resting on it, sagging a little
}

}  // namespace
}  // namespace pliant::meshless
