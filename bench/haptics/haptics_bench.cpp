// `pliant bench haptics`: a probe driven by a simulated haptic device through the virtual coupling
// (Colgate et al. 1995), the haptic loop on its own thread at 1 kHz while the World steps at up to
// 60 Hz on the calling thread, as `pliant haptics` runs it:
//   green_organ  a Green slab (liver preset, base clamped; full size 44 × 44 × 4 cells, 4 578 surface
//                nodes) pressed 5 mm by the hand through a probe of radius 3 cm, held, then slid 1 cm:
//                between steps the contact force comes from the touched nodes' capacitance system
//                (James & Pai 1999), exact
//   fem_organ    a dynamic FEM organ (the ball mesher scaled to an ellipsoid, liver preset, its lowest
//                15 % fixed; full size resolution 12, 10 368 tets) pressed and slid the same way:
//                between steps, the World's secant estimate
// Per run: the held contact nodes (the most at once, and the mean over steps in contact), the mean time
// of the contact force update in the haptic thread (HapticStats::render_us_mean: the snapshot read, the
// coupling's proxy and F + K·Δx; the touched nodes' system is condensed to the 3 × 3 K once per step in
// the simulation thread, timed as publish_ms_mean), the achieved rate, the p99 period, the largest
// force jump between samples over the peak force, and the energy balance.
#include "bench.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/virtual_coupling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pliant::bench {
namespace {

struct RunSpec {
  std::string name;
  std::string family;
  std::string body_json;    // the body object
  Vec3 top = Vec3::Zero();  // the surface point the probe presses (unit: m)
  double seconds = 0.0;     // haptic run time (unit: s)
};

RunSpec green_organ(bool quick) {
  const int cells = quick ? 8 : 44;
  RunSpec r;
  r.name = "green_organ";
  r.family = "green";
  r.body_json = fmt::format(R"({{"name": "organ", "family": "green",
      "mesh": {{"shape": "box", "size": [0.22, 0.22, 0.04], "cells": [{0}, {0}, {1}]}},
      "material": {{"preset": "liver"}}, "fixed": ["zmin"], "contact": {{"friction": 0.5}}}})",
                            cells, quick ? 2 : 4);
  r.top = Vec3(0.11, 0.11, 0.04);
  r.seconds = quick ? 1.0 : 3.0;
  return r;
}

RunSpec fem_organ(bool quick) {
  RunSpec r;
  r.name = "fem_organ";
  r.family = "fem";
  r.body_json = fmt::format(R"({{"name": "organ", "family": "fem",
      "mesh": {{"shape": "ball", "radius": 0.06, "resolution": {0}, "scale": [1.5, 1.0, 0.6], "translate": [0, 0, 0.036]}},
      "fixed": ["z<15%"], "material": {{"preset": "liver"}}, "contact": {{"friction": 0.5}},
      "fem": {{"element": "corotational", "damping": {{"alpha": 4.0, "beta": 0.01}},
              "integrator": "backward_euler", "solver": {{"kind": "cholmod"}}}}}})",
                            quick ? 4 : 12);
  r.top = Vec3(0.0, 0.0, 0.072);
  r.seconds = quick ? 1.0 : 3.0;
  return r;
}

struct Measured {
  long long surface_nodes = 0, tets = 0;
  int contacts_max = 0;
  double contacts_mean = 0.0;
  std::uint64_t steps = 0;
  double step_ms_mean = 0.0, build_s = 0.0;
  double publish_ms_mean = 0.0;  // the World's publish_haptics stage: the contacts' condensed stiffness
  scene::HapticStats stats;
};

