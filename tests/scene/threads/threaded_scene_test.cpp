// Threads around the World, as users run them:
//  - the haptic loop samples its device on its own thread and reads only the snapshots the World
//    publishes between steps, while the simulation thread steps the World and moves the grab to the
//    device's position (what `pliant haptics` does);
//  - Python releases the GIL in pliant.World.step/run, pliant.load_scene and Body building, so two
//    Python threads can build and step two Worlds at once. Each World must then evolve exactly as it
//    does alone: any shared mutable state (a cache, a registry, a thread-count setting, a static
//    scratch buffer) either races (ThreadSanitizer reports it in ./dev test's TSan stage) or changes a
//    state hash here.
// Under ThreadSanitizer OpenMP runs through LLVM's libomp with its Archer tool, which tells TSan about
// OpenMP's barriers and tasks (docs/threads.md), so the two-solver-thread cases below are checked too.
#include "pliant/core/threads.hpp"
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/interactions.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"
#include "scoped_threads.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace pliant::scene {
namespace {

using testing::ScopedThreads;

// The haptic device thread renders forces from the World's snapshots while the World steps with the
// grab following the device. Checked: every step published a snapshot the loop could read (the last
// snapshot is the last step's), the loop sampled, and the forces it rendered are finite and non-zero
// (the device pulls on an elastic beam).
TEST(HapticThread, LoopBesideASteppingWorldReadsOnlyPublishedSnapshots) {
  Result<Scene> sc = load_scene(PLIANT_TEST_DATA_DIR "/scenes/haptic_beam.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& world = *sc->world;
  ASSERT_FALSE(world.scripted_grabs().empty());
  ScriptedGrab device = world.take_scripted_grab(0);
  Body& body = world.body(device.body);
  const Vec3 anchor = point_on(body.surface_positions(), body.surface_triangles(), device.point);
  const GrabId grab = body.grab_patch(device.point, device.radius);
  ASSERT_TRUE(grab.valid());
  ASSERT_TRUE(world.bind_haptic_grab(0, device.body, grab, anchor));

  const auto track = device.track;
  // The device moves 30 times faster than the scene's track so that the short run sweeps all of it.
  HapticLoop loop(
      world.haptics(), [anchor, track](double t) -> Vec3 { return anchor + offset_at(track, 30.0 * t); },
      1000.0);
  loop.start();
  constexpr int kSteps = 40;
  for (int s = 0; s < kSteps; ++s) {
    world.move_haptic_grab(0, loop.device_position());
    world.step();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let the device sample between steps
  }
  const HapticStats stats = loop.stop();
  EXPECT_GT(stats.samples, 0u);
  EXPECT_TRUE(std::isfinite(stats.max_force));
  EXPECT_GT(stats.max_force, 0.0);
  EXPECT_TRUE(std::isfinite(stats.max_force_jump));
  // After stop() has joined the thread, this thread may read: the newest snapshot is the last step's.
  const HapticSnapshot& last = world.haptics().read();
  EXPECT_EQ(last.step, world.step_count());
  EXPECT_TRUE(last.contacts[0].active);
  EXPECT_TRUE(last.contacts[0].force.allFinite());
  EXPECT_GT(last.contacts[0].force.norm(), 0.0);
}

// One example scene per family, small enough to step under ThreadSanitizer.
const char* const kScenes[] = {"beam_probe.json", "fem_swinging_beam.json", "membrane_tear.json",
                               "meshless_ball_grab.json", "repeated_impacts.json"};
constexpr int kSteps = 6;

// State hashes of `file` after build and after each of kSteps steps.
std::vector<std::uint64_t> run_alone(const std::string& file) {
  std::vector<std::uint64_t> hashes;
  Result<Scene> sc = load_scene(file);
  EXPECT_TRUE(sc.ok()) << sc.message();
  if (!sc.ok()) return hashes;
  hashes.push_back(sc->world->state_hash());
  for (int s = 0; s < kSteps; ++s) {
    sc->world->step();
    hashes.push_back(sc->world->state_hash());
  }
  return hashes;
}

// Every scene built and stepped on two threads at once (the GIL-release path of the Python module)
// gives, in each thread, the state hashes of the same scene run alone.
void expect_concurrent_runs_match_serial(int solver_threads) {
  const ScopedThreads scoped(solver_threads);
  for (const char* name : kScenes) {
    const std::string file = std::string(PLIANT_EXAMPLES_DIR "/") + name;
    const std::vector<std::uint64_t> alone = run_alone(file);
    ASSERT_EQ(alone.size(), static_cast<std::size_t>(kSteps + 1)) << name;
    std::vector<std::uint64_t> a, b;
    std::atomic<int> ready{0};
    auto worker = [&](std::vector<std::uint64_t>& out) {
      ready.fetch_add(1);
      while (ready.load() < 2) std::this_thread::yield();  // start together, so the builds overlap
      out = run_alone(file);
    };
    std::thread ta(worker, std::ref(a)), tb(worker, std::ref(b));
    ta.join();
    tb.join();
    EXPECT_EQ(a, alone) << name << " on thread A, " << solver_threads << " solver thread(s)";
    EXPECT_EQ(b, alone) << name << " on thread B, " << solver_threads << " solver thread(s)";
    EXPECT_NE(alone.front(), alone.back()) << name << ": the scene must move";
  }
}

TEST(ConcurrentWorlds, TwoThreadsEachStepTheirOwnWorldAsIfAlone) { expect_concurrent_runs_match_serial(1); }

// The same with two solver threads: each World's OpenMP regions nest inside its caller's thread.
TEST(ConcurrentWorlds, TwoThreadsWithTwoSolverThreadsEach) { expect_concurrent_runs_match_serial(2); }

}  // namespace
}  // namespace pliant::scene
