// Cutting a hybrid fem body in a scene (the Cuttable capability of the fem family's "hybrid" key): a
// scripted blade through the operational middle of a slab held at one end cuts it in two pieces, the
// free one falls; the condensed part is kept; tets outside the region and old rest positions stay as
// they were; rest volume is conserved; the surface stays closed and outward.
#include "pliant/core/topology.hpp"
#include "pliant/models/fem/hybrid/hybrid_solver.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/fem_scene_body.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

namespace pliant::scene {
namespace {

// The slab spans x in [0, 0.3]; node layers every 0.05 m in x. The operational region holds the tets
// with centroid x in [0.1, 0.2]; the blade cuts the plane x = kCut, a quarter of an edge off a layer.
constexpr double kCut = 0.1625;

Result<Scene> slab(bool blade, const std::string& cut_mode = "split", double blade_seconds = 0.05) {
  const std::string interactions =
      blade ? R"(, "interactions": [{"type": "blade", "edge": [[0.1625, 0.1, -0.1], [0.1625, 0.1, 0.1]],
          "track": [{"t": 0.0, "offset": [0, 0, 0]}, {"t": )" +
                  std::to_string(blade_seconds) + R"(, "offset": [0, -0.2, 0]}]}])"
            : "";
  return parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "slab", "family": "fem",
      "mesh": {"shape": "box", "size": [0.3, 0.04, 0.04], "cells": [6, 2, 2]}, "fixed": ["xmin"],
      "material": {"E": 1e6, "nu": 0.3, "density": 1000},
      "fem": {"element": "corotational", "damping": {"alpha": 0.5, "beta": 0.002}, "gravity": [0, -9.81, 0],
              "hybrid": {"operational": {"box": {"min": [0.1, -1, -1], "max": [0.2, 1, 1]}}, "cut": ")" +
                         cut_mode + R"("}}}])" + interactions + "}",
                     "slab_cut.json");
}

double tet_volume(const std::vector<Vec3>& x, const Tet& t) {
  const auto p = [&](int a) { return x[static_cast<std::size_t>(t[static_cast<std::size_t>(a)])]; };
  return (p(1) - p(0)).dot((p(2) - p(0)).cross(p(3) - p(0))) / 6.0;
}

double total_volume(const fem::FemForceModel& m) {
  double v = 0.0;
  for (const Tet& t : m.tets()) v += tet_volume(m.rest_positions(), t);
  return v;
}

// The tets the model marks linear (the non-operational part), in order.
std::vector<Tet> linear_tets(const fem::FemForceModel& m) {
  std::vector<Tet> out;
  for (std::size_t t = 0; t < m.tets().size(); ++t)
    if (m.element(static_cast<Index>(t)) == fem::ElementKind::linear) out.push_back(m.tets()[t]);
  return out;
}

