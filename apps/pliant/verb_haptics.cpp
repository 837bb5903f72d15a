// `pliant haptics SCENE.json [--rate HZ] [--seconds S] [--json] [device and coupling options]`: the
// haptic loop.
//
// The scene's instrument with "device": true (a probe, instrument.hpp), else its first scripted grab,
// becomes what a simulated haptic device drives: a thread samples the instrument's track or the grab's
// trajectory at --rate and renders the force from the snapshot the simulation publishes after each step (the
// contact's position, reaction force and stiffness; see scene/haptics.hpp) through a virtual coupling
// whose gains come from the device limits (scene/virtual_coupling.hpp), clamped to those limits. The
// simulation steps at 60 Hz on the main thread, taking the coupling's proxy as the grab target or the
// instrument's tip (the probe stops at the tissue surface as far as the contact lets it).
// Reports the achieved rate, period jitter (p50, p99, max), the largest force jump between samples,
// the energy balance, and warns when a device limit was hit or the device stopped answering.
#include "cli.hpp"
#include "option_checks.hpp"

#if PLIANT_HAS_SCENE
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/virtual_coupling.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <thread>

namespace pliant::cli {
namespace {

struct HapticArgs {
  std::string scene;
  double rate = 1000.0;
  double seconds = 3.0;
  double sim_hz = 60.0;
  bool json = false;
  scene::DeviceLimits limits;  // --max-force, --max-stiffness, --max-force-rate
  // NaN: not given (the options' rules reject a NaN the user types).
  double coupling_k = std::numeric_limits<double>::quiet_NaN();  // --coupling-stiffness (N/m)
  double coupling_b = std::numeric_limits<double>::quiet_NaN();  // --coupling-damping (N·s/m)
  bool no_coupling = false;                                      // --no-coupling
  double drop_at = std::numeric_limits<double>::infinity();      // --drop-device-at (s)
};

// The scripted hand path, which stops answering from `drop_at` seconds on (--drop-device-at): what a
// device that was unplugged or whose driver hung looks like to the loop. Driving an instrument, the hand
// turns as its track does (a 6-DoF handle's orientation); driving a grasper, its first button follows
// the jaws' track (held while they are to be closed), as a hand on a real device would.
class ScriptedHand final : public scene::HapticDevice {
 public:
  ScriptedHand(scene::DeviceTrajectory path, scene::DeviceLimits limits, double drop_at,
               std::optional<scene::Instrument> instrument)
      : path_(std::move(path)), limits_(limits), drop_at_(drop_at), instrument_(std::move(instrument)) {}
  scene::DeviceLimits limits() const override { return limits_; }
  scene::DeviceStatus read(double seconds, scene::DeviceReading& out) override {
    if (seconds >= drop_at_) return scene::DeviceStatus::timeout;
    out.position = path_(seconds);
    if (!instrument_) return scene::DeviceStatus::ok;
    out.has_orientation = true;
    out.orientation = instrument_->pose_at(seconds).rotation;
    if (instrument_->type == scene::InstrumentType::grasper) {
      out.has_buttons = true;
      out.buttons = instrument_->jaws.closed_at(seconds) ? 1u : 0u;
    }
    return scene::DeviceStatus::ok;
  }
  scene::DeviceStatus send_force(const Vec3&) override { return scene::DeviceStatus::ok; }

