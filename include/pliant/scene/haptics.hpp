// The haptic loop: a device thread running at a fixed rate (default 1000 Hz) that never reads the
// world during a step. After each step the simulation publishes a HapticSnapshot (scene/
// haptic_snapshot.hpp) into a triple buffer; the device thread reads the latest complete snapshot
// without locks, reads the device's handle (scene/haptic_device.hpp), renders the force through a
// HapticRenderer (virtual coupling, device limits, energy balance, lost-device ramp; scene/
// haptic_renderer.hpp) and sends it. The snapshot's linearisation F(x) = F_step + K·(x − x_step),
// K the inverse of the body's local compliance at the grab (unit N/m), is exact between steps for a
// linear Green body with one grab: its reaction is linear in the grab displacement (Nikitina et al.
// 2003; Frank, Twombly & Smith 2001 used the same idea for haptics on condensed FEM).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/scene/haptic_device.hpp"
#include "pliant/scene/haptic_renderer.hpp"
#include "pliant/scene/haptic_snapshot.hpp"
#include "pliant/scene/simulated_devices.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace pliant::scene {

/// Statistics of a haptic run.
struct HapticStats {
  std::uint64_t samples = 0;
  double seconds = 0.0;        ///< wall time of the run (unit: s)
  double achieved_hz = 0.0;    ///< samples / seconds (unit: Hz)
  double period_p50_ms = 0.0;  ///< median period between samples (unit: ms)
  double period_p99_ms = 0.0;
  double period_max_ms = 0.0;
  double max_force_jump = 0.0;  ///< largest |F_k − F_(k−1)| rendered between consecutive samples (unit: N)
  double max_force = 0.0;       ///< largest |F| rendered (unit: N)
  /// Mean time per sample of the contact force update in the haptic thread: the snapshot read, the
  /// coupling's proxy and the force from the contacts' linearisation (unit: µs).
  double render_us_mean = 0.0;
  HapticForceStats forces;  ///< what was rendered and sent: clamps, energy balance, lost samples
  bool realtime = false;    ///< the loop thread got SCHED_FIFO priority (needs CAP_SYS_NICE)
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

/// Runs the device loop on its own thread until stop(): per sample, read the device, render the
/// latest snapshot's contact 0, send the force.
class HapticLoop {
 public:
  /// `device` must outlive the loop; it is only called from the loop's thread while running.
  HapticLoop(SnapshotBuffer& buffer, HapticDevice& device, const HapticRenderSettings& settings);
  /// A scripted device at `rate_hz` without coupling or limits: renders the body's linearised
  /// reaction at the trajectory's positions.
  HapticLoop(SnapshotBuffer& buffer, DeviceTrajectory trajectory, double rate_hz = 1000.0);
  ~HapticLoop();
  HapticLoop(const HapticLoop&) = delete;
  HapticLoop& operator=(const HapticLoop&) = delete;

  /// Starts the thread. Refuses (returns false, starts nothing) when check_render_settings fails.
  bool start();
  /// Stops the thread and returns the statistics of the run.
  HapticStats stop();
  /// The device position last answered (unit: m).
  Vec3 device_position() const { return hand().position; }
  /// Where the simulation should move the grab or instrument (unit: m): the coupling's proxy, or the
  /// device position without a coupling.
  Vec3 grab_target() const { return hand().target; }
  /// Both of one sample: the device position and the target rendered from it (unit: m).
  struct HandSample {
    Vec3 position = Vec3::Zero();
    Vec3 target = Vec3::Zero();
    unsigned buttons = 0;      ///< the device's buttons held down (DeviceReading::buttons)
    bool has_buttons = false;  ///< the device reports buttons
    Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  ///< the handle's, when it has one
    bool has_orientation = false;                                     ///< the device reports an orientation
  };
  /// The last answered sample's position and target together, never a mix of two samples (a
  /// seqlock: the device thread never waits; a reader retries while a sample is being written).
  HandSample hand() const;
  /// Samples the device has answered so far; grab_target() is meaningful once it is > 0.
  std::uint64_t answered() const { return answered_.load(std::memory_order_acquire); }

 private:
  void run();

  SnapshotBuffer& buffer_;
  std::unique_ptr<HapticDevice> owned_device_;  // the scripted device of the trajectory constructor
  HapticDevice& device_;
  HapticRenderSettings settings_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  PeriodHistogram periods_;
  HapticForceStats forces_;
  double seconds_ = 0.0;
  double render_us_ = 0.0;  // summed over the answered samples (unit: µs)
  std::uint64_t rendered_ = 0;
  bool realtime_ = false;
  // The last answered sample, behind a seqlock (odd sequence: being written). The values are atomics
  // too, so a reader racing the writer reads stale numbers and retries, never a data race.
  std::atomic<std::uint64_t> hand_sequence_{0};
  std::atomic<double> position_[3] = {0.0, 0.0, 0.0};
  std::atomic<double> target_[3] = {0.0, 0.0, 0.0};
  std::atomic<unsigned> buttons_{0};
  std::atomic<bool> has_buttons_{false};
  std::atomic<double> orientation_[4] = {1.0, 0.0, 0.0, 0.0};  // w, x, y, z
  std::atomic<bool> has_orientation_{false};
  std::atomic<std::uint64_t> answered_{0};
};

}  // namespace pliant::scene
