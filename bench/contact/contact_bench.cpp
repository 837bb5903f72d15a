// `pliant bench contact`: the World's contact on two scenes of the issue "Bodies that touch", timed per
// step after a warm-up:
//   organs       a liver-like FEM body (a ball mesh scaled to an ellipsoid, ~10k tets) resting under
//                gravity on a stomach-like FEM body (another ellipsoid, ~10k tets, its base fixed),
//                pressed and then dragged by a capsule collider on a keyframe track
//   green_press  a Green body (a clamped slab, ~4.6k surface nodes) pressed by a large sphere collider
//                until 100+ of its surface nodes are held: the rate of the whole contact step (detection,
//                active set and the body's exact solve through its capacitance matrix, James & Pai 1999)
//   self_fold    a springs membrane (101 × 101 = 10 201 nodes) dropped over a sphere collider, its skirt
//                folding onto itself with self-contact on (BodyContact::self)
// Per scene and thread count: the stage means of World::profile() ("contact.detect", "contact.solve"),
// the whole step's wall time, the mean count of held nodes, the deepest penetration seen and the
// relative residual of the held nodes' gaps (below).
#include "bench.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/scene_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace pliant::bench {
namespace {

struct SceneSpec {
  std::string name;
  std::string json;
  int steps = 0;
  int warmup = 0;
  long long meshed_tets = 0;  // a body that keeps no tets (Green: only its surface block): the mesher's count
};

// The liver on the stomach; `resolution` is the ball mesher's cells across a diameter (12: 10 368 tets).
SceneSpec organs(bool quick) {
  const int r = quick ? 4 : 12;
  SceneSpec s;
  s.name = "organs";
  s.steps = quick ? 12 : 150;
  s.warmup = quick ? 4 : 30;
  s.json = fmt::format(R"({{"pliant": 1, "name": "organs", "time_step": 0.01, "steps": {0},
    "bodies": [
      {{"name": "stomach", "family": "fem",
        "mesh": {{"shape": "ball", "radius": 0.07, "resolution": {1}, "scale": [1.3, 1.0, 0.7], "translate": [0, 0, 0.049]}},
        "fixed": ["z<15%"], "material": {{"preset": "kidney"}}, "contact": {{"friction": 0.6}},
        "fem": {{"element": "corotational", "damping": {{"alpha": 4.0, "beta": 0.01}}, "gravity": [0, 0, -9.81],
                "integrator": "backward_euler", "solver": {{"kind": "cholmod"}}}}}},
      {{"name": "liver", "family": "fem",
        "mesh": {{"shape": "ball", "radius": 0.06, "resolution": {1}, "scale": [1.5, 1.0, 0.6], "translate": [0, 0, 0.136]}},
        "material": {{"preset": "liver"}}, "contact": {{"friction": 0.6}},
        "fem": {{"element": "corotational", "damping": {{"alpha": 4.0, "beta": 0.01}}, "gravity": [0, 0, -9.81],
                "integrator": "backward_euler", "solver": {{"kind": "cholmod"}}}}}}],
    "colliders": [
      {{"name": "instrument", "shape": "capsule", "radius": 0.01, "half_length": 0.05, "position": [0, 0, 0.2],
        "friction": 0.3,
        "track": [{{"t": 0.0, "position": [0, 0, 0.2]}}, {{"t": 0.3, "position": [0, 0, 0.2]}},
                  {{"t": 0.8, "position": [0, 0, 0.165]}}, {{"t": 1.5, "position": [0.04, 0, 0.165]}}]}}],
    "output": {{"vtu": false}}}})",
                       s.steps, r);
  return s;
}

