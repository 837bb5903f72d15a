// The time integrators against the analytic damped oscillator: every scheme's trajectory, its order of
// accuracy, the critical steps of the explicit ones, energy behaviour, and kinematic nodes left alone.
#include "pliant/dynamics/integrator.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pliant::dynamics {
namespace {

// Independent nodes, each ẍ m = -k (x - r) - c ẋ - α m ẋ + F along every axis, around its rest point r.
// Node 0 is kinematic. K = k I and D = c I exactly, so the implicit schemes' linearisation is exact.
class Oscillators final : public ForceModel {
 public:
  Oscillators(std::size_t nodes, double k, double c, double alpha, double m, Vec3 load = Vec3::Zero())
      : k_(k), c_(c), alpha_(alpha), load_(load), mass_(nodes, m), inv_mass_(nodes, 1.0 / m) {
    inv_mass_[0] = 0.0;
  }
  std::span<const double> mass() const override { return mass_; }
  std::span<const double> inverse_mass() const override { return inv_mass_; }
  double mass_damping() const override { return alpha_; }
  void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const override {
    for (std::size_t i = 0; i < x.size(); ++i)
      f[i] = -k_ * (x[i] - rest(i)) - c_ * v[i] - alpha_ * mass_[i] * v[i] + load_;
  }
  void add_stiffness_product(std::span<const Vec3>, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y) const override {
    for (std::size_t i = 0; i < p.size(); ++i) y[i] += scale * k_ * p[i];
  }
  void add_damping_product(std::span<const Vec3>, std::span<const Vec3> p, double scale,
                           std::span<Vec3> y) const override {
    for (std::size_t i = 0; i < p.size(); ++i) y[i] += scale * c_ * p[i];
  }
  void add_jacobi_diagonal(std::span<const Vec3>, double beta_k, double beta_d,
                           std::span<double> diagonal) const override {
    for (double& d : diagonal) d += beta_k * k_ + beta_d * c_;
  }
  static Vec3 rest(std::size_t i) { return Vec3(static_cast<double>(i), 0.0, 0.0); }

