// The dynamic FEM body over dynamics::ForceModel: forces and stiffness products against the element
// kernels assembled independently, zero force under rigid motion, thread-count determinism, a single
// analytic mode under four integrators (period and Rayleigh decay), and energy behaviour.
#include "pliant/models/fem/implicit/fem_force_model.hpp"

#include "element_test_util.hpp"
#include "fem_test_util.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/mass.hpp"
#include "pliant/models/fem/elements/corotational_tet.hpp"
#include "pliant/models/fem/elements/hyperelastic_tet.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace pliant::fem {
namespace {

constexpr ElementKind kAllKinds[] = {ElementKind::linear, ElementKind::corotational, ElementKind::stvk,
                                     ElementKind::stable_neo_hookean};

materials::Material soft(double E, double nu, double rho) {
  return materials::material_from_young_poisson(E, nu, rho).value();
}

// Two materials alternating over the tets (an inhomogeneous body).
std::vector<materials::Material> alternating(std::size_t tets) {
  std::vector<materials::Material> m(tets);
  for (std::size_t t = 0; t < tets; ++t) m[t] = t % 2 ? soft(1e5, 0.45, 1000.0) : soft(3e5, 0.3, 1500.0);
  return m;
}

Vec12 stack(std::span<const Vec3> x, const Tet& tet) {
  Vec12 e;
  for (int a = 0; a < 4; ++a) e.segment<3>(3 * a) = x[static_cast<std::size_t>(tet[a])];
  return e;
}

// The element stiffness and force of the kernels, independently of FemForceModel.
Mat12 kernel_stiffness(ElementKind kind, const materials::Material& m, const Mat3& dminv, double V,
                       const Vec12& X, const Vec12& x) {
  const Mat12 K0 = tet_stiffness(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6), X.segment<3>(9), m);
  switch (kind) {
    case ElementKind::linear:
      return K0;
    case ElementKind::corotational:
      return corotational_stiffness(K0, corotational_rotation(dminv, x));
    case ElementKind::stvk:
      return hyperelastic_stiffness(Hyperelastic::stvk, m, dminv, V, x, Definiteness::projected);
    case ElementKind::stable_neo_hookean:
      return hyperelastic_stiffness(Hyperelastic::stable_neo_hookean, m, dminv, V, x,
                                    Definiteness::projected);
  }
  return Mat12::Zero();
}

Vec12 kernel_force(ElementKind kind, const materials::Material& m, const Mat3& dminv, double V,
                   const Vec12& X, const Vec12& x) {
  const Mat12 K0 = tet_stiffness(X.segment<3>(0), X.segment<3>(3), X.segment<3>(6), X.segment<3>(9), m);
  switch (kind) {
    case ElementKind::linear:
      return -K0 * (x - X);
    case ElementKind::corotational:
      return corotational_force(K0, corotational_rotation(dminv, x), X, x);
    case ElementKind::stvk:
      return hyperelastic_force(Hyperelastic::stvk, m, dminv, V, x);
    case ElementKind::stable_neo_hookean:
      return hyperelastic_force(Hyperelastic::stable_neo_hookean, m, dminv, V, x);
  }
  return Vec12::Zero();
}

// A bent and twisted state of the beam with some noise.
std::vector<Vec3> deformed(const TetMesh& mesh, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.02, 0.02);
  std::vector<Vec3> x(mesh.positions);
  for (Vec3& p : x) {
    const double s = p.x();
    const Eigen::AngleAxisd twist(0.4 * s, Vec3::UnitX());
    p = twist * Vec3(p.x(), p.y() - 0.5, p.z() - 0.5) + Vec3(0.0, 0.5 + 0.08 * s * s, 0.5);
    p += Vec3(u(rng), u(rng), u(rng));
  }
  return x;
}

