// A springs scene body built from C++ (SpringsAsset + SpringsBodyDef + make_scene_body, no JSON) is the
// body the scene file reader builds from the same settings: driven alike through the surface contract
// (a grab pulling the sheet until it tears, a force), both worlds stay bit-identical step by step.
// Bodies of a scene with the same mesh and settings share one asset; tearing one leaves the other and
// the asset as they were.
#include "pliant/scene/springs_scene_body.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/springs_body.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

namespace pliant::scene {
namespace {

TEST(SpringsSceneBody, CppFactoryMatchesTheSceneFile) {
  const char* text = R"({ "pliant": 1, "name": "sheet", "time_step": 0.002, "steps": 100,
  "bodies": [ { "name": "m", "family": "springs",
    "mesh": { "shape": "rect", "size": [0.05, 0.05], "cells": [6, 6] },
    "fixed": ["nodes:0-6"],
    "springs": { "method": "dragnet_mass_spring", "dt": 0.0005, "stiffness": 50, "damping": 0.015,
                 "mass_damping": 600, "mass_density": 180, "max_stretch": 1.3, "gravity": [0, 0, -9.81],
                 "tearing": { "mode": "area_preserving", "seed_threshold": 0.02, "edge_threshold": 0.04,
                              "inner_threshold": 0.08 } } } ] })";
  auto sc = parse_scene(text, "sheet.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& from_file = *sc->world;

  auto tri = meshing::rect_membrane({.size = Vec2(0.05, 0.05), .cells_x = 6, .cells_y = 6});
  ASSERT_TRUE(tri.ok()) << tri.message();
  const Index fixed[] = {0, 1, 2, 3, 4, 5, 6};
  auto asset = springs::SpringsAsset::build(
      *tri, {.stiffness = 50.0, .damping = 0.015, .mass_density = 180.0, .max_stretch = 1.3}, fixed);
  ASSERT_TRUE(asset.ok()) << asset.message();
  const springs::SpringsBodyDef def{
      .method = {.method = springs::Method::dragnet_mass_spring, .dt = 0.0005, .mass_damping = 600.0},
      .tear_mode = springs::TearMode::area_preserving,
      .tearing = {.seed_threshold = 0.02, .edge_threshold = 0.04, .inner_threshold = 0.08},
      .gravity = Vec3(0, 0, -9.81)};
  World from_cpp(0.002);
  auto made = make_scene_body("m", *asset, def);
  ASSERT_TRUE(made.ok()) << made.message();
  from_cpp.add_body(std::move(*made));
  ASSERT_EQ(from_cpp.body(0).name(), "m");
  ASSERT_EQ(from_cpp.body(0).family(), "springs");
  ASSERT_NE(springs_body(from_cpp.body(0)), nullptr);
  ASSERT_EQ(springs_mesh(from_file.body(0))->node_count(), springs_mesh(from_cpp.body(0))->node_count());

  // The top right triangle, grabbed near its corner and pulled up and away; a force further down.
  const SurfacePoint held{static_cast<Index>(from_file.body(0).surface_triangles().size()) - 1, 0.1, 0.8};
  const SurfacePoint pushed{30, 0.3, 0.3};
  GrabId ids[2];
  Vec3 anchor[2];
  World* worlds[2] = {&from_file, &from_cpp};
  for (int w = 0; w < 2; ++w) {
    Body& b = worlds[w]->body(0);
    anchor[w] = point_on(b.surface_positions(), b.surface_triangles(), held);
    ids[w] = b.grab(held);
    ASSERT_TRUE(ids[w].valid());
  }
  EXPECT_EQ(from_file.state_hash(), from_cpp.state_hash());
  int tears = 0;
  for (int step = 1; step <= 100; ++step) {
    for (int w = 0; w < 2; ++w) {
      Body& b = worlds[w]->body(0);
      b.move_grab(ids[w], anchor[w] + step * Vec3(0.0, 3e-4, 1e-4));
      b.apply_force(pushed, Vec3(0.0, 0.0, 0.01));
      worlds[w]->step();
    }
    ASSERT_EQ(from_file.state_hash(), from_cpp.state_hash()) << "step " << step;
    ASSERT_EQ(from_file.events().size(), from_cpp.events().size()) << "step " << step;
    tears += static_cast<int>(from_cpp.events().size());
  }
  EXPECT_GT(tears, 0) << "the pull must tear the sheet, so the comparison covers tearing";
  EXPECT_GT((from_cpp.body(0).grab_reaction(ids[1])).norm(), 0.0);
}

// Bodies "a" and "b" have the same mesh and asset settings (only gravity, a def setting, differs): one
// asset. "c" differs in stiffness, "d" in its fixed nodes: each its own. A second load of the scene
// while the first world lives shares the same assets.
const char* kFour = R"({ "pliant": 1, "name": "four", "time_step": 0.002, "steps": 10,
  "bodies": [
    { "name": "a", "family": "springs", "mesh": { "shape": "rect", "size": [0.05, 0.05], "cells": [6, 6] },
      "fixed": ["nodes:0-6"], "springs": { "stiffness": 50, "mass_damping": 600 } },
    { "name": "b", "family": "springs", "mesh": { "shape": "rect", "size": [0.05, 0.05], "cells": [6, 6] },
      "fixed": ["nodes:0-6"], "springs": { "stiffness": 50, "mass_damping": 600, "gravity": [0, 0, -9.81] } },
    { "name": "c", "family": "springs", "mesh": { "shape": "rect", "size": [0.05, 0.05], "cells": [6, 6] },
      "fixed": ["nodes:0-6"], "springs": { "stiffness": 60, "mass_damping": 600 } },
    { "name": "d", "family": "springs", "mesh": { "shape": "rect", "size": [0.05, 0.05], "cells": [6, 6] },
      "fixed": ["nodes:0-5"], "springs": { "stiffness": 50, "mass_damping": 600 } } ] })";

