// One haptic sample at a time, without threads: the force sent to the device for a handle position
// and the world's latest snapshot. The haptic loop (scene/haptics.hpp) calls it from its thread; tests
// call it directly. Per sample it
//   1. renders the contact: through the virtual coupling (scene/virtual_coupling.hpp), or the body's
//      linearised reaction at the handle when the coupling is off;
//   2. clamps the force to the device's max_force (the direction kept) and its change to
//      max_force_rate / rate (a slew limit), so no spike reaches the device;
//   3. keeps the energy balance: with the force F_k held until the next sample, the hand puts
//      −(F_k − F_0)·(x_{k+1} − x_k) into the world during sample k. F_0 is the first rendered force (a
//      static hold, such as a body's weight on the grab: a constant force is conservative, so its
//      work cancels over any closed path and it is left out). The rendering is passive when the
//      running sum never drops below zero: the world never returns more than it received.
// A sample the device does not answer (timeout, fault, a non-finite position) or whose rendered force
// is not finite holds the last force sent for hold_s, then ramps it linearly to zero over ramp_s.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/scene/haptic_device.hpp"
#include "pliant/scene/haptic_snapshot.hpp"
#include "pliant/scene/virtual_coupling.hpp"

#include <cstdint>
#include <string>

namespace pliant::scene {

struct HapticRenderSettings {
  double rate_hz = 1000.0;  ///< samples per second (unit: Hz)
  DeviceLimits limits;      ///< what the device may be sent
  CouplingGains coupling;   ///< coupling_gains(); disabled: the body's reaction at the handle
  double hold_s = 0.01;     ///< a lost device keeps the last force this long (unit: s)
  double ramp_s = 0.1;      ///< then the force ramps to zero over this (unit: s)
};

/// Empty when `s` is renderable and passive by the rule of scene/virtual_coupling.hpp; else one
/// line naming what is wrong.
std::string check_render_settings(const HapticRenderSettings& s);

/// What a run rendered and sent.
struct HapticForceStats {
  double max_force = 0.0;            ///< largest |F| rendered before the device's limits (unit: N)
  double max_force_jump = 0.0;       ///< largest change of the rendered force between samples (unit: N)
  double max_force_sent = 0.0;       ///< largest |F| sent to the device (unit: N)
  double max_force_jump_sent = 0.0;  ///< largest change of the force sent between samples (unit: N)
  std::uint64_t force_clamped = 0;   ///< samples whose force was cut to max_force
  std::uint64_t rate_clamped = 0;    ///< samples whose change was cut to max_force_rate / rate
  double energy_received = 0.0;      ///< work the hand did on the world (unit: J)
  double energy_returned = 0.0;      ///< work the world did on the hand (unit: J)
  double min_energy_balance = 0.0;   ///< lowest running received − returned (unit: J)
  bool passive = true;               ///< min_energy_balance ≥ −1 µJ: never returned more than received
  std::uint64_t lost_samples = 0;    ///< samples without a usable reading or force
  std::uint64_t outages = 0;         ///< runs of consecutive lost samples
  std::uint64_t longest_outage = 0;  ///< longest such run (samples)
  std::uint64_t faults = 0;          ///< samples the device reported a fault
  std::uint64_t bad_readings = 0;    ///< samples with a non-finite position
  std::uint64_t bad_forces = 0;      ///< samples whose rendered force was not finite
};

class HapticRenderer {
 public:
  explicit HapticRenderer(const HapticRenderSettings& settings);
  /// A sample the device answered with handle position x (unit: m): the force to send (unit: N).
  /// A non-finite x is a lost sample.
  Vec3 render(const HapticContact& c, const Vec3& x);
  /// A sample the device did not answer (`status` timeout or fault): the force to send (unit: N).
  Vec3 lost(DeviceStatus status);
  /// Where the grab should be: the coupling's proxy, or the handle without a coupling (unit: m).
  const Vec3& target() const { return proxy_; }
  const HapticForceStats& stats() const { return stats_; }

 private:
  Vec3 send(const Vec3& desired);
  Vec3 hold();

  HapticRenderSettings s_;
  double max_step_;  // largest change of the force sent per sample (unit: N)
  HapticForceStats stats_;
  Vec3 proxy_ = Vec3::Zero();
  Vec3 last_stretch_ = Vec3::Zero();  // handle − proxy at the last answered sample (unit: m)
  Vec3 last_desired_ = Vec3::Zero();
  Vec3 last_sent_ = Vec3::Zero();
  Vec3 last_x_ = Vec3::Zero();
  Vec3 bias_ = Vec3::Zero();  // F_0 (unit: N)
  Vec3 held_ = Vec3::Zero();  // force when the outage began (unit: N)
  double balance_ = 0.0;      // running received − returned (unit: J)
  std::uint64_t outage_ = 0;  // consecutive lost samples so far
  bool have_x_ = false;       // last_x_ holds the previous sample's answered position
  bool have_desired_ = false;
  bool have_bias_ = false;
};

}  // namespace pliant::scene