TEST(FemForceModel, ForcesAndStiffnessProductsEqualTheElementKernels) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const auto mats = alternating(mesh.tet_count());
  const std::vector<Vec3> x = deformed(mesh, 3);
  std::vector<Vec3> v(mesh.node_count()), p(mesh.node_count());
  std::mt19937 rng(5);
  std::normal_distribution<double> n(0.0, 1.0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = Vec3(n(rng), n(rng), n(rng));
    p[i] = Vec3(n(rng), n(rng), n(rng));
  }
  for (ElementKind kind : kAllKinds) {
    SCOPED_TRACE(element_kind_name(kind));
    FemBodyDef def{.element = kind,
                   .rayleigh_alpha = 0.7,
                   .rayleigh_beta = 0.013,
                   .gravity = Vec3(0, -9.81, 0.5),
                   .fixed_nodes = {0, 5}};
    auto model = FemForceModel::build(mesh, mats, def);
    ASSERT_TRUE(model) << model.message();
    model->set_point_force(7, Vec3(1.0, -2.0, 3.0));

    // Independent: kernels scattered, lumped masses from the mass module.
    const std::size_t N = mesh.node_count();
    std::vector<Vec3> f_ref(N, Vec3::Zero()), kp_ref(N, Vec3::Zero());
    std::vector<double> density(mesh.tet_count());
    for (std::size_t t = 0; t < mesh.tet_count(); ++t) density[t] = mats[t].density;
    const std::vector<double> mass = assemble_lumped_mass(mesh, density).value();
    const TetRestShape shape = build_rest_shape(mesh).value();
    for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
      const Tet& tet = mesh.tets[t];
      const Vec12 X = stack(mesh.positions, tet), xe = stack(x, tet);
      const Mat12 K = kernel_stiffness(kind, mats[t], shape.dm_inverse[t], shape.volume[t], X, xe);
      const Vec12 fe = kernel_force(kind, mats[t], shape.dm_inverse[t], shape.volume[t], X, xe) -
                       def.rayleigh_beta * K * stack(v, tet);
      const Vec12 kp = K * stack(p, tet);
      for (int a = 0; a < 4; ++a) {
        f_ref[static_cast<std::size_t>(tet[a])] += fe.segment<3>(3 * a);
        kp_ref[static_cast<std::size_t>(tet[a])] += kp.segment<3>(3 * a);
      }
    }
    for (std::size_t i = 0; i < N; ++i) {
      f_ref[i] += mass[i] * (def.gravity - def.rayleigh_alpha * v[i]);
      if (i == 7) f_ref[i] += Vec3(1.0, -2.0, 3.0);
    }
    std::vector<Vec3> f(N), kp(N, Vec3::Ones()), dp(N, Vec3::Zero());
    model->forces(x, v, f);
    model->add_stiffness_product(x, p, 2.0, kp);
    model->add_damping_product(x, p, 1.0, dp);
    double fmax = 0.0, kmax = 0.0, ferr = 0.0, kerr = 0.0, derr = 0.0;
    for (std::size_t i = 0; i < N; ++i) {
      fmax = std::max(fmax, f_ref[i].norm());
      kmax = std::max(kmax, kp_ref[i].norm());
      ferr = std::max(ferr, (f[i] - f_ref[i]).norm());
      kerr = std::max(kerr, (kp[i] - Vec3::Ones() - 2.0 * kp_ref[i]).norm());
      derr = std::max(derr, (dp[i] - def.rayleigh_beta * kp_ref[i]).norm());
      EXPECT_DOUBLE_EQ(model->mass()[i], mass[i]);
    }
    EXPECT_EQ(model->inverse_mass()[0], 0.0);
    EXPECT_EQ(model->inverse_mass()[5], 0.0);
    EXPECT_DOUBLE_EQ(model->inverse_mass()[1], 1.0 / mass[1]);
    EXPECT_LT(ferr, 1e-10 * fmax);
    EXPECT_LT(kerr, 1e-10 * kmax);
    EXPECT_LT(derr, 1e-10 * kmax * def.rayleigh_beta);
    // element_stiffness is the same matrix the products use.
    for (Index t : {0, 7, 23}) {
      const Tet& tet = mesh.tets[static_cast<std::size_t>(t)];
      const Mat12 K = kernel_stiffness(
          kind, mats[static_cast<std::size_t>(t)], shape.dm_inverse[static_cast<std::size_t>(t)],
          shape.volume[static_cast<std::size_t>(t)], stack(mesh.positions, tet), stack(x, tet));
      EXPECT_LT((model->element_stiffness(x, t) - K).norm(), 1e-10 * K.norm());
    }
    // The bulk version (cached rotations or ∂P/∂F) gives the same matrices, also at positions the
    // cache has not seen yet.
    for (const std::vector<Vec3>* at : {&x, &mesh.positions}) {
      std::vector<Mat12> all(mesh.tet_count());
      model->element_stiffnesses(*at, all);
      for (std::size_t t = 0; t < all.size(); ++t) {
        const Mat12 K = model->element_stiffness(*at, static_cast<Index>(t));
        EXPECT_LE((all[t] - K).norm(), 1e-12 * K.norm()) << t;
      }
    }
  }
}

