#include "pliant/scene/haptics.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <pthread.h>
#include <sched.h>

namespace pliant::scene {

void SnapshotBuffer::publish(const HapticSnapshot& snapshot) {
  slots_[write_] = snapshot;
  write_ = middle_.exchange(write_ | kFresh, std::memory_order_acq_rel) & 3u;
}

const HapticSnapshot& SnapshotBuffer::read() {
  if (middle_.load(std::memory_order_acquire) & kFresh) {
    read_ = middle_.exchange(read_, std::memory_order_acq_rel) & 3u;
  }
  return slots_[read_];
}

HapticLoop::HapticLoop(SnapshotBuffer& buffer, HapticDevice& device, const HapticRenderSettings& settings)
    : buffer_(buffer), device_(device), settings_(settings) {}

namespace {
HapticRenderSettings uncoupled(double rate_hz) {
  HapticRenderSettings s;
  s.rate_hz = rate_hz;
  const double inf = std::numeric_limits<double>::infinity();
  s.limits = {inf, inf, inf};
  s.coupling.enabled = false;
  return s;
}
}  // namespace

HapticLoop::HapticLoop(SnapshotBuffer& buffer, DeviceTrajectory trajectory, double rate_hz)
    : buffer_(buffer),
      owned_device_(std::make_unique<ScriptedDevice>(std::move(trajectory))),
      device_(*owned_device_),
      settings_(uncoupled(rate_hz)) {}

HapticLoop::~HapticLoop() {
  if (running_) stop();
}

bool HapticLoop::start() {
  if (running_ || !check_render_settings(settings_).empty()) return false;
  periods_ = {};
  forces_ = {};
  render_us_ = 0.0;
  rendered_ = 0;
  answered_.store(0, std::memory_order_relaxed);
  running_ = true;
  thread_ = std::thread([this] { run(); });
  // A haptic thread should not wait behind simulation or compiler threads: ask for real-time
  // priority. Without the privilege (CAP_SYS_NICE) this fails and the loop runs at normal priority.
  sched_param param{};
  param.sched_priority = sched_get_priority_min(SCHED_FIFO) + 10;
  realtime_ = pthread_setschedparam(thread_.native_handle(), SCHED_FIFO, &param) == 0;
  return true;
}

void PeriodHistogram::add(double ms) {
  ++count_;
  max_ = std::max(max_, ms);
  const double x = std::log(std::max(ms, kMinMs) / kMinMs) / std::log(kMaxMs / kMinMs);
  const auto bin = static_cast<std::size_t>(std::clamp(x, 0.0, 1.0) * (kBins - 1) + 0.5);
  ++bins_[bin];
}

double PeriodHistogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  const auto rank = static_cast<std::uint64_t>(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_ - 1));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < kBins; ++b) {
    seen += bins_[b];
    if (seen > rank) {
      const double value = kMinMs * std::pow(kMaxMs / kMinMs, static_cast<double>(b) / (kBins - 1));
      return std::min(value, max_);
    }
  }
  return max_;
}

HapticLoop::HandSample HapticLoop::hand() const {
  // Seqlock reader (Boehm 2012, "Can seqlocks get along with programming language memory models?"):
  // an even sequence that is the same before and after the reads saw one writer's complete sample.
  HandSample out;
  for (;;) {
    const std::uint64_t before = hand_sequence_.load(std::memory_order_acquire);
    if (before & 1u) continue;
    for (int k = 0; k < 3; ++k) {
      out.position[k] = position_[k].load(std::memory_order_relaxed);
      out.target[k] = target_[k].load(std::memory_order_relaxed);
    }
    out.buttons = buttons_.load(std::memory_order_relaxed);
    out.has_buttons = has_buttons_.load(std::memory_order_relaxed);
    out.orientation = Eigen::Quaterniond(
        orientation_[0].load(std::memory_order_relaxed), orientation_[1].load(std::memory_order_relaxed),
        orientation_[2].load(std::memory_order_relaxed), orientation_[3].load(std::memory_order_relaxed));
    out.has_orientation = has_orientation_.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (hand_sequence_.load(std::memory_order_relaxed) == before) return out;
  }
}