TEST(FemHybridCut, ABladeCutsTheSlabInTwoAndKeepsTheRestAsItWas) {
  Result<Scene> scene = slab(true);
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  Body& body = world.body(0);
  ASSERT_NE(capability<Cuttable>(body), nullptr);
  const fem::FemBody& view = *fem_body(body);

  world.step();  // the first step builds the solver for its step length
  const fem::HybridSolver* hybrid = view.hybrid();
  ASSERT_NE(hybrid, nullptr);
  const linalg::Condensation* condensation = hybrid->condensation();
  ASSERT_NE(condensation, nullptr);
  const std::vector<Vec3> rest_before = view.model().rest_positions();
  const std::vector<Tet> linear_before = linear_tets(view.model());
  const double volume_before = total_volume(view.model());
  const std::size_t tets_before = view.model().tets().size();
  const std::uint64_t topology_before = body.surface_topology_version();

  int cut_events = 0;
  double tets_split = 0.0;
  for (int s = 0; s < 6; ++s) {
    world.step();
    for (const WorldEvent& e : world.events()) {
      if (e.category != "cut") continue;
      ++cut_events;
      EXPECT_EQ(e.brief.quantity, "tets_split");
      tets_split += e.brief.value;
    }
  }
  EXPECT_GE(cut_events, 1);
  EXPECT_GT(tets_split, 0.0);
  EXPECT_GT(body.surface_topology_version(), topology_before);

  const fem::FemForceModel& m = view.model();
  EXPECT_GT(m.tets().size(), tets_before);
  // The solver was updated locally: same object, the same condensation, built once.
  EXPECT_EQ(view.hybrid(), hybrid);
  EXPECT_EQ(hybrid->condensation(), condensation);
  EXPECT_EQ(hybrid->condensation_builds(), 1);
  // Outside the region nothing changed: the linear tets in order, and every old node's rest position.
  EXPECT_EQ(linear_tets(m), linear_before);
  ASSERT_GE(m.rest_positions().size(), rest_before.size());
  for (std::size_t i = 0; i < rest_before.size(); ++i) EXPECT_EQ(m.rest_positions()[i], rest_before[i]);
  // Splitting conserves the rest volume; every tet stays positive.
  EXPECT_NEAR(total_volume(m), volume_before, 1e-12 * volume_before);
  for (const Tet& t : m.tets()) EXPECT_GT(tet_volume(m.rest_positions(), t), 0.0);

  // Two pieces, none of whose tets reaches across the cut (in the rest shape; the blade cut the sagging
  // slab, so the new nodes lie within a small distance of the plane in the rest shape, far less than the
  // 0.05 m between node layers).
  std::vector<Edge> edges;
  for (const Tet& t : m.tets())
    for (int a = 1; a < 4; ++a) edges.push_back({t[0], t[static_cast<std::size_t>(a)]});
  const Components parts = connected_components(static_cast<Index>(m.rest_positions().size()), edges);
  EXPECT_EQ(parts.count, 2);
  for (const Tet& t : m.tets()) {
    bool left = false, right = false;
    for (Index a : t) {
      const double x = m.rest_positions()[static_cast<std::size_t>(a)].x();
      left = left || x < kCut - 0.005;
      right = right || x > kCut + 0.005;
    }
    EXPECT_FALSE(left && right) << "a tet across the cut";
  }

  // The re-extracted surface is closed and outward: every edge in two triangles, and the divergence
  // theorem over it gives the tets' volume.
  std::map<std::pair<Index, Index>, int> edge_count;
  double surface_volume = 0.0;
  const auto xs = body.surface_rest_positions();
  for (const Tri& t : body.surface_triangles()) {
    for (int k = 0; k < 3; ++k) {
      const Index a = t[static_cast<std::size_t>(k)], b = t[static_cast<std::size_t>((k + 1) % 3)];
      ++edge_count[{std::min(a, b), std::max(a, b)}];
    }
    surface_volume += xs[static_cast<std::size_t>(t[0])].dot(
                          xs[static_cast<std::size_t>(t[1])].cross(xs[static_cast<std::size_t>(t[2])])) /
                      6.0;
  }
  for (const auto& [edge, count] : edge_count) EXPECT_EQ(count, 2);
  EXPECT_NEAR(surface_volume, volume_before, 1e-12 * volume_before);
  EXPECT_EQ(body.surface_positions().size(), body.surface_rest_positions().size());

  // The free piece falls away while the held one hangs: compare the height of the centre of mass of the
  // nodes right of the cut (mass-weighted: independent of how many nodes the cut added) with an uncut run
  // of the same scene.
  Result<Scene> uncut = slab(false);
  ASSERT_TRUE(uncut.ok()) << uncut.message();
  for (int s = 0; s < 7; ++s) uncut->world->step();
  for (int s = 0; s < 20; ++s) {
    world.step();
    uncut->world->step();
  }
  EXPECT_TRUE(view.last_report().converged);
  const auto mean_right_y = [](const fem::FemBody& v) {
    double sum = 0.0, mass = 0.0;
    for (std::size_t i = 0; i < v.positions().size(); ++i) {
      if (v.model().rest_positions()[i].x() <= kCut + 1e-12) continue;
      sum += v.model().mass()[i] * v.positions()[i].y();
      mass += v.model().mass()[i];
    }
    return sum / mass;
  };
  const double fallen = mean_right_y(view), hanging = mean_right_y(*fem_body(uncut->world->body(0)));
  // 0.27 s of free fall with the scene's mass damping (α = 0.5 1/s) is (g/α)(t - (1 - e^(-αt))/α) =
  // 0.34 m; the uncut cantilever sags by millimetres.
  EXPECT_LT(fallen, -0.25);
  EXPECT_GT(hanging, -0.02);
}