 private:
  double k_, c_, alpha_;
  Vec3 load_;
  std::vector<double> mass_, inv_mass_;
};

struct Oscillator {
  double k = 400.0, c = 0.0, alpha = 0.0, m = 0.25;  // ω₀ = 40 rad/s
  double omega0() const { return std::sqrt(k / m); }
  double decay() const { return 0.5 * (c / m + alpha); }
  // Displacement from rest at time t for x(0) = y0, ẋ(0) = v0 (underdamped).
  double position(double t, double y0, double v0) const {
    const double g = decay(), wd = std::sqrt(omega0() * omega0() - g * g);
    return std::exp(-g * t) * (y0 * std::cos(wd * t) + (v0 + g * y0) / wd * std::sin(wd * t));
  }
};

constexpr Scheme kAllSchemes[] = {Scheme::explicit_euler,
                                  Scheme::symplectic_euler,
                                  Scheme::midpoint,
                                  Scheme::rk2,
                                  Scheme::rk4,
                                  Scheme::central_difference,
                                  Scheme::quasi_static_euler,
                                  Scheme::backward_euler,
                                  Scheme::newmark,
                                  Scheme::houbolt};
constexpr Scheme kDynamicSchemes[] = {
    Scheme::explicit_euler,     Scheme::symplectic_euler, Scheme::midpoint, Scheme::rk2,    Scheme::rk4,
    Scheme::central_difference, Scheme::backward_euler,   Scheme::newmark,  Scheme::houbolt};

// Largest position error over [0, t_end] of node 1 released from y0 = 0.01 m, v0 = 0.3 m/s along x.
double trajectory_error(Scheme scheme, const Oscillator& o, double h, double t_end) {
  Oscillators model(2, o.k, o.c, o.alpha, o.m);
  const double y0 = 0.01, v0 = 0.3;
  std::vector<Vec3> x = {Oscillators::rest(0), Oscillators::rest(1) + Vec3(y0, 0, 0)};
  std::vector<Vec3> v = {Vec3::Zero(), Vec3(v0, 0, 0)};
  Integrator integrator({.scheme = scheme, .dt = h, .cg_tolerance = 1e-14});
  const int steps = static_cast<int>(std::lround(t_end / h));
  double worst = 0.0;
  for (int s = 1; s <= steps; ++s) {
    integrator.step(model, x, v);
    worst = std::max(worst, std::abs(x[1].x() - 1.0 - o.position(s * h, y0, v0)));
  }
  return worst;
}

int order_of(Scheme scheme) {
  switch (scheme) {
    case Scheme::rk4:
      return 4;
    case Scheme::midpoint:
    case Scheme::rk2:
    case Scheme::central_difference:
    case Scheme::newmark:
    case Scheme::houbolt:
      return 2;
    default:
      return 1;
  }
}

TEST(Integrator, EverySchemeFollowsTheDampedOscillationWithItsOrder) {
  // Damping through both the model (c) and the mass-proportional α; two periods. Central differences
  // are second order with mass damping only (a velocity-dependent model force lags half a step, which
  // costs one order), so they see the same decay rate through α alone.
  const Oscillator mixed{.k = 400.0, .c = 1.0, .alpha = 2.0, .m = 0.25};
  const Oscillator mass_only{.k = 400.0, .c = 0.0, .alpha = 6.0, .m = 0.25};
  ASSERT_DOUBLE_EQ(mixed.decay(), mass_only.decay());
  const double period = 2.0 * M_PI / mixed.omega0();
  for (const Scheme scheme : kDynamicSchemes) {
    const Oscillator& o = scheme == Scheme::central_difference ? mass_only : mixed;
    const double h = period / 400.0;
    const double coarse = trajectory_error(scheme, o, h, 2.0 * period);
    const double fine = trajectory_error(scheme, o, 0.5 * h, 2.0 * period);
    const double expected = std::pow(2.0, order_of(scheme));
    SCOPED_TRACE(scheme_name(scheme));
    // Accurate at 400 steps a period (amplitude ≈ 0.012 m) ...
    EXPECT_LT(coarse, order_of(scheme) == 1 ? 2e-3 : 2e-5);
    // ... and halving the step divides the error by 2^order.
    EXPECT_GT(coarse / fine, 0.8 * expected);
    EXPECT_LT(coarse / fine, 1.25 * expected);
  }
}

// Largest |displacement| over the last 100 of `steps` undamped steps at ω h = omega_h.
double late_amplitude(Scheme scheme, double omega_h, int steps, double c = 0.0) {
  const Oscillator o{.k = 400.0, .c = c, .alpha = 0.0, .m = 0.25};
  Oscillators model(2, o.k, o.c, o.alpha, o.m);
  std::vector<Vec3> x = {Oscillators::rest(0), Oscillators::rest(1) + Vec3(0.01, 0, 0)};
  std::vector<Vec3> v(2, Vec3::Zero());
  Integrator integrator({.scheme = scheme, .dt = omega_h / o.omega0()});
  double amp = 0.0;
  for (int s = 0; s < steps; ++s) {
    integrator.step(model, x, v);
    if (!x[1].allFinite()) return INFINITY;
    if (s >= steps - 100) amp = std::max(amp, std::abs(x[1].x() - 1.0));
  }
  return amp;
}

TEST(Integrator, CriticalStepsOfTheExplicitSchemes) {
  // Symplectic Euler and central differences: stable for ω h < 2.
  for (const Scheme scheme : {Scheme::symplectic_euler, Scheme::central_difference}) {
    SCOPED_TRACE(scheme_name(scheme));
    EXPECT_LT(late_amplitude(scheme, 1.98, 2000), 0.2);
    EXPECT_GT(late_amplitude(scheme, 2.02, 2000), 1.0);
  }
  // RK4: stable on the imaginary axis up to ω h = 2√2.
  EXPECT_LT(late_amplitude(Scheme::rk4, 2.80, 2000), 0.011);
  EXPECT_GT(late_amplitude(Scheme::rk4, 2.86, 20000), 0.02);
  // Explicit Euler amplifies an undamped oscillation at any step ...
  EXPECT_GT(late_amplitude(Scheme::explicit_euler, 0.05, 4000), 0.02);
  // ... and with damping is stable just below explicit_euler_critical_step, unstable just above.
  const double k = 400.0, m = 0.25, c = 2.0;
  const double h_crit = explicit_euler_critical_step(k, c, m);
  EXPECT_DOUBLE_EQ(h_crit, c / k);  // underdamped: h < c/k
  const double omega = std::sqrt(k / m);
  EXPECT_LT(late_amplitude(Scheme::explicit_euler, 0.98 * h_crit * omega, 20000, c), 0.01);
  EXPECT_GT(late_amplitude(Scheme::explicit_euler, 1.02 * h_crit * omega, 20000, c), 0.01);
}

double energy(const Oscillator& o, const std::vector<Vec3>& x, const std::vector<Vec3>& v) {
  return 0.5 * o.k * (x[1] - Oscillators::rest(1)).squaredNorm() + 0.5 * o.m * v[1].squaredNorm();
}

TEST(Integrator, EnergyBehaviour) {
  const Oscillator o{};
  const double h = 0.1 / o.omega0();
  auto run = [&](Scheme scheme, int steps, auto&& check) {
    Oscillators model(2, o.k, 0.0, 0.0, o.m);
    std::vector<Vec3> x = {Oscillators::rest(0), Oscillators::rest(1) + Vec3(0.01, 0.0, 0.005)};
    std::vector<Vec3> v = {Vec3::Zero(), Vec3(0.0, 0.2, 0.0)};
    Integrator integrator({.scheme = scheme, .dt = h, .cg_tolerance = 1e-14});
    const double e0 = energy(o, x, v);
    double previous = e0;
    for (int s = 0; s < steps; ++s) {
      integrator.step(model, x, v);
      const double e = energy(o, x, v);
      check(e0, previous, e);
      previous = e;
    }
  };
  // Symplectic Euler: no drift over ~1600 periods, only a bounded O(ωh) oscillation of the energy.
  run(Scheme::symplectic_euler, 100000, [](double e0, double, double e) { ASSERT_NEAR(e, e0, 0.06 * e0); });
  // Newmark's average acceleration rule conserves the energy of a linear system exactly.
  run(Scheme::newmark, 20000, [](double e0, double, double e) { ASSERT_NEAR(e, e0, 1e-9 * e0); });
  // Backward Euler dissipates: the energy falls every step.
  run(Scheme::backward_euler, 2000, [](double, double previous, double e) { ASSERT_LT(e, previous); });
  // RK4 dissipates slowly but never gains.
  run(Scheme::rk4, 2000, [](double, double previous, double e) { ASSERT_LE(e, previous * (1.0 + 1e-15)); });
}

TEST(Integrator, QuasiStaticSettlesOnTheStaticSolution) {
  const Vec3 load(3.0, -2.0, 1.0);  // N
  const double k = 400.0, m = 0.25;
  Oscillators model(3, k, 0.0, 0.0, m, load);
  std::vector<Vec3> x = {Oscillators::rest(0), Oscillators::rest(1), Oscillators::rest(2)};
  std::vector<Vec3> v(3, Vec3::Zero());
  Integrator integrator({.scheme = Scheme::quasi_static_euler, .dt = 0.5 / std::sqrt(k / m)});
  for (int s = 0; s < 400; ++s) integrator.step(model, x, v);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_NEAR((x[i] - Oscillators::rest(i) - load / k).norm(), 0.0, 1e-12);
    EXPECT_EQ(v[i], Vec3::Zero());
  }
}

