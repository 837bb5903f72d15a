// MeshlessAsset: bodies built from one asset are each exactly the body a fresh asset gives, a cut of one
// never reaches the other or the asset, and the key changes with every input that changes the asset.
#include "pliant/models/meshless/meshless_asset.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/core/region.hpp"
#include "pliant/models/meshless/meshless_body.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace pliant::meshless {
namespace {

const TriMesh& bar() {
  static const TriMesh surface = test::box_surface(Vec3::Zero(), Vec3(0.1, 0.03, 0.03));
  return surface;
}

MeshlessAssetDef asset_def() {
  MeshlessAssetDef def;
  def.sampling.spacing = 0.01;
  def.mls.materials = {test::jelly()};
  return def;
}

MeshlessBodyDef body_def() {
  MeshlessBodyDef def;
  def.gravity = Vec3(0, 0, -9.81);
  def.dt = 5e-4;
  return def;
}

// Hash of everything the asset holds that a body could write into.
std::uint64_t content(const MeshlessAsset& a) {
  const MlsBody& b = a.phyxels();
  Hasher h;
  h.add(b.rest).add(b.position).add(b.velocity).add(b.mass).add(b.inv_mass).add(b.volume).add(b.support);
  h.add(b.moment_inverse)
      .add(b.d_sum)
      .add(b.link_begin)
      .add(b.link_target)
      .add(b.link_d)
      .add(b.plastic_strain);
  h.add(a.surface().rest_positions()).add(a.surface().triangles());
  return h.value();
}

// Fixes the bar's left end, grabs surface vertex `vertex` and moves it by `move` over 20 steps of
// 2 ms, cutting through x = 0.05 first when asked; the body's state hash after.
std::uint64_t drive(MeshlessBody& b, Index vertex, const Vec3& move, bool cut) {
  for (Index i = 0; i < b.phyxels().size(); ++i)
    if (b.phyxels().rest[static_cast<std::size_t>(i)].x() < 0.01) b.set_fixed(i, true);
  if (cut) {
    EXPECT_TRUE(
        b.cut({Vec3(0.05, -0.1, 0.1), Vec3(0.05, 0.2, 0.1), Vec3(0.05, -0.1, -0.1), Vec3(0.05, 0.2, -0.1)}));
  }
  const GrabId g = b.grab(vertex);
  EXPECT_TRUE(g.valid());
  const Vec3 start = b.surface_positions()[static_cast<std::size_t>(vertex)];
  Profile profile;
  for (int s = 1; s <= 20; ++s) {
    b.move_grab(g, start + move * (s / 20.0));
    b.step(2e-3, profile);
  }
  return b.state_hash();
}

Index far_vertex(const MeshlessAsset& a) {
  const auto& x = a.surface().rest_positions();
  Index best = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i].x() > x[static_cast<std::size_t>(best)].x() + 1e-12) best = static_cast<Index>(i);
  return best;
}

TEST(MeshlessAsset, BodiesSharingAnAssetEachEqualABodyAlone) {
  Result<std::shared_ptr<const MeshlessAsset>> shared = MeshlessAsset::build(bar(), asset_def());
  ASSERT_TRUE(shared.ok()) << shared.message();
  const std::uint64_t before = content(**shared);
  const Index v = far_vertex(**shared);
  const Vec3 moves[2] = {Vec3(0, 0, 0.01), Vec3(0, 0.008, -0.004)};
  const bool cuts[2] = {true, false};  // the first body is cut, the second is not
  Result<MeshlessBody> a = MeshlessBody::build(*shared, body_def());
  Result<MeshlessBody> b = MeshlessBody::build(*shared, body_def());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->asset().get(), shared->get());
  EXPECT_EQ(b->asset().get(), shared->get());
  const std::uint64_t together[2] = {drive(*a, v, moves[0], cuts[0]), drive(*b, v, moves[1], cuts[1])};
  EXPECT_NE(together[0], together[1]);
  for (int k = 0; k < 2; ++k) {
    Result<std::shared_ptr<const MeshlessAsset>> own = MeshlessAsset::build(bar(), asset_def());
    ASSERT_TRUE(own.ok());
    Result<MeshlessBody> alone = MeshlessBody::build(*own, body_def());
    ASSERT_TRUE(alone.ok());
    EXPECT_EQ(drive(*alone, v, moves[k], cuts[k]), together[k]) << "body " << k;
  }
  // The cut and the grabs wrote into the bodies' copies, never into the asset.
  EXPECT_EQ(content(**shared), before);
  EXPECT_EQ(a->surface_topology_version() > 0, true);
  EXPECT_EQ(b->surface_topology_version(), 0u);
}

