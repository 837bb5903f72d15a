// MLS forces and their integration: rigid invariance, momentum balance, energy, stability, volume term.
#include "pliant/models/meshless/mls_force_model.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/materials/material.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>

namespace pliant::meshless {
namespace {

double max_norm(const std::vector<Vec3>& f) {
  double m = 0.0;
  for (const Vec3& v : f) m = std::max(m, v.norm());
  return m;
}

std::vector<Vec3> stretched(const MlsBody& body, double sx) {
  std::vector<Vec3> x = body.rest;
  for (Vec3& p : x) p.x() *= sx;
  return x;
}

TEST(MlsForceModel, RigidMotionsGiveNoElasticForce) {
  for (double jitter : {0.0, 0.7}) {
    const MlsBody body =
        test::box_body(Vec3::Zero(), Vec3(0.05, 0.04, 0.03), 0.01, jitter, {.volume_stiffness = 5e4});
    const MlsForceModel model(body);
    std::vector<Vec3> v(body.rest.size(), Vec3::Zero()), f(body.rest.size());
    model.forces(stretched(body, 1.01), v, f);
    const double reference = max_norm(f);  // a 1% stretch
    ASSERT_GT(reference, 0.0);
    for (const double angle : {0.3, std::numbers::pi / 2}) {
      const Mat3 R = Eigen::AngleAxisd(angle, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
      std::vector<Vec3> x;
      for (const Vec3& p : body.rest) x.push_back(R * p + Vec3(0.4, -1.0, 2.0));
      model.forces(x, v, f);
      EXPECT_LT(max_norm(f), 1e-9 * reference) << "angle " << angle << " jitter " << jitter;
      EXPECT_LT(model.elastic_energy(x), 1e-20);
    }
  }
}

TEST(MlsForceModel, LinearStrainIsNotRotationInvariant) {
  const MlsBody body =
      test::box_body(Vec3::Zero(), Vec3::Constant(0.03), 0.01, 0.0, {.strain = StrainMeasure::linear});
  const Mat3 R = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()).toRotationMatrix();
  std::vector<Vec3> x;
  for (const Vec3& p : body.rest) x.push_back(R * p);
  EXPECT_GT(MlsForceModel(body).elastic_energy(x), 0.0);  // why Green strain is the default
}

TEST(MlsForceModel, ForcesAreMinusTheEnergyGradientAndSumToZero) {
  const MlsBody body =
      test::box_body(Vec3::Zero(), Vec3(0.04, 0.03, 0.03), 0.01, 0.5, {.volume_stiffness = 3e4});
  const MlsForceModel model(body);
  std::vector<Vec3> x = body.rest;
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] += 0.002 * Vec3(std::sin(3.0 * i), std::cos(5.0 * i), std::sin(7.0 * i + 1));
  }
  std::vector<Vec3> v(x.size(), Vec3::Zero()), f(x.size());
  model.forces(x, v, f);
  Vec3 sum = Vec3::Zero();
  for (const Vec3& fi : f) sum += fi;
  EXPECT_LT(sum.norm(), 1e-12 * max_norm(f));
  const double e = 1e-7;
  for (std::size_t i : {0UL, 5UL, x.size() / 2, x.size() - 1}) {
    for (int a = 0; a < 3; ++a) {
      std::vector<Vec3> xp = x, xm = x;
      xp[i][a] += e;
      xm[i][a] -= e;
      const double grad = (model.elastic_energy(xp) - model.elastic_energy(xm)) / (2 * e);
      EXPECT_NEAR(-grad, f[i][a], 1e-6 * max_norm(f)) << i << " " << a;
    }
  }
}

TEST(MlsForceModel, SameBitsOnOneAndTwoThreads) {
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.14, 0.13, 0.13), 0.01, 0.3);
  ASSERT_GE(body.size(), 2048);  // large enough for the parallel path
  const MlsForceModel model(body);
  std::vector<Vec3> x = stretched(body, 1.05), v(x.size(), Vec3::Zero()), f1(x.size()), f2(x.size());
  set_threads(1);
  model.forces(x, v, f1);
  set_threads(2);
  model.forces(x, v, f2);
  set_threads(0);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(f1[i], f2[i]) << i;
}

double total_energy(const MlsBody& body, const MlsForceModel& model) {
  double kinetic = 0.0;
  for (std::size_t i = 0; i < body.rest.size(); ++i)
    kinetic += 0.5 * body.mass[i] * body.velocity[i].squaredNorm();
  return kinetic + model.elastic_energy(body.position);
}

