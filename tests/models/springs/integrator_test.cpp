// Integrators against analytic solutions, stability limits and energy behaviour.
#include "pliant/models/springs/integrator.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/scenes.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::springs {
namespace {

// A node of mass m on a spring (rest length 1 m) to a fixed node at the origin, stretched by amp.
SpringMesh oscillator(double k, double c, double m, double amp) {
  auto r = build_spring_graph({Vec3::Zero(), Vec3(1.0, 0, 0)}, {Edge{0, 1}},
                              {.stiffness = k, .damping = c, .node_mass = m, .max_stretch = 2.0});
  EXPECT_TRUE(r.ok()) << r.message();
  SpringMesh mesh = std::move(r).value();
  mesh.set_fixed(0, true);
  mesh.position[1].x() += amp;
  return mesh;
}

TEST(Integrator, Rk4MatchesAnalyticOscillation) {
  const double k = 100.0, m = 0.01, amp = 0.05, omega = std::sqrt(k / m);
  auto error = [&](double dt, int steps) {
    SpringMesh mesh = oscillator(k, 0.0, m, amp);
    Integrator rk4({.scheme = Scheme::rk4, .dt = dt});
    double worst = 0.0;
    for (int i = 1; i <= steps; ++i) {
      rk4.step(mesh);
      const double t = i * dt;
      worst = std::max(worst, std::abs(mesh.position[1].x() - (1.0 + amp * std::cos(omega * t))));
      worst = std::max(worst, std::abs(mesh.velocity[1].x() + amp * omega * std::sin(omega * t)) / omega);
    }
    return worst;
  };
  const double dt = 0.05 / omega;
  const double coarse = error(dt, 500), fine = error(0.5 * dt, 1000);  // about four periods
  EXPECT_LT(coarse, 5e-6 * amp);
  // Fourth order: halving the step divides the error by about 2⁴.
  EXPECT_GT(coarse / fine, 12.0);
  EXPECT_LT(coarse / fine, 20.0);
  // Midpoint is second order: visibly less accurate at the same step, yet close.
  SpringMesh mid = oscillator(k, 0.0, m, amp);
  Integrator midpoint({.scheme = Scheme::midpoint, .dt = dt});
  for (int i = 1; i <= 500; ++i) midpoint.step(mid);
  const double exact = 1.0 + amp * std::cos(omega * 500 * dt);
  EXPECT_LT(std::abs(mid.position[1].x() - exact), 0.05 * amp);
  EXPECT_GT(std::abs(mid.position[1].x() - exact), 1e-6 * amp);
}

double amplitude_after(Scheme scheme, double dt, int steps, double k, double c, double m) {
  SpringMesh mesh = oscillator(k, c, m, 0.01);
  Integrator integ({.scheme = scheme, .dt = dt});
  double amp = 0.0;
  for (int i = 0; i < steps; ++i) {
    integ.step(mesh);
    if (!mesh.position[1].allFinite()) return INFINITY;
    if (i >= steps - 200) amp = std::max(amp, std::abs(mesh.position[1].x() - 1.0));
  }
  return amp;
}

TEST(Integrator, ExplicitEulerCriticalStep) {
  const double k = 100.0, c = 0.2, m = 0.01;  // underdamped: c² < 4km
  const double h = explicit_euler_critical_step(k, c, m);
  EXPECT_NEAR(h, c / k, 1e-15);
  EXPECT_LT(amplitude_after(Scheme::explicit_euler, 0.8 * h, 3000, k, c, m), 0.01 * 0.05);
  EXPECT_GT(amplitude_after(Scheme::explicit_euler, 1.2 * h, 3000, k, c, m), 0.01 * 100.0);
  // Overdamped (c² > 4km): the limit is 2/|λ_max|.
  const double c2 = 5.0;
  const double h2 = explicit_euler_critical_step(k, c2, m);
  const double lambda = (c2 + std::sqrt(c2 * c2 - 4 * k * m)) / (2 * m);
  EXPECT_NEAR(h2, 2.0 / lambda, 1e-15);
  EXPECT_LT(amplitude_after(Scheme::explicit_euler, 0.9 * h2, 400, k, c2, m), 1e-6);
  EXPECT_GT(amplitude_after(Scheme::explicit_euler, 1.1 * h2, 400, k, c2, m), 0.01 * 100.0);
  EXPECT_EQ(explicit_euler_critical_step(k, 0.0, m), 0.0);
}

TEST(Integrator, NetworkStableStepIsExactForOneSpringAndHoldsOnAMembrane) {
  // One spring to a fixed node: the bound is that spring's own critical step, for both regimes.
  for (double c : {0.2, 5.0}) {
    SpringMesh one = oscillator(100.0, c, 0.01, 0.0);
    EXPECT_NEAR(explicit_euler_stable_step(one, 0.0), explicit_euler_critical_step(100.0, c, 0.01),
                1e-12 * explicit_euler_critical_step(100.0, c, 0.01));
  }
  EXPECT_EQ(explicit_euler_stable_step(oscillator(100.0, 0.0, 0.01, 0.0), 0.0), 0.0);
  // A pulled membrane with air damping only: just below the bound explicit Euler settles; well
  // above it it does not (the bound is conservative: here the true limit lies between 2x and 3x).
  auto scene = membrane_scene(small_membrane_def());
  ASSERT_TRUE(scene.ok()) << scene.message();
  std::fill(scene->mesh.damping.begin(), scene->mesh.damping.end(), 0.0);
  scene->mesh.position[static_cast<std::size_t>(scene->interaction_node)] += Vec3(0, 0, 0.01);
  const double alpha = 50.0;
  const double h = explicit_euler_stable_step(scene->mesh, alpha);
  ASSERT_GT(h, 0.0);
  auto final_speed = [&](double dt) {
    SpringMesh mesh = scene->mesh;
    Integrator euler({.scheme = Scheme::explicit_euler, .dt = dt});
    const Loads loads{.mass_damping = alpha};
    for (int i = 0; i < 20000; ++i) euler.step(mesh, loads);
    double v = 0.0;
    for (const Vec3& x : mesh.velocity) v = std::max(v, x.allFinite() ? x.norm() : INFINITY);
    return v;
  };
  EXPECT_LT(final_speed(0.95 * h), 1e-4);  // settled (the pull starts it at about 1 m/s)
  EXPECT_FALSE(final_speed(4.0 * h) < 0.5);
}

TEST(Integrator, SymplecticEulerKeepsEnergyBoundedExplicitEulerDoesNot) {
  auto scene = membrane_scene(small_membrane_def());
  ASSERT_TRUE(scene.ok()) << scene.message();
  for (SpringMesh* mesh : {&scene->mesh}) {
    mesh->set_fixed(scene->interaction_node, false);  // released: the membrane oscillates
    std::fill(mesh->damping.begin(), mesh->damping.end(), 0.0);
  }
  SpringMesh explicit_mesh = scene->mesh;
  const double e0 = spring_energy(scene->mesh);
  ASSERT_GT(e0, 0.0);
  Integrator symplectic({.scheme = Scheme::symplectic_euler, .dt = 1e-4});
  Integrator euler({.scheme = Scheme::explicit_euler, .dt = 1e-4});
  double worst = 0.0;
  for (int i = 0; i < 20000; ++i) {
    symplectic.step(scene->mesh);
    if (i % 50 == 0) {
      const double e = spring_energy(scene->mesh) + kinetic_energy(scene->mesh);
      worst = std::max(worst, std::abs(e - e0) / e0);
    }
  }
  EXPECT_LT(worst, 0.1);
  for (int i = 0; i < 20000; ++i) euler.step(explicit_mesh);
  const double e_euler = spring_energy(explicit_mesh) + kinetic_energy(explicit_mesh);
  EXPECT_TRUE(!std::isfinite(e_euler) || e_euler > 2.0 * e0) << e_euler / e0;
}

// A hanging mass under gravity settles at the static stretch m g / k.
TEST(Integrator, ImplicitAndQuasiStaticReachStaticEquilibrium) {
  const double k = 50.0, c = 0.5, m = 0.02, g = 9.81;
  const double omega = std::sqrt(k / m);
  struct Case {
    Scheme scheme;
    double dt;
    int steps;
  };
  for (const Case& cs :
       {Case{Scheme::backward_euler, 10.0 / omega, 400}, Case{Scheme::houbolt, 10.0 / omega, 400},
        Case{Scheme::newmark, 2.0 / omega, 3000}, Case{Scheme::quasi_static_euler, 0.5 / omega, 400},
        Case{Scheme::midpoint, 0.05 / omega, 20000}}) {
    SpringMesh mesh = oscillator(k, c, m, 0.0);
    Integrator integ({.scheme = cs.scheme, .dt = cs.dt});
    const Loads loads{.gravity = Vec3(-g, 0, 0)};
    for (int i = 0; i < cs.steps; ++i) integ.step(mesh, loads);
    EXPECT_NEAR(mesh.position[1].x(), 1.0 - m * g / k, 1e-6) << static_cast<int>(cs.scheme);
  }
}

// Newmark average acceleration (β = ¼, γ = ½) conserves an undamped oscillator's amplitude at any step.
TEST(Integrator, NewmarkAverageAccelerationConservesAmplitude) {
  const double k = 100.0, m = 0.01, omega = std::sqrt(k / m);
  const double amp = amplitude_after(Scheme::newmark, 3.0 / omega, 2000, k, 0.0, m);
  EXPECT_NEAR(amp, 0.01, 2e-4);
  // Backward Euler at the same step is strongly dissipative.
  EXPECT_LT(amplitude_after(Scheme::backward_euler, 3.0 / omega, 2000, k, 0.0, m), 1e-4);
}

}  // namespace
}  // namespace pliant::springs