TEST(FemForceModel, RigidMotionGivesNoForce) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const auto mats = alternating(mesh.tet_count());
  const Vec3 c(2.0, 0.5, 0.5);
  for (ElementKind kind : {ElementKind::corotational, ElementKind::stvk, ElementKind::stable_neo_hookean}) {
    SCOPED_TRACE(element_kind_name(kind));
    auto model = FemForceModel::build(mesh, mats, {.element = kind, .rayleigh_beta = 0.05});
    ASSERT_TRUE(model) << model.message();
    for (double angle : {0.5 * std::numbers::pi, std::numbers::pi, 2.3}) {
      const Mat3 Q = Eigen::AngleAxisd(angle, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
      const Vec3 w(0.3, -1.0, 2.0), t(5.0, -3.0, 1.0);
      std::vector<Vec3> x(mesh.node_count()), v(mesh.node_count()), f(mesh.node_count());
      for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = Q * (mesh.positions[i] - c) + c + t;
        v[i] = w.cross(x[i] - c - t) + Vec3(1, 1, 1);  // rigid velocity: no strain rate either
      }
      model->forces(x, v, f);
      double err = 0.0;
      for (const Vec3& fi : f) err = std::max(err, fi.norm());
      // Force scale of a unit strain: E h² = 3e5 N.
      EXPECT_LT(err, 1e-9 * 3e5) << "angle " << angle;
    }
  }
}

TEST(FemForceModel, ResultsDoNotDependOnTheThreadCount) {
  const TetMesh mesh = test::box(Vec3(14, 6, 6), {14, 6, 6});  // 3024 tets: the parallel path
  const auto mats = alternating(mesh.tet_count());
  std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3(0.1, 0.2, -0.3));
  for (Vec3& p : x) p += 0.01 * Vec3(std::sin(p.x()), std::cos(p.y() * p.z()), p.x() * p.y() * 0.01);
  for (ElementKind kind : {ElementKind::corotational, ElementKind::stable_neo_hookean}) {
    auto model = FemForceModel::build(mesh, mats, {.element = kind, .rayleigh_beta = 0.01});
    ASSERT_TRUE(model);
    std::vector<Vec3> f1(x.size()), f2(x.size()), k1(x.size(), Vec3::Zero()), k2(x.size(), Vec3::Zero());
    set_threads(1);
    model->forces(x, v, f1);
    model->add_stiffness_product(x, v, 1.0, k1);
    set_threads(2);
    model->forces(x, v, f2);
    model->add_stiffness_product(x, v, 1.0, k2);
    set_threads(0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(f1[i], f2[i]) << "node " << i;
      ASSERT_EQ(k1[i], k2[i]) << "node " << i;
    }
  }
}

TEST(FemForceModel, BuildRejectsBadInput) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const auto mats = alternating(mesh.tet_count());
  EXPECT_FALSE(FemForceModel::build(mesh, std::span(mats).first(2), {}));
  EXPECT_FALSE(FemForceModel::build(mesh, mats, {.rayleigh_alpha = -1.0}));
  EXPECT_FALSE(FemForceModel::build(mesh, mats, {.fixed_nodes = {1000}}));
  TetMesh bad = mesh;
  std::swap(bad.tets[3][0], bad.tets[3][1]);  // inverted
  EXPECT_FALSE(FemForceModel::build(bad, mats, {}));
  EXPECT_TRUE(parse_element_kind("neo_hookean"));
  EXPECT_FALSE(parse_element_kind("neohookean"));
  EXPECT_FALSE(FemForceModel::build(mesh, mats, {.tet_elements = {ElementKind::linear}}));
}