// Largest relative energy error of symplectic Euler over the first and the last quarter of a run.
std::pair<double, double> energy_errors(double safety) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.06, 0.04, 0.04), 0.01, 0.0, {.volume_stiffness = 2e4});
  const MlsForceModel model(body);
  body.position = stretched(body, 1.05);
  const double dt = symplectic_euler_stable_step(body, safety);
  dynamics::Integrator integrator({.scheme = dynamics::Scheme::symplectic_euler, .dt = dt});
  const double e0 = total_energy(body, model);
  const int steps = static_cast<int>(std::lround(600 * 0.4 / safety));  // the same simulated time
  double early = 0.0, late = 0.0;
  for (int s = 0; s < steps; ++s) {
    integrator.step(model, body.position, body.velocity);
    const double error = std::abs(total_energy(body, model) - e0) / e0;
    if (s < steps / 4) early = std::max(early, error);
    if (s >= steps * 3 / 4) late = std::max(late, error);
  }
  return {early, late};
}

TEST(MlsForceModel, SymplecticEulerEnergyDriftIsBounded) {
  // Without damping the energy error of symplectic Euler oscillates with an amplitude O(h) and does
  // not grow: the last quarter is no worse than the first, and halving h halves the error.
  const auto [early, late] = energy_errors(0.4);
  const auto [early_fine, late_fine] = energy_errors(0.2);
  EXPECT_LT(late, 1.2 * early);
  EXPECT_LT(late_fine, 1.2 * early_fine);
  EXPECT_LT(std::max(early_fine, late_fine), 0.6 * std::max(early, late));
}

TEST(MlsForceModel, StableStepSeparatesStableFromUnstable) {
  MlsBody body =
      test::box_body(Vec3::Zero(), Vec3(0.05, 0.04, 0.04), 0.01, 0.4, {.strain = StrainMeasure::linear});
  const double critical = symplectic_euler_stable_step(body, 1.0);
  ASSERT_TRUE(std::isfinite(critical));
  const MlsForceModel model(body);
  auto amplification = [&](double dt) {
    MlsBody b = body;
    for (std::size_t i = 0; i < b.rest.size(); ++i)
      b.position[i] += 1e-5 * Vec3(std::sin(11.0 * i), std::cos(3.0 * i), 0.3);
    const MlsForceModel m(b);
    dynamics::Integrator integrator({.scheme = dynamics::Scheme::symplectic_euler, .dt = dt});
    const double e0 = total_energy(b, m);
    for (int s = 0; s < 300; ++s) integrator.step(m, b.position, b.velocity);
    return total_energy(b, m) / e0;
  };
  EXPECT_LT(amplification(0.9 * critical), 2.0);
  EXPECT_GT(amplification(1.5 * critical), 1e6);  // Rayleigh quotients bound ω_max from below
}

TEST(MlsForceModel, FreeFallKeepsMassAndFallsAtG) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3::Constant(0.04), 0.01, 0.6);
  const double mass = body.total_mass();
  MlsForceModel model(body, {.gravity = Vec3(0, 0, -9.81)});
  const double dt = 1e-4;
  dynamics::Integrator integrator({.scheme = dynamics::Scheme::symplectic_euler, .dt = dt});
  auto centre = [&] {
    Vec3 c = Vec3::Zero();
    for (std::size_t i = 0; i < body.rest.size(); ++i) c += body.mass[i] * body.position[i];
    return Vec3(c / mass);
  };
  const Vec3 c0 = centre();
  const int steps = 200;
  for (int s = 0; s < steps; ++s) integrator.step(model, body.position, body.velocity);
  EXPECT_EQ(body.total_mass(), mass);
  // Internal forces cancel: the centre follows symplectic Euler's free fall, z = -g h² n(n+1)/2.
  EXPECT_NEAR((centre() - c0).z(), -9.81 * dt * dt * steps * (steps + 1) / 2, 1e-12);
  EXPECT_NEAR((centre() - c0).head<2>().norm(), 0.0, 1e-14);
}

