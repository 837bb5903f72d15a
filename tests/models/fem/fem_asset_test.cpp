// fem::FemAsset: bodies built from one asset are each what a lone body from its own asset is, and
// never change the asset, not even by a cut (copy on write); the key changes with every input.
#include "pliant/models/fem/fem_asset.hpp"

#include "fem_test_util.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/models/fem/fem_body.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pliant::fem {
namespace {

TetMesh bar() { return test::box({0.1, 0.02, 0.02}, {4, 1, 1}); }

materials::Material rubber() { return materials::material_from_young_poisson(1e5, 0.3, 1000.0).value(); }

std::shared_ptr<const FemAsset> asset_of(const TetMesh& mesh, std::vector<materials::Material> materials) {
  Result<std::shared_ptr<const FemAsset>> asset = FemAsset::build(mesh, std::move(materials));
  EXPECT_TRUE(asset.ok()) << asset.message();
  return asset.ok() ? *asset : nullptr;
}

// Every array the asset holds, hashed.
std::uint64_t content_hash(const FemAsset& a) {
  Hasher h;
  h.add(a.rest().positions).add(a.rest().tets);
  for (const materials::Material& m : a.materials())
    h.add_value(m.lambda).add_value(m.mu).add_value(m.density);
  h.add(a.surface().positions).add(a.surface().triangles).add(a.surface_nodes()).add(a.surface_index());
  h.add(a.surface_adjacency().offsets).add(a.surface_adjacency().neighbors);
  return h.value();
}

// The surface nodes at x = value.
std::vector<Index> surface_at_x(const FemBody& body, double value) {
  std::vector<Index> out;
  for (std::size_t k = 0; k < body.surface_nodes().size(); ++k)
    if (std::abs(body.surface().positions[k].x() - value) < 1e-9) out.push_back(static_cast<Index>(k));
  return out;
}

FemDef clamped(const TetMesh& mesh) {
  FemDef def;
  def.body.fixed_nodes = test::nodes_at(mesh, 0, 0.0);
  def.body.rayleigh_alpha = 0.5;
  def.step.solver.solver = LinearSolverKind::cholmod;
  return def;
}

// Body A: its tip grabbed and lifted. Body B: gravity and a push on one tip node each step.
void drive_a(FemBody& body) {
  const std::vector<Index> tip = surface_at_x(body, 0.1);
  ASSERT_FALSE(tip.empty());
  const Vec3 point = body.surface_positions()[static_cast<std::size_t>(tip.front())];
  const GrabId id = body.grab(tip, point);
  ASSERT_GE(id.slot, 0);
  Profile profile;
  for (int s = 0; s < 10; ++s) {
    body.move_grab(id, point + Vec3(0.0, 0.0, 0.001 * (s + 1)));
    body.step(0.01, profile);
  }
}

void drive_b(FemBody& body) {
  const std::vector<Index> tip = surface_at_x(body, 0.1);
  ASSERT_FALSE(tip.empty());
  Profile profile;
  for (int s = 0; s < 10; ++s) {
    body.add_surface_force(tip.back(), Vec3(0.0, 0.2, 0.0));
    body.step(0.01, profile);
  }
}

TEST(FemAsset, BodiesSharingAnAssetStepAsLoneBodiesAndLeaveItUnchanged) {
  const TetMesh mesh = bar();
  const std::shared_ptr<const FemAsset> shared = asset_of(mesh, {rubber()});
  ASSERT_NE(shared, nullptr);
  const std::uint64_t before = content_hash(*shared);
  FemDef def_a = clamped(mesh), def_b = clamped(mesh);
  def_b.body.gravity = Vec3(0.0, 0.0, -9.81);
  Result<FemBody> a = FemBody::build(shared, def_a.body, def_a.step);
  Result<FemBody> b = FemBody::build(shared, def_b.body, def_b.step);
  ASSERT_TRUE(a.ok()) << a.message();
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(a->asset().get(), shared.get());
  EXPECT_EQ(b->asset().get(), shared.get());
  drive_a(*a);
  drive_b(*b);

  Result<FemBody> lone_a = FemBody::build(asset_of(mesh, {rubber()}), def_a.body, def_a.step);
  Result<FemBody> lone_b = FemBody::build(asset_of(mesh, {rubber()}), def_b.body, def_b.step);
  ASSERT_TRUE(lone_a.ok() && lone_b.ok());
  drive_a(*lone_a);
  drive_b(*lone_b);
  EXPECT_NE(a->state_hash(), b->state_hash()) << "driven differently, they differ";
  EXPECT_EQ(a->state_hash(), lone_a->state_hash());
  EXPECT_EQ(b->state_hash(), lone_b->state_hash());
  EXPECT_EQ(content_hash(*shared), before);
  EXPECT_EQ(shared->key(), FemAsset::key_of(mesh, std::vector{rubber()}));
}

// A hybrid slab (Wu & Heng 2005) clamped at x = 0, operational in x in [0.1, 0.2], and a blade swept
// down through x = 0.1625 over five steps.
TEST(FemAsset, ACutBodyTakesItsOwnAssetAndLeavesTheSharedOneAndItsSiblingAlone) {
  const TetMesh mesh = test::box({0.3, 0.04, 0.04}, {6, 2, 2});
  FemDef def = clamped(mesh);
  def.body.gravity = Vec3(0.0, -9.81, 0.0);
  for (const Tet& t : mesh.tets) {
    double cx = 0.0;
    for (Index a : t) cx += 0.25 * mesh.positions[static_cast<std::size_t>(a)].x();
    def.step.operational.push_back(cx > 0.1 && cx < 0.2 ? 1 : 0);
  }
  const std::shared_ptr<const FemAsset> shared = asset_of(mesh, {rubber()});
  ASSERT_NE(shared, nullptr);
  const std::uint64_t before = content_hash(*shared);
  Result<FemBody> cut = FemBody::build(shared, def.body, def.step);
  Result<FemBody> sibling = FemBody::build(shared, def.body, def.step);
  Result<FemBody> lone = FemBody::build(asset_of(mesh, {rubber()}), def.body, def.step);
  Result<FemBody> uncut = FemBody::build(asset_of(mesh, {rubber()}), def.body, def.step);
  ASSERT_TRUE(cut.ok() && sibling.ok() && lone.ok() && uncut.ok());

  Profile profile;
  int cuts = 0;
  for (int s = 0; s < 7; ++s) {
    const auto edge = [](double t) {
      const double y = 0.1 - 0.2 * std::min(t / 0.05, 1.0);
      return std::pair{Vec3(0.1625, y, -0.1), Vec3(0.1625, y, 0.1)};
    };
    const auto [a0, b0] = edge(0.01 * s);
    const auto [a1, b1] = edge(0.01 * (s + 1));
    if (s > 0) {
      const bool did = cut->cut({a0, b0, a1, b1});
      EXPECT_EQ(lone->cut({a0, b0, a1, b1}), did);
      cuts += did ? 1 : 0;
    }
    for (FemBody* body : {&*cut, &*sibling, &*lone, &*uncut}) body->step(0.01, profile);
  }
  ASSERT_GE(cuts, 1);
  EXPECT_GT(cut->rest().tets.size(), mesh.tets.size());
  EXPECT_NE(cut->asset().get(), shared.get()) << "the cut body owns its cut mesh";
  EXPECT_EQ(cut->asset().use_count(), 1);
  EXPECT_EQ(sibling->asset().get(), shared.get());
  EXPECT_EQ(content_hash(*shared), before);
  EXPECT_EQ(shared->rest().tets.size(), mesh.tets.size());
  EXPECT_EQ(sibling->state_hash(), uncut->state_hash()) << "the sibling never saw the cut";
  EXPECT_EQ(cut->state_hash(), lone->state_hash());
  EXPECT_EQ(content_hash(*cut->asset()), content_hash(*lone->asset()));
  EXPECT_EQ(cut->surface_topology_version(), lone->surface_topology_version());
}

TEST(FemAsset, TheKeyChangesWithEveryInput) {
  const TetMesh mesh = bar();
  const std::vector<materials::Material> one{rubber()};
  const std::uint64_t key = FemAsset::key_of(mesh, one);
  EXPECT_EQ(FemAsset::key_of(bar(), std::vector{rubber()}), key) << "equal inputs, equal keys";
  const std::shared_ptr<const FemAsset> built = asset_of(mesh, one);
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(built->key(), key);

  TetMesh moved = mesh;
  moved.positions[3].y() += 1e-9;
  EXPECT_NE(FemAsset::key_of(moved, one), key) << "one node moved by 1e-9 m";
  TetMesh renumbered = mesh;
  std::swap(renumbered.tets[0][1], renumbered.tets[0][2]);
  EXPECT_NE(FemAsset::key_of(renumbered, one), key) << "one tet's nodes";
  TetMesh fewer = mesh;
  fewer.tets.pop_back();
  EXPECT_NE(FemAsset::key_of(fewer, one), key) << "one tet fewer";
  const materials::Material stiffer = materials::material_from_young_poisson(2e5, 0.3, 1000.0).value();
  EXPECT_NE(FemAsset::key_of(mesh, std::vector{stiffer}), key) << "the stiffness";
  const materials::Material denser = materials::material_from_young_poisson(1e5, 0.3, 1001.0).value();
  EXPECT_NE(FemAsset::key_of(mesh, std::vector{denser}), key) << "the density";
  const std::vector<materials::Material> per_tet(mesh.tets.size(), rubber());
  EXPECT_NE(FemAsset::key_of(mesh, per_tet), key) << "one material per tet, though all equal";
  std::vector<materials::Material> one_differs = per_tet;
  one_differs.back() = stiffer;
  EXPECT_NE(FemAsset::key_of(mesh, one_differs), FemAsset::key_of(mesh, per_tet)) << "one tet's material";
}

TEST(FemAsset, BadInputsFailWithTheForceModelsMessagesAndANullAssetIsRefused) {
  TetMesh inverted = bar();
  std::swap(inverted.tets[2][0], inverted.tets[2][1]);
  Result<std::shared_ptr<const FemAsset>> bad = FemAsset::build(inverted, {rubber()});
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.message().starts_with("fem body: ")) << bad.message();
  EXPECT_NE(bad.message().find("tet 2"), std::string::npos) << bad.message();
  Result<std::shared_ptr<const FemAsset>> two = FemAsset::build(bar(), {rubber(), rubber()});
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.message(), "fem body: 2 materials for 24 tets (give 1 or one per tet)");
  Result<FemBody> none = FemBody::build(std::shared_ptr<const FemAsset>(), {}, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(), "fem: no asset (build one with fem::FemAsset::build)");
}

}  // namespace
}  // namespace pliant::fem
