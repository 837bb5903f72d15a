#include "pliant/scene/haptic_renderer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pliant::scene {

namespace {
// The balance may dip by rounding; anything below this is the world giving energy back (unit: J).
constexpr double kPassivityTolerance = 1e-6;
}  // namespace

std::string check_render_settings(const HapticRenderSettings& s) {
  if (!(s.rate_hz > 0.0) || !std::isfinite(s.rate_hz))
    return fmt::format("haptic rate {} Hz: it must be finite and > 0", s.rate_hz);
  if (std::string problem = check_device_limits(s.limits); !problem.empty()) return problem;
  if (!(s.hold_s >= 0.0) || !std::isfinite(s.hold_s) || !(s.ramp_s >= 0.0) || !std::isfinite(s.ramp_s))
    return fmt::format("lost-device hold {} s and ramp {} s: each must be finite and >= 0", s.hold_s,
                       s.ramp_s);
  if (!s.coupling.enabled) return {};
  const double k = s.coupling.stiffness, b = s.coupling.damping;
  if (!(k > 0.0) || !std::isfinite(k))
    return fmt::format("coupling stiffness {} N/m: it must be finite and > 0", k);
  if (k > s.limits.max_stiffness)
    return fmt::format(
        "coupling stiffness {} N/m is above the device's max stiffness {} N/m: it would render "
        "unstably (lower the coupling stiffness, or raise the device limit if the device allows it)",
        k, s.limits.max_stiffness);
  const double bound = 0.5 * k / s.rate_hz;  // Colgate's k T / 2
  if (!std::isfinite(b) || b < bound)
    return fmt::format(
        "coupling damping {} N·s/m is below k·T/2 = {:.4g} N·s/m for {} N/m at {} Hz: the coupling "
        "would put energy into the hand (Colgate et al. 1995); raise the damping or lower the stiffness",
        b, bound, k, s.rate_hz);
  return {};
}

HapticRenderer::HapticRenderer(const HapticRenderSettings& settings)
    : s_(settings), max_step_(settings.limits.max_force_rate / settings.rate_hz) {}

Vec3 HapticRenderer::render(const HapticContact& c, const Vec3& x) {
  if (!x.allFinite()) {
    ++stats_.bad_readings;
    return hold();
  }
  Vec3 desired, proxy;
  if (s_.coupling.enabled) {
    proxy = coupling_proxy(c, x, s_.coupling.stiffness);
    const Vec3 stretch = x - proxy;
    // The damper acts on the coupling's stretch rate; after an outage there is no previous stretch.
    const Vec3 stretch_rate = have_x_ ? Vec3((stretch - last_stretch_) * s_.rate_hz) : Vec3::Zero();
    desired = -s_.coupling.stiffness * stretch - s_.coupling.damping * stretch_rate;
  } else {
    proxy = x;
    desired = haptic_force(c, x);
  }
  if (!desired.allFinite() || !proxy.allFinite()) {
    ++stats_.bad_forces;
    return hold();
  }
  outage_ = 0;
  if (!have_bias_) {
    bias_ = desired;
    have_bias_ = true;
  }
  stats_.max_force = std::max(stats_.max_force, desired.norm());
  if (have_desired_)
    stats_.max_force_jump = std::max(stats_.max_force_jump, (desired - last_desired_).norm());
  last_desired_ = desired;
  have_desired_ = true;

  // The force sent at the last sample was held while the hand moved from last_x_ to x.
  if (have_x_) {
    const double work = -(last_sent_ - bias_).dot(x - last_x_);  // J, into the world
    (work > 0.0 ? stats_.energy_received : stats_.energy_returned) += std::abs(work);
    balance_ += work;
    stats_.min_energy_balance = std::min(stats_.min_energy_balance, balance_);
    stats_.passive = stats_.min_energy_balance >= -kPassivityTolerance;
  }
  proxy_ = proxy;
  last_stretch_ = x - proxy;
  last_x_ = x;
  have_x_ = true;
  return send(desired);
}

Vec3 HapticRenderer::lost(DeviceStatus status) {
  if (status == DeviceStatus::fault) ++stats_.faults;
  return hold();
}

Vec3 HapticRenderer::send(const Vec3& desired) {
  Vec3 f = desired;
  const double n = f.norm();
  if (n > s_.limits.max_force) {
    f *= s_.limits.max_force / n;  // keep the direction, cut the magnitude
    ++stats_.force_clamped;
  }
  // Both f and the last force sent lie within max_force, so any point between them does too.
  const Vec3 d = f - last_sent_;
  const double dn = d.norm();
  if (dn > max_step_) {
    f = last_sent_ + d * (max_step_ / dn);
    ++stats_.rate_clamped;
  }
  stats_.max_force_sent = std::max(stats_.max_force_sent, f.norm());
  stats_.max_force_jump_sent = std::max(stats_.max_force_jump_sent, (f - last_sent_).norm());
  last_sent_ = f;
  return f;
}

Vec3 HapticRenderer::hold() {
  if (outage_ == 0) {
    ++stats_.outages;
    held_ = last_sent_;  // already within the device's limits
  }
  ++outage_;
  ++stats_.lost_samples;
  stats_.longest_outage = std::max(stats_.longest_outage, outage_);
  // The hand's motion during the outage is unknown: the energy balance resumes with the next answer.
  have_x_ = false;
  const double hold_samples = s_.hold_s * s_.rate_hz, ramp_samples = s_.ramp_s * s_.rate_hz;
  const double into_ramp = static_cast<double>(outage_) - hold_samples;
  const double scale = into_ramp <= 0.0      ? 1.0
                       : ramp_samples <= 0.0 ? 0.0
                                             : std::max(0.0, 1.0 - into_ramp / ramp_samples);
  const Vec3 f = held_ * scale;
  stats_.max_force_jump_sent = std::max(stats_.max_force_jump_sent, (f - last_sent_).norm());
  last_sent_ = f;
  return f;
}

}  // namespace pliant::scene
