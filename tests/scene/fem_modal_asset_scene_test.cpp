// Modal fem bodies of a scene share their asset: two bodies with the same mesh, materials and basis
// settings get the same ModalFemAsset (one eigen-solve), also across two loads while the first lives;
// one differing in the mode count does not, nor one differing only in per-body settings (damping,
// warping) shares less. make_scene_body of a null asset is an error.
#include "pliant/scene/fem_modal_scene_body.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pliant::scene {
namespace {

std::string body(const std::string& name, const std::string& modal, const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "family": "fem",
    "mesh": {"shape": "box", "size": [1.0, 0.2, 0.2], "cells": [5, 1, 1]}, "fixed": ["xmin"],
    "material": {"E": 1e5, "nu": 0.3, "density": 100},
    "fem": {"element": "linear", )" +
         extra + R"("modal": )" + modal + "}}";
}

Result<Scene> scene_of(const std::string& bodies) {
  return parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [)" + bodies + "]}", "modal.json");
}

const fem::ModalFemAsset* asset_of(const Body& b) {
  const fem::ModalFemBody* m = fem_modal_body(b);
  return m ? m->asset().get() : nullptr;
}

TEST(FemModalAssetScene, BodiesWithTheSameInputsShareOneAsset) {
  Result<Scene> scene =
      scene_of(body("a", R"({"modes": 6})") + "," +
               body("b", R"({"modes": 6, "warping": true})", R"("damping": {"alpha": 2}, )") + "," +
               body("c", R"({"modes": 7})"));
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const fem::ModalFemAsset* a = asset_of(world.body(0));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(asset_of(world.body(1)), a) << "damping and warping are per body";
  EXPECT_NE(asset_of(world.body(2)), a) << "the mode count changes the basis";
  EXPECT_EQ(asset_of(world.body(2))->basis().mode_count(), 7);
  // A second load while the first lives finds the same asset.
  Result<Scene> again = scene_of(body("a", R"({"modes": 6})"));
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(asset_of(again->world->body(0)), a);
  // The shared bodies still step apart: b is damped, a is not.
  world.body(0).apply_force({0, 0.3, 0.3}, Vec3(0, 0, 1));
  world.body(1).apply_force({0, 0.3, 0.3}, Vec3(0, 0, 1));
  for (int s = 0; s < 5; ++s) world.step();
  EXPECT_NE(world.body(0).state_hash(), world.body(1).state_hash());
}

TEST(FemModalAssetScene, NullAssetIsAnError) {
  Result<std::unique_ptr<Body>> made = make_scene_body("x", std::shared_ptr<const fem::ModalFemAsset>(), {});
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.message().find("no asset"), std::string::npos);
}

}  // namespace
}  // namespace pliant::scene