// Per-tet element kinds: each tet is the element its kind says (its stiffness is that of a body of that
// kind), products are the sum of those stiffnesses, and the forces are minus the gradient of the mixed
// energy.
TEST(FemForceModel, PerTetElementKindsMixElements) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const auto mats = alternating(mesh.tet_count());
  const ElementKind kinds[] = {ElementKind::linear, ElementKind::corotational,
                               ElementKind::stable_neo_hookean};
  FemBodyDef def;
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) def.tet_elements.push_back(kinds[t % 3]);
  auto mixed = FemForceModel::build(mesh, mats, def);
  ASSERT_TRUE(mixed) << mixed.message();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  std::vector<Vec3> x = mesh.positions, p(mesh.node_count()), zero(mesh.node_count(), Vec3::Zero());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Vec3 q = mesh.positions[i];
    x[i] = Vec3(q.x() * std::cos(0.6) - q.y() * std::sin(0.6), q.x() * std::sin(0.6) + q.y() * std::cos(0.6),
                q.z()) +
           Vec3(u(rng), u(rng), u(rng));
    p[i] = Vec3(u(rng), u(rng), u(rng));
  }
  std::vector<Vec3> y(x.size(), Vec3::Zero()), expected(x.size(), Vec3::Zero());
  mixed->add_stiffness_product(x, p, 1.0, y);
  for (ElementKind kind : kinds) {
    auto pure = FemForceModel::build(mesh, mats, {.element = kind});
    ASSERT_TRUE(pure);
    for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
      if (kinds[t % 3] != kind) continue;
      const Mat12 K = pure->element_stiffness(x, static_cast<Index>(t));
      EXPECT_LT((mixed->element_stiffness(x, static_cast<Index>(t)) - K).norm(), 1e-9 * K.norm());
      Vec12 pe;
      for (int a = 0; a < 4; ++a) pe.segment<3>(3 * a) = p[static_cast<std::size_t>(mesh.tets[t][a])];
      const Vec12 ye = K * pe;
      for (int a = 0; a < 4; ++a) expected[static_cast<std::size_t>(mesh.tets[t][a])] += ye.segment<3>(3 * a);
    }
  }
  double scale = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    scale = std::max(scale, expected[i].norm());
    worst = std::max(worst, (y[i] - expected[i]).norm());
  }
  EXPECT_LT(worst, 1e-9 * scale);
  // f = -∂E/∂x by central differences on a few DOFs.
  std::vector<Vec3> f(x.size());
  mixed->forces(x, zero, f);
  for (std::size_t i : {std::size_t{3}, std::size_t{11}, x.size() - 2})
    for (int c = 0; c < 3; ++c) {
      const double h = 1e-6;
      std::vector<Vec3> xp = x, xm = x;
      xp[i][c] += h;
      xm[i][c] -= h;
      const double derivative = (mixed->elastic_energy(xp) - mixed->elastic_energy(xm)) / (2 * h);
      EXPECT_NEAR(f[i][c], -derivative, 1e-5 * (std::abs(derivative) + f[i].norm() + 1.0));
    }
}

// The lowest mode of the clamped linear beam: K φ = ω² M φ on the free DOFs, M lumped, φᵀ M φ = 1.
struct Mode {
  double omega = 0.0;
  std::vector<Vec3> shape;  // per node, zero on fixed nodes
  double omega_max = 0.0;
};