TEST(Integrator, StaticStepSolvesALinearModelInOneCall) {
  const Vec3 load(3.0, -2.0, 1.0);  // N
  const double k = 400.0;
  Oscillators model(3, k, 0.0, 0.0, 0.25, load);
  std::vector<Vec3> x = {Vec3(0.3, 0.2, 0.1), Oscillators::rest(1) + Vec3(0.05, 0, 0), Oscillators::rest(2)};
  Integrator integrator;
  EXPECT_EQ(integrator.static_step(model, x), 1);  // K = k I: Jacobi-PCG is exact at once
  EXPECT_EQ(x[0], Vec3(0.3, 0.2, 0.1));            // kinematic
  for (std::size_t i = 1; i < 3; ++i)
    EXPECT_NEAR((x[i] - Oscillators::rest(i) - load / k).norm(), 0.0, 1e-14);
}

TEST(Integrator, KinematicNodesAreLeftAloneByEveryScheme) {
  for (const Scheme scheme : kAllSchemes) {
    SCOPED_TRACE(scheme_name(scheme));
    Oscillators model(3, 400.0, 1.0, 0.5, 0.25, Vec3(0, -1, 0));
    // The kinematic node sits away from its rest point with a velocity: a grab the caller moves.
    std::vector<Vec3> x = {Vec3(0.3, 0.2, 0.1), Oscillators::rest(1) + Vec3(0.01, 0, 0),
                           Oscillators::rest(2)};
    std::vector<Vec3> v = {Vec3(1, 2, 3), Vec3::Zero(), Vec3(0, 0.1, 0)};
    const Vec3 x0 = x[0], v0 = v[0];
    Integrator integrator({.scheme = scheme, .dt = 1e-3});
    for (int s = 0; s < 50; ++s) integrator.step(model, x, v);
    EXPECT_EQ(x[0], x0);
    EXPECT_EQ(v[0], v0);
    EXPECT_TRUE(x[1].allFinite() && x[2].allFinite());
    EXPECT_NE(x[1], Oscillators::rest(1) + Vec3(0.01, 0, 0));  // the free nodes did move
  }
}

