#include "pliant/scene/haptics.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace pliant::scene {
namespace {

HapticSnapshot make_snapshot(std::uint64_t k) {
  HapticSnapshot s;
  s.step = k;
  s.time = static_cast<double>(k);
  s.contacts[0].position = Vec3::Constant(static_cast<double>(k));
  s.contacts[0].force = Vec3::Constant(-static_cast<double>(k));
  s.contacts[0].stiffness = Mat3::Identity() * static_cast<double>(k);
  return s;
}

// A reader racing a writer only ever sees complete snapshots, and never goes back in time.
TEST(SnapshotBuffer, ReaderSeesOnlyCompleteMonotonicSnapshots) {
  SnapshotBuffer buffer;
  buffer.publish(make_snapshot(0));
  constexpr std::uint64_t kLast = 200000;
  std::thread writer([&] {
    for (std::uint64_t k = 1; k <= kLast; ++k) buffer.publish(make_snapshot(k));
  });
  std::uint64_t previous = 0;
  std::uint64_t reads = 0;
  while (previous < kLast) {
    const HapticSnapshot& s = buffer.read();
    const double k = static_cast<double>(s.step);
    ASSERT_EQ(s.time, k);
    ASSERT_EQ(s.contacts[0].position, Vec3::Constant(k));
    ASSERT_EQ(s.contacts[0].force, Vec3::Constant(-k));
    ASSERT_EQ(s.contacts[0].stiffness, Mat3::Identity() * k);
    ASSERT_GE(s.step, previous);
    previous = s.step;
    ++reads;
  }
  writer.join();
  EXPECT_EQ(buffer.read().step, kLast);
  EXPECT_GT(reads, 0u);
}

TEST(Haptics, ForceIsLinearAboutTheStepState) {
  HapticContact c;
  c.position = {0.1, 0.0, 0.0};
  c.force = {-2.0, 0.0, 0.0};
  c.stiffness = -Mat3::Identity() * 100.0;  // N/m: pulling further pulls back harder
  EXPECT_TRUE(haptic_force(c, c.position).isApprox(c.force));
  EXPECT_TRUE(haptic_force(c, {0.11, 0.0, 0.0}).isApprox(Vec3(-3.0, 0.0, 0.0)));
}

// The loop runs, samples the trajectory and renders the snapshot's force field. Its rate and jitter
// are reported by `pliant haptics`, not asserted here (shared CI machines are noisy).
TEST(Haptics, LoopSamplesTrajectoryAndStopsCleanly) {
  SnapshotBuffer buffer;
  HapticSnapshot s;
  s.contacts[0].stiffness = -Mat3::Identity() * 50.0;
  buffer.publish(s);
  HapticLoop loop(
      buffer, [](double t) { return Vec3(0.01 * t, 0.0, 0.0); }, 1000.0);
  loop.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const HapticStats stats = loop.stop();
  EXPECT_GT(stats.samples, 10u);
  EXPECT_GT(stats.achieved_hz, 0.0);
  EXPECT_LE(stats.period_p50_ms, stats.period_p99_ms);
  EXPECT_LE(stats.period_p99_ms, stats.period_max_ms);
  // |F| = 50 N/m · 0.01 m/s · t: bounded by the run length.
  EXPECT_LE(stats.max_force, 50.0 * 0.01 * (stats.seconds + 0.1) + 1e-12);
  EXPECT_GE(loop.device_position().x(), 0.0);
}

}  // namespace
}  // namespace pliant::scene