Measured run_one(const RunSpec& spec) {
  constexpr double kRadius = 0.03, kPress = 0.005, kSlide = 0.01, kSimHz = 60.0;
  // The probe's tip 1 mm above touching (its radius plus the two margins), shaft up (+z).
  const Vec3 start = spec.top + Vec3(0.0, 0.0, kRadius + 0.001 + 0.001);
  const double press_s = spec.seconds / 3.0, slide_s = spec.seconds / 3.0;
  const std::string json =
      fmt::format(R"({{"pliant": 1, "name": "{0}", "time_step": {1},
    "bodies": [{2}],
    "instruments": [{{"name": "probe", "type": "probe", "radius": {3}, "length": 0.1, "device": true,
                      "rotation": {{"axis": [1, 0, 0], "degrees": 90}}, "friction": 0.5,
                      "position": [{4}, {5}, {6}]}}]}})",
                  spec.name, 1.0 / kSimHz, spec.body_json, kRadius, start.x(), start.y(), start.z());
  Measured m;
  Stopwatch build;
  Result<scene::Scene> loaded = scene::parse_scene(json, spec.name + ".json");
  if (!loaded.ok()) throw std::runtime_error(loaded.message());
  scene::Scene sc = std::move(loaded).value();
  m.build_s = build.seconds();
  scene::World& world = *sc.world;
  m.surface_nodes = static_cast<long long>(world.body(0).surface_positions().size());
  if (const auto* t = scene::capability<scene::SimulationTets>(world.body(0)))
    m.tets = static_cast<long long>(t->simulation_tets().size());

  // The hand: down kPress over the first third, held, then along x by kSlide over the second third.
  const scene::DeviceTrajectory hand = [=](double t) {
    const double press = std::clamp(t / press_s, 0.0, 1.0);
    const double along = std::clamp((t - press_s) / slide_s, 0.0, 1.0);
    return Vec3(start + Vec3(kSlide * along, 0.0, -(kPress + 0.002) * press));
  };
  scene::ScriptedDevice device(hand);
  scene::HapticRenderSettings settings;
  settings.rate_hz = 1000.0;
  settings.coupling = scene::coupling_gains({}, settings.limits, settings.rate_hz).value();
  world.bind_haptic_instrument(0, 0, start);
  scene::HapticLoop loop(world.haptics(), device, settings);
  using Clock = std::chrono::steady_clock;
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / kSimHz));
  if (!loop.start()) throw std::runtime_error(scene::check_render_settings(settings));
  const auto t0 = Clock::now();
  auto next = t0;
  double step_ms = 0.0;
  long long in_contact = 0, contact_sum = 0;
  while (Clock::now() - t0 < std::chrono::duration<double>(spec.seconds)) {
    if (loop.answered() > 0) world.move_haptic_grab(0, loop.grab_target());
    Stopwatch w;
    world.step();
    step_ms += w.ms();
    ++m.steps;
    for (const auto& st : world.profile().stages)
      if (st.name == "publish_haptics") m.publish_ms_mean += st.ms;
    const int held = world.instrument_contacts(0);
    m.contacts_max = std::max(m.contacts_max, held);
    if (held > 0) ++in_contact, contact_sum += held;
    next += period;
    std::this_thread::sleep_until(next);
  }
  m.stats = loop.stop();
  m.step_ms_mean = m.steps ? step_ms / static_cast<double>(m.steps) : 0.0;
  m.publish_ms_mean = m.steps ? m.publish_ms_mean / static_cast<double>(m.steps) : 0.0;
  m.contacts_mean = in_contact ? static_cast<double>(contact_sum) / static_cast<double>(in_contact) : 0.0;
  return m;
}

nlohmann::json run(const Context& context) {
  nlohmann::json runs = nlohmann::json::array();
  fmt::print("{:<12} {:>6} {:>8} {:>6} {:>8} {:>10} {:>9} {:>8} {:>10} {:>8} {:>7} {:>8}\n", "run", "family",
             "surface", "tets", "contacts", "update us", "rate Hz", "p99 ms", "jump/peak", "passive", "steps",
             "step ms");
  for (const RunSpec& spec : {green_organ(context.quick), fem_organ(context.quick)}) {
    const Measured m = run_one(spec);
    const scene::HapticStats& s = m.stats;
    const double ratio = s.max_force > 0.0 ? s.max_force_jump / s.max_force : 0.0;
    fmt::print("{:<12} {:>6} {:>8} {:>6} {:>8} {:>10.3f} {:>9.1f} {:>8.3f} {:>10.4f} {:>8} {:>7} {:>8.2f}\n",
               spec.name, spec.family, m.surface_nodes, m.tets, m.contacts_max, s.render_us_mean,
               s.achieved_hz, s.period_p99_ms, ratio, s.forces.passive ? "yes" : "NO", m.steps,
               m.step_ms_mean);
    runs.push_back({{"name", spec.name},
                    {"family", spec.family},
                    {"contacts", m.contacts_max},
                    {"contacts_mean", m.contacts_mean},
                    {"contact_update_us", s.render_us_mean},
                    {"rate_hz", s.achieved_hz},
                    {"p99_ms", s.period_p99_ms},
                    {"max_force_jump_ratio", ratio},
                    {"passive", s.forces.passive},
                    {"max_force_n", s.max_force},
                    {"max_force_jump_n", s.max_force_jump},
                    {"period_p50_ms", s.period_p50_ms},
                    {"period_max_ms", s.period_max_ms},
                    {"samples", s.samples},
                    {"surface_nodes", m.surface_nodes},
                    {"tets", m.tets},
                    {"seconds", spec.seconds},
                    {"world_steps", m.steps},
                    {"step_ms_mean", m.step_ms_mean},
                    {"publish_ms_mean", m.publish_ms_mean},
                    {"build_s", m.build_s}});
  }
  nlohmann::json out;
  out["runs"] = runs;
  return out;
}

}  // namespace

PLIANT_REGISTER_BENCH("haptics",
                      "Haptics: a probe driven by a simulated device through the virtual coupling at 1 kHz, "
                      "pressing and sliding on a Green organ and a dynamic FEM organ",
                      run);

}  // namespace pliant::bench
