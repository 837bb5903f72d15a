// The haptic loop: a device thread running at a fixed rate (default 1000 Hz) that never reads the
// world during a step. After each step the simulation publishes a HapticSnapshot into a
// double buffer; the device thread reads the latest complete snapshot without locks and renders
//   F(x) = F_step + K_contact · (x − x_step)
// where K_contact is the contact stiffness (the inverse of the body's local compliance at the grab,
// unit N/m). For a linear Green body with one grab this is exact between steps: the reaction of a
// precomputed Green's function body is linear in the grab displacement (Nikitina et al. 2003; Frank, Twombly
// & Smith 2001 used the same idea for haptics on condensed FEM).
#pragma once

#include "pliant/core/types.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace pliant::scene {

/// What the device thread needs of the last completed step, for one contact.
struct HapticContact {
  bool active = false;            ///< a grab is bound to this contact
  Vec3 position = Vec3::Zero();   ///< grab target used by the last step (unit: m)
  Vec3 force = Vec3::Zero();      ///< force on the device at that position (unit: N)
  Mat3 stiffness = Mat3::Zero();  ///< ∂force/∂position at the contact (unit: N/m), symmetric ≤ 0
};

/// Most grabs a World publishes to haptic devices at once.
inline constexpr int kMaxHapticContacts = 4;

struct HapticSnapshot {
  std::uint64_t step = 0;  ///< simulation step that produced it
  double time = 0.0;       ///< simulation time (unit: s)
  /// Contact c is World::bind_haptic_grab(c, ...)'s grab; HapticLoop renders contact 0.
  HapticContact contacts[kMaxHapticContacts];
};

/// Single-writer, single-reader snapshot exchange: the simulation publishes, the device thread reads
/// the latest complete snapshot. A triple buffer (writer slot, reader slot, and a middle slot swapped
/// atomically): neither side ever blocks or sees a half-written snapshot, and there is no data race.
class SnapshotBuffer {
 public:
  /// Writer side (the simulation thread).
  void publish(const HapticSnapshot& snapshot);
  /// Reader side (the device thread): the latest published snapshot.
  const HapticSnapshot& read();

 private:
  static constexpr unsigned kFresh = 4;  // set in middle_ when it holds a snapshot not yet read
  HapticSnapshot slots_[3];
  std::atomic<unsigned> middle_{1};
  unsigned write_ = 0;  // owned by the writer
  unsigned read_ = 2;   // owned by the reader
};

/// Where the device is at a time: a scripted stand-in for a real haptic device (unit: m).
using DeviceTrajectory = std::function<Vec3(double seconds)>;

/// Statistics of a haptic run.
struct HapticStats {
  std::uint64_t samples = 0;
  double seconds = 0.0;        ///< wall time of the run (unit: s)
  double achieved_hz = 0.0;    ///< samples / seconds (unit: Hz)
  double period_p50_ms = 0.0;  ///< median period between samples (unit: ms)
  double period_p99_ms = 0.0;
  double period_max_ms = 0.0;
  double max_force_jump = 0.0;  ///< largest |F_k − F_(k−1)| between consecutive samples (unit: N)
  double max_force = 0.0;       ///< largest |F| rendered (unit: N)
  bool realtime = false;        ///< the loop thread got SCHED_FIFO priority (needs CAP_SYS_NICE)
};

/// Sample periods of a haptic run, for percentiles without storing samples: log-spaced bins from
/// 1 µs to 1 s (0.7 % wide), so a run of any length allocates nothing.
class PeriodHistogram {
 public:
  void add(double ms);
  std::uint64_t count() const { return count_; }
  double max() const { return max_; }  ///< exact (unit: ms)
  /// The q-quantile (q in [0, 1]) to the bin's resolution (unit: ms); 0 without samples.
  double quantile(double q) const;

 private:
  static constexpr std::size_t kBins = 2048;
  static constexpr double kMinMs = 1e-3, kMaxMs = 1e3;
  std::uint64_t bins_[kBins] = {};
  std::uint64_t count_ = 0;
  double max_ = 0.0;
};

/// Runs the device loop on its own thread at `rate_hz` until stop().
class HapticLoop {
 public:
  HapticLoop(SnapshotBuffer& buffer, DeviceTrajectory trajectory, double rate_hz = 1000.0);
  ~HapticLoop();
  HapticLoop(const HapticLoop&) = delete;
  HapticLoop& operator=(const HapticLoop&) = delete;

  void start();
  /// Stops the thread and returns the statistics of the run.
  HapticStats stop();
  /// The device position last sampled by the loop (the simulation reads it as its grab target).
  Vec3 device_position() const;

 private:
  void run();

  SnapshotBuffer& buffer_;
  DeviceTrajectory trajectory_;
  double rate_hz_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  PeriodHistogram periods_;
  double max_force_jump_ = 0.0;
  double max_force_ = 0.0;
  double seconds_ = 0.0;
  bool realtime_ = false;
  std::atomic<double> device_[3] = {0.0, 0.0, 0.0};
};

/// The force rendered at device position x from a snapshot (unit: N).
inline Vec3 haptic_force(const HapticContact& c, const Vec3& x) {
  return c.force + c.stiffness * (x - c.position);
}

}  // namespace pliant::scene
