#include "pliant/scene/haptic_device.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pliant::scene {

std::string check_device_limits(const DeviceLimits& limits) {
  const struct {
    const char* name;
    double value;
    const char* unit;
  } all[] = {{"max_force", limits.max_force, "N"},
             {"max_stiffness", limits.max_stiffness, "N/m"},
             {"max_force_rate", limits.max_force_rate, "N/s"}};
  for (const auto& l : all) {
    // NaN fails `> 0` as well: every comparison with NaN is false.
    if (!(l.value > 0.0))
      return fmt::format("device limit {} is {} {}; it must be > 0 (infinity for no limit)", l.name, l.value,
                         l.unit);
  }
  return {};
}

namespace {

DeviceStatus status_of(int code) {
  switch (code) {
    case PLIANT_DEVICE_OK:
      return DeviceStatus::ok;
    case PLIANT_DEVICE_TIMEOUT:
      return DeviceStatus::timeout;
    default:
      return DeviceStatus::fault;  // an unknown code from a wrapper is an error, not an answer
  }
}

class CDevice final : public HapticDevice {
 public:
  explicit CDevice(const pliant_haptic_device& d) : d_(d) {}
  DeviceLimits limits() const override {
    pliant_device_limits l{0.0, 0.0, 0.0};
    if (d_.limits(d_.context, &l) != PLIANT_DEVICE_OK)
      return {0.0, 0.0, 0.0};  // check_device_limits refuses it
    return {l.max_force, l.max_stiffness, l.max_force_rate};
  }
  DeviceStatus read(double seconds, DeviceReading& out) override {
    double p[3] = {out.position.x(), out.position.y(), out.position.z()};
    double q[4] = {std::nan(""), 0.0, 0.0, 0.0};  // a NaN w left untouched means "no orientation"
    const DeviceStatus s = status_of(d_.read(d_.context, seconds, p, q));
    if (s != DeviceStatus::ok) return s;
    out.position = {p[0], p[1], p[2]};
    out.has_orientation = std::isfinite(q[0]);
    if (out.has_orientation) out.orientation = Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
    unsigned pressed = 0;
    // A button read that fails keeps the last buttons: a hand does not let go for one missed read.
    if (d_.buttons && status_of(d_.buttons(d_.context, &pressed)) == DeviceStatus::ok) {
      out.buttons = pressed;
      out.has_buttons = true;
    }
    return s;
  }
  DeviceStatus send_force(const Vec3& force) override {
    const double f[3] = {force.x(), force.y(), force.z()};
    return status_of(d_.send_force(d_.context, f));
  }

 private:
  pliant_haptic_device d_;
};

}  // namespace

Result<std::unique_ptr<HapticDevice>> wrap_c_device(const pliant_haptic_device& device) {
  const char* missing = !device.read         ? "read"
                        : !device.send_force ? "send_force"
                        : !device.limits     ? "limits"
                                             : nullptr;
  if (missing) return Error{fmt::format("haptic device (C ABI): function pointer '{}' is null", missing)};
  return std::unique_ptr<HapticDevice>(std::make_unique<CDevice>(device));
}

}  // namespace pliant::scene
