// The green family's public factory, make_scene_body(name, asset, def), and the sharing of one asset
// between bodies: the scene reader hands every body built from the same inputs the same asset
// (pliant::AssetCache), a shared asset gives each body exactly what a body alone gives, and a cache
// file named by a scene is written even when the asset came from memory.
#include "pliant/scene/green_scene_body.hpp"

#include "pliant/core/region.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace pliant::scene {
namespace {

std::string body_json(const std::string& name, const std::string& preset, const std::string& extra = "") {
  return R"({ "name": ")" + name + R"(", "family": "green",
      "mesh": { "shape": "box", "size": [0.1, 0.02, 0.02], "cells": [10, 2, 2] },
      "fixed": ["xmin"], "material": { "preset": ")" +
         preset + "\" }" + extra + " }";
}

std::string scene_json(const std::string& bodies) {
  return R"({ "pliant": 1, "name": "pair", "time_step": 0.01, "steps": 10, "bodies": [ )" + bodies + " ] }";
}

TEST(GreenSceneBody, ANullAssetIsAnErrorLine) {
  Result<std::unique_ptr<Body>> made = make_scene_body("beam", nullptr);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.message().find("no asset"), std::string::npos) << made.message();
  EXPECT_EQ(made.message().find('\n'), std::string::npos);
}

TEST(GreenSceneBody, BodiesOfTheSameInputsShareOneAssetAndOthersDoNot) {
  Result<Scene> sc = parse_scene(scene_json(body_json("a", "rubber") + ", " + body_json("b", "rubber") +
                                            ", " + body_json("c", "dragon_skin_10")),
                                 "pair.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  const World& w = *sc->world;
  ASSERT_EQ(w.body_count(), 3u);
  const auto a = green_asset(w.body(0)), b = green_asset(w.body(1)), c = green_asset(w.body(2));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), c.get());  // another material is another asset
  // A second load while the first world lives builds nothing: the same asset again.
  Result<Scene> again = parse_scene(scene_json(body_json("a", "rubber")), "again.json");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(green_asset(again->world->body(0)).get(), a.get());
}

// Pulls the free end of a world's only body up by `move` over five steps; the body's state hash after.
std::uint64_t pull_tip(World& w, const Vec3& move) {
  const std::optional<WorldHit> hit = w.pick(Ray{Vec3(0.099, 0.01, 0.1), Vec3(0, 0, -1)});
  EXPECT_TRUE(hit.has_value());
  if (!hit) return 0;
  const GrabId g = w.body(hit->body).grab(hit->point);
  EXPECT_TRUE(g.valid());
  for (int s = 1; s <= 5; ++s) {
    w.body(hit->body).move_grab(g, hit->position + move * (s / 5.0));
    w.step();
  }
  return w.body(0).state_hash();
}