// Mean |det J - 1| of a cube squeezed by 20% between its fixed top and bottom layers, settled.
double squeezed_volume_error(double volume_stiffness) {
  MlsBody body =
      test::box_body(Vec3::Zero(), Vec3::Constant(0.06), 0.01, 0.0, {.volume_stiffness = volume_stiffness});
  for (Index i = 0; i < body.size(); ++i) {
    Vec3& p = body.position[static_cast<std::size_t>(i)];
    p.z() = 0.005 + 0.8 * (p.z() - 0.005);
    if (p.z() < 0.006 || p.z() > 0.04) body.set_fixed(i, true);
  }
  const MlsForceModel model(body, {.mass_damping = 60.0});
  dynamics::Integrator integrator(
      {.scheme = dynamics::Scheme::symplectic_euler, .dt = symplectic_euler_stable_step(body, 0.4)});
  for (int s = 0; s < 1500; ++s) integrator.step(model, body.position, body.velocity);
  double error = 0.0;
  int count = 0;
  for (Index i = 0; i < body.size(); ++i) {
    if (body.inv_mass[static_cast<std::size_t>(i)] == 0.0) continue;
    error += std::abs(deformation_gradient(body, body.position, i).determinant() - 1.0);
    ++count;
  }
  return error / count;
}

TEST(MlsForceModel, VolumeTermKeepsDetJNearOneUnderCompression) {
  const double free = squeezed_volume_error(0.0);
  const double kept = squeezed_volume_error(3e5);  // k_v = 40 μ
  EXPECT_GT(free, 0.05);
  EXPECT_LT(kept, 0.3 * free);
  EXPECT_LT(kept, 0.03);
}

}  // namespace
}  // namespace pliant::meshless

namespace pliant::meshless {
namespace {

TEST(MlsForceModel, BackwardEulerIsStableFarBeyondTheExplicitLimit) {
  // Small deformation, linear strain: the rest tangent is the exact tangent, so backward Euler (Baraff
  // & Witkin 1998) is unconditionally stable and dissipates.
  MlsBody body =
      test::box_body(Vec3::Zero(), Vec3(0.05, 0.03, 0.03), 0.01, 0.3, {.strain = StrainMeasure::linear});
  const MlsForceModel model(body);
  body.position = stretched(body, 1.01);
  const double explicit_limit = symplectic_euler_stable_step(body, 1.0);
  dynamics::Integrator integrator({.scheme = dynamics::Scheme::backward_euler, .dt = 20.0 * explicit_limit});
  const double e0 = model.elastic_energy(body.position);
  double previous = e0;
  for (int s = 0; s < 30; ++s) {
    integrator.step(model, body.position, body.velocity);
    double kinetic = 0.0;
    for (std::size_t i = 0; i < body.rest.size(); ++i)
      kinetic += 0.5 * body.mass[i] * body.velocity[i].squaredNorm();
    const double total = kinetic + model.elastic_energy(body.position);
    EXPECT_LE(total, previous * (1.0 + 1e-6)) << "step " << s;  // never gains energy
    previous = total;
  }
  EXPECT_LT(previous, 0.5 * e0);
}

// K p by the model's tangent at x.
std::vector<Vec3> tangent_product(const MlsForceModel& model, const std::vector<Vec3>& x,
                                  const std::vector<Vec3>& p) {
  std::vector<Vec3> y(x.size(), Vec3::Zero());
  model.add_stiffness_product(x, p, 1.0, y);
  return y;
}

std::vector<Vec3> irregular_direction(std::size_t n, double size) {
  std::vector<Vec3> p(n);
  for (std::size_t i = 0; i < n; ++i)
    p[i] = size * Vec3(std::sin(1.3 * i + 0.2), std::cos(0.7 * i), std::sin(0.31 * i * i + 1.0));
  return p;
}

double difference(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0.0, n = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += (a[i] - b[i]).squaredNorm();
    n += b[i].squaredNorm();
  }
  return std::sqrt(d / n);
}

// Where the stress is zero (a rigid rotation by 90°), the current tangent is the exact Jacobian of the
// forces (central differences); the rest tangent is not. At rest the two tangents are the same.
TEST(MlsForceModel, CurrentTangentIsTheJacobianWhereTheStressIsZero) {
  for (StrainMeasure strain : {StrainMeasure::green, StrainMeasure::linear}) {
    const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.05, 0.04, 0.03), 0.01, 0.5,
                                        {.volume_stiffness = 3e4, .strain = strain});
    MlsForceModel current(body), rest(body);
    current.set_tangent(MlsTangent::current);
    const std::size_t n = body.rest.size();
    const auto p = irregular_direction(n, 1.0);
    EXPECT_LT(difference(tangent_product(current, body.rest, p), tangent_product(rest, body.rest, p)), 1e-14);
    if (strain == StrainMeasure::linear) continue;  // linear strain is not rotation invariant
    const Mat3 R = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
    std::vector<Vec3> x;
    for (const Vec3& q : body.rest) x.push_back(R * q + Vec3(0.3, -0.2, 1.0));
    const double e = 1e-6;
    std::vector<Vec3> xp = x, xm = x, fp(n), fm(n), v(n, Vec3::Zero()), fd(n);
    for (std::size_t i = 0; i < n; ++i) {
      xp[i] += e * p[i];
      xm[i] -= e * p[i];
    }
    current.elastic_forces(xp, fp);
    current.elastic_forces(xm, fm);
    for (std::size_t i = 0; i < n; ++i) fd[i] = -(fp[i] - fm[i]) / (2.0 * e);  // K = -∂f/∂x
    EXPECT_LT(difference(tangent_product(current, x, p), fd), 1e-6);
    EXPECT_GT(difference(tangent_product(rest, x, p), fd), 0.1);
  }
}

