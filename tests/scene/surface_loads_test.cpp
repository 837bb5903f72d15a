// Surface and body loads from scene files: gravity and pressure on Green bodies (the same static
// equilibrium as the fem family's quasi-static linear body; pressure regions that load exactly the
// selected face), and traction and pressure on fem bodies (the exact uniaxial solution).
#include "pliant/scene/fem_scene_body.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

namespace pliant::scene {
namespace {

constexpr const char* kBody =
    R"("mesh": {"shape": "box", "size": [1.0, 0.2, 0.2], "cells": [6, 2, 2]}, "fixed": ["xmin"],
    "material": {"E": 1e5, "nu": 0.3, "density": 100})";

Result<Scene> one_body(const std::string& family, const std::string& keys) {
  return parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b", "family": ")" + family +
                         "\", " + kBody + ", " + keys + "}]}",
                     "loads.json");
}

// The largest |x_green - x_fem| over the surface, relative to the largest displacement.
double relative_gap(const Body& green, const Body& fem) {
  const auto xg = green.surface_positions(), xf = fem.surface_positions(), x0 = fem.surface_rest_positions();
  EXPECT_EQ(xg.size(), xf.size());
  double gap = 0.0, size = 0.0;
  for (std::size_t i = 0; i < std::min(xg.size(), xf.size()); ++i) {
    gap = std::max(gap, (xg[i] - xf[i]).norm());
    size = std::max(size, (xf[i] - x0[i]).norm());
  }
  return gap / size;
}

TEST(GreenLoads, GravityEqualsTheQuasiStaticLinearFemBody) {
  for (const char* g : {"[0, -9.81, 0]", "[3, 0, -9.81]"}) {
    Result<Scene> green = one_body("green", std::string(R"("green": {"gravity": )") + g + "}");
    ASSERT_TRUE(green.ok()) << green.message();
    Result<Scene> fem =
        one_body("fem", std::string(R"("fem": {"element": "linear", "gravity": )") + g +
                            R"(, "integrator": "quasi_static", "solver": {"kind": "cholmod"}})");
    ASSERT_TRUE(fem.ok()) << fem.message();
    // A Green body shows its equilibrium from the start; the quasi-static fem body after one step.
    fem->world->step();
    green->world->step();
    EXPECT_LT(relative_gap(green->world->body(0), fem->world->body(0)), 1e-5) << g;
    // The beam sags the way gravity pulls it.
    const auto x = green->world->body(0).surface_positions();
    const auto x0 = green->world->body(0).surface_rest_positions();
    double sag = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) sag = std::min(sag, x[i].y() - x0[i].y());
    if (std::string(g) == "[0, -9.81, 0]") {
      EXPECT_LT(sag, -1e-4);
    }
  }
}

TEST(GreenLoads, PressureLoadsTheSelectedFaceOnly) {
  // Pressing the free end (xmax) shortens the beam; the same pressure on the side face z = 0.2 (zmax)
  // bends it toward -z. Twice the pressure, twice the displacement.
  auto tip_shift = [](const std::string& region, double value) {
    Result<Scene> s = one_body("green", R"("green": {"pressure": [{"region": ")" + region +
                                            R"(", "value": )" + std::to_string(value) + "}]}");
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) return Vec3(Vec3::Zero());
    const Body& b = s->world->body(0);
    Vec3 mean = Vec3::Zero();
    int count = 0;
    for (std::size_t i = 0; i < b.surface_positions().size(); ++i) {
      if (b.surface_rest_positions()[i].x() < 1.0 - 1e-9) continue;
      mean += b.surface_positions()[i] - b.surface_rest_positions()[i];
      ++count;
    }
    return Vec3(mean / count);
  };
  const Vec3 end = tip_shift("xmax", 500.0);
  EXPECT_LT(end.x(), 0.0);
  EXPECT_LT(std::abs(end.y()) + std::abs(end.z()), 1e-3 * std::abs(end.x()));
  EXPECT_TRUE(tip_shift("xmax", 1000.0).isApprox(2.0 * end, 1e-5));
  const Vec3 side = tip_shift("zmax", 500.0);
  EXPECT_LT(side.z(), 0.0);
  EXPECT_GT(std::abs(side.z()), 10.0 * std::abs(side.y()));
}

// A bar (ν = 0) clamped at xmin and pulled at xmax by a traction σ, or by a pressure −σ (a follower
// load, equal here because the end face neither turns nor changes area): quasi-static linear fem
// reaches u = (σ x / E, 0, 0) exactly.
TEST(FemLoads, EndTractionAndPressureGiveTheUniaxialSolution) {
  for (const std::string load : {R"("traction": [{"region": "xmax", "value": [3000, 0, 0]}])",
                                 R"("pressure": [{"region": "xmax", "value": -3000}])"}) {
    Result<Scene> s =
        parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b", "family": "fem",
      "mesh": {"shape": "box", "size": [2.0, 0.5, 0.5], "cells": [4, 1, 1]}, "fixed": ["xmin"],
      "material": {"E": 2e5, "nu": 0, "density": 1000},
      "fem": {"element": "linear", "integrator": "quasi_static", "solver": {"kind": "cholmod"}, )" +
                        load + "}}]}",
                    "bar.json");
    ASSERT_TRUE(s.ok()) << s.message();
    s->world->step();
    const Body& b = s->world->body(0);
    for (std::size_t i = 0; i < b.surface_positions().size(); ++i) {
      const Vec3 x0 = b.surface_rest_positions()[i];
      const Vec3 expected = x0 + Vec3(3000.0 * x0.x() / 2e5, 0.0, 0.0);
      EXPECT_LT((b.surface_positions()[i] - expected).norm(), 1e-9) << load << " node " << i;
    }
  }
}

TEST(FemLoads, BadLoadsNameTheirJsonPath) {
  const auto fem = [](const std::string& keys) {
    return parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b", "family": "fem",
      "mesh": {"shape": "box", "size": [1, 0.2, 0.2], "cells": [4, 1, 1]}, "fixed": ["xmin"],
      "material": {"E": 1e5, "nu": 0.3, "density": 1000}, "fem": {)" +
                           keys + "}}]}",
                       "bad.json");
  };
  const std::pair<std::string, std::string> cases[] = {
      {R"("pressure": [{"region": "sphere:9,9,9,0.01", "value": 1}])",
       "/bodies/0/fem/pressure/0/region: the region selects no surface triangle"},
      {R"("traction": [{"region": "xmax", "value": [1, 2]}])", "/bodies/0/fem/traction/0/value: "},
      {R"("pressure": [{"region": "xmax", "value": 5, "area": 1}])",
       "/bodies/0/fem/pressure/0/area: unknown key"},
  };
  for (const auto& [keys, expected] : cases) {
    Result<Scene> s = fem(keys);
    ASSERT_FALSE(s.ok()) << keys;
    EXPECT_NE(s.message().find(expected), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace pliant::scene