TEST(GreenSceneBody, ASharedAssetGivesEachBodyWhatABodyAloneGives) {
  // Two bodies over one asset (in two worlds, so that they do not touch), one pulled up, the other
  // pushed aside and down; each against a lone body driven alike over an asset of its own.
  Result<TetMesh> mesh =
      meshing::box_mesh(meshing::BoxDef{.size = Vec3(0.1, 0.02, 0.02), .cells = {10, 2, 2}});
  Result<materials::Material> rubber = materials::material_preset("rubber");
  Result<Region> clamp = parse_region("xmin");
  ASSERT_TRUE(mesh.ok() && rubber.ok() && clamp.ok());
  const auto fixed = select_nodes(mesh->positions, *clamp);
  auto build = [&] {
    Result<green::GreenAsset> a = green::build_green_asset(*mesh, *rubber, fixed);
    EXPECT_TRUE(a.ok());
    return std::make_shared<const green::GreenAsset>(std::move(*a));
  };
  const auto shared = build();
  ASSERT_NE(shared->block(), nullptr);
  const std::size_t floats =
      green::GreenAsset::packed_floats(static_cast<std::size_t>(shared->surface_node_count()));
  const std::vector<float> block_before(shared->block(), shared->block() + floats);

  const Vec3 moves[2] = {Vec3(0, 0, 0.01), Vec3(0, 0.005, -0.01)};
  World worlds[2] = {World(0.01), World(0.01)};
  std::uint64_t together[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    Result<std::unique_ptr<Body>> made = make_scene_body(k == 0 ? "a" : "b", shared, {});
    ASSERT_TRUE(made.ok()) << made.message();
    worlds[k].add_body(std::move(*made));
  }
  // Interleaved, as two bodies of one program would run.
  for (int k = 0; k < 2; ++k) together[k] = pull_tip(worlds[k], moves[k]);
  for (int k = 0; k < 2; ++k) {
    World alone(0.01);
    Result<std::unique_ptr<Body>> lone = make_scene_body("lone", build(), {});
    ASSERT_TRUE(lone.ok()) << lone.message();
    alone.add_body(std::move(*lone));
    EXPECT_EQ(pull_tip(alone, moves[k]), together[k]) << "body " << k;
  }
  EXPECT_NE(together[0], together[1]);
  // Nobody wrote into the shared asset.
  EXPECT_TRUE(std::equal(block_before.begin(), block_before.end(), shared->block()));
}

TEST(GreenSceneBody, TheAssetKeyChangesWithEveryInputThatChangesTheAsset) {
  Result<TetMesh> mesh =
      meshing::box_mesh(meshing::BoxDef{.size = Vec3(0.1, 0.02, 0.02), .cells = {4, 1, 1}});
  Result<materials::Material> rubber = materials::material_preset("rubber");
  ASSERT_TRUE(mesh.ok() && rubber.ok());
  const std::vector<Index> fixed = {0, 1, 2, 3};
  const green::GreenBuildSettings settings;
  const std::uint64_t key = green::asset_key(*mesh, *rubber, fixed, {}, settings);
  TetMesh same = *mesh;
  EXPECT_EQ(green::asset_key(same, *rubber, fixed, {}, settings), key);
  green::GreenBuildSettings threads = settings;
  threads.threads = 3;  // the same values with more threads
  EXPECT_EQ(green::asset_key(*mesh, *rubber, fixed, {}, threads), key);
  TetMesh moved = *mesh;
  moved.positions[5].x() += 1e-9;
  EXPECT_NE(green::asset_key(moved, *rubber, fixed, {}, settings), key);
  materials::Material denser = *rubber;
  denser.density *= 1.0 + 1e-12;
  EXPECT_NE(green::asset_key(*mesh, denser, fixed, {}, settings), key);
  const std::vector<Index> other_fixed = {0, 1, 2, 4};
  EXPECT_NE(green::asset_key(*mesh, *rubber, other_fixed, {}, settings), key);
  green::GreenBuildSettings compressed = settings;
  compressed.compress_tolerance = 1e-4;
  EXPECT_NE(green::asset_key(*mesh, *rubber, fixed, {}, compressed), key);
}

TEST(GreenSceneBody, ANamedCacheFileIsWrittenWhenTheAssetCameFromMemory) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pliant_green_share_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string cached = body_json("a", "ecoflex_00_30", R"(, "green": { "cache": "beam.green" })");
  Result<Scene> first = parse_scene(scene_json(cached), dir / "first.json");
  ASSERT_TRUE(first.ok()) << first.message();
  ASSERT_TRUE(std::filesystem::exists(dir / "beam.green"));
  std::filesystem::remove(dir / "beam.green");
  Result<Scene> second = parse_scene(scene_json(cached), dir / "second.json");
  ASSERT_TRUE(second.ok()) << second.message();
  EXPECT_EQ(green_asset(second->world->body(0)).get(), green_asset(first->world->body(0)).get());
  EXPECT_TRUE(std::filesystem::exists(dir / "beam.green"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pliant::scene