TEST(Integrator, ImplicitSchemesReportTheirIterations) {
  Oscillators model(2, 400.0, 1.0, 0.0, 0.25);
  std::vector<Vec3> x = {Oscillators::rest(0), Oscillators::rest(1) + Vec3(0.01, 0, 0)};
  std::vector<Vec3> v(2, Vec3::Zero());
  for (const Scheme scheme : kAllSchemes) {
    Integrator integrator({.scheme = scheme, .dt = 1e-3});
    integrator.step(model, x, v);
    // A diagonal system: Jacobi-PCG solves it in one iteration.
    EXPECT_EQ(integrator.last_cg_iterations(), is_implicit(scheme) ? 1 : 0) << scheme_name(scheme);
  }
}

// A chain of unit masses joined by springs of stiffness k (node 0 held): a coupled system, so Jacobi-PCG
// needs several iterations. The reported relative residual of the last solve: capped at two iterations it
// is far above the tolerance, with room it is below it; an explicit step reports none.
class Chain final : public ForceModel {
 public:
  Chain(std::size_t nodes, double k) : k_(k), mass_(nodes, 1.0), inv_mass_(nodes, 1.0) { inv_mass_[0] = 0.0; }
  std::span<const double> mass() const override { return mass_; }
  std::span<const double> inverse_mass() const override { return inv_mass_; }
  double mass_damping() const override { return 0.0; }
  void forces(std::span<const Vec3> x, std::span<const Vec3>, std::span<Vec3> f) const override {
    for (Vec3& fi : f) fi.setZero();
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
      const Vec3 s = k_ * (x[i + 1] - x[i] - Vec3(1, 0, 0));
      f[i] += s;
      f[i + 1] -= s;
    }
  }
  void add_stiffness_product(std::span<const Vec3>, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y) const override {
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
      const Vec3 d = scale * k_ * (p[i + 1] - p[i]);
      y[i] -= d;
      y[i + 1] += d;
    }
  }
  void add_damping_product(std::span<const Vec3>, std::span<const Vec3>, double,
                           std::span<Vec3>) const override {}
  void add_jacobi_diagonal(std::span<const Vec3>, double beta_k, double,
                           std::span<double> diagonal) const override {
    for (std::size_t i = 0; i < diagonal.size(); ++i)
      diagonal[i] += beta_k * k_ * ((i > 0 ? 1.0 : 0.0) + (i + 1 < diagonal.size() ? 1.0 : 0.0));
  }

 private:
  double k_;
  std::vector<double> mass_, inv_mass_;
};

TEST(Integrator, ReportsTheRelativeResidualOfItsLastSolve) {
  const Chain model(40, 1e4);
  for (const int cap : {2, 400}) {
    SCOPED_TRACE(cap);
    std::vector<Vec3> x(40), v(40, Vec3::Zero());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = Vec3(1.05 * static_cast<double>(i), 0, 0);
    Integrator integrator(
        {.scheme = Scheme::backward_euler, .dt = 0.01, .cg_tolerance = 1e-10, .cg_max_iterations = cap});
    integrator.step(model, x, v);
    EXPECT_LE(integrator.last_cg_iterations(), cap);
    if (cap == 2) {
      EXPECT_GT(integrator.last_relative_residual(), 1e-3);
    } else {
      EXPECT_LE(integrator.last_relative_residual(), 1e-10);
      EXPECT_GT(integrator.last_cg_iterations(), 2);
    }
  }
  Integrator explicit_one({.scheme = Scheme::symplectic_euler, .dt = 1e-4});
  std::vector<Vec3> x(40), v(40, Vec3::Zero());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = Vec3(static_cast<double>(i), 0, 0);
  explicit_one.step(model, x, v);
  EXPECT_EQ(explicit_one.last_relative_residual(), 0.0);
}

}  // namespace
}  // namespace pliant::dynamics