// A Green slab clamped at its base pressed by a sphere of radius 0.2 m lowered 1.7 mm into its top
// (the held nodes 1 mm of margins further): over 100 nodes held, a contact radius near 3 cm; then the
// sphere rocks ±0.5 mm along x, carrying its sticking nodes, so every step moves every held target
// (a sphere held still would leave the Green body nothing to re-solve).
SceneSpec green_press(bool quick) {
  const int cells = quick ? 8 : 44;
  SceneSpec s;
  s.name = "green_press";
  s.steps = quick ? 10 : 80;
  s.warmup = quick ? 5 : 40;
  s.meshed_tets = 5LL * cells * cells * (quick ? 2 : 4);  // five tets per cell (the box mesher's default)
  s.json = fmt::format(R"({{"pliant": 1, "name": "green_press", "time_step": 0.01, "steps": {0},
    "bodies": [
      {{"name": "organ", "family": "green",
        "mesh": {{"shape": "box", "size": [0.22, 0.22, 0.04], "cells": [{1}, {1}, {2}]}},
        "material": {{"preset": "liver"}}, "fixed": ["zmin"], "contact": {{"friction": 0.5}}}}],
    "colliders": [
      {{"name": "ball", "shape": "sphere", "radius": 0.2, "position": [0.11, 0.11, 0.2405],
        "track": [{{"t": 0.0, "position": [0.11, 0.11, 0.2405]}}, {{"t": {3}, "position": [0.11, 0.11, 0.2383]}},
                  {{"t": {4}, "position": [0.1105, 0.11, 0.2383]}}, {{"t": {5}, "position": [0.1095, 0.11, 0.2383]}},
                  {{"t": {6}, "position": [0.1105, 0.11, 0.2383]}}, {{"t": {7}, "position": [0.1095, 0.11, 0.2383]}}]}}],
    "output": {{"vtu": false}}}})",
                       s.steps, cells, quick ? 2 : 4, quick ? 0.03 : 0.3, quick ? 0.05 : 0.4,
                       quick ? 0.07 : 0.5, quick ? 0.09 : 0.65, quick ? 0.11 : 0.8);
  return s;
}

// A springs membrane of `cells` × `cells` cells (0.5 m square, the example sheets' springs settings with a
// mass damping of 20 1/s, as examples/scenes/membrane_fold.json) dropped from 9 cm over a
// sphere of radius 0.08 m with self-contact on: it wraps the sphere and its skirt folds onto itself.
// Timed from 0.3 s, when the self-contacts start, to 0.6 s (over a thousand of them by then).
SceneSpec self_fold(bool quick) {
  const int cells = quick ? 30 : 100;
  SceneSpec s;
  s.name = "self_fold";
  s.steps = quick ? 40 : 60;
  s.warmup = quick ? 20 : 30;
  s.json = fmt::format(R"({{"pliant": 1, "name": "self_fold", "time_step": 0.01, "steps": {0},
    "bodies": [
      {{"name": "sheet", "family": "springs",
        "mesh": {{"shape": "rect", "size": [0.5, 0.5], "cells": [{1}, {1}], "translate": [-0.25, -0.25, 0.09]}},
        "contact": {{"friction": 0.3, "self": true}},
        "springs": {{"gravity": [0, 0, -9.81], "mass_density": 180, "stiffness": 50, "damping": 0.015,
                    "mass_damping": 20}}}}],
    "colliders": [{{"name": "ball", "shape": "sphere", "radius": 0.08, "friction": 0.3}}],
    "output": {{"vtu": false}}}})",
                       s.steps, cells);
  return s;
}

struct Measured {
  int bodies = 0;
  long long tets = 0;
  long long surface_nodes = 0;
  double contacts = 0.0, detection_ms = 0.0, solve_ms = 0.0, body_ms = 0.0, step_ms = 0.0;
  double max_penetration = 0.0, relative_residual = 0.0;
  int min_contacts = 0;
  double build_s = 0.0;
};

double stage_ms(const Profile& p, std::string_view name) {
  for (const auto& st : p.stages)
    if (st.name == name) return st.ms;
  return 0.0;
}

// How far the held nodes sit from where the contact holds them (the surface plus the pair's margins),
// relative to the margins: max |gap − margins| / margins over every held node after the step. Against
// a collider the gap is its exact distance; against a body it is measured along the holding triangle's
// normal to the held point of its current surface (the staggered coupling moves that body after the
// hold, so this also shows the coupling's lag).
double gap_residual(const scene::World& w) {
  double worst = 0.0;
  for (const scene::ContactPoint& c : w.contact_points()) {
    double margins = w.contact(c.body).margin, gap = 0.0;
    if (c.collider >= 0) {
      const scene::Collider& col = w.colliders()[static_cast<std::size_t>(c.collider)];
      margins += col.margin;
      gap = col.distance(col.pose_at(w.time()), c.position).distance;
    } else {
      const scene::Body& other = w.body(c.other_body);
      margins += w.contact(c.other_body).margin;
      gap = (c.position - scene::point_on(other.surface_positions(), other.surface_triangles(), c.on))
                .dot(c.normal);
    }
    worst = std::max(worst, std::abs(gap - margins) / margins);
  }
  return worst;
}

