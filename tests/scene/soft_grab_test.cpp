// Soft grabs through the surface contract: the default grab of a Green body holds a patch around the
// picked point, the scene key "radius" sets it, and radius 0 is exactly the library's single-node grab.
#include "pliant/core/topology.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_body.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pliant::scene {
namespace {

// A Green block 4 × 4 × 4 cm of 4 × 4 × 4 cells, clamped at its base, its top centre grabbed.
std::string block_scene(const std::string& grab_extra) {
  return R"({
    "pliant": 1, "name": "block", "time_step": 0.01, "steps": 10,
    "bodies": [ { "name": "block", "family": "green",
                  "mesh": { "shape": "box", "size": [0.04, 0.04, 0.04], "cells": [4, 4, 4] },
                  "material": { "E": 2e5, "nu": 0.45 }, "fixed": ["zmin"] } ],
    "interactions": [
      { "type": "grab", "body": "block", "near": [0.02, 0.02, 0.04])" +
         grab_extra + R"(,
        "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.05, "offset": [0.003, -0.001, 0.004] } ] } ]
  })";
}

TEST(SoftGrabScene, RadiusZeroIsTheLibrarysSingleNodeGrab) {
  auto sc = parse_scene(block_scene(R"(, "radius": 0)"), "block.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  for (int i = 0; i < 10; ++i) w.step();
  const Body& body = w.body(0);
  const GrabId id = w.scripted_grabs()[0].id;
  ASSERT_EQ(body.grab_nodes(id).size(), 1u);

  // The same body built directly from the library, one node held at its rest position + offset.
  meshing::BoxDef def;
  def.size = Vec3(0.04, 0.04, 0.04);
  def.cells = {4, 4, 4};
  const TetMesh mesh = meshing::box_mesh(def).value();
  std::vector<Index> fixed;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].z() == 0.0) fixed.push_back(static_cast<Index>(i));
  auto asset = std::make_shared<const green::GreenAsset>(
      green::build_green_asset(mesh, materials::material_from_young_poisson(2e5, 0.45).value(), fixed)
          .value());
  const Index node = body.grab_nodes(id)[0];
  EXPECT_EQ(asset->surface().positions[static_cast<std::size_t>(node)], Vec3(0.02, 0.02, 0.04));
  green::GreenBody direct(asset);
  const green::Grab grab{node, Vec3(0.02, 0.02, 0.04) + Vec3(0.003, -0.001, 0.004)};
  ASSERT_TRUE(direct.set_grabs(std::span<const green::Grab>(&grab, 1)).ok());
  direct.update();
  const auto x = body.surface_positions();
  ASSERT_EQ(x.size(), direct.state().positions.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_LT((x[i] - direct.state().positions[i]).norm(), 1e-12) << i;
  EXPECT_LT((body.grab_reaction(id) + direct.state().grab_forces[0]).norm(),
            1e-9 * direct.state().grab_forces[0].norm());
}

// Free surface nodes within `radius` of `c` on the rest surface (brute force; on the block's flat
// top face every such node is connected to the centre).
std::size_t nodes_within(const Body& body, const Vec3& c, double radius) {
  std::size_t n = 0;
  for (const Vec3& x : body.surface_rest_positions()) n += (x - c).norm() <= radius && x.z() > 0.0 ? 1 : 0;
  return n;
}

TEST(SoftGrabScene, RadiusKeySetsThePatch) {
  auto sc = parse_scene(block_scene(R"(, "radius": 0.015)"), "block.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  for (int i = 0; i < 10; ++i) w.step();
  const Body& body = w.body(0);
  const GrabId id = w.scripted_grabs()[0].id;
  const auto nodes = body.grab_nodes(id);
  EXPECT_EQ(nodes.size(), nodes_within(body, Vec3(0.02, 0.02, 0.04), 0.015));
  // Every held node moved by the handle's offset.
  for (Index n : nodes) {
    const Vec3 moved = body.surface_positions()[static_cast<std::size_t>(n)] -
                       body.surface_rest_positions()[static_cast<std::size_t>(n)];
    EXPECT_LT((moved - Vec3(0.003, -0.001, 0.004)).norm(), 1e-9) << n;
  }
  // The reaction is what the patch's compliance predicts for that offset (linear body).
  EXPECT_LT((body.grab_compliance(id) * -body.grab_reaction(id) - Vec3(0.003, -0.001, 0.004)).norm(),
            1e-6 * 0.005);
}

TEST(SoftGrabScene, DefaultGrabHoldsAPatchAroundThePickedPointWithoutAJump) {
  auto sc = parse_scene(block_scene(""), "block.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  while (!w.scripted_grabs().empty()) w.take_scripted_grab(0);
  const auto hit = w.pick({Vec3(0.013, 0.021, 1.0), Vec3(0, 0, -1)});
  ASSERT_TRUE(hit);
  Body& body = w.body(0);
  EXPECT_TRUE(body.soft_grabs());
  const GrabId id = body.grab(hit->point);
  ASSERT_TRUE(id.valid());
  const auto nodes = body.grab_nodes(id);
  // Twice the mean edge length at the handle node (1 cm sides, √2 cm diagonals): between 2 and
  // 2.83 cm, so more than the handle's own ring of neighbours.
  EXPECT_GE(nodes.size(), 9u);
  for (Index n : nodes)
    EXPECT_LE((body.surface_rest_positions()[static_cast<std::size_t>(n)] - hit->position).norm(), 0.0283);
  // Moving the handle moves the picked point with it exactly: the handle is the point, not a node.
  const Vec3 delta(0.002, 0.001, 0.003);
  body.move_grab(id, hit->position + delta);
  w.step();
  const Vec3 now = point_on(body.surface_positions(), body.surface_triangles(), hit->point);
  EXPECT_LT((now - (hit->position + delta)).norm(), 1e-9);
  EXPECT_GT(body.grab_reaction(id).norm(), 0.0);
  body.release(id);
  EXPECT_TRUE(body.grab_nodes(id).empty());
  // A NaN radius or a point off the surface grabs nothing.
  EXPECT_FALSE(body.grab_patch(hit->point, std::nan("")).valid());
  EXPECT_FALSE(body.grab_patch({-1, 0, 0}, 0.01).valid());
}

}  // namespace
}  // namespace pliant::scene
