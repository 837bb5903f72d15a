// ModalFemAsset: bodies sharing one asset step exactly as lone bodies of their own fresh assets and
// never change it; its content key changes with every input the basis depends on (a node moved by
// 1e-9 m, the material, the fixed nodes, the mass kind, the mode count, the shift) and with nothing
// else; a body of a null asset is an error.
#include "pliant/models/fem/modal/modal_fem_asset.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/modal/modal_fem_body.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pliant::fem {
namespace {

TetMesh beam() { return meshing::box_mesh({.size = {1.0, 0.2, 0.2}, .cells = {5, 1, 1}}).value(); }
materials::Material soft() { return materials::material_from_young_poisson(1e5, 0.3, 100).value(); }

std::vector<Index> xmin(const TetMesh& mesh) {
  std::vector<Index> fixed;
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (mesh.positions[i].x() == 0.0) fixed.push_back(static_cast<Index>(i));
  return fixed;
}

ModalFemAssetDef basis_def(const TetMesh& mesh) { return {.modes = 8, .fixed_nodes = xmin(mesh)}; }

// Everything the asset holds, hashed.
std::uint64_t content(const ModalFemAsset& a) {
  const ModalBasis& b = a.basis();
  return Hasher()
      .add(a.rest().positions)
      .add(a.rest().tets)
      .add(std::span<const double>(b.shapes.data(), static_cast<std::size_t>(b.shapes.size())))
      .add(std::span<const double>(b.eigenvalues.data(), static_cast<std::size_t>(b.eigenvalues.size())))
      .add(a.node_masses())
      .add(a.fixed())
      .add(a.surface().positions)
      .add(a.surface().triangles)
      .add(a.surface_nodes())
      .value();
}

// The surface node on the tip face (x = 1) nearest its centre.
Index tip_node(const ModalFemBody& body) {
  Index best = -1;
  for (std::size_t k = 0; k < body.surface().positions.size(); ++k) {
    const Vec3& x = body.surface().positions[k];
    if (x.x() == 1.0 &&
        (best < 0 || x.y() + x.z() < body.surface().positions[static_cast<std::size_t>(best)].y() +
                                         body.surface().positions[static_cast<std::size_t>(best)].z()))
      best = static_cast<Index>(k);
  }
  return best;
}

// Drives a body one of two ways for 30 steps: a grab pulled up (0), or a push and gravity (1).
std::uint64_t drive(ModalFemBody& body, int how) {
  Profile profile;
  const Index tip = tip_node(body);
  EXPECT_GE(tip, 0);
  GrabId grab;
  if (how == 0) {
    const Index nodes[1] = {tip};
    grab = body.grab(nodes, body.surface().positions[static_cast<std::size_t>(tip)]);
    EXPECT_GE(grab.slot, 0);
  }
  for (int s = 0; s < 30; ++s) {
    if (how == 0)
      body.move_grab(grab, body.surface().positions[static_cast<std::size_t>(tip)] + Vec3(0, 0.002 * s, 0));
    else if (s < 5)
      body.add_surface_force(tip, Vec3(0, 0, -2.0));
    body.step(0.01, profile);
  }
  return body.state_hash();
}

TEST(ModalFemAsset, BodiesSharingAnAssetStepAsLoneBodiesAndLeaveItUnchanged) {
  const TetMesh mesh = beam();
  auto shared = ModalFemAsset::build(mesh, {soft()}, basis_def(mesh));
  ASSERT_TRUE(shared.ok()) << shared.message();
  const std::uint64_t before = content(**shared);
  const ModalFemDef defs[2] = {
      {.dt = 0.01, .rayleigh_alpha = 0.5},
      {.dt = 0.01, .warping = true, .rayleigh_beta = 0.002, .gravity = Vec3(0, -9.81, 0)}};
  auto a = ModalFemBody::build(*shared, defs[0]);
  auto b = ModalFemBody::build(*shared, defs[1]);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->asset().get(), shared->get());
  EXPECT_EQ(b->asset().get(), shared->get());
  const std::uint64_t ha = drive(*a, 0), hb = drive(*b, 1);
  EXPECT_NE(ha, hb);
  for (int how = 0; how < 2; ++how) {
    auto fresh = ModalFemAsset::build(mesh, {soft()}, basis_def(mesh));
    ASSERT_TRUE(fresh.ok());
    EXPECT_NE(fresh->get(), shared->get());
    auto lone = ModalFemBody::build(*fresh, defs[how]);
    ASSERT_TRUE(lone.ok()) << lone.message();
    EXPECT_EQ(drive(*lone, how), how == 0 ? ha : hb) << "drive " << how;
  }
  EXPECT_EQ(content(**shared), before);
}