Mode lowest_mode(const TetMesh& mesh, const FemForceModel& model) {
  const SparseMatrix K = assemble_stiffness(mesh, model.material(0));
  std::vector<int> free;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (model.inverse_mass()[i] != 0.0)
      for (int c = 0; c < 3; ++c) free.push_back(static_cast<int>(3 * i) + c);
  const auto nf = static_cast<Eigen::Index>(free.size());
  const Eigen::MatrixXd Kd(K);
  Eigen::MatrixXd Kf(nf, nf), Mf = Eigen::MatrixXd::Zero(nf, nf);
  for (Eigen::Index a = 0; a < nf; ++a) {
    for (Eigen::Index b = 0; b < nf; ++b) Kf(a, b) = Kd(free[a], free[b]);
    Mf(a, a) = model.mass()[static_cast<std::size_t>(free[a] / 3)];
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(Kf, Mf);
  Mode mode;
  mode.omega = std::sqrt(eig.eigenvalues()(0));
  mode.omega_max = std::sqrt(eig.eigenvalues()(nf - 1));
  mode.shape.assign(mesh.node_count(), Vec3::Zero());
  for (Eigen::Index a = 0; a < nf; ++a) mode.shape[free[a] / 3][free[a] % 3] = eig.eigenvectors()(a, 0);
  return mode;
}

double modal_coordinate(const FemForceModel& model, const Mode& mode, std::span<const Vec3> x) {
  double q = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    q += model.mass()[i] * mode.shape[i].dot(x[i] - model.rest_positions()[i]);
  return q;
}

TEST(FemForceModel, SingleModeOscillatesWithTheAnalyticPeriodAndRayleighDecay) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft(1e5, 0.3, 1000.0);
  std::vector<Index> fixed = test::nodes_at(mesh, 0, 0.0);
  auto probe =
      FemForceModel::build(mesh, std::span(&mat, 1), {.element = ElementKind::linear, .fixed_nodes = fixed});
  ASSERT_TRUE(probe);
  const Mode mode = lowest_mode(mesh, *probe);
  // Damping ratio 0.02 from each Rayleigh term at ω: α/(2ω) = βω/2 = 0.02; decay rate δ = (α + βω²)/2.
  const double w = mode.omega, alpha = 0.04 * w, beta = 0.04 / w;
  const double delta = 0.5 * (alpha + beta * w * w), wd = w * std::sqrt(1.0 - (delta / w) * (delta / w));
  auto model = FemForceModel::build(
      mesh, std::span(&mat, 1),
      {.element = ElementKind::linear, .rayleigh_alpha = alpha, .rayleigh_beta = beta, .fixed_nodes = fixed});
  ASSERT_TRUE(model);
  const double h = 0.004 / w;
  const double period = 2.0 * std::numbers::pi / wd;
  const int steps = static_cast<int>(2.3 * period / h);
  for (dynamics::Scheme scheme : {dynamics::Scheme::symplectic_euler, dynamics::Scheme::backward_euler,
                                  dynamics::Scheme::newmark, dynamics::Scheme::central_difference}) {
    SCOPED_TRACE(dynamics::scheme_name(scheme));
    std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += 0.01 * mode.shape[i];
    dynamics::Integrator integrator({.scheme = scheme, .dt = h, .cg_tolerance = 1e-10});
    std::vector<double> q{modal_coordinate(*model, mode, x)};
    for (int s = 0; s < steps; ++s) {
      integrator.step(*model, x, v);
      q.push_back(modal_coordinate(*model, mode, x));
    }
    // Interior maxima, refined by a parabola through three samples: times and values.
    std::vector<double> tmax, qmax;
    for (std::size_t k = 1; k + 1 < q.size(); ++k) {
      if (!(q[k] > q[k - 1] && q[k] >= q[k + 1])) continue;
      const double a = 0.5 * (q[k - 1] + q[k + 1]) - q[k], b = 0.5 * (q[k + 1] - q[k - 1]);
      const double s = -b / (2.0 * a);
      tmax.push_back((static_cast<double>(k) + s) * h);
      qmax.push_back(q[k] + b * s + a * s * s);
    }
    ASSERT_EQ(tmax.size(), 2u);
    const double measured_period = tmax[1] - tmax[0];
    const double measured_delta = std::log(qmax[0] / qmax[1]) / measured_period;
    // Backward Euler adds its own damping, ln(1 + (ωh)²)/(2h) ≈ ω²h/2 for an undamped mode.
    const double expected_delta =
        delta + (scheme == dynamics::Scheme::backward_euler ? std::log1p(w * h * w * h) / (2.0 * h) : 0.0);
    EXPECT_NEAR(measured_period / period, 1.0, 1e-3);
    EXPECT_NEAR(measured_delta / expected_delta, 1.0, 0.005);
  }
}

