#include "pliant/scene/haptics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

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

// Every snapshot the simulation publishes below describes one linear force field
// F(x) = F* + K (x − x*), each linearised about a different point, as the snapshots of a linear Green
// body with one grab do. So whichever snapshot a sample reads, the loop must render F at the device
// position; a torn snapshot or a dropped stiffness term renders something else. The trajectory
// records every sample (time and position), and the loop's statistics are checked against that
// record. Nothing here depends on how fast the machine is: the only bound on time is one a busy
// machine cannot break (a sample never comes before its deadline).
TEST(Haptics, LoopRendersTheSnapshotFieldAtEverySample) {
  const Vec3 x_star(0.01, -0.02, 0.0);  // m
  const Vec3 f_star(-0.5, 0.2, 0.1);    // N
  Mat3 k;                               // N/m, symmetric negative definite
  k << -100.0, 10.0, 0.0, 10.0, -50.0, 5.0, 0.0, 5.0, -20.0;
  auto field = [&](const Vec3& x) -> Vec3 { return f_star + k * (x - x_star); };
  auto snapshot = [&](std::uint64_t step) {
    HapticSnapshot s;
    s.step = step;
    s.time = 1e-3 * static_cast<double>(step);
    s.contacts[0].position = x_star + 1e-4 * static_cast<double>(step) * Vec3(1.0, -1.0, 0.5);
    s.contacts[0].force = field(s.contacts[0].position);
    s.contacts[0].stiffness = k;
    return s;
  };

  struct Sample {
    double t;  // s since the loop started
    Vec3 x;    // m
  };
  std::vector<Sample> samples;  // written by the loop thread only; read after stop() has joined it
  samples.reserve(1 << 16);
  std::atomic<std::size_t> recorded{0};
  SnapshotBuffer buffer;
  buffer.publish(snapshot(0));
  constexpr double kRate = 1000.0;  // Hz
  HapticLoop loop(
      buffer,
      [&](double t) {
        const Vec3 x = x_star + Vec3(0.05 * t, -0.03 * t, 0.02 * std::sin(20.0 * t));
        samples.push_back({t, x});
        recorded.store(samples.size(), std::memory_order_release);
        return x;
      },
      kRate);
  loop.start();
  // The simulation side publishes new snapshots while the loop samples, until it has 200 samples
  // (the wall-clock limit only turns a loop that never samples into a failure instead of a hang).
  constexpr std::size_t kWanted = 200;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::uint64_t published = 0;
  while (recorded.load(std::memory_order_acquire) < kWanted && std::chrono::steady_clock::now() < give_up) {
    buffer.publish(snapshot(++published));
    std::this_thread::sleep_for(std::chrono::microseconds(300));
  }
  const HapticStats stats = loop.stop();
  ASSERT_GE(samples.size(), kWanted);
  EXPECT_GT(published, 0u);

  // One sample per trajectory call, none lost or invented; monotone timestamps, each no earlier than
  // its deadline ((k+1) periods after the start; a late sample only makes this truer).
  EXPECT_EQ(stats.samples, samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (i > 0) {
      ASSERT_GE(samples[i].t, samples[i - 1].t) << "sample " << i;
    }
    ASSERT_GE(samples[i].t, static_cast<double>(i + 1) / kRate * (1.0 - 1e-12)) << "sample " << i;
  }
  EXPECT_EQ(stats.seconds, samples.back().t);
  EXPECT_DOUBLE_EQ(stats.achieved_hz, static_cast<double>(samples.size() - 1) / stats.seconds);
  EXPECT_EQ(loop.device_position(), samples.back().x);

  // The period statistics are those of the recorded timestamps (unit: ms).
  std::vector<double> periods;
  for (std::size_t i = 1; i < samples.size(); ++i) periods.push_back(1e3 * (samples[i].t - samples[i - 1].t));
  std::sort(periods.begin(), periods.end());
  const std::size_t n = periods.size();
  constexpr double kMs = 1e-6;  // rounding of two differently computed differences (unit: ms)
  EXPECT_NEAR(stats.period_max_ms, periods.back(), kMs);
  // Percentiles come from a log-spaced histogram whose bins are 0.7 % wide (PeriodHistogram).
  const auto bin = [&](double v) { return 0.0075 * v + kMs; };
  const double p50 = periods[(n - 1) / 2],
               p99 = periods[static_cast<std::size_t>(0.99 * static_cast<double>(n - 1))];
  EXPECT_GE(stats.period_p50_ms, p50 - bin(p50));
  EXPECT_LE(stats.period_p50_ms, periods[n / 2] + bin(periods[n / 2]));
  EXPECT_GE(stats.period_p99_ms, p99 - bin(p99));
  EXPECT_LE(stats.period_p99_ms, periods.back() + kMs);

  // The rendered forces are the field at the sampled positions, whichever snapshot each sample read.
  double max_force = 0.0, max_jump = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    max_force = std::max(max_force, field(samples[i].x).norm());
    if (i > 0) max_jump = std::max(max_jump, (field(samples[i].x) - field(samples[i - 1].x)).norm());
  }
  EXPECT_NEAR(stats.max_force, max_force, 1e-12);
  EXPECT_NEAR(stats.max_force_jump, max_jump, 1e-12);
  EXPECT_GT(max_jump, 0.0);
}

}  // namespace
}  // namespace pliant::scene

namespace pliant::scene {
namespace {

// The loop's period statistics keep no samples: quantiles from the fixed log-spaced histogram agree
// with the exact order statistics of the same samples to the bins' 0.7 % width.
TEST(PeriodHistogram, QuantilesMatchSortedSamples) {
  PeriodHistogram h;
  std::vector<double> samples;
  std::uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
    const double ms = 0.5 + 1.5 * u * u;  // periods between 0.5 and 2 ms, skewed low
    samples.push_back(ms);
    h.add(ms);
  }
  std::sort(samples.begin(), samples.end());
  EXPECT_EQ(h.count(), samples.size());
  EXPECT_EQ(h.max(), samples.back());
  for (double q : {0.0, 0.1, 0.5, 0.9, 0.99, 1.0}) {
    const double exact = samples[static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1))];
    EXPECT_NEAR(h.quantile(q), exact, 0.0075 * exact) << "q = " << q;
  }
  EXPECT_EQ(PeriodHistogram{}.quantile(0.5), 0.0);
}

}  // namespace
}  // namespace pliant::scene

namespace pliant::scene {
namespace {

// The device position and the target rendered from it are published as one sample: without a
// coupling the target is the position itself, so any read that mixes two samples shows them apart.
// Reading the six numbers one by one (the loop before its seqlock) mixed samples at this rate.
TEST(Haptics, HandSampleIsNeverAMixOfTwoSamples) {
  SnapshotBuffer buffer;
  buffer.publish(HapticSnapshot{});
  HapticLoop loop(
      buffer, [](double t) { return Vec3(t, 2.0 * t, 3.0 * t); }, 20000.0);
  ASSERT_TRUE(loop.start());
  while (loop.answered() == 0) std::this_thread::yield();
  std::uint64_t reads = 0, mixed = 0, changes = 0;
  Vec3 last = Vec3::Zero();
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  while (std::chrono::steady_clock::now() < end) {
    const HapticLoop::HandSample h = loop.hand();
    ++reads;
    if (h.position != h.target) ++mixed;
    if (h.position != last) ++changes;
    last = h.position;
  }
  loop.stop();
  EXPECT_EQ(mixed, 0u) << "of " << reads << " reads";
  EXPECT_GT(changes, 100u);  // the samples did change under the reader
}

}  // namespace
}  // namespace pliant::scene
