// SceneLimits: bounds for scenes from untrusted sources (the scene fuzzer, a server taking uploads).
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace pliant::scene {
namespace {

std::string rect_scene(int nx, int ny) {
  return R"({"pliant": 1, "bodies": [ { "name": "sheet", "family": "springs",
             "mesh": { "shape": "rect", "cells": [)" +
         std::to_string(nx) + ", " + std::to_string(ny) + R"(] } } ] })";
}

TEST(SceneLimits, GeneratedShapesAreCheckedFromTheirParametersAtTheExactCount) {
  SceneLimits limits;
  limits.max_mesh_elements = 3000;
  // A rect membrane has 2·nx·ny triangles: 50 × 30 is exactly the limit, 50 × 31 one row over.
  auto at_limit = parse_scene(rect_scene(50, 30), "rect.json", limits);
  ASSERT_TRUE(at_limit.ok()) << at_limit.message();
  EXPECT_EQ(at_limit->world->body(0).surface_triangles().size(), 3000u);
  auto over = parse_scene(rect_scene(50, 31), "rect.json", limits);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(
      over.message(),
      "rect.json: /bodies/0/mesh: rect: the parameters ask for about 3100 elements, more than the limit "
      "of 3000 (SceneLimits::max_mesh_elements; pliant run --max-elements)");
  // Without limits the same scene loads.
  EXPECT_TRUE(parse_scene(rect_scene(50, 31), "rect.json").ok());
}

TEST(SceneLimits, HugeShapesFailBeforeAnyMeshing) {
  SceneLimits limits;
  limits.max_mesh_elements = 3000;
  // 6·10⁶·10⁶·10⁶ tets: meshing would never end; the check comes first and says so.
  const std::string json = R"({"pliant": 1, "bodies": [ { "name": "pipe", "family": "springs",
      "mesh": { "shape": "tube", "segments_around": 1000000, "segments_along": 1000000,
                "segments_through": 1000000 } } ] })";
  auto scene = parse_scene(json, "tube.json", limits);
  ASSERT_FALSE(scene.ok());
  EXPECT_NE(scene.message().find("/bodies/0/mesh: tube: the parameters ask for about 6e+18 elements"),
            std::string::npos)
      << scene.message();
}

TEST(SceneLimits, MeshFilesAreCheckedAfterReading) {
  SceneLimits limits;
  limits.max_mesh_elements = 1;
  const std::string json = R"({"pliant": 1, "bodies": [ { "name": "box", "family": "springs",
      "mesh": { "file": "box.msh" } } ] })";
  const std::filesystem::path file = std::filesystem::path(PLIANT_TESTS_DATA_DIR) / "meshes" / "scene.json";
  auto scene = parse_scene(json, file, limits);
  ASSERT_FALSE(scene.ok());
  EXPECT_NE(scene.message().find("/bodies/0/mesh: the mesh has"), std::string::npos) << scene.message();
  EXPECT_TRUE(parse_scene(json, file).ok());
}

// A meshless body's phyxels count as its elements: estimated from the spacing over the surface's box
// (a 0.1 × 0.02 × 0.02 m box: 21 × 5 × 5 = 525 lattice points at 5 mm, 101 × 21 × 21 at 1 mm), before
// anything is sampled.
TEST(SceneLimits, MeshlessPhyxelsAreCheckedFromTheSpacing) {
  auto slab = [](const std::string& meshless) {
    return R"({"pliant": 1, "bodies": [ { "name": "slab", "family": "meshless",
        "mesh": { "shape": "box", "size": [0.1, 0.02, 0.02], "cells": [4, 1, 1] },
        "material": { "E": 5e4, "nu": 0.3, "density": 1000 }, "meshless": )" +
           meshless + " } ] }";
  };
  SceneLimits limits;
  limits.max_mesh_elements = 600;
  EXPECT_TRUE(parse_scene(slab(R"({"spacing": 0.005})"), "slab.json", limits).ok());
  auto fine = parse_scene(slab(R"({"spacing": 0.001})"), "slab.json", limits);
  ASSERT_FALSE(fine.ok());
  EXPECT_EQ(fine.message(),
            "slab.json: /bodies/0/meshless/spacing: about 44541 phyxels at a spacing of 0.001 m, above the "
            "limit of 600");
  // The default spacing (a tenth of the smallest extent) is checked as well, against the mesh.
  limits.max_mesh_elements = 100;
  auto by_default = parse_scene(slab("{}"), "slab.json", limits);
  ASSERT_FALSE(by_default.ok());
  EXPECT_NE(
      by_default.message().find("slab.json: /bodies/0/mesh: about 6171 phyxels at a spacing of 0.002 m"),
      std::string::npos)
      << by_default.message();
}

TEST(SceneLimits, NoFilesWrittenWhenAskedNotTo) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pliant_scene_limits_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string json = R"({"pliant": 1, "bodies": [ { "name": "beam", "family": "green",
      "mesh": { "shape": "box", "size": [0.1, 0.02, 0.02], "cells": [4, 1, 1] },
      "material": { "preset": "rubber" }, "fixed": ["xmin"], "green": { "cache": "beam.green" } } ] })";
  SceneLimits limits;
  limits.write_files = false;
  auto scene = parse_scene(json, dir / "beam.json", limits);
  ASSERT_TRUE(scene.ok()) << scene.message();
  EXPECT_FALSE(std::filesystem::exists(dir / "beam.green"));  // built in memory only
  auto writing = parse_scene(json, dir / "beam.json");
  ASSERT_TRUE(writing.ok()) << writing.message();
  EXPECT_TRUE(std::filesystem::exists(dir / "beam.green"));
  // Both bodies are the same precomputation.
  EXPECT_EQ(scene->world->body(0).surface_triangles().size(),
            writing->world->body(0).surface_triangles().size());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pliant::scene