Measured run_scene(const SceneSpec& spec) {
  Measured m;
  Stopwatch build;
  scene::Scene scene = [&] {
    Result<scene::Scene> s = scene::parse_scene(spec.json, spec.name + ".json");
    if (!s.ok()) throw std::runtime_error(s.message());
    return std::move(s).value();
  }();
  m.build_s = build.seconds();
  scene::World& w = *scene.world;
  m.bodies = static_cast<int>(w.body_count());
  for (std::size_t b = 0; b < w.body_count(); ++b) {
    const scene::Body& body = w.body(static_cast<Index>(b));
    m.surface_nodes += static_cast<long long>(body.surface_positions().size());
    if (const auto* t = scene::capability<scene::SimulationTets>(body))
      m.tets += static_cast<long long>(t->simulation_tets().size());
  }
  if (m.tets == 0) m.tets = spec.meshed_tets;
  int timed = 0;
  m.min_contacts = -1;
  for (int s = 0; s < spec.steps; ++s) {
    Stopwatch step;
    w.step();
    const double ms = step.ms();
    for (const scene::ContactEvent& e : w.contact_events())
      m.max_penetration = std::max(m.max_penetration, e.max_penetration);
    if (s < spec.warmup) continue;
    ++timed;
    const int held = static_cast<int>(w.contact_points().size());
    m.contacts += held;
    m.min_contacts = m.min_contacts < 0 ? held : std::min(m.min_contacts, held);
    m.detection_ms += stage_ms(w.profile(), "contact.detect");
    m.solve_ms += stage_ms(w.profile(), "contact.solve");
    m.body_ms += stage_ms(w.profile(), "solve");
    m.step_ms += ms;
    m.relative_residual = std::max(m.relative_residual, gap_residual(w));
  }
  if (timed > 0) {
    m.contacts /= timed;
    m.detection_ms /= timed;
    m.solve_ms /= timed;
    m.body_ms /= timed;
    m.step_ms /= timed;
  }
  return m;
}

nlohmann::json run(const Context& context) {
  std::vector<int> threads;
  if (context.threads > 0)
    threads = {context.threads};
  else
    threads = context.quick ? std::vector<int>{1} : std::vector<int>{1, 2};
  // PLIANT_BENCH_CONTACT_ONLY=NAME runs one scene (a long run split in two on a busy machine).
  std::vector<SceneSpec> specs;
  const char* only = std::getenv("PLIANT_BENCH_CONTACT_ONLY");
  for (SceneSpec spec : {organs(context.quick), green_press(context.quick), self_fold(context.quick)})
    if (!only || *only == '\0' || spec.name == only) specs.push_back(std::move(spec));
  nlohmann::json scenes = nlohmann::json::array();
  fmt::print("{:<12} {:>3} {:>6} {:>7} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>11} {:>10}\n", "scene", "thr",
             "bodies", "tets", "surface", "contacts", "detect ms", "solve ms", "body ms", "step ms",
             "max pen m", "residual");
  for (const SceneSpec& spec : specs) {
    for (int t : threads) {
      set_threads(t);
      const Measured m = run_scene(spec);
      fmt::print(
          "{:<12} {:>3} {:>6} {:>7} {:>8} {:>8.1f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>11.3e} {:>10.3e}\n",
          spec.name, t, m.bodies, m.tets, m.surface_nodes, m.contacts, m.detection_ms, m.solve_ms, m.body_ms,
          m.step_ms, m.max_penetration, m.relative_residual);
      nlohmann::json j = {{"name", spec.name},
                          {"threads", t},
                          {"bodies", m.bodies},
                          {"tets", m.tets},
                          {"surface_nodes", m.surface_nodes},
                          {"contacts", m.contacts},
                          {"min_contacts", m.min_contacts},
                          {"detection_ms", m.detection_ms},
                          {"solve_ms", m.solve_ms},
                          {"body_solve_ms", m.body_ms},
                          {"step_ms", m.step_ms},
                          {"max_penetration_m", m.max_penetration},
                          {"relative_residual", m.relative_residual},
                          {"steps", spec.steps},
                          {"warmup_steps", spec.warmup},
                          {"build_s", m.build_s}};
      // The Green body's contact is solved exactly inside its own step (its capacitance matrix): the
      // rate of the whole contact step, detection + active set + that solve.
      if (spec.name == "green_press")
        j["contact_solve_hz"] = m.step_ms > 0.0 ? 1000.0 / (m.detection_ms + m.solve_ms + m.body_ms) : 0.0;
      scenes.push_back(std::move(j));
    }
  }
  set_threads(0);
  nlohmann::json out;
  out["scenes"] = scenes;
  out["not_available"] = nlohmann::json::array();
  out["peer"] = nullptr;  // no peer built beside the project yet (docs/benchmarks.md)
  return out;
}

}  // namespace

PLIANT_REGISTER_BENCH("contact",
                      "Contact: a FEM liver on a FEM stomach pressed and dragged by a capsule, a Green organ "
                      "pressed by a sphere, a springs membrane folding onto itself over a sphere (self_fold)",
                      run);

}  // namespace pliant::bench