TEST(FemForceModel, SymplecticEulerEnergyStaysBoundedAndBackwardEulerEnergyDecays) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft(1e5, 0.3, 1000.0);
  const std::vector<Index> fixed = test::nodes_at(mesh, 0, 0.0);
  for (ElementKind kind : {ElementKind::linear, ElementKind::corotational, ElementKind::stable_neo_hookean}) {
    SCOPED_TRACE(element_kind_name(kind));
    auto model = FemForceModel::build(mesh, std::span(&mat, 1), {.element = kind, .fixed_nodes = fixed});
    ASSERT_TRUE(model);
    const Mode mode = lowest_mode(mesh, *model);
    // A large swing: the tip moves by about a third of the beam's length.
    std::vector<Vec3> x0(mesh.positions);
    double tip = 0.0;
    for (const Vec3& s : mode.shape) tip = std::max(tip, s.norm());
    for (std::size_t i = 0; i < x0.size(); ++i) x0[i] += (1.3 / tip) * mode.shape[i];
    const std::vector<Vec3> v0(mesh.node_count(), Vec3::Zero());
    const double e0 = model->elastic_energy(x0);
    ASSERT_GT(e0, 0.0);
    {
      std::vector<Vec3> x(x0), v(v0);
      dynamics::Integrator se({.scheme = dynamics::Scheme::symplectic_euler, .dt = 0.2 / mode.omega_max});
      const int steps = static_cast<int>(3.0 * 2.0 * std::numbers::pi / mode.omega / se.def().dt);
      double lo = e0, hi = e0;
      for (int s = 0; s < steps; ++s) {
        se.step(*model, x, v);
        const double e = model->elastic_energy(x) + model->kinetic_energy(v);
        lo = std::min(lo, e);
        hi = std::max(hi, e);
      }
      EXPECT_GT(lo, 0.9 * e0);
      EXPECT_LT(hi, 1.1 * e0);
    }
    {
      std::vector<Vec3> x(x0), v(v0);
      const double h = 0.5 / mode.omega;
      dynamics::Integrator be({.scheme = dynamics::Scheme::backward_euler, .dt = h, .cg_tolerance = 1e-12});
      double previous = e0;
      for (int s = 0; s < 40; ++s) {
        be.step(*model, x, v);
        const double e = model->elastic_energy(x) + model->kinetic_energy(v);
        // Exactly monotone for the linear element; the nonlinear ones may wobble within 1 %.
        EXPECT_LT(e, previous * (kind == ElementKind::linear ? 1.0 + 1e-9 : 1.01)) << "step " << s;
        previous = std::min(previous, e);
      }
      EXPECT_LT(previous, 0.3 * e0);
    }
  }
}

// Surface loads: the boundary triangles of the box (volume node ids, outward).
std::vector<Tri> boundary_triangles(const TetMesh& mesh, auto keep) {
  const BoundarySurface b = extract_boundary(mesh);
  std::vector<Tri> out;
  for (const Tri& t : b.mesh.triangles) {
    Tri v;
    for (int c = 0; c < 3; ++c) v[c] = b.volume_node[static_cast<std::size_t>(t[c])];
    if (keep(v)) out.push_back(v);
  }
  return out;
}

// The load's share of forces(): forces with the load minus forces without it.
std::vector<Vec3> load_forces(const TetMesh& mesh, const SurfaceLoad& load, std::span<const Vec3> x) {
  FemBodyDef with{.element = ElementKind::corotational};
  with.surface_loads = {load};
  const auto m = soft(1e5, 0.3, 1000.0);
  const FemForceModel loaded = FemForceModel::build(mesh, {&m, 1}, with).value();
  const FemForceModel bare =
      FemForceModel::build(mesh, {&m, 1}, {.element = ElementKind::corotational}).value();
  const std::vector<Vec3> v(x.size(), Vec3::Zero());
  std::vector<Vec3> fa(x.size()), fb(x.size());
  loaded.forces(x, v, fa);
  bare.forces(x, v, fb);
  for (std::size_t i = 0; i < x.size(); ++i) fa[i] -= fb[i];
  return fa;
}