// Two components connected by no tet: the labels of the tets' nodes.
Index components(const fem::FemForceModel& m) {
  std::vector<Edge> edges;
  for (const Tet& t : m.tets())
    for (int a = 1; a < 4; ++a) edges.push_back({t[0], t[static_cast<std::size_t>(a)]});
  return connected_components(static_cast<Index>(m.rest_positions().size()), edges).count;
}

// A slow blade (4 mm per step, a tenth of the slab's thickness) still separates the slab: the body cuts
// in strokes of a tet's extent, so the front each stroke leaves opens with the next; and the mesh does
// not grow step after step.
TEST(FemHybridCut, ASlowBladeCutsInStrokesAndSeparates) {
  Result<Scene> scene = slab(true, "split", 0.5);
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const fem::FemBody& view = *fem_body(world.body(0));
  world.step();
  const std::size_t tets = view.model().tets().size();
  const double volume = total_volume(view.model());
  int cut_steps = 0;
  for (int s = 0; s < 52; ++s) {
    world.step();
    for (const WorldEvent& e : world.events()) cut_steps += e.category == "cut";
  }
  EXPECT_EQ(components(view.model()), 2);
  EXPECT_GE(cut_steps, 1);
  EXPECT_LE(cut_steps, 5) << "a cut in every short step";
  // Against the same cut made in one stroke (the blade through the slab within 5 steps).
  Result<Scene> fast = slab(true);
  ASSERT_TRUE(fast.ok()) << fast.message();
  for (int s = 0; s < 8; ++s) fast->world->step();
  const std::size_t one_stroke = fem_body(fast->world->body(0))->model().tets().size();
  EXPECT_GT(one_stroke, tets);
  EXPECT_LE(view.model().tets().size(), one_stroke + one_stroke / 2) << "one stroke: " << one_stroke;
  EXPECT_NEAR(total_volume(view.model()), volume, 1e-12 * volume);
}

TEST(FemHybridCut, MissesAndOtherBodiesAreNotCut) {
  Result<Scene> scene = slab(false);
  ASSERT_TRUE(scene.ok()) << scene.message();
  Body& body = scene->world->body(0);
  Cuttable* cuttable = capability<Cuttable>(body);
  ASSERT_NE(cuttable, nullptr);
  scene->world->step();
  const std::size_t tets = fem_body(body)->model().tets().size();
  // Far from the body, a sweep of zero area, and a sweep through the linear part only.
  EXPECT_FALSE(cuttable->cut({{5, 1, -1}, {5, 1, 1}, {5, -1, -1}, {5, -1, 1}}));
  EXPECT_FALSE(cuttable->cut({{0.16, 1, -1}, {0.16, 1, 1}, {0.16, 1, -1}, {0.16, 1, 1}}));
  EXPECT_FALSE(cuttable->cut({{0.04, 1, -1}, {0.04, 1, 1}, {0.04, -1, -1}, {0.04, -1, 1}}));
  EXPECT_EQ(fem_body(body)->model().tets().size(), tets);
  EXPECT_EQ(body.surface_topology_version(), 0u);

  // A fem body that is not hybrid has no Cuttable capability.
  Result<Scene> plain =
      parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b", "family": "fem",
      "mesh": {"shape": "box", "size": [0.3, 0.04, 0.04], "cells": [6, 2, 2]}, "fixed": ["xmin"],
      "material": {"E": 1e5, "nu": 0.3, "density": 1000}}]})",
                  "plain.json");
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(capability<Cuttable>(plain->world->body(0)), nullptr);
}

