// Every one of the nine Table 2.1 methods (Grimm 2005) with both tearing modes, on rect sheets of
// several sizes, with a grab that pulls the sheet apart (and, in a second variant, a probe, a tool and
// a grab that only takes hold after the sheet has torn). After every world step the state must be
// finite, the mesh must pass the invariants and consistency rules of a torn membrane, and the grab
// must either still hold its node where the script says or have let go with an event because
// deletion tearing removed that node.
#include "pliant/models/springs/consistency.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/tearing.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/springs_scene_body.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace pliant::scene {
namespace {

using springs::Method;

constexpr double kSide = 0.05;  // sheet side (unit: m)
constexpr double kPull = 0.05;  // how far the grab pulls, along +y (unit: m)
constexpr double kPullTime = 0.15;
constexpr int kSteps = 250;  // world steps of 1 ms
// Where the grab takes hold: on the top edge, off-centre so no two nodes are equally near (m).
constexpr double kGrabX = 0.54 * kSide;

std::string scene_text(Method method, const char* mode, int cells, bool all_interactions) {
  // Thresholds scale with k l0 so every sheet size tears at similar strains (k = 50 N/m).
  const double kl0 = 50.0 * kSide / cells;
  std::string interactions = fmt::format(
      R"({{ "type": "grab", "body": "m", "near": [{0}, 0.05, 0],
           "track": [ {{ "t": 0, "offset": [0, 0, 0] }}, {{ "t": {1}, "offset": [0, {2}, 0.01] }} ] }})",
      kGrabX, kPullTime, kPull);
  if (all_interactions) {
    interactions += fmt::format(
        R"(, {{ "type": "probe", "body": "m", "near": [{0}, {1}, 0], "force": [0, 0, 0.02], "ramp": 0.05 }},
           {{ "type": "tool", "shape": "cylinder", "start": [{0}, {1}, -0.02], "axis": [1, 0, 0], "radius": 0.004,
             "length": 0.02, "stiffness": 20,
             "track": [ {{ "t": 0, "offset": [0, 0, 0] }}, {{ "t": 0.2, "offset": [0, 0, 0.04] }} ] }},
           {{ "type": "grab", "body": "m", "near": [{1}, {2}, 0], "start": 0.12,
             "track": [ {{ "t": 0, "offset": [0, 0, 0] }}, {{ "t": 0.1, "offset": [0, 0, 0.03] }} ] }})",
        0.25 * kSide, 0.5 * kSide, 0.75 * kSide);
  }
  return fmt::format(R"({{ "pliant": 1, "name": "tear_grab", "time_step": 0.001, "steps": {0},
  "bodies": [ {{ "name": "m", "family": "springs",
    "mesh": {{ "shape": "rect", "size": [{1}, {1}], "cells": [{2}, {2}] }},
    "fixed": ["nodes:0-{2}"],
    "springs": {{ "method": "{3}", "stiffness": 50, "damping": 0.015, "mass_damping": 600,
                 "mass_density": 180, "max_stretch": 1.3,
                 "tearing": {{ "mode": "{4}", "seed_threshold": {5}, "edge_threshold": {6},
                               "inner_threshold": {7} }} }} }} ],
  "interactions": [ {8} ] }})",
                     kSteps, kSide, cells, springs::method_name(method), mode, 0.05 * kl0, 0.1 * kl0,
                     0.2 * kl0, interactions);
}

// The node of the initial mesh the scene grabs: the one nearest to where the grab takes hold.
Index grabbed_origin(const springs::SpringMesh& mesh) {
  const Vec3 near(kGrabX, kSide, 0.0);
  Index best = -1;
  double best_d = 1e300;
  for (Index i = 0; i < mesh.node_count(); ++i) {
    const double d = (mesh.rest_position[static_cast<std::size_t>(i)] - near).squaredNorm();
    if (d < best_d) best_d = d, best = i;
  }
  return best;
}

using Param = std::tuple<Method, const char*, int, bool>;

class SpringsTearGrab : public ::testing::TestWithParam<Param> {};