// A uniform pressure on a closed surface, however deformed, has no net force and no net torque (∮ n dA
// = ∮ x × n dA = 0, exact for the consistent loads of flat triangles); a pressure on the end face
// turns with the body (a follower load), a traction does not (a dead load) and sums to traction × area.
TEST(FemForceModel, SurfaceLoadsBalanceAndFollowTheSurface) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const std::vector<Vec3> x = deformed(mesh, 5);
  SurfaceLoad closed{.triangles = boundary_triangles(mesh, [](const Tri&) { return true; }), .pressure = 1e3};
  const std::vector<Vec3> f = load_forces(mesh, closed, x);
  Vec3 net = Vec3::Zero(), torque = Vec3::Zero();
  double scale = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    net += f[i];
    torque += x[i].cross(f[i]);
    scale += f[i].norm();
  }
  EXPECT_GT(scale, 1e3);
  EXPECT_LT(net.norm(), 1e-12 * scale);
  EXPECT_LT(torque.norm(), 1e-12 * scale * 4.0);

  const auto on_end = [&](const Tri& t) {
    return std::all_of(t.begin(), t.end(),
                       [&](Index n) { return mesh.positions[static_cast<std::size_t>(n)].x() > 4.0 - 1e-9; });
  };
  const Mat3 R = Eigen::AngleAxisd(0.9, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  std::vector<Vec3> turned(mesh.positions.size());
  for (std::size_t i = 0; i < turned.size(); ++i) turned[i] = R * mesh.positions[i] + Vec3(0.3, -1, 2);
  const SurfaceLoad push{.triangles = boundary_triangles(mesh, on_end), .pressure = 250.0};
  const SurfaceLoad pull{.triangles = boundary_triangles(mesh, on_end), .traction = Vec3(10, -50, 5)};
  const std::vector<Vec3> p0 = load_forces(mesh, push, mesh.positions), p1 = load_forces(mesh, push, turned);
  const std::vector<Vec3> t0 = load_forces(mesh, pull, mesh.positions), t1 = load_forces(mesh, pull, turned);
  Vec3 push_total = Vec3::Zero(), pull_total = Vec3::Zero();
  for (std::size_t i = 0; i < p0.size(); ++i) {
    EXPECT_LT((p1[i] - R * p0[i]).norm(), 1e-10) << i;
    EXPECT_LT((t1[i] - t0[i]).norm(), 1e-10) << i;
    push_total += p0[i];
    pull_total += t0[i];
  }
  EXPECT_LT((push_total - Vec3(-250.0, 0.0, 0.0)).norm(), 1e-10);  // −p n A, A = 1 m²
  EXPECT_LT((pull_total - Vec3(10, -50, 5)).norm(), 1e-10);
}

// A bar with ν = 0 clamped at x = 0 and pulled by a traction σ on its end: u = (σ x / E, 0, 0) is the
// exact solution (no lateral contraction, so the clamp does not disturb it), and linear tets
// reproduce linear fields, so the free nodes are in equilibrium there to round-off.
TEST(FemForceModel, EndTractionOnABarIsInEquilibriumAtTheUniaxialSolution) {
  const TetMesh mesh = test::box(Vec3(2, 0.5, 0.5), {4, 1, 1});
  const double E = 2e5, sigma = 3e3;
  const auto m = soft(E, 0.0, 1000.0);
  FemBodyDef def{.element = ElementKind::linear, .fixed_nodes = test::nodes_at(mesh, 0, 0.0)};
  def.surface_loads = {{.triangles = boundary_triangles(
                            mesh,
                            [&](const Tri& t) {
                              return std::all_of(t.begin(), t.end(), [&](Index n) {
                                return mesh.positions[static_cast<std::size_t>(n)].x() > 2.0 - 1e-9;
                              });
                            }),
                        .traction = Vec3(sigma, 0.0, 0.0)}};
  const FemForceModel model = FemForceModel::build(mesh, {&m, 1}, def).value();
  std::vector<Vec3> x(mesh.positions);
  for (Vec3& p : x) p.x() += sigma * p.x() / E;
  const std::vector<Vec3> v(x.size(), Vec3::Zero());
  std::vector<Vec3> f(x.size());
  model.forces(x, v, f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (model.inverse_mass()[i] == 0.0) continue;
    EXPECT_LT(f[i].norm(), 1e-9 * sigma) << "node " << i;
  }
  // Bad loads are refused with one line.
  FemBodyDef bad = def;
  bad.surface_loads[0].triangles.push_back({0, 1, static_cast<Index>(mesh.node_count())});
  EXPECT_NE(FemForceModel::build(mesh, {&m, 1}, bad).message().find("out of range"), std::string::npos);
  bad = def;
  bad.surface_loads[0].pressure = std::nan("");
  EXPECT_NE(FemForceModel::build(mesh, {&m, 1}, bad).message().find("finite"), std::string::npos);
}

}  // namespace
}  // namespace pliant::fem
