// DentAsset: targets sharing one asset dent exactly as lone targets of their own fresh assets, a dent
// in one leaves the other target and the asset at rest (copy-on-write), the content key changes with
// every input the asset depends on (a node moved by 1e-9 m, the material, a region, the method, the
// octree depth) and not with the threading, and a target of a null asset is an error.
#include "pliant/models/impact/dent_asset.hpp"
#include "impact_test_meshes.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/models/impact/dent_target.hpp"

#include <gtest/gtest.h>

namespace pliant::impact {
namespace {

constexpr double kDt = 1.0 / 60.0;
const ImpactMaterial kMat{0.3, 0.12, 2.5, 1.0};

// Everything the asset holds that a dent could move, hashed.
std::uint64_t content(const DentAsset& a) {
  Hasher h;
  h.add(a.surface().positions).add(a.surface().triangles).add(a.materials());
  h.add_value(a.bounds().min).add_value(a.bounds().max).add(a.bvh().nodes());
  return h.value();
}

Projectile point_at(const Vec3& target, double speed) {
  Projectile p;
  p.position = target + Vec3(0, 0, 0.3);
  p.velocity = Vec3(0, 0, -speed);
  p.contact_deceleration = 20.0;
  p.mass = 2.0;
  return p;
}

// One projectile at `aim`, run until it stops; the state hash.
std::uint64_t dent(DentTarget& t, const Vec3& aim, double speed) {
  t.launch(point_at(aim, speed));
  for (int s = 0; s < 600 && t.status(0).phase != ProjectilePhase::stopped; ++s) t.step(kDt);
  EXPECT_EQ(t.status(0).phase, ProjectilePhase::stopped);
  return t.state_hash();
}

TEST(DentAsset, TargetsSharingAnAssetDentAsLoneTargetsAndLeaveItAtRest) {
  for (ImpactMethod method : {ImpactMethod::brute_force, ImpactMethod::octree, ImpactMethod::bvh_grid}) {
    SCOPED_TRACE(to_string(method));
    auto shared = DentAsset::build(testing::plate(30, 1.0), kMat, {}, method);
    ASSERT_TRUE(shared.ok()) << shared.message();
    const std::uint64_t before = content(**shared);
    auto a = DentTarget::create(*shared, {1, 64});
    auto b = DentTarget::create(*shared, {1, 64});
    ASSERT_TRUE(a.ok() && b.ok());
    const std::uint64_t rest_hash = b->state_hash();
    // Copy-on-write: dent one; the other and the asset stay at rest.
    const std::uint64_t ha = dent(*a, Vec3(0.41, 0.52, 0), 3.0);
    EXPECT_TRUE(a->owns_surface());
    EXPECT_FALSE(b->owns_surface());
    EXPECT_EQ(b->state_hash(), rest_hash);
    EXPECT_EQ(content(**shared), before);
    EXPECT_EQ(b->raycast({Vec3(0.41, 0.52, 1.0), Vec3(0, 0, -1)}, 2.0)->t, 1.0) << "b's surface is at rest";
    // Driven differently, each equals a lone target of its own fresh asset driven the same way.
    const std::uint64_t hb = dent(*b, Vec3(0.63, 0.31, 0), 5.0);
    EXPECT_NE(ha, hb);
    for (int k = 0; k < 2; ++k) {
      auto fresh = DentAsset::build(testing::plate(30, 1.0), kMat, {}, method);
      ASSERT_TRUE(fresh.ok());
      auto lone = DentTarget::create(*fresh, {1, 64});
      ASSERT_TRUE(lone.ok());
      EXPECT_EQ(k == 0 ? dent(*lone, Vec3(0.41, 0.52, 0), 3.0) : dent(*lone, Vec3(0.63, 0.31, 0), 5.0),
                k == 0 ? ha : hb);
    }
    EXPECT_EQ(content(**shared), before);
    EXPECT_EQ(a->asset().get(), shared->get());
  }
}

TEST(DentAsset, AnEditCopiesTooAndTheConvenienceCreateEqualsAssetThenTarget) {
  auto shared = DentAsset::build(testing::plate(10, 1.0), kMat);
  ASSERT_TRUE(shared.ok());
  const std::uint64_t before = content(**shared);
  auto a = DentTarget::create(*shared);
  auto b = DentTarget::create(testing::plate(10, 1.0), kMat);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->state_hash(), b->state_hash());
  const Index nodes[1] = {5};
  const Vec3 to[1] = {Vec3(0.5, 0.0, -0.1)};
  a->move_nodes(nodes, to);
  EXPECT_TRUE(a->owns_surface());
  EXPECT_EQ(a->surface().positions[5], to[0]);
  EXPECT_EQ(content(**shared), before);
  EXPECT_NE((*shared)->surface().positions[5], to[0]);
}

TEST(DentAsset, KeyChangesWithEveryInputAndOnlyWithThem) {
  const TriMesh plate = testing::plate(8, 1.0);
  const std::vector<ImpactRegion> none;
  const std::uint64_t key = DentAsset::key_of(plate, kMat, none, ImpactMethod::bvh_grid, 0);
  EXPECT_EQ(DentAsset::key_of(testing::plate(8, 1.0), kMat), key);
  auto built = DentAsset::build(plate, kMat);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ((*built)->key(), key);
  // The threading is not an input: a target with other threads has the same asset.
  EXPECT_EQ(DentTarget::create(plate, kMat, {}, {ImpactMethod::bvh_grid, 0, 3, 8})->asset()->key(), key);

  std::vector<std::uint64_t> keys = {key};
  TriMesh moved = plate;
  moved.positions[4].z() += 1e-9;
  keys.push_back(DentAsset::key_of(moved, kMat));
  TriMesh flipped = plate;
  std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
  keys.push_back(DentAsset::key_of(flipped, kMat));
  for (int field = 0; field < 4; ++field) {
    ImpactMaterial m = kMat;
    double* f[] = {&m.resistance, &m.falloff_radius, &m.hardness, &m.min_force};
    *f[field] += 0.01;
    keys.push_back(DentAsset::key_of(plate, m));
  }
  const std::vector<ImpactRegion> strip{
      {HalfSpaceRegion{0, Comparison::greater, 0.55}, {0.8, 0.12, 2.5, 1.0}}};
  keys.push_back(DentAsset::key_of(plate, kMat, strip));
  keys.push_back(DentAsset::key_of(plate, kMat, none, ImpactMethod::octree, 0));
  keys.push_back(DentAsset::key_of(plate, kMat, none, ImpactMethod::octree, 3));
  keys.push_back(DentAsset::key_of(plate, kMat, none, ImpactMethod::brute_force, 0));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " vs " << j;
}

TEST(DentAsset, ErrorsAreOneLine) {
  auto none = DentTarget::create(std::shared_ptr<const DentAsset>());
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(), "impact target: no asset (null)");
  auto empty = DentAsset::build(TriMesh{}, kMat);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.message(), "impact target: the mesh has no triangles");
}

}  // namespace
}  // namespace pliant::impact
