// `pliant haptics SCENE.json [--rate HZ] [--seconds S] [--json]`: the haptic loop.
//
// The scene's first scripted grab becomes a simulated haptic device: a thread samples its trajectory
// at --rate and renders the force from the snapshot the simulation publishes after each step (the
// contact's position, reaction force and stiffness; see scene/haptics.hpp). The simulation steps at
// 60 Hz on the main thread, taking the device position as the grab target. Reports the achieved
// rate, period jitter (p50, p99, max) and the largest force jump between samples.
#include "cli.hpp"
#include "option_checks.hpp"

#if PLIANT_HAS_SCENE
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/scene_file.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <thread>

namespace pliant::cli {
namespace {

struct HapticArgs {
  std::string scene;
  double rate = 1000.0;
  double seconds = 3.0;
  double sim_hz = 60.0;
  bool json = false;
};

void run(const HapticArgs& args) {
  scene::Scene sc = unwrap(scene::load_scene(args.scene));
  for (const scene::PlausibilityWarning& w : sc.warnings)
    fmt::print(stderr, "pliant: warning: {}\n", w.message);
  scene::World& world = *sc.world;
  if (world.scripted_grabs().empty()) {
    fail(
        fmt::format("{}: the haptic device follows the scene's first scripted grab, and there is none "
                    "(add one under /interactions)",
                    args.scene));
  }
  scene::ScriptedGrab device = world.take_scripted_grab(0);
  scene::Body& body = world.body(device.body);
  const Vec3 anchor = scene::point_on(body.surface_positions(), body.surface_triangles(), device.point);
  const scene::GrabId grab = body.grab_patch(device.point, device.radius);
  if (!grab.valid())
    fail(fmt::format("{}: the device's grab point cannot be held (a fixed node?)", args.scene));

  // The World publishes the contact (target, reaction, stiffness) after every step; the device
  // thread only reads its snapshots.
  world.bind_haptic_grab(0, device.body, grab, anchor);

  const auto track = device.track;
  scene::HapticLoop loop(
      world.haptics(), [anchor, track](double t) -> Vec3 { return anchor + scene::offset_at(track, t); },
      args.rate);
  using Clock = std::chrono::steady_clock;
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / args.sim_hz));
  loop.start();
  const auto start = Clock::now();
  auto next = start;
  std::uint64_t steps = 0;
  double step_ms_max = 0.0, step_ms_total = 0.0;
  while (Clock::now() - start < std::chrono::duration<double>(args.seconds)) {
    const Vec3 target = loop.device_position();
    Stopwatch w;
    world.move_haptic_grab(0, target);
    world.step();
    ++steps;
    const double ms = w.ms();
    step_ms_total += ms;
    step_ms_max = std::max(step_ms_max, ms);
    next += period;
    std::this_thread::sleep_until(next);
  }
  const scene::HapticStats st = loop.stop();

  // A loop that falls behind renders stale forces: say so, with the numbers (never silently).
  std::vector<std::string> warnings;
  const double expected_steps = args.seconds * args.sim_hz;
  if (static_cast<double>(steps) < 0.9 * expected_steps)
    warnings.push_back(fmt::format(
        "the simulation fell behind: {} of {:.0f} steps in {} s (step mean {:.3g} ms against the {:.3g} ms a "
        "{:.0f} Hz step allows); the device felt forces up to {:.3g} ms old: lower --sim-rate or coarsen the "
        "body",
        steps, expected_steps, args.seconds, steps ? step_ms_total / static_cast<double>(steps) : 0.0,
        1e3 / args.sim_hz, args.sim_hz, step_ms_max));
  if (st.achieved_hz < 0.9 * args.rate)
    warnings.push_back(
        fmt::format("the haptic loop ran at {:.1f} Hz of the {:.0f} Hz requested (p99 period "
                    "{:.3f} ms): the machine is loaded, or lower --rate",
                    st.achieved_hz, args.rate, st.period_p99_ms));
  for (const std::string& w : warnings) fmt::print(stderr, "pliant: warning: {}\n", w);

  const nlohmann::json out = {{"scene", sc.name},
                              {"requested_hz", args.rate},
                              {"achieved_hz", st.achieved_hz},
                              {"samples", st.samples},
                              {"period_p50_ms", st.period_p50_ms},
                              {"period_p99_ms", st.period_p99_ms},
                              {"period_max_ms", st.period_max_ms},
                              {"max_force_jump_n", st.max_force_jump},
                              {"max_force_n", st.max_force},
                              {"realtime_priority", st.realtime},
                              {"simulation_steps", steps},
                              {"simulation_hz", args.sim_hz},
                              {"step_ms_mean", steps ? step_ms_total / static_cast<double>(steps) : 0.0},
                              {"step_ms_max", step_ms_max},
                              {"warnings", warnings}};
  if (args.json) {
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("haptic loop on {} ({} s): {:.1f} Hz achieved of {:.0f} Hz requested, {} samples{}\n", sc.name,
             args.seconds, st.achieved_hz, args.rate, st.samples,
             st.realtime ? " (real-time priority)" : " (normal priority)");
  fmt::print("  period p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms\n", st.period_p50_ms, st.period_p99_ms,
             st.period_max_ms);
  fmt::print("  force: max {:.4g} N, largest jump between samples {:.4g} N\n", st.max_force,
             st.max_force_jump);
  fmt::print("  simulation: {} steps at {:.0f} Hz, step mean {:.3f} ms, max {:.3f} ms\n", steps, args.sim_hz,
             steps ? step_ms_total / static_cast<double>(steps) : 0.0, step_ms_max);
}

void setup_haptics(CLI::App& app) {
  auto args = std::make_shared<HapticArgs>();
  auto* cmd = app.add_subcommand("haptics",
                                 "Run the haptic loop on a scene's first scripted grab; report its timing.");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  add_number(*cmd, "--rate", args->rate, "Haptic rate (Hz)", between(1.0, 100000.0))->capture_default_str();
  add_number(*cmd, "--seconds", args->seconds, "Run time (s)", between(0.01, 3600.0))->capture_default_str();
  add_number(*cmd, "--sim-rate", args->sim_hz, "Simulation step rate (Hz)", between(1.0, 10000.0))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print the report as JSON (default: text)");
  cmd->callback([args] { run(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(500, setup_haptics);
}  // namespace pliant::cli
#endif
