// Virtual coupling (Colgate, Stanley & Brown 1995): a spring-damper between the device handle and a
// proxy, the point the simulation's grab follows. The device never feels the body's own stiffness,
// which for a stiff organ is far above what it renders stably, but at most the coupling's, in series
// with the body's: K_felt = (k⁻¹ + K_body⁻¹)⁻¹ ≤ k. Between two simulation steps the proxy sits where
// the coupling spring balances the body's reaction linearised about the last step,
//   k (x − p) + F_step + K (p − x_step) = 0   ⇒   (k I − K) p = k x + F_step − K x_step,
// K = ∂F/∂x ≤ 0 from the step's snapshot (symmetric), so k I − K is positive definite.
//
// Gains. A sampled spring k held for one period T (zero-order hold) generates energy k Δx²/2 per
// sample; a damper b on the coupling's stretch rate dissipates b Δx²/T. The coupling is passive when
// b ≥ k T / 2 (Colgate & Schenkel's bound with the damping the loop adds). Pliant's rule, from the
// device limits and the loop rate f = 1/T:
//   k = max_stiffness · min(1, f / 1000 Hz)   (vendors give the stable stiffness at a 1 kHz servo
//                                              rate; a slower loop tolerates proportionally less)
//   b = k T                                    (twice Colgate's bound: a margin for the hand's speed
//                                              changing within a sample)
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/haptic_device.hpp"
#include "pliant/scene/haptic_snapshot.hpp"

#include <optional>

namespace pliant::scene {

/// What a caller asks of the coupling; unset gains come from the rule above.
struct CouplingSettings {
  bool enabled = true;              ///< false: render the body's linearised reaction at the handle directly
  std::optional<double> stiffness;  ///< coupling spring (unit: N/m)
  std::optional<double> damping;    ///< coupling damper (unit: N·s/m)
};

/// The coupling the loop renders.
struct CouplingGains {
  bool enabled = false;
  double stiffness = 0.0;  ///< (unit: N/m)
  double damping = 0.0;    ///< (unit: N·s/m)
};

/// The gains for `settings` on a device with `limits` sampled at `rate_hz` (unit: Hz). Fails with one
/// line for a stiffness above the device's max_stiffness or not > 0, damping below Colgate's bound
/// k T / 2 (the coupling would be active), a non-finite gain, or a bad limit or rate.
Result<CouplingGains> coupling_gains(const CouplingSettings& settings, const DeviceLimits& limits,
                                     double rate_hz);

/// The proxy position for handle position `device` (unit: m): where a coupling spring of stiffness
/// `k` (unit: N/m) balances the reaction of contact `c`. For an inactive contact, the handle itself.
Vec3 coupling_proxy(const HapticContact& c, const Vec3& device, double k);

}  // namespace pliant::scene