 private:
  scene::DeviceTrajectory path_;
  scene::DeviceLimits limits_;
  double drop_at_;
  std::optional<scene::Instrument> instrument_;
};

void run(const HapticArgs& args) {
  scene::Scene sc = unwrap(scene::load_scene(args.scene));
  for (const scene::PlausibilityWarning& w : sc.warnings)
    fmt::print(stderr, "pliant: warning: {}\n", w.message);
  scene::World& world = *sc.world;
  // The device drives the scene's instrument marked "device": true, else its first scripted grab.
  Index instrument = -1;
  for (std::size_t i = 0; i < world.instruments().size(); ++i)
    if (world.instruments()[i].device) instrument = static_cast<Index>(i);
  if (instrument < 0 && world.scripted_grabs().empty()) {
    fail(fmt::format(
        "{}: the haptic device drives the scene's instrument with \"device\": true, else its first "
        "scripted grab, and there is neither (add one under /instruments or /interactions)",
        args.scene));
  }
  Vec3 anchor = Vec3::Zero();
  scene::DeviceTrajectory path;
  std::optional<scene::Instrument> driven;  // the instrument the device drives
  if (instrument >= 0) {
    // The simulated hand follows the instrument's track (its tip's path).
    const scene::Instrument in = world.instruments()[static_cast<std::size_t>(instrument)];
    anchor = in.pose_at(0.0).position;
    path = [in](double t) -> Vec3 { return in.pose_at(t).position; };
    driven = in;
    world.bind_haptic_instrument(0, instrument, anchor);
  } else {
    scene::ScriptedGrab device = world.take_scripted_grab(0);
    scene::Body& body = world.body(device.body);
    anchor = scene::point_on(body.surface_positions(), body.surface_triangles(), device.point);
    const scene::GrabId grab = body.grab_patch(device.point, device.radius);
    if (!grab.valid())
      fail(fmt::format("{}: the device's grab point cannot be held (a fixed node?)", args.scene));
    // The World publishes the contact (target, reaction, stiffness) after every step; the device
    // thread only reads its snapshots.
    world.bind_haptic_grab(0, device.body, grab, anchor);
    const auto track = device.track;
    const Vec3 start = anchor;
    path = [start, track](double t) -> Vec3 { return start + scene::offset_at(track, t); };
  }

  scene::HapticRenderSettings settings;
  settings.rate_hz = args.rate;
  settings.limits = args.limits;
  scene::CouplingSettings coupling;
  coupling.enabled = !args.no_coupling;
  if (!std::isnan(args.coupling_k)) coupling.stiffness = args.coupling_k;
  if (!std::isnan(args.coupling_b)) coupling.damping = args.coupling_b;
  if (args.no_coupling && (coupling.stiffness || coupling.damping))
    fail("--no-coupling and --coupling-stiffness/--coupling-damping contradict each other: give one");
  settings.coupling = unwrap(scene::coupling_gains(coupling, args.limits, args.rate));

  // A grasper's jaws follow the device's first button.
  const bool jaws = driven && driven->type == scene::InstrumentType::grasper;
  ScriptedHand hand(std::move(path), args.limits, args.drop_at, driven);
  scene::HapticLoop loop(world.haptics(), hand, settings);
  using Clock = std::chrono::steady_clock;
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / args.sim_hz));
  if (!loop.start()) fail(scene::check_render_settings(settings));
  const auto start = Clock::now();
  auto next = start;
  std::uint64_t steps = 0;
  double step_ms_max = 0.0, step_ms_total = 0.0;
  while (Clock::now() - start < std::chrono::duration<double>(args.seconds)) {
    // Until the device has answered once, the grab stays where the scene put it.
    const scene::HapticLoop::HandSample sample = loop.hand();
    const Vec3 target = loop.answered() > 0 ? sample.target : anchor;
    Stopwatch w;
    world.move_haptic_grab(0, target);
    // A handle with an orientation turns the instrument (3-DoF force out, 6-DoF pose in: no torque is
    // rendered).
    if (driven && loop.answered() > 0 && sample.has_orientation)
      world.move_instrument(instrument, Pose{target, sample.orientation});
    // A device with buttons closes a grasper's jaws while its first button is held.
    if (jaws && loop.answered() > 0 && sample.has_buttons)
      world.close_jaws(instrument, (sample.buttons & 1u) != 0);
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
  const scene::HapticForceStats& fs = st.forces;
  if (fs.force_clamped > 0)
    warnings.push_back(fmt::format(
        "the rendered force reached {:.4g} N, above --max-force {:.4g} N on {} samples: the device was sent "
        "at "
        "most {:.4g} N (lower --coupling-stiffness, or raise --max-force if the device allows it)",
        fs.max_force, args.limits.max_force, fs.force_clamped, fs.max_force_sent));
  if (fs.rate_clamped > 0)
    warnings.push_back(fmt::format(
        "the rendered force jumped by up to {:.4g} N between samples, above --max-force-rate {:.4g} N/s "
        "({:.4g} N per sample) on {} samples: the change sent was limited to that",
        fs.max_force_jump, args.limits.max_force_rate, args.limits.max_force_rate / args.rate,
        fs.rate_clamped));
  if (!fs.passive)
    warnings.push_back(fmt::format(
        "the rendering was not passive: at its lowest the world had returned {:.4g} J more than it received "
        "(received {:.4g} J, returned {:.4g} J): raise --coupling-damping or lower --coupling-stiffness (a "
        "body "
        "still settling under gravity when the loop starts gives energy back as well)",
        -fs.min_energy_balance, fs.energy_received, fs.energy_returned));
  if (fs.lost_samples > 0)
    warnings.push_back(fmt::format(
        "the device did not answer on {} samples ({} outage{}, longest {:.4g} ms{}): the loop held the last "
        "force for {:.4g} ms, then ramped it to zero over {:.4g} ms",
        fs.lost_samples, fs.outages, fs.outages == 1 ? "" : "s",
        1e3 * static_cast<double>(fs.longest_outage) / args.rate,
        fs.bad_readings ? fmt::format(", {} with a non-finite position", fs.bad_readings) : std::string(),
        1e3 * settings.hold_s, 1e3 * settings.ramp_s));
  if (fs.bad_forces > 0)
    warnings.push_back(fmt::format(
        "the world's reaction was not finite on {} samples: the loop held the last force sent instead",
        fs.bad_forces));
  for (const std::string& w : warnings) fmt::print(stderr, "pliant: warning: {}\n", w);

  nlohmann::json out = {
      {"scene", sc.name},
      {"drives", instrument >= 0
                     ? "instrument:" + world.instruments()[static_cast<std::size_t>(instrument)].name
                     : std::string("grab:0")},
      {"requested_hz", args.rate},
      {"achieved_hz", st.achieved_hz},
      {"samples", st.samples},
      {"period_p50_ms", st.period_p50_ms},
      {"period_p99_ms", st.period_p99_ms},
      {"period_max_ms", st.period_max_ms},
      {"max_force_jump_n", st.max_force_jump},
      {"max_force_n", st.max_force},
      {"max_force_sent_n", fs.max_force_sent},
      {"max_force_jump_sent_n", fs.max_force_jump_sent},
      {"force_clamped_samples", fs.force_clamped},
      {"rate_clamped_samples", fs.rate_clamped},
      {"energy_received_j", fs.energy_received},
      {"energy_returned_j", fs.energy_returned},
      {"min_energy_balance_j", fs.min_energy_balance},
      {"passive", fs.passive},
      {"lost_samples", fs.lost_samples},
      {"device_outages", fs.outages},
      {"device",
       {{"max_force_n", args.limits.max_force},
        {"max_stiffness_n_per_m", args.limits.max_stiffness},
        {"max_force_rate_n_per_s", args.limits.max_force_rate}}},
      {"coupling",
       {{"enabled", settings.coupling.enabled},
        {"stiffness_n_per_m", settings.coupling.stiffness},
        {"damping_ns_per_m", settings.coupling.damping}}},
      {"realtime_priority", st.realtime},
      {"simulation_steps", steps},
      {"simulation_hz", args.sim_hz},
      {"step_ms_mean", steps ? step_ms_total / static_cast<double>(steps) : 0.0},
      {"step_ms_max", step_ms_max},
      {"warnings", warnings}};
  const scene::GrasperState g = world.grasper_state(instrument);
  if (jaws)
    out["jaws"] = {{"closed", g.closed}, {"gap_m", g.gap}, {"grip_n", g.grip}, {"contacts", g.contacts}};
  if (args.json) {
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("haptic loop on {} ({} s): {:.1f} Hz achieved of {:.0f} Hz requested, {} samples{}\n", sc.name,
             args.seconds, st.achieved_hz, args.rate, st.samples,
             st.realtime ? " (real-time priority)" : " (normal priority)");
  fmt::print("  period p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms\n", st.period_p50_ms, st.period_p99_ms,
             st.period_max_ms);
  if (settings.coupling.enabled)
    fmt::print("  coupling: {:.4g} N/m, {:.4g} N·s/m (Colgate et al. 1995)\n", settings.coupling.stiffness,
               settings.coupling.damping);
  else
    fmt::print("  coupling: off (the body's reaction at the handle)\n");
  if (jaws)
    fmt::print(
        "  jaws at the end: {}, gap {:.4g} mm, grip {:.4g} N on {} contacts (the device's first button "
        "closes them)\n",
        g.closed ? "closed" : "open", 1e3 * g.gap, g.grip, g.contacts);
  fmt::print("  force rendered: max {:.4g} N, largest jump between samples {:.4g} N\n", st.max_force,
             st.max_force_jump);
  fmt::print("  force sent: max {:.4g} N (limit {:.4g} N), largest jump {:.4g} N (limit {:.4g} N)",
             fs.max_force_sent, args.limits.max_force, fs.max_force_jump_sent,
             args.limits.max_force_rate / args.rate);
  if (fs.force_clamped + fs.rate_clamped > 0)
    fmt::print("; cut to the force limit on {} samples, to the rate limit on {}", fs.force_clamped,
               fs.rate_clamped);
  fmt::print("\n");
  fmt::print("  energy: received {:.4g} J, returned {:.4g} J, lowest balance {:.4g} J: {}\n",
             fs.energy_received, fs.energy_returned, fs.min_energy_balance,
             fs.passive ? "passive" : "NOT passive");
  if (fs.lost_samples > 0)
    fmt::print("  device: no answer on {} samples ({} outages); force held, then ramped to zero\n",
               fs.lost_samples, fs.outages);
  if (!warnings.empty()) fmt::print("  {} warning(s), see above\n", warnings.size());
  fmt::print("  simulation: {} steps at {:.0f} Hz, step mean {:.3f} ms, max {:.3f} ms\n", steps, args.sim_hz,
             steps ? step_ms_total / static_cast<double>(steps) : 0.0, step_ms_max);
}

void setup_haptics(CLI::App& app) {
  auto args = std::make_shared<HapticArgs>();
  auto* cmd = app.add_subcommand(
      "haptics",
      "Run the haptic loop on a scene's device instrument or first scripted grab; report its timing.");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  add_number(*cmd, "--rate", args->rate, "Haptic rate (Hz)", between(1.0, 100000.0))->capture_default_str();
  add_number(*cmd, "--seconds", args->seconds, "Run time (s)", between(0.01, 3600.0))->capture_default_str();
  add_number(*cmd, "--sim-rate", args->sim_hz, "Simulation step rate (Hz)", between(1.0, 10000.0))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print the report as JSON (default: text)");
  // Defaults: a 3D Systems Touch (Phantom Omni class) desktop device; see scene/haptic_device.hpp.
  add_number(*cmd, "--max-force", args->limits.max_force, "Largest force sent to the device (N)", positive())
      ->capture_default_str();
  add_number(*cmd, "--max-stiffness", args->limits.max_stiffness,
             "Largest stiffness the device renders stably at 1 kHz (N/m)", positive())
      ->capture_default_str();
  add_number(*cmd, "--max-force-rate", args->limits.max_force_rate, "Largest change of the force sent (N/s)",
             positive())
      ->capture_default_str();
  add_number(*cmd, "--coupling-stiffness", args->coupling_k,
             "Virtual coupling spring (N/m; default: --max-stiffness, scaled down below 1 kHz)", positive());
  add_number(*cmd, "--coupling-damping", args->coupling_b,
             "Virtual coupling damper (N·s/m; default: stiffness / rate, twice the passivity bound)",
             finite_number());
  cmd->add_flag(
      "--no-coupling", args->no_coupling,
      "Render the body's reaction at the handle directly, without a virtual coupling (default: coupled)");
  add_number(*cmd, "--drop-device-at", args->drop_at,
             "Simulate a device that stops answering at this time (s): the loop holds, then ramps the force "
             "down (default: never)",
             non_negative());
  cmd->callback([args] { run(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(500, setup_haptics);
}  // namespace pliant::cli
#endif