const springs::SpringsAsset* asset_of(const World& w, Index i) {
  const springs::SpringsBody* b = springs_body(w.body(i));
  return b ? b->asset().get() : nullptr;
}

TEST(SpringsSceneBody, BodiesWithTheSameMeshAndSettingsShareOneAsset) {
  auto first = parse_scene(kFour, "four.json");
  ASSERT_TRUE(first.ok()) << first.message();
  const World& w = *first->world;
  ASSERT_NE(asset_of(w, 0), nullptr);
  EXPECT_EQ(asset_of(w, 0), asset_of(w, 1));
  EXPECT_NE(asset_of(w, 0), asset_of(w, 2));
  EXPECT_NE(asset_of(w, 0), asset_of(w, 3));
  EXPECT_NE(asset_of(w, 2), asset_of(w, 3));
  auto second = parse_scene(kFour, "four.json");
  ASSERT_TRUE(second.ok()) << second.message();
  for (Index i = 0; i < 4; ++i) EXPECT_EQ(asset_of(*second->world, i), asset_of(w, i)) << "body " << i;
}

TEST(SpringsSceneBody, MakeSceneBodyRefusesANullAssetAndABadDef) {
  auto none = make_scene_body("x", std::shared_ptr<const springs::SpringsAsset>(), springs::SpringsBodyDef{});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("asset"), std::string::npos) << none.message();
  auto tri = meshing::rect_membrane({.size = Vec2(0.05, 0.05), .cells_x = 4, .cells_y = 4});
  ASSERT_TRUE(tri.ok()) << tri.message();
  auto asset = springs::SpringsAsset::build(*tri, {});
  ASSERT_TRUE(asset.ok()) << asset.message();
  springs::SpringsBodyDef def{.method = {.method = springs::Method::mass_spring, .dt = -1.0}};
  auto refused = make_scene_body("x", *asset, def);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("dt"), std::string::npos) << refused.message();
}

}  // namespace
}  // namespace pliant::scene
