// A haptic device as the haptic loop sees it: a handle position (and optionally orientation) read
// once per sample, a force sent once per sample, and the limits the device can render. A device SDK
// (OpenHaptics, Force Dimension, CHAI3D) is wrapped by implementing HapticDevice in C++, or the C ABI
// of scene/haptic_device_c.h in C (wrap_c_device turns that into a HapticDevice). The simulated and
// loopback devices are in scene/simulated_devices.hpp.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/haptic_device_c.h"

#include <memory>
#include <string>

namespace pliant::scene {

/// What a device can render. The defaults are those of a common desktop device, the 3D Systems
/// Touch (formerly Phantom Omni) class: 3.3 N is its largest exertable force (its continuous rating
/// is lower, 0.88 N), 1000 N/m its smallest per-axis stiffness (1.02 N/mm on z). The force-rate limit
/// is Pliant's, not a datasheet figure: 1 N per 1 ms sample, which a coupling of 1000 N/m reaches only
/// at a hand speed of 1 m/s; faster changes are kicks. Every limit must be > 0 (+infinity: no limit).
struct DeviceLimits {
  double max_force = 3.3;          ///< largest force the device is sent (unit: N)
  double max_stiffness = 1000.0;   ///< largest stiffness it renders stably at a 1 kHz servo rate (unit: N/m)
  double max_force_rate = 1000.0;  ///< largest change of the force sent (unit: N/s)
};

/// Empty when every limit is > 0 (infinity allowed); else one line naming the bad limit.
std::string check_device_limits(const DeviceLimits& limits);

enum class DeviceStatus {
  ok,       ///< the device answered
  timeout,  ///< no answer this sample
  fault,    ///< the device reported an error
};

/// One reading of the handle.
struct DeviceReading {
  Vec3 position = Vec3::Zero();                                     ///< handle position (unit: m)
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  ///< handle orientation, if it has one
  bool has_orientation = false;                                     ///< the device reports an orientation
  unsigned buttons = 0;      ///< the buttons held down, bit k for button k (bit 0 closes a grasper's jaws)
  bool has_buttons = false;  ///< the device reports buttons
};

/// A haptic device. The loop calls read() then send_force() once per sample from its own thread,
/// never concurrently; limits() once before it starts.
class HapticDevice {
 public:
  virtual ~HapticDevice() = default;
  virtual DeviceLimits limits() const = 0;
  /// Reads the handle at `seconds` since the loop started (unit: s; a real device may ignore it).
  virtual DeviceStatus read(double seconds, DeviceReading& out) = 0;
  /// Sends the force to render on the hand (unit: N), already clamped to limits().
  virtual DeviceStatus send_force(const Vec3& force) = 0;
};

/// A HapticDevice over the C ABI. Fails with one line when a function pointer is missing; the
/// struct (and its context) must outlive the returned device.
Result<std::unique_ptr<HapticDevice>> wrap_c_device(const pliant_haptic_device& device);

}  // namespace pliant::scene
