// The built-in demo scenes equal the example files users copy, and the membrane demo really tears.
#include "pliant/scene/demo_scenes.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace pliant::scene {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DemoScenes, EqualTheExampleFiles) {
  const auto scenes = demo_scenes();
  ASSERT_EQ(scenes.size(), 2u);
  for (const DemoScene& d : scenes) {
    const std::filesystem::path file = std::filesystem::path(PLIANT_EXAMPLES_DIR) / (d.name + ".json");
    const std::string text = read_text(file);
    ASSERT_FALSE(text.empty()) << file;
    EXPECT_EQ(nlohmann::json::parse(text), nlohmann::json::parse(d.json)) << d.name;
    EXPECT_EQ(nlohmann::json::parse(d.json)["name"], d.name);
  }
}

TEST(DemoScenes, MembraneIsTheTable21DiscAndTearsWhilePulled) {
  const auto scenes = demo_scenes();
  auto loaded = parse_scene(scenes[1].json, "membrane_tear.json");
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  World& world = *loaded->world;
  ASSERT_EQ(world.body_count(), 1u);
  const Body& body = world.body(0);
  EXPECT_EQ(body.surface_positions().size(), 1403u);
  EXPECT_EQ(body.surface_triangles().size(), 2664u);
  int tears = 0;
  double lowest = 0.0;
  for (int s = 0; s < loaded->steps; ++s) {
    world.step();
    for (const WorldEvent& e : world.events()) {
      if (e.category == "tear") ++tears;
    }
    for (const Vec3& x : body.surface_positions()) {
      ASSERT_TRUE(x.allFinite()) << "step " << s;
      lowest = std::min(lowest, x.z());
    }
  }
  EXPECT_GT(tears, 0);
  // Tearing keeps the rest area (area-preserving mode): the triangle count never changes.
  EXPECT_EQ(body.surface_triangles().size(), 2664u);
  EXPECT_GT(lowest, -0.01);  // pulled up, nothing flung through the floor
}

}  // namespace
}  // namespace pliant::scene

namespace pliant::scene {
namespace {

// The example sheet does what docs/scene-format.md says: pulled up at its middle, a hole opens
// (an inner node tears) before the pull ends, and the torn sheet stays consistent and finite.
TEST(ExampleScenes, SheetTearOpensAHole) {
  auto loaded = load_scene(std::filesystem::path(PLIANT_EXAMPLES_DIR) / "sheet_tear.json");
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  World& world = *loaded->world;
  int holes = 0;
  for (int s = 0; s < loaded->steps; ++s) {
    world.step();
    for (const WorldEvent& e : world.events()) holes += e.brief.kind == "tear_hole";
  }
  EXPECT_GT(holes, 0);
  for (const Vec3& x : world.body(0).surface_positions()) ASSERT_TRUE(x.allFinite());
}

}  // namespace
}  // namespace pliant::scene
