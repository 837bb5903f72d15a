// Devices without hardware: the scripted hand path `pliant haptics` uses in place of a device, and
// a loopback device for tests that replays positions and records every force it is sent.
#pragma once

#include "pliant/scene/haptic_device.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace pliant::scene {

/// Where the device is at a time: a scripted stand-in for a real haptic device (unit: m).
using DeviceTrajectory = std::function<Vec3(double seconds)>;

/// A device whose handle follows a scripted trajectory; forces sent to it are dropped.
class ScriptedDevice final : public HapticDevice {
 public:
  explicit ScriptedDevice(DeviceTrajectory trajectory, DeviceLimits limits = {})
      : trajectory_(std::move(trajectory)), limits_(limits) {}
  DeviceLimits limits() const override { return limits_; }
  DeviceStatus read(double seconds, DeviceReading& out) override {
    out.position = trajectory_(seconds);
    return DeviceStatus::ok;
  }
  DeviceStatus send_force(const Vec3&) override { return DeviceStatus::ok; }

 private:
  DeviceTrajectory trajectory_;
  DeviceLimits limits_;
};

/// A device for tests: read k returns positions[k] (the last one after the end), every force sent is
/// recorded, and from read number `timeout_from` on (0-based) it stops answering.
class LoopbackDevice final : public HapticDevice {
 public:
  explicit LoopbackDevice(std::vector<Vec3> positions, DeviceLimits limits = {},
                          std::size_t timeout_from = static_cast<std::size_t>(-1))
      : positions_(std::move(positions)), limits_(limits), timeout_from_(timeout_from) {
    forces_.reserve(positions_.size() + 1024);
  }
  DeviceLimits limits() const override { return limits_; }
  DeviceStatus read(double, DeviceReading& out) override {
    const std::size_t k = reads_++;
    if (k >= timeout_from_) return DeviceStatus::timeout;
    if (!positions_.empty()) out.position = positions_[std::min(k, positions_.size() - 1)];
    return DeviceStatus::ok;
  }
  DeviceStatus send_force(const Vec3& force) override {
    forces_.push_back(force);
    return DeviceStatus::ok;
  }
  /// Every force sent, in order (unit: N). Read it after the loop has stopped.
  const std::vector<Vec3>& forces() const { return forces_; }
  std::size_t reads() const { return reads_; }

 private:
  std::vector<Vec3> positions_;
  DeviceLimits limits_;
  std::size_t timeout_from_;
  std::size_t reads_ = 0;
  std::vector<Vec3> forces_;
};

}  // namespace pliant::scene