TEST_P(SpringsTearGrab, StaysConsistentAndReleasesGrabsOfRemovedNodes) {
  const auto [method, mode, cells, all] = GetParam();
  const bool deletion = std::string(mode) == "deletion";
  auto sc = parse_scene(scene_text(method, mode, cells, all), "tear_grab.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  const springs::SpringMesh* mesh = springs_mesh(w.body(0));
  ASSERT_NE(mesh, nullptr);
  const Index held = grabbed_origin(*mesh);  // origin survives deletion's renumbering and copies
  const Vec3 held_rest = mesh->rest_position[static_cast<std::size_t>(held)];
  const springs::ConsistencyOptions rules{.rule5 = !deletion};

  int tears = 0, releases = 0, node_gone_at = -1;
  for (int step = 0; step < kSteps; ++step) {
    w.step();
    mesh = springs_mesh(w.body(0));
    ASSERT_NE(mesh, nullptr);
    const std::string where = fmt::format("step {}", step);
    for (const Vec3& x : mesh->position) ASSERT_TRUE(x.allFinite()) << where;
    for (const Vec3& v : mesh->velocity) ASSERT_TRUE(v.allFinite()) << where;
    const Status invariants = springs::check_spring_mesh(*mesh);
    ASSERT_TRUE(invariants.ok()) << where << ": " << invariants.message();
    const Status rules_ok = springs::check_consistency(*mesh, rules);
    ASSERT_TRUE(rules_ok.ok()) << where << ": " << rules_ok.message();
    for (const WorldEvent& e : w.events()) {
      if (e.category == GrabReleased::category) {
        ++releases;
        EXPECT_EQ(e.brief.node, -1) << where << ": a grab let go while its node still exists";
      } else {
        ++tears;
      }
    }
    // The held node, found independently by its origin: the nodes descending from it, and which of
    // them are fixed (only the grab fixes nodes away from the bottom row).
    int copies = 0, fixed = 0;
    Index holder = -1;
    for (Index i = 0; i < mesh->node_count(); ++i) {
      if (mesh->origin[static_cast<std::size_t>(i)] != held) continue;
      ++copies;
      if (mesh->fixed(i)) ++fixed, holder = i;
    }
    if (copies == 0) {
      // Deletion tearing removed the held node: the grab must have let go, with one event, then.
      ASSERT_TRUE(deletion) << where << ": area-preserving tearing never removes nodes";
      if (node_gone_at < 0) {
        node_gone_at = step;
        EXPECT_GE(releases, 1) << where << ": the held node went away without a grab_released event";
      }
      continue;
    }
    // Still there: exactly one descendant is held (a copy made by tearing is not left fixed in space)
    // and it sits at the grab's target, anchor + offset(t).
    ASSERT_EQ(fixed, 1) << where << ": " << copies << " copies of the held node, " << fixed << " fixed";
    const double t = w.time(), s = std::min(1.0, t / kPullTime);
    const Vec3 target = held_rest + s * Vec3(0.0, kPull, 0.01);
    EXPECT_LT((mesh->position[static_cast<std::size_t>(holder)] - target).norm(), 1e-9) << where;
  }
  // The pull (twice the sheet's stretch limit) must tear it; a lost node must have been announced,
  // and exactly once per grab that held it.
  EXPECT_GT(tears, 0);
  if (node_gone_at >= 0) {
    EXPECT_GE(releases, 1);
  }
  if (!all) {
    EXPECT_EQ(releases, node_gone_at >= 0 ? 1 : 0);
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const auto [method, mode, cells, all] = info.param;
  return fmt::format("{}_{}_{}x{}{}", springs::method_name(method), mode, cells, cells, all ? "_all" : "");
}

INSTANTIATE_TEST_SUITE_P(AllMethods, SpringsTearGrab,
                         ::testing::Combine(::testing::ValuesIn(springs::all_methods),
                                            ::testing::Values("deletion", "area_preserving"),
                                            ::testing::Values(2, 5, 20), ::testing::Bool()),
                         param_name);

}  // namespace
}  // namespace pliant::scene
