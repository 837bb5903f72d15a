// A haptic device written in C (examples/c/spring_device.c, Pliant's device ABI) driving a scene's
// grab through the haptic loop and its virtual coupling, while the world steps at 60 Hz: what a
// program wiring a real device SDK does, with a simulated hand and handle in place of the hardware.
//
// usage: example_haptic_device [SCENE.json] [SECONDS]
#include "spring_device.h"

#include "pliant/scene/haptic_device.hpp"
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/virtual_coupling.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

int main(int argc, char** argv) {
  using namespace pliant;
  const std::string file = argc > 1 ? argv[1] : "tests/data/scenes/haptic_beam.json";
  const double seconds = argc > 2 ? std::stod(argv[2]) : 1.0;
  auto loaded = scene::load_scene(file);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.error().message.c_str());
    return 2;
  }
  scene::World& world = *loaded.value().world;
  if (world.scripted_grabs().empty()) {
    std::fprintf(stderr, "%s: no grab for the device to hold\n", file.c_str());
    return 2;
  }
  // The device holds the point the scene's first grab holds.
  const scene::ScriptedGrab held = world.take_scripted_grab(0);
  scene::Body& body = world.body(held.body);
  const Vec3 anchor = scene::point_on(body.surface_positions(), body.surface_triangles(), held.point);
  const scene::GrabId grab = body.grab_patch(held.point, held.radius);
  if (!world.bind_haptic_grab(0, held.body, grab, anchor)) {
    std::fprintf(stderr, "%s: the grab point cannot be held\n", file.c_str());
    return 2;
  }

  // The C device: the hand presses along the scene's track and circles back.
  Vec3 axis = scene::offset_at(held.track, 1e9);
  axis = axis.norm() > 0 ? Vec3(axis.normalized()) : Vec3::UnitZ();
  const Vec3 side = axis.unitOrthogonal();
  spring_device hand;
  spring_device_init(&hand, anchor.data(), axis.data(), side.data());
  hand.period = seconds;
  const pliant_haptic_device abi = spring_device_abi(&hand);
  auto device = scene::wrap_c_device(abi);
  if (!device.ok()) {
    std::fprintf(stderr, "%s\n", device.error().message.c_str());
    return 2;
  }

  // Coupling gains from the device's own limits (Colgate et al. 1995; scene/virtual_coupling.hpp).
  scene::HapticRenderSettings settings;
  settings.limits = device.value()->limits();
  auto gains = scene::coupling_gains({}, settings.limits, settings.rate_hz);
  if (!gains.ok()) {
    std::fprintf(stderr, "%s\n", gains.error().message.c_str());
    return 2;
  }
  settings.coupling = gains.value();

  scene::HapticLoop loop(world.haptics(), *device.value(), settings);
  if (!loop.start()) return 2;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto next = start;
  while (Clock::now() - start < std::chrono::duration<double>(seconds)) {
    if (loop.answered() > 0) world.move_haptic_grab(0, loop.grab_target());
    world.step();
    next += std::chrono::microseconds(16667);
    std::this_thread::sleep_until(next);
  }
  const scene::HapticStats st = loop.stop();
  const scene::HapticForceStats& f = st.forces;
  std::printf("coupling %.4g N/m, %.4g N*s/m; %llu samples at %.0f Hz\n", settings.coupling.stiffness,
              settings.coupling.damping, static_cast<unsigned long long>(st.samples), st.achieved_hz);
  std::printf("force sent: max %.4g N, largest jump %.4g N; handle peak speed %.3g m/s\n", f.max_force_sent,
              f.max_force_jump_sent, hand.peak_speed);
  std::printf("energy: received %.4g J, returned %.4g J: %s\n", f.energy_received, f.energy_returned,
              f.passive ? "passive" : "NOT passive");
  return f.passive ? 0 : 1;
}
