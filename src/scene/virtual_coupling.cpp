// Virtual coupling after Colgate, Stanley & Brown (1995); the gain rule and the passivity bound are
// explained in scene/virtual_coupling.hpp.
#include "pliant/scene/virtual_coupling.hpp"

#include "pliant/scene/haptic_renderer.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace pliant::scene {

namespace {
constexpr double kServoHz = 1000.0;  // the rate vendors state their stable stiffness at (unit: Hz)
}  // namespace

Result<CouplingGains> coupling_gains(const CouplingSettings& settings, const DeviceLimits& limits,
                                     double rate_hz) {
  CouplingGains g;
  g.enabled = settings.enabled;
  if (g.enabled) {
    if (!settings.stiffness && !std::isfinite(limits.max_stiffness))
      return Error{"the device has no stiffness limit: give the coupling stiffness (N/m)"};
    g.stiffness =
        settings.stiffness ? *settings.stiffness : limits.max_stiffness * std::min(1.0, rate_hz / kServoHz);
    g.damping = settings.damping ? *settings.damping : g.stiffness / rate_hz;
  }
  HapticRenderSettings s;
  s.rate_hz = rate_hz;
  s.limits = limits;
  s.coupling = g;
  if (std::string problem = check_render_settings(s); !problem.empty()) return Error{std::move(problem)};
  return g;
}

Vec3 coupling_proxy(const HapticContact& c, const Vec3& device, double k) {
  if (!c.active) return device;
  // K is symmetric negative semidefinite, so k I − K is symmetric positive definite for k > 0.
  const Mat3 a = k * Mat3::Identity() - c.stiffness;
  const Vec3 rhs = k * device + c.force - c.stiffness * c.position;
  return a.ldlt().solve(rhs);
}

}  // namespace pliant::scene