TEST(ModalFemAsset, TheConvenienceBuildEqualsAssetThenBody) {
  const TetMesh mesh = beam();
  const ModalFemDef def{.dt = 0.01, .rayleigh_alpha = 0.3, .gravity = Vec3(0, 0, -9.81)};
  auto direct = ModalFemBody::build(mesh, {soft()}, basis_def(mesh), def);
  auto asset = ModalFemAsset::build(mesh, {soft()}, basis_def(mesh));
  ASSERT_TRUE(direct.ok() && asset.ok());
  auto body = ModalFemBody::build(*asset, def);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(drive(*direct, 1), drive(*body, 1));
}

TEST(ModalFemAsset, KeyChangesWithEveryInputAndOnlyWithThem) {
  const TetMesh mesh = beam();
  const std::vector<materials::Material> mat = {soft()};
  const ModalFemAssetDef def = basis_def(mesh);
  const std::uint64_t key = ModalFemAsset::key_of(mesh, mat, def);
  // Equal inputs, the fixed nodes in another order and repeated: the same key, the built asset's.
  ModalFemAssetDef shuffled = def;
  std::reverse(shuffled.fixed_nodes.begin(), shuffled.fixed_nodes.end());
  shuffled.fixed_nodes.push_back(shuffled.fixed_nodes.front());
  EXPECT_EQ(ModalFemAsset::key_of(beam(), std::vector{soft()}, def), key);
  EXPECT_EQ(ModalFemAsset::key_of(mesh, mat, shuffled), key);
  auto built = ModalFemAsset::build(mesh, mat, shuffled);
  ASSERT_TRUE(built.ok());
  EXPECT_EQ((*built)->key(), key);

  std::vector<std::uint64_t> keys = {key};
  TetMesh moved = mesh;
  moved.positions[7].x() += 1e-9;
  keys.push_back(ModalFemAsset::key_of(moved, mat, def));
  TetMesh renumbered = mesh;
  std::swap(renumbered.tets[0][0], renumbered.tets[0][1]);
  keys.push_back(ModalFemAsset::key_of(renumbered, mat, def));
  keys.push_back(ModalFemAsset::key_of(
      mesh, std::vector{materials::material_from_young_poisson(1.1e5, 0.3, 100).value()}, def));
  keys.push_back(ModalFemAsset::key_of(
      mesh, std::vector{materials::material_from_young_poisson(1e5, 0.3, 101).value()}, def));
  ModalFemAssetDef d = def;
  d.fixed_nodes.pop_back();
  keys.push_back(ModalFemAsset::key_of(mesh, mat, d));
  d = def;
  d.mass = MassKind::consistent;
  keys.push_back(ModalFemAsset::key_of(mesh, mat, d));
  d = def;
  d.modes = 9;
  keys.push_back(ModalFemAsset::key_of(mesh, mat, d));
  d = def;
  d.shift = -1.0;
  keys.push_back(ModalFemAsset::key_of(mesh, mat, d));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " vs " << j;
}

TEST(ModalFemAsset, ErrorsAreOneLine) {
  auto none = ModalFemBody::build(std::shared_ptr<const ModalFemAsset>(), ModalFemDef{});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("no asset"), std::string::npos);
  const TetMesh mesh = beam();
  auto asset = ModalFemAsset::build(mesh, {soft()}, basis_def(mesh));
  ASSERT_TRUE(asset.ok());
  auto bad_dt = ModalFemBody::build(*asset, {.dt = 0.0});
  ASSERT_FALSE(bad_dt.ok());
  EXPECT_EQ(bad_dt.message(), "fem modal: the step must be a finite number > 0 s");
  auto bad_damping = ModalFemBody::build(*asset, {.dt = 0.01, .rayleigh_alpha = -1.0});
  ASSERT_FALSE(bad_damping.ok());
  EXPECT_EQ(bad_damping.message(), "fem body: Rayleigh alpha and beta must be finite and >= 0");
  auto too_many = ModalFemAsset::build(mesh, {soft()}, {.modes = 1000, .fixed_nodes = xmin(mesh)});
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.message().find('\n'), std::string::npos);
  EXPECT_EQ(too_many.message().rfind("fem modal: ", 0), 0u);
}

}  // namespace
}  // namespace pliant::fem