TEST(MeshlessAsset, TheOldEntryIsTheSameBody) {
  MeshlessBodyDef def = body_def();
  const MeshlessAssetDef ad = asset_def();
  def.sampling = ad.sampling;
  def.mls = ad.mls;
  Result<MeshlessBody> direct = MeshlessBody::build(bar(), def);
  Result<std::shared_ptr<const MeshlessAsset>> asset = MeshlessAsset::build(bar(), ad);
  ASSERT_TRUE(direct.ok() && asset.ok());
  Result<MeshlessBody> via = MeshlessBody::build(*asset, body_def());
  ASSERT_TRUE(via.ok());
  const Index v = far_vertex(**asset);
  EXPECT_EQ(drive(*direct, v, Vec3(0, 0, 0.01), false), drive(*via, v, Vec3(0, 0, 0.01), false));
  EXPECT_EQ(direct->asset()->key(), (*asset)->key());
}

TEST(MeshlessAsset, TheKeyChangesWithEveryInput) {
  const MeshlessAssetDef def = asset_def();
  const std::uint64_t key = MeshlessAsset::key_of(bar(), def);
  EXPECT_EQ(MeshlessAsset::key_of(bar(), asset_def()), key);
  Result<std::shared_ptr<const MeshlessAsset>> built = MeshlessAsset::build(bar(), def);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ((*built)->key(), key);
  TriMesh moved = bar();
  moved.positions[3].x() += 1e-9;
  EXPECT_NE(MeshlessAsset::key_of(moved, def), key);
  std::vector<std::function<void(MeshlessAssetDef&)>> changes = {
      [](MeshlessAssetDef& d) { d.sampling.spacing *= 1.01; },
      [](MeshlessAssetDef& d) { d.sampling.jitter = 0.1; },
      [](MeshlessAssetDef& d) { d.sampling.seed = 2; },
      [](MeshlessAssetDef& d) { d.sampling.kind = SamplingKind::poisson; },
      [](MeshlessAssetDef& d) { d.mls.support_factor = 2.5; },
      [](MeshlessAssetDef& d) { d.mls.materials[0].mu *= 1.0 + 1e-12; },
      [](MeshlessAssetDef& d) { d.mls.volume_stiffness = 100.0; },
      [](MeshlessAssetDef& d) { d.mls.strain = StrainMeasure::linear; },
      [](MeshlessAssetDef& d) { d.mls.plasticity.yield = 0.1; },
      [](MeshlessAssetDef& d) {
        d.mls.materials.push_back(test::jelly());
        MaterialRegion region;
        region.material = 1;
        region.selection = parse_region("xmax").value();
        d.mls.regions.push_back(region);
      },
      [](MeshlessAssetDef& d) { d.binding.radius = 0.02; },
      [](MeshlessAssetDef& d) { d.binding.max_enlargements = 3; },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    MeshlessAssetDef changed = asset_def();
    changes[i](changed);
    EXPECT_NE(MeshlessAsset::key_of(bar(), changed), key) << "change " << i;
  }
}

TEST(MeshlessAsset, ANullAssetOrABadSettingIsAnErrorLine) {
  Result<MeshlessBody> none = MeshlessBody::build(std::shared_ptr<const MeshlessAsset>(), body_def());
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("no asset"), std::string::npos);
  Result<std::shared_ptr<const MeshlessAsset>> asset = MeshlessAsset::build(bar(), asset_def());
  ASSERT_TRUE(asset.ok());
  MeshlessBodyDef bad = body_def();
  bad.fixed_phyxels = {static_cast<Index>((*asset)->phyxels().rest.size())};
  Result<MeshlessBody> out_of_range = MeshlessBody::build(*asset, bad);
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_NE(out_of_range.message().find("fixed phyxel"), std::string::npos) << out_of_range.message();
  bad = body_def();
  bad.dt = -1.0;
  EXPECT_FALSE(MeshlessBody::build(*asset, bad).ok());
}

}  // namespace
}  // namespace pliant::meshless