// At a strongly deformed (compressed and sheared) state the current tangent stays symmetric and
// positive semidefinite, and it annihilates an infinitesimal rotation of the current shape.
TEST(MlsForceModel, CurrentTangentIsSymmetricSemidefiniteAndRotationFree) {
  const MlsBody body =
      test::box_body(Vec3::Zero(), Vec3(0.05, 0.04, 0.03), 0.01, 0.5, {.volume_stiffness = 3e4});
  MlsForceModel model(body);
  model.set_tangent(MlsTangent::current);
  Mat3 A;
  A << 0.7, 0.3, 0.0, -0.1, 0.8, 0.2, 0.05, 0.0, 0.6;  // compression with shear
  std::vector<Vec3> x;
  for (const Vec3& q : body.rest)
    x.push_back(A * q + 0.002 * Vec3(std::sin(300 * q.y()), 0, std::cos(200 * q.x())));
  const std::size_t n = x.size();
  const auto p = irregular_direction(n, 1.0), q = irregular_direction(n, 0.5);
  std::vector<Vec3> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = q[(i * 7 + 3) % n];
  const auto kp = tangent_product(model, x, p), kr = tangent_product(model, x, r);
  double pkr = 0.0, rkp = 0.0, pkp = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    pkr += p[i].dot(kr[i]);
    rkp += r[i].dot(kp[i]);
    pkp += p[i].dot(kp[i]);
    scale += std::abs(p[i].dot(kp[i]));
  }
  EXPECT_NEAR(pkr, rkp, 1e-12 * scale);
  EXPECT_GE(pkp, 0.0);
  // An infinitesimal rotation W x of the deformed shape: K W x = 0 (the rest tangent does not give 0).
  Mat3 W;
  W << 0, -0.3, 0.5, 0.3, 0, -0.2, -0.5, 0.2, 0;
  std::vector<Vec3> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = W * x[i];
  const double turned = max_norm(tangent_product(model, x, w));
  model.set_tangent(MlsTangent::rest);
  const double turned_rest = max_norm(tangent_product(model, x, w));
  EXPECT_GT(turned_rest, 1.0);  // N: a rotation strains the rest tangent's linear strain
  EXPECT_LT(turned, 1e-9 * turned_rest);
}

// A free body turned by 90° and spinning rigidly: one backward Euler step on the current tangent
// leaves the velocity as it is (no elastic force, K v = 0); on the rest tangent it disturbs it.
TEST(MlsForceModel, BackwardEulerOnTheCurrentTangentLeavesARigidSpinAlone) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.05, 0.04, 0.03), 0.01, 0.3, {.volume_stiffness = 3e4});
  const Mat3 R = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3(0, 0.6, 0.8)).toRotationMatrix();
  const Vec3 omega(0.0, 0.0, 3.0);  // rad/s
  std::vector<Vec3> x0, v0;
  for (const Vec3& q : body.rest) {
    x0.push_back(R * q);
    v0.push_back(omega.cross(R * q));
  }
  const double h = 20.0 * symplectic_euler_stable_step(body, 1.0);
  double change[2];
  for (MlsTangent tangent : {MlsTangent::current, MlsTangent::rest}) {
    MlsForceModel model(body);
    model.set_tangent(tangent);
    dynamics::Integrator integrator({.scheme = dynamics::Scheme::backward_euler, .dt = h});
    std::vector<Vec3> x = x0, v = v0;
    integrator.step(model, x, v);
    double d = 0.0, s = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      d = std::max(d, (v[i] - v0[i]).norm());
      s = std::max(s, v0[i].norm());
    }
    change[tangent == MlsTangent::current ? 0 : 1] = d / s;
  }
  EXPECT_LT(change[0], 1e-5);  // the solve's tolerance
  EXPECT_GT(change[1], 1e-2);
}