TEST(FemHybridCut, RemoveModeDeletesTheCrossedTets) {
  Result<Scene> scene = slab(true, "remove");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const fem::FemBody& view = *fem_body(world.body(0));
  world.step();
  const std::size_t nodes = view.model().rest_positions().size(), tets = view.model().tets().size();
  double removed = 0.0;
  for (int s = 0; s < 6; ++s) {
    world.step();
    for (const WorldEvent& e : world.events()) {
      if (e.category != "cut") continue;
      EXPECT_EQ(e.brief.quantity, "tets_removed");
      removed += e.brief.value;
    }
  }
  EXPECT_GT(removed, 0.0);
  EXPECT_EQ(view.model().tets().size() + static_cast<std::size_t>(removed), tets);
  EXPECT_EQ(view.model().rest_positions().size(), nodes);
  // No tet is left with nodes on both sides of the cut plane.
  for (const Tet& t : view.model().tets()) {
    bool left = false, right = false;
    for (Index a : t) {
      const double x = view.model().rest_positions()[static_cast<std::size_t>(a)].x();
      left = left || x < kCut;
      right = right || x > kCut;
    }
    EXPECT_FALSE(left && right);
  }
  world.step();
  EXPECT_TRUE(view.last_report().converged);
}

// The "fast" solver (rest_factor_pcg capped, three iterations on a hybrid body) on the liver_cut example:
// the blade sets a small piece loose, which a cap of two flung kilometres away; with three the run
// follows the converged (cholmod) one. With Newmark (no numerical damping) a capped solve is refused.
TEST(FemHybridCut, TheFastSolverFollowsTheConvergedCutAndRefusesNewmark) {
  std::ifstream in(std::filesystem::path(PLIANT_EXAMPLES_DIR) / "liver_cut.json");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str(), cholmod = R"("solver": { "kind": "cholmod" })";
  ASSERT_NE(text.find(cholmod), std::string::npos);
  const auto with = [&](const std::string& solver) {
    std::string t = text;
    t.replace(t.find(cholmod), cholmod.size(), solver);
    return t;
  };
  Result<Scene> exact = parse_scene(text, "liver_cut.json");
  Result<Scene> fast = parse_scene(with(R"("solver": { "kind": "fast" })"), "liver_cut.json");
  ASSERT_TRUE(exact.ok()) << exact.message();
  ASSERT_TRUE(fast.ok()) << fast.message();
  for (int s = 0; s < 80; ++s) {
    exact->world->step();
    fast->world->step();
  }
  const auto xe = exact->world->body(0).surface_positions(), xf = fast->world->body(0).surface_positions();
  const auto x0 = exact->world->body(0).surface_rest_positions();
  ASSERT_EQ(xe.size(), xf.size());
  double moved = 0.0, difference = 0.0;
  for (std::size_t i = 0; i < xe.size(); ++i) {
    moved = std::max(moved, (xe[i] - x0[i]).norm());
    difference = std::max(difference, (xf[i] - xe[i]).norm());
  }
  EXPECT_GT(moved, 0.1);  // the loose piece falls
  EXPECT_LT(difference, 0.05 * moved);

  std::string newmark = with(R"("solver": { "kind": "fast" })");
  const std::string be = R"("integrator": "backward_euler")";
  ASSERT_NE(newmark.find(be), std::string::npos);
  newmark.replace(newmark.find(be), be.size(), R"("integrator": "newmark")");
  Result<Scene> refused = parse_scene(newmark, "liver_cut.json");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("/bodies/0/fem/solver/kind"), std::string::npos) << refused.message();
  EXPECT_EQ(refused.message().find('\n'), std::string::npos);
}

TEST(FemHybridCut, TheCutModeIsCheckedByName) {
  Result<Scene> scene = slab(false, "slice");
  ASSERT_FALSE(scene.ok());
  EXPECT_NE(scene.message().find("/bodies/0/fem/hybrid/cut"), std::string::npos) << scene.message();
}

}  // namespace
}  // namespace pliant::scene
