// Impact bodies of a scene share their asset: two bodies with the same surface, material and method get
// the same DentAsset, also across two loads while the first lives; one differing in the material does
// not, and per-body settings (grab stiffness) do not split it. A dent in one shared body leaves the
// other at rest. make_scene_body of a null asset is an error.
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/impact_scene_body.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pliant::scene {
namespace {

std::string body(const std::string& name, const std::string& impact) {
  return R"({"name": ")" + name + R"(", "family": "impact",
    "mesh": {"shape": "rect", "size": [0.2, 0.2], "cells": [20, 20]}, "impact": )" +
         impact + "}";
}

Result<Scene> scene_of(const std::string& bodies) {
  return parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [)" + bodies + "]}", "impact.json");
}

const impact::DentAsset* asset_of(const Body& b) {
  const impact::DentTarget* t = impact_target(b);
  return t ? t->asset().get() : nullptr;
}

TEST(ImpactAssetScene, BodiesWithTheSameInputsShareOneAsset) {
  Result<Scene> scene =
      scene_of(body("a", R"({"resistance": 0.25, "falloff_radius": 0.05})") + "," +
               body("b", R"({"resistance": 0.25, "falloff_radius": 0.05, "grab_stiffness": 10})") + "," +
               body("c", R"({"resistance": 0.5, "falloff_radius": 0.05})"));
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const impact::DentAsset* a = asset_of(world.body(0));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(asset_of(world.body(1)), a) << "the grab stiffness is per body";
  EXPECT_NE(asset_of(world.body(2)), a) << "the resistance changes the asset";
  Result<Scene> again = scene_of(body("a", R"({"resistance": 0.25, "falloff_radius": 0.05})"));
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(asset_of(again->world->body(0)), a);
  // Dent a: b (same asset) stays at rest.
  const std::uint64_t b_rest = world.body(1).state_hash();
  ImpactTarget* target = capability<ImpactTarget>(world.body(0));
  ASSERT_NE(target, nullptr);
  const Vec3 aim = world.body(0).surface_rest_positions()[10 * 21 + 10];
  EXPECT_EQ(target->impact({aim + Vec3(0, 0, 0.01), Vec3(0, 0, -2.0), 0.5, 0.0}, 0.01), Vec3(0, 0, 2.0));
  for (int s = 0; s < 30; ++s) world.step();
  EXPECT_LT(world.body(0).surface_positions()[10 * 21 + 10].z(), aim.z() - 1e-3) << "a is dented";
  EXPECT_EQ(world.body(1).state_hash(), b_rest);
  EXPECT_EQ(a->surface().positions[10 * 21 + 10], aim);
}

TEST(ImpactAssetScene, NullAssetIsAnError) {
  Result<std::unique_ptr<Body>> made = make_scene_body("x", std::shared_ptr<const impact::DentAsset>(), {});
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.message(), "impact target: no asset (null)");
}

}  // namespace
}  // namespace pliant::scene
