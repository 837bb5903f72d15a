// Plausibility warnings (plausibility.hpp): each case a new user met (SOFA's liver read as metres,
// E = 5 Pa, a density of 1, nearly flat tets, a run slower than real time) warns once with its numbers,
// and the same bodies at a plausible size and material stay silent. The thresholds are checked on
// both sides with the sag formula computed here.
#include "pliant/scene/plausibility.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

std::vector<PlausibilityWarning> warnings_of(const std::string& bodies) {
  Result<Scene> scene =
      parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [)" + bodies + "]}", "p.json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  return scene.ok() ? scene.value().warnings : std::vector<PlausibilityWarning>{};
}

std::string kinds(const std::vector<PlausibilityWarning>& w) {
  std::string out;
  for (const PlausibilityWarning& x : w) out += (out.empty() ? "" : ",") + x.kind;
  return out;
}

// A FEM box of the liver preset, `size` metres along x and `height` along gravity (y).
std::string fem_liver(double size, double height) {
  char json[1024];
  std::snprintf(json, sizeof json, R"({"name": "liver", "family": "fem",
      "mesh": {"shape": "box", "size": [%.17g, %.17g, %.17g], "cells": [2, 2, 2]}, "fixed": ["ymin"],
      "material": {"preset": "liver"}, "fem": {"gravity": [0, -9.81, 0]}})",
                size, height, size);
  return json;
}

TEST(Plausibility, AnOrganReadInTheWrongUnitWarnsOfItsSizeAndItsSag) {
  // SOFA's liver is 6.5 units across, meant as cm: read as metres it is a 6.5 m liver that its own
  // weight squashes by ρ g L² / 2E = 1060 · 9.81 · 4² / 1e4 = 16.6 m.
  const std::vector<PlausibilityWarning> w = warnings_of(fem_liver(6.5, 4.0));
  ASSERT_EQ(kinds(w), "size,sag");
  EXPECT_EQ(w[0].body, "liver");
  EXPECT_NE(w[0].message.find("6.5 m across"), std::string::npos) << w[0].message;
  EXPECT_NE(w[0].message.find("\"units\""), std::string::npos) << w[0].message;
  EXPECT_NE(w[1].message.find("16.6 m"), std::string::npos) << w[1].message;
  // The same organ in metres of its real size: silent.
  EXPECT_EQ(kinds(warnings_of(fem_liver(0.065, 0.04))), "");
}

TEST(Plausibility, SagWarnsExactlyWhenItExceedsTheHeight) {
  // ρ g L / 2E = 1 at the threshold: E = 1060 · 9.81 · L / 2 for L = 0.1 m is 519.93 Pa.
  const double at = 1060.0 * 9.81 * 0.1 / 2.0;
  const auto block = [](double E) {
    char json[1024];
    std::snprintf(json, sizeof json, R"({"name": "b", "family": "fem",
        "mesh": {"shape": "box", "size": [0.1, 0.1, 0.1], "cells": [1, 1, 1]}, "fixed": ["ymin"],
        "material": {"E": %.17g, "nu": 0.3, "density": 1060}, "fem": {"gravity": [0, -9.81, 0]}})",
                  E);
    return std::string(json);
  };
  EXPECT_EQ(kinds(warnings_of(block(at * 1.05))), "");
  EXPECT_EQ(kinds(warnings_of(block(at * 0.95))), "sag");
  // A gravity whose square overflows still warns (|g| = 1e300 m/s²).
  EXPECT_EQ(kinds(warnings_of(R"({"name": "b", "family": "fem",
        "mesh": {"shape": "box", "size": [0.1, 0.1, 0.1], "cells": [1, 1, 1]}, "fixed": ["zmin"],
        "material": {"E": 2e5, "nu": 0.3}, "fem": {"gravity": [0, 0, -1e300]}})")),
            "sag");
}

