// The device interface, the virtual coupling (Colgate et al. 1995) and what the haptic loop sends to a
// device: passivity over a scripted hand path for every family the haptic verb drives, clamping to
// the device's limits, and a device that stops answering.
#include "pliant/scene/haptic_device.hpp"
#include "pliant/scene/haptic_renderer.hpp"
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/simulated_devices.hpp"
#include "pliant/scene/virtual_coupling.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

namespace pliant::scene {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(VirtualCoupling, GainsFollowTheDeviceLimitsAndTheRate) {
  const DeviceLimits touch;  // 3.3 N, 1000 N/m, 1000 N/s
  const CouplingGains at1k = coupling_gains({}, touch, 1000.0).value();
  EXPECT_TRUE(at1k.enabled);
  EXPECT_DOUBLE_EQ(at1k.stiffness, 1000.0);
  EXPECT_DOUBLE_EQ(at1k.damping, 1.0);  // k T
  // A 500 Hz loop gets half the stiffness; the damping k T stays twice Colgate's bound k T / 2.
  const CouplingGains at500 = coupling_gains({}, touch, 500.0).value();
  EXPECT_DOUBLE_EQ(at500.stiffness, 500.0);
  EXPECT_DOUBLE_EQ(at500.damping, 1.0);
  // A faster loop does not raise the stiffness above the device's.
  EXPECT_DOUBLE_EQ(coupling_gains({}, touch, 4000.0).value().stiffness, 1000.0);
}

TEST(VirtualCoupling, BadGainsAndLimitsAreOneClearLine) {
  const DeviceLimits touch;
  auto message = [](const Result<CouplingGains>& r) { return r.ok() ? std::string() : r.error().message; };
  const std::string stiff = message(coupling_gains({true, 5000.0, {}}, touch, 1000.0));
  EXPECT_NE(stiff.find("above the device's max stiffness 1000 N/m"), std::string::npos) << stiff;
  const std::string active = message(coupling_gains({true, 1000.0, -1.0}, touch, 1000.0));
  EXPECT_NE(active.find("below k·T/2"), std::string::npos) << active;
  EXPECT_NE(message(coupling_gains({true, 1000.0, 0.4}, touch, 1000.0)).find("below k·T/2"),
            std::string::npos);
  EXPECT_TRUE(coupling_gains({true, 1000.0, 0.5}, touch, 1000.0).ok());  // exactly on the bound
  EXPECT_FALSE(coupling_gains({true, std::nan(""), {}}, touch, 1000.0).ok());
  EXPECT_FALSE(coupling_gains({true, 0.0, {}}, touch, 1000.0).ok());
  for (DeviceLimits bad : {DeviceLimits{0.0, 1000.0, 1000.0}, DeviceLimits{3.3, -1.0, 1000.0},
                           DeviceLimits{3.3, 1000.0, std::nan("")}}) {
    const std::string m = message(coupling_gains({}, bad, 1000.0));
    EXPECT_NE(m.find("must be > 0"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
  EXPECT_FALSE(coupling_gains({}, touch, 0.0).ok());
  EXPECT_FALSE(coupling_gains({}, DeviceLimits{3.3, kInf, 1000.0}, 1000.0).ok());  // no rule without a limit
  EXPECT_TRUE(coupling_gains({false, {}, {}}, touch, 1000.0).ok());
}

// The proxy balances the coupling spring against the linearised reaction, and the handle feels the
// two springs in series: (1/k + 1/k_body)⁻¹.
TEST(VirtualCoupling, ProxyBalancesTheBodyAndTheHandleFeelsSpringsInSeries) {
  HapticContact c;
  c.active = true;
  c.position = {0.01, 0.0, 0.0};
  c.force = {-2.0, 0.5, 0.0};
  Mat3 k_body;
  k_body << -4000.0, 300.0, 0.0, 300.0, -2500.0, 100.0, 0.0, 100.0, -900.0;
  c.stiffness = k_body;
  const double k = 1000.0;
  const Vec3 x(0.013, -0.002, 0.004);
  const Vec3 p = coupling_proxy(c, x, k);
  const Vec3 residual = k * (x - p) + c.force + c.stiffness * (p - c.position);
  EXPECT_LT(residual.norm(), 1e-10);
  // Felt stiffness: dF/dx for F = k (p − x) is k (dp/dx − I) = k ((k I − K)⁻¹ k − I).
  HapticContact iso = c;
  iso.stiffness = -4000.0 * Mat3::Identity();
  const Vec3 dx(1e-4, 0.0, 0.0);
  const Vec3 f0 = k * (coupling_proxy(iso, x, k) - x), f1 = k * (coupling_proxy(iso, x + dx, k) - x - dx);
  EXPECT_NEAR(-(f1 - f0).x() / dx.x(), 1.0 / (1.0 / k + 1.0 / 4000.0), 1e-6);
  // An inactive contact leaves the proxy on the handle.
  EXPECT_EQ(coupling_proxy(HapticContact{}, x, k), x);
}

// ---- Passivity over a scripted path, for every family `pliant haptics` drives ----

struct PassivityRun {
  HapticForceStats stats;
  std::size_t samples = 0;
  double lowest = 0.0;        // lowest energy balance (unit: J)
  std::size_t lowest_at = 0;  // the sample it was reached at
};

// Runs the haptic loop's renderer in lock step with the world, as `pliant haptics` does on two
// threads: every world step, rate × dt samples along the path, then the grab moves to the proxy. The
// hand starts on the grab point, pushes in along the scene's track direction and circles back to
// where it started (a closed path, so a conservative rendering ends with balance ≥ 0). The world
// settles with the grab held before the hand moves.
PassivityRun run_path(const std::string& scene_file, const HapticRenderSettings& settings, double seconds) {
  Scene sc = load_scene(scene_file).value();
  World& world = *sc.world;
  const ScriptedGrab device = world.take_scripted_grab(0);
  Body& body = world.body(device.body);
  const Vec3 anchor = point_on(body.surface_positions(), body.surface_triangles(), device.point);
  const GrabId grab = body.grab_patch(device.point, device.radius);
  EXPECT_TRUE(grab.valid());
  EXPECT_TRUE(world.bind_haptic_grab(0, device.body, grab, anchor));
  Vec3 along = offset_at(device.track, 1e9);
  along = along.norm() > 0 ? Vec3(along.normalized()) : Vec3::UnitZ();
  const Vec3 side = along.unitOrthogonal();
  constexpr double kAmplitude = 0.01;  // m
  auto path = [&](double t) {
    const double phase = 2.0 * std::numbers::pi * t / seconds;
    return Vec3(anchor + kAmplitude * (std::sin(phase) * along + (1.0 - std::cos(phase)) * side));
  };
  // Settle first: a body that starts away from equilibrium (sagging under gravity onto the grab)
  // gives energy back while it settles, which is the world's stored energy, not the rendering's.
  for (int k = 0; k < 60; ++k) world.step();
  HapticRenderer renderer(settings);
  const int per_step = static_cast<int>(std::lround(settings.rate_hz * world.time_step()));
  const std::size_t total = static_cast<std::size_t>(std::lround(seconds * settings.rate_hz));
  PassivityRun run;
  while (run.samples <= total) {
    for (int i = 0; i < per_step && run.samples <= total; ++i, ++run.samples) {
      const double t = static_cast<double>(run.samples) / settings.rate_hz;
      const Vec3 f = renderer.render(world.haptics().read().contacts[0], path(t));
      if (renderer.stats().min_energy_balance < run.lowest) {
        run.lowest = renderer.stats().min_energy_balance;
        run.lowest_at = run.samples;
      }
      EXPECT_TRUE(f.allFinite());
      EXPECT_LE(f.norm(), settings.limits.max_force * (1.0 + 1e-12));
    }
    world.move_haptic_grab(0, renderer.target());
    world.step();
  }
  run.stats = renderer.stats();
  return run;
}

HapticRenderSettings coupled(const DeviceLimits& limits, std::optional<double> damping = {}) {
  HapticRenderSettings s;
  s.limits = limits;
  CouplingGains g;
  g.enabled = true;
  g.stiffness = limits.max_stiffness;
  g.damping = damping ? *damping : g.stiffness / s.rate_hz;
  s.coupling = g;
  return s;
}

class Passivity : public ::testing::TestWithParam<const char*> {};

TEST_P(Passivity, CoupledRenderingNeverReturnsMoreThanItReceived) {
  const std::string file = GetParam();
  // Unbounded force and rate: the coupling alone is under test.
  const PassivityRun free_run = run_path(file, coupled({kInf, 1000.0, kInf}), 1.0);
  EXPECT_GT(free_run.stats.energy_received, 1e-5) << file << ": the path must load the body";
  EXPECT_TRUE(free_run.stats.passive)
      << file << ": lowest balance " << free_run.stats.min_energy_balance << " J";
  // The desktop device's limits clamp the force and its rate; still passive.
  const PassivityRun touch = run_path(file, coupled(DeviceLimits{}), 1.0);
  EXPECT_TRUE(touch.stats.passive) << file << ": lowest balance " << touch.stats.min_energy_balance << " J";
  EXPECT_LE(touch.stats.max_force_sent, 3.3 + 1e-12);
  // A deliberately active coupling (negative damping, −20 k T) must fail the check. (The bodies'
  // own damping absorbs what a mildly active coupling puts in; the green beam, with no damping
  // between steps, already fails at b = 0, below Colgate's k T / 2.)
  const PassivityRun active = run_path(file, coupled({kInf, 1000.0, kInf}, -20.0), 1.0);
  EXPECT_FALSE(active.stats.passive) << file << ": an active coupling passed, lowest balance "
                                     << active.stats.min_energy_balance << " J";
  if (file.find("haptic_beam") != std::string::npos) {
    const PassivityRun undamped = run_path(file, coupled({kInf, 1000.0, kInf}, 0.0), 1.0);
    EXPECT_FALSE(undamped.stats.passive) << "an undamped sampled coupling spring must be active";
  }
}

std::string family_name(const ::testing::TestParamInfo<const char*>& info) {
  static const char* const names[] = {"green", "fem", "springs", "meshless"};
  return names[info.index];
}

// One scene per family, each holding its body by a scripted grab.
INSTANTIATE_TEST_SUITE_P(Families, Passivity,
                         ::testing::Values(PLIANT_TESTS_DATA_DIR "/scenes/haptic_beam.json",  // green
                                           PLIANT_EXAMPLES_DIR "/fem_organ_pull.json",        // fem
                                           PLIANT_EXAMPLES_DIR "/membrane_tear.json",         // springs
                                           PLIANT_EXAMPLES_DIR "/meshless_ball_grab.json"),   // meshless
                         family_name);

// A stiff contact rendered without a coupling: the device still only ever gets forces within its
// limits, and no change between samples above max_force_rate / rate.
TEST(HapticLoopDevice, LoopbackReceivesClampedForces) {
  HapticContact c;
  c.active = true;
  c.stiffness = -1e5 * Mat3::Identity();  // N/m, a stiff organ
  SnapshotBuffer buffer;
  HapticSnapshot snap;
  snap.contacts[0] = c;
  buffer.publish(snap);
  // The hand moves 5 mm into the contact within 5 samples and stays: −500 N rendered.
  std::vector<Vec3> path;
  for (int k = 0; k <= 5; ++k) path.push_back(Vec3(0.001 * k, 0.0, 0.0));
  const DeviceLimits limits{3.3, 1000.0, 1000.0};
  LoopbackDevice device(path, limits);
  HapticRenderSettings s;
  s.limits = limits;
  s.coupling.enabled = false;
  HapticLoop loop(buffer, device, s);
  ASSERT_TRUE(loop.start());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const HapticStats stats = loop.stop();
  const std::vector<Vec3>& sent = device.forces();
  ASSERT_GE(sent.size(), 10u) << "the loop must have sampled";
  Vec3 previous = Vec3::Zero();
  for (std::size_t k = 0; k < sent.size(); ++k) {
    ASSERT_LE(sent[k].norm(), 3.3 + 1e-12) << "sample " << k;
    ASSERT_LE((sent[k] - previous).norm(), 1.0 + 1e-12) << "sample " << k;  // 1000 N/s at 1 kHz
    ASSERT_LE(sent[k].x(), 0.0) << "sample " << k << ": the force must push the hand back out";
    previous = sent[k];
  }
  EXPECT_NEAR(sent.back().x(), -3.3, 1e-12);
  EXPECT_NEAR(stats.max_force, 500.0, 1e-9);
  EXPECT_GT(stats.forces.force_clamped, 0u);
  EXPECT_GT(stats.forces.rate_clamped, 0u);
  EXPECT_NEAR(stats.forces.max_force_sent, 3.3, 1e-12);
}

// A device that stops answering: the last force is held for hold_s, then ramped linearly to zero over
// ramp_s, and the outage is reported.
TEST(HapticLoopDevice, TimeoutHoldsThenRampsTheLastForce) {
  HapticContact c;
  c.active = true;
  c.force = {0.0, 0.0, 2.0};
  c.stiffness = -100.0 * Mat3::Identity();
  HapticRenderSettings s;
  s.coupling.enabled = false;
  s.hold_s = 0.01;  // 10 samples
  s.ramp_s = 0.1;   // 100 samples
  LoopbackDevice device(std::vector<Vec3>(40, Vec3(0.001, 0.0, 0.0)), s.limits, 40);
  HapticRenderer renderer(s);
  std::vector<Vec3> sent;
  for (int k = 0; k < 200; ++k) {
    DeviceReading r;
    const DeviceStatus st = device.read(k * 1e-3, r);
    const Vec3 f = st == DeviceStatus::ok ? renderer.render(c, r.position) : renderer.lost(st);
    device.send_force(f);
    sent.push_back(f);
  }
  ASSERT_EQ(device.forces().size(), 200u);
  const Vec3 last = sent[39];
  EXPECT_NEAR(last.z(), 2.0, 1e-12);
  EXPECT_NEAR(last.x(), -0.1, 1e-12);
  for (int n = 1; n <= 160; ++n) {
    const double scale = n <= 10 ? 1.0 : std::max(0.0, 1.0 - (n - 10) / 100.0);
    ASSERT_LT((device.forces()[static_cast<std::size_t>(39 + n)] - scale * last).norm(), 1e-12)
        << "lost sample " << n;
  }
  EXPECT_EQ(sent.back(), Vec3::Zero());
  EXPECT_EQ(renderer.stats().lost_samples, 160u);
  EXPECT_EQ(renderer.stats().outages, 1u);
  EXPECT_EQ(renderer.stats().longest_outage, 160u);
}

// NaN positions are lost samples: no NaN and no spike reaches the device; when the device answers
// again the force comes back within the rate limit.
TEST(HapticLoopDevice, NonFinitePositionsHoldTheForce) {
  HapticContact c;
  c.active = true;
  c.stiffness = -1000.0 * Mat3::Identity();
  HapticRenderSettings s;
  s.limits = {3.3, 1000.0, 1000.0};
  s.coupling = coupling_gains({}, s.limits, s.rate_hz).value();
  HapticRenderer renderer(s);
  Vec3 f = Vec3::Zero();
  for (int k = 0; k < 20; ++k) f = renderer.render(c, Vec3(0.0, 0.0, 0.0005 * k));
  const Vec3 held = f;
  const double nan = std::nan("");
  for (const Vec3& bad : {Vec3(nan, 0.0, 0.0), Vec3(0.0, kInf, 0.0)}) {
    const Vec3 g = renderer.render(c, bad);
    ASSERT_TRUE(g.allFinite());
    EXPECT_EQ(g, held);
  }
  EXPECT_EQ(renderer.stats().bad_readings, 2u);
  const Vec3 back = renderer.render(c, Vec3(0.0, 0.0, -0.01));
  EXPECT_LE((back - held).norm(), 1.0 + 1e-12);
  // A snapshot whose reaction is not finite (a body that blew up) is held the same way.
  HapticContact broken = c;
  broken.force = Vec3(nan, 0.0, 0.0);
  const Vec3 g = renderer.render(broken, Vec3::Zero());
  EXPECT_TRUE(g.allFinite());
  EXPECT_EQ(renderer.stats().bad_forces, 1u);
}

// ---- The C ABI ----

struct CState {
  double position[3] = {0.01, 0.02, 0.03};
  double last_force[3] = {0.0, 0.0, 0.0};
  int reads = 0;
};

TEST(HapticDeviceCAbi, WrapsTheFunctionPointers) {
  CState state;
  pliant_haptic_device d{};
  d.context = &state;
  d.read = [](void* ctx, double, double position[3], double orientation[4]) -> int {
    auto* st = static_cast<CState*>(ctx);
    if (++st->reads > 2) return PLIANT_DEVICE_TIMEOUT;
    for (int k = 0; k < 3; ++k) position[k] = st->position[k];
    orientation[0] = 1.0;
    orientation[1] = orientation[2] = orientation[3] = 0.0;
    return PLIANT_DEVICE_OK;
  };
  d.send_force = [](void* ctx, const double force[3]) -> int {
    auto* st = static_cast<CState*>(ctx);
    for (int k = 0; k < 3; ++k) st->last_force[k] = force[k];
    return 7;  // not a status the ABI defines: a fault
  };
  d.limits = [](void*, pliant_device_limits* l) -> int {
    *l = {7.9, 1860.0, 2000.0};
    return PLIANT_DEVICE_OK;
  };
  auto device = wrap_c_device(d).value();
  EXPECT_EQ(device->limits().max_force, 7.9);
  EXPECT_EQ(device->limits().max_stiffness, 1860.0);
  DeviceReading r;
  ASSERT_EQ(device->read(0.0, r), DeviceStatus::ok);
  EXPECT_EQ(r.position, Vec3(0.01, 0.02, 0.03));
  EXPECT_TRUE(r.has_orientation);
  EXPECT_EQ(device->send_force(Vec3(1.0, -2.0, 0.5)), DeviceStatus::fault);
  EXPECT_EQ(state.last_force[1], -2.0);
  ASSERT_EQ(device->read(0.001, r), DeviceStatus::ok);
  EXPECT_EQ(device->read(0.002, r), DeviceStatus::timeout);

  EXPECT_FALSE(r.has_buttons);  // no `buttons` function: no buttons

  pliant_haptic_device missing = d;
  missing.send_force = nullptr;
  const auto bad = wrap_c_device(missing);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("send_force"), std::string::npos);
}

// The optional `buttons` function: read after every answered `read`; a failed button read keeps the
// buttons the reading had (a hand does not let go for one missed read).
TEST(HapticDeviceCAbi, ReadsTheButtonsWhenTheDeviceHasThem) {
  struct Buttons {
    unsigned pressed = 0;
    int status = PLIANT_DEVICE_OK;
  } state;
  pliant_haptic_device d{};
  d.context = &state;
  d.read = [](void*, double, double position[3], double*) -> int {
    position[0] = position[1] = position[2] = 0.0;
    return PLIANT_DEVICE_OK;
  };
  d.send_force = [](void*, const double*) -> int { return PLIANT_DEVICE_OK; };
  d.limits = [](void*, pliant_device_limits* l) -> int {
    *l = {3.3, 1000.0, 1000.0};
    return PLIANT_DEVICE_OK;
  };
  d.buttons = [](void* ctx, unsigned* pressed) -> int {
    const auto* st = static_cast<const Buttons*>(ctx);
    if (st->status == PLIANT_DEVICE_OK) *pressed = st->pressed;
    return st->status;
  };
  auto device = wrap_c_device(d).value();
  DeviceReading r;
  state.pressed = 0b101u;
  ASSERT_EQ(device->read(0.0, r), DeviceStatus::ok);
  EXPECT_TRUE(r.has_buttons);
  EXPECT_EQ(r.buttons, 0b101u);
  state.pressed = 0u;
  state.status = PLIANT_DEVICE_FAULT;
  ASSERT_EQ(device->read(0.001, r), DeviceStatus::ok);
  EXPECT_EQ(r.buttons, 0b101u);
  state.status = PLIANT_DEVICE_OK;
  ASSERT_EQ(device->read(0.002, r), DeviceStatus::ok);
  EXPECT_EQ(r.buttons, 0u);
}

// The loop hands the buttons and the handle's orientation of the sample it answered to the simulation
// thread with the position (HapticLoop::hand), so a grasper's jaws follow the device's first button and
// an instrument turns with the handle.
TEST(HapticLoopButtons, HandSampleCarriesTheDeviceButtonsAndOrientation) {
  class Pressing final : public HapticDevice {
   public:
    DeviceLimits limits() const override { return {}; }
    DeviceStatus read(double, DeviceReading& out) override {
      out.position = Vec3(0.0, 0.0, 0.01);
      out.has_buttons = true;
      out.buttons = 1u;
      out.has_orientation = true;
      out.orientation = Eigen::Quaterniond(2.0, 0.0, 0.0, 2.0);  // not unit: the loop normalises it
      return DeviceStatus::ok;
    }
    DeviceStatus send_force(const Vec3&) override { return DeviceStatus::ok; }
  } device;
  SnapshotBuffer buffer;
  HapticRenderSettings settings;
  settings.rate_hz = 1000.0;
  settings.coupling = coupling_gains({}, settings.limits, settings.rate_hz).value();
  HapticLoop loop(buffer, device, settings);
  const HapticLoop::HandSample before = loop.hand();
  EXPECT_FALSE(before.has_buttons);
  ASSERT_TRUE(loop.start());
  while (loop.answered() == 0) std::this_thread::yield();
  const HapticLoop::HandSample h = loop.hand();
  loop.stop();
  EXPECT_TRUE(h.has_buttons);
  EXPECT_EQ(h.buttons, 1u);
  EXPECT_EQ(h.position, Vec3(0.0, 0.0, 0.01));
  EXPECT_TRUE(h.has_orientation);
  EXPECT_NEAR(h.orientation.angularDistance(Eigen::Quaterniond(Eigen::AngleAxisd(0.5 * M_PI, Vec3::UnitZ()))),
              0.0, 1e-12);
  EXPECT_FALSE(before.has_orientation);
}

}  // namespace
}  // namespace pliant::scene
