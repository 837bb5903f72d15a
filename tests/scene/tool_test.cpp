// The scripted cylinder tool: pushes surface nodes out of itself through the surface contract, feels
// the opposite force, and tears a membrane it is driven through.
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pliant::scene {
namespace {

std::string membrane_with_tool(const std::string& tearing) {
  return R"({
  "pliant": 1, "name": "tool", "time_step": 0.001, "steps": 400,
  "bodies": [ { "name": "m", "family": "springs",
    "mesh": { "shape": "disc", "radius": 0.05, "nodes": 630, "boundary_nodes": 88 },
    "fixed": ["nodes:542-629"],
    "springs": { "method": "mass_spring", "stiffness": 50, "damping": 0.015, "mass_damping": 600,
                 "mass_density": 180, "max_stretch": 1.3, "tearing": )" +
         tearing + R"( } } ],
  "interactions": [ { "type": "tool", "shape": "cylinder", "start": [0.0, 0.0, 0.02], "axis": [0, 1, 0],
    "radius": 0.006, "length": 0.2, "stiffness": 200,
    "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.4, "offset": [0, 0, -0.04] } ] } ]
})";
}

TEST(ScriptedTool, PushesTheMembraneAndFeelsItsResistance) {
  auto sc = parse_scene(membrane_with_tool(R"({ "mode": "off" })"), "tool.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  ASSERT_EQ(w.tools().size(), 1u);
  int max_contacts = 0;
  double lowest = 0.0, max_up_force = 0.0;
  for (int s = 0; s < 300; ++s) {
    w.step();
    const ScriptedTool& tool = w.tools()[0];
    max_contacts = std::max(max_contacts, tool.contacts);
    max_up_force = std::max(max_up_force, tool.force.z());
    for (const Vec3& x : w.body(0).surface_positions()) {
      ASSERT_TRUE(x.allFinite());
      lowest = std::min(lowest, x.z());
    }
  }
  const ScriptedTool& tool = w.tools()[0];
  EXPECT_NEAR(tool.centre.z(), 0.02 - 0.04 * 0.3 / 0.4, 1e-12);  // the track, at t = 0.3 s
  EXPECT_GT(max_contacts, 0);
  EXPECT_GT(max_up_force, 0.0);     // the membrane resists a downward push
  EXPECT_LT(lowest, -0.008);        // and is pushed down
  EXPECT_GT(lowest, -0.02 - 1e-3);  // no deeper than the tool's bottom (centre − radius)
}

TEST(ScriptedTool, TearsAMembraneDrivenThroughIt) {
  auto sc = parse_scene(membrane_with_tool(
                            R"({ "mode": "area_preserving", "seed_threshold": 0.02, "edge_threshold": 0.04,
                                 "inner_threshold": 0.05 })"),
                        "tool.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  int tears = 0;
  for (int s = 0; s < 400; ++s) {
    w.step();
    tears += static_cast<int>(w.events().size());
  }
  EXPECT_GT(tears, 0);
}

TEST(ScriptedTool, BadToolsNameTheirJsonPath) {
  std::string text = membrane_with_tool(R"({ "mode": "off" })");
  const std::string bad = std::string(text).replace(text.find("\"radius\": 0.006"), 15, "\"radius\": -1");
  auto sc = parse_scene(bad, "tool.json");
  ASSERT_FALSE(sc.ok());
  EXPECT_NE(sc.message().find("/interactions/0/radius"), std::string::npos) << sc.message();
}

}  // namespace
}  // namespace pliant::scene