TEST(Plausibility, ModuliAndDensitiesOutsideWhatSolidsHaveWarn) {
  // E = 5 Pa (kPa written as Pa) on a Green body, no gravity: the material alone.
  std::vector<PlausibilityWarning> w = warnings_of(R"({"name": "g", "family": "green",
      "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [1, 1, 1]},
      "material": {"E": 5, "nu": 0.3}, "fixed": ["zmin"]})");
  ASSERT_EQ(kinds(w), "material");
  EXPECT_NE(w[0].message.find("E = 5 Pa"), std::string::npos) << w[0].message;
  // A meshless jelly of density 1 kg/m³.
  w = warnings_of(R"({"name": "j", "family": "meshless",
      "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [2, 2, 2]},
      "material": {"E": 20000, "nu": 0.3, "density": 1}, "meshless": {"spacing": 0.01}})");
  ASSERT_EQ(kinds(w), "material");
  EXPECT_NE(w[0].message.find("density 1 kg/m³"), std::string::npos) << w[0].message;
  // Steel a thousand times too stiff.
  EXPECT_EQ(kinds(warnings_of(R"({"name": "s", "family": "green",
      "mesh": {"shape": "box", "size": [0.04, 0.04, 0.04], "cells": [1, 1, 1]},
      "material": {"E": 2e14, "nu": 0.3, "density": 7850}, "fixed": ["zmin"]})")),
            "material");
}

TEST(Plausibility, ASubMillimetreBodyOfAnyFamilyWarns) {
  // An impact plate has no continuum material; its size is still checked.
  const auto plate = [](double size) {
    char json[512];
    std::snprintf(json, sizeof json, R"({"name": "plate", "family": "impact",
        "mesh": {"shape": "rect", "size": [%.17g, %.17g], "cells": [4, 4]}})",
                  size, size);
    return std::string(json);
  };
  const std::vector<PlausibilityWarning> w = warnings_of(plate(0.0005));
  ASSERT_EQ(kinds(w), "size");
  EXPECT_NE(w[0].message.find("0.5 mm across"), std::string::npos) << w[0].message;
  EXPECT_EQ(kinds(warnings_of(plate(0.05))), "");
}

TEST(Plausibility, NearlyFlatTetsAreCountedAndTheWorstNamed) {
  TetMesh mesh;
  // Tet 0 regular-ish; tet 1 has its fourth node 1e-5 m above the base plane: nearly flat.
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, 0.3, 1e-5}};
  mesh.tets = {{0, 1, 2, 3}, {0, 1, 2, 4}};
  const std::optional<PlausibilityWarning> w = check_tet_quality("slab", mesh);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->kind, "tet_quality");
  EXPECT_NE(w->message.find("1 of 2 tets"), std::string::npos) << w->message;
  EXPECT_NE(w->message.find("tet 1,"), std::string::npos) << w->message;
  mesh.tets.pop_back();
  EXPECT_FALSE(check_tet_quality("slab", mesh).has_value());
}

TEST(Plausibility, ARunSlowerThanRealTimeNamesItsSlowestStage) {
  // meshless_liver_grab's profile: 10 steps of 0.01 s in 1.9 s.
  const std::vector<StageTime> stages = {{"apply_interactions", 0.001},
                                         {"solve", 188.19},
                                         {"liver/meshless.solve", 188.07},
                                         {"liver/meshless.surface", 0.12}};
  const std::optional<PlausibilityWarning> w = check_realtime(0.1, 1.9, 10, stages);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->kind, "realtime");
  EXPECT_NE(w->message.find("19× slower"), std::string::npos) << w->message;
  EXPECT_NE(w->message.find("liver/meshless.solve takes 100 %"), std::string::npos) << w->message;
  EXPECT_FALSE(check_realtime(0.1, 0.09, 10, stages).has_value());  // kept up
  EXPECT_FALSE(check_realtime(0.01, 1.9, 1, stages).has_value());   // too few steps to judge
}

}  // namespace
}  // namespace pliant::scene