// The blocks add_block_diagonal gives are K's diagonal blocks: column s of block a is (K e_as)_a, by
// products with unit vectors, for both tangents and strains, with a volume term and two materials, at
// a deformed, rotated state.
TEST(MlsForceModel, BlockDiagonalIsTheTangentsDiagonal) {
  for (StrainMeasure strain : {StrainMeasure::green, StrainMeasure::linear}) {
    MlsDef def{.volume_stiffness = 3e4, .strain = strain};
    MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.04, 0.03, 0.03), 0.01, 0.5, def);
    body.materials.push_back(materials::material_from_young_poisson(9e4, 0.4, 1100.0).value());
    for (std::size_t i = 0; i < body.rest.size(); ++i) body.material[i] = body.rest[i].x() > 0.02 ? 1 : 0;
    const Mat3 R = Eigen::AngleAxisd(0.8, Vec3(0.3, -1, 0.5).normalized()).toRotationMatrix();
    std::vector<Vec3> x = body.rest;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const Vec3& X = body.rest[i];
      x[i] = R * Vec3(1.2 * X.x() + 0.3 * X.y() * X.y() * 10.0, 0.9 * X.y(), X.z() + 0.2 * X.x()) +
             Vec3(1, 2, 3);
    }
    for (MlsTangent tangent : {MlsTangent::current, MlsTangent::rest}) {
      MlsForceModel model(body);
      model.set_tangent(tangent);
      const std::size_t n = x.size();
      std::vector<Mat3> blocks(n, Mat3::Identity());
      ASSERT_TRUE(model.add_block_diagonal(x, 2.0, 0.0, blocks));
      double worst = 0.0, scale = 0.0;
      for (std::size_t a = 0; a < n; a += 7) {
        Mat3 column_block;
        for (int s = 0; s < 3; ++s) {
          std::vector<Vec3> e(n, Vec3::Zero()), y(n, Vec3::Zero());
          e[a][s] = 1.0;
          model.add_stiffness_product(x, e, 2.0, y);
          column_block.col(s) = y[a];
        }
        column_block += Mat3::Identity();
        worst = std::max(worst, (blocks[a] - column_block).norm());
        scale = std::max(scale, column_block.norm());
        EXPECT_LT((blocks[a] - blocks[a].transpose()).norm(), 1e-12 * blocks[a].norm());
      }
      EXPECT_LT(worst, 1e-12 * scale)
          << "strain " << static_cast<int>(strain) << ", tangent " << static_cast<int>(tangent);
    }
  }
}

// Backward Euler with block-Jacobi CG takes the same step as with Jacobi CG (to the CG tolerance) on a
// bent bar with the current tangent, in fewer iterations.
TEST(MlsForceModel, BlockJacobiSolvesTheSameStepInFewerIterations) {
  MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.12, 0.02, 0.02), 0.005, 0.3, {.volume_stiffness = 2e4});
  for (std::size_t i = 0; i < body.rest.size(); ++i) {
    if (body.rest[i].x() < 0.006) body.set_fixed(static_cast<Index>(i), true);
  }
  MlsForceModel model(body, {.gravity = Vec3(0, 0, -9.81)});
  model.set_tangent(MlsTangent::current);
  for (std::size_t i = 0; i < body.rest.size(); ++i) {  // bent and moving
    const double s = body.rest[i].x();
    body.position[i] = body.rest[i] + Vec3(0, 0, -2.0 * s * s);
    body.velocity[i] = Vec3(0, 0.3 * s, -1.0 * s);
  }
  std::array<std::vector<Vec3>, 2> x, v;
  std::array<int, 2> iterations{};
  const dynamics::Preconditioner kinds[2] = {dynamics::Preconditioner::jacobi,
                                             dynamics::Preconditioner::block_jacobi};
  for (int k = 0; k < 2; ++k) {
    dynamics::Integrator integrator({.scheme = dynamics::Scheme::backward_euler,
                                     .dt = 2e-3,
                                     .cg_tolerance = 1e-10,
                                     .cg_max_iterations = 5000,
                                     .preconditioner = kinds[k]});
    x[k] = body.position;
    v[k] = body.velocity;
    integrator.step(model, x[k], v[k]);
    iterations[k] = integrator.last_cg_iterations();
    EXPECT_LE(integrator.last_relative_residual(), 1e-10);
  }
  EXPECT_LT(difference(v[1], v[0]), 1e-8);
  EXPECT_LT(iterations[1], iterations[0]);
}

}  // namespace
}  // namespace pliant::meshless