void HapticLoop::run() {
  using Clock = std::chrono::steady_clock;
  const auto period =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / settings_.rate_hz));
  // Sleep until shortly before the deadline, then spin: the kernel's wake-up latency (50-200 µs)
  // would otherwise be the jitter of every sample.
  const auto spin_margin = std::chrono::microseconds(150);
  HapticRenderer renderer(settings_);
  DeviceReading reading;
  const auto start = Clock::now();
  auto deadline = start;
  auto last = start;
  bool first = true;
  while (running_.load(std::memory_order_relaxed)) {
    deadline += period;
    std::this_thread::sleep_until(deadline - spin_margin);
    while (Clock::now() < deadline) {
    }
    const auto now = Clock::now();
    const double t = std::chrono::duration<double>(now - start).count();
    const DeviceStatus status = device_.read(t, reading);
    const auto update_start = Clock::now();
    const HapticSnapshot& snap = buffer_.read();
    const bool answered = status == DeviceStatus::ok && reading.position.allFinite();
    const Vec3 f = status == DeviceStatus::ok ? renderer.render(snap.contacts[0], reading.position)
                                              : renderer.lost(status);
    if (answered) {
      render_us_ += std::chrono::duration<double, std::micro>(Clock::now() - update_start).count();
      ++rendered_;
    }
    device_.send_force(f);
    if (answered) {
      const Vec3& target = renderer.target();
      // Seqlock writer: odd while the sample is written, so a reader never mixes two samples.
      const std::uint64_t sequence = hand_sequence_.load(std::memory_order_relaxed);
      hand_sequence_.store(sequence + 1, std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_release);
      for (int k = 0; k < 3; ++k) {
        position_[k].store(reading.position[k], std::memory_order_relaxed);
        target_[k].store(target[k], std::memory_order_relaxed);
      }
      buttons_.store(reading.buttons, std::memory_order_relaxed);
      has_buttons_.store(reading.has_buttons, std::memory_order_relaxed);
      // A non-finite or zero orientation is no orientation: the instrument keeps its own.
      const bool oriented = reading.has_orientation && reading.orientation.coeffs().allFinite() &&
                            reading.orientation.norm() > 1e-12;
      const Eigen::Quaterniond q =
          oriented ? reading.orientation.normalized() : Eigen::Quaterniond::Identity();
      orientation_[0].store(q.w(), std::memory_order_relaxed);
      orientation_[1].store(q.x(), std::memory_order_relaxed);
      orientation_[2].store(q.y(), std::memory_order_relaxed);
      orientation_[3].store(q.z(), std::memory_order_relaxed);
      has_orientation_.store(oriented, std::memory_order_relaxed);
      hand_sequence_.store(sequence + 2, std::memory_order_release);
      // Release: a reader that sees the count also sees the positions stored before it.
      answered_.fetch_add(1, std::memory_order_release);
    }
    if (!first) periods_.add(std::chrono::duration<double, std::milli>(now - last).count());
    first = false;
    last = now;
    // A loop that fell far behind (debugger, suspended VM) resynchronises instead of bursting.
    if (now - deadline > 10 * period) deadline = now;
  }
  seconds_ = std::chrono::duration<double>(last - start).count();
  forces_ = renderer.stats();
}

HapticStats HapticLoop::stop() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
  HapticStats s;
  s.samples = periods_.count() + (periods_.count() == 0 ? 0 : 1);
  s.seconds = seconds_;
  s.achieved_hz = s.seconds > 0 ? static_cast<double>(periods_.count()) / s.seconds : 0.0;
  if (periods_.count() > 0) {
    s.period_p50_ms = periods_.quantile(0.5);
    s.period_p99_ms = periods_.quantile(0.99);
    s.period_max_ms = periods_.max();
  }
  s.max_force_jump = forces_.max_force_jump;
  s.max_force = forces_.max_force;
  s.forces = forces_;
  s.render_us_mean = rendered_ > 0 ? render_us_ / static_cast<double>(rendered_) : 0.0;
  s.realtime = realtime_;
  return s;
}

}  // namespace pliant::scene
