// Consistent mass in the dynamic FEM body: its products, damping, gravity and kinetic energy against the
// assembled matrix of mass.hpp; a single mode oscillating with the period of K φ = λ M φ for the consistent
// M (and not the lumped one); momentum and free fall; the linear solvers and the matrix-free integrator
// agreeing.
#include "fem_test_util.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/mass.hpp"
#include "pliant/models/fem/hybrid/hybrid_solver.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"
#include "vector_fields.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>
#include <vector>

namespace pliant::fem {
namespace {

materials::Material soft() { return materials::material_from_young_poisson(1e5, 0.3, 1000.0).value(); }

TEST(ConsistentMass, ProductsDampingGravityAndEnergyMatchTheAssembledMatrix) {
  TetMesh mesh = test::box(Vec3(0.4, 0.1, 0.1), {4, 1, 1});
  test::jitter_interior(mesh, Vec3(0.4, 0.1, 0.1), 0.1, 0.2);
  const materials::Material mat = soft();
  const Vec3 g(0.5, -9.81, 1.0);
  auto model = FemForceModel::build(
      mesh, std::span(&mat, 1),
      {.element = ElementKind::linear, .mass = MassKind::consistent, .rayleigh_alpha = 3.0, .gravity = g});
  ASSERT_TRUE(model) << model.message();
  std::vector<double> density(mesh.tet_count(), mat.density);
  const SparseMatrix M = assemble_consistent_mass(mesh, density).value();
  const std::size_t n = mesh.node_count();

  const std::vector<Vec3> p = pliant::test::random_field(n, 1);
  std::vector<Vec3> y(n, Vec3::Zero());
  model->add_mass_product(p, 2.0, y);
  EXPECT_LT((pliant::test::flatten(y) - 2.0 * (M * pliant::test::flatten(p))).norm(),
            1e-12 * pliant::test::flatten(y).norm());

  // Row sums are the lumped masses: M 1 = m, so the total mass and the momentum 1ᵀ M v = Σ m_i v_i agree.
  const Eigen::VectorXd ones = Eigen::VectorXd::Ones(3 * static_cast<Eigen::Index>(n));
  const Eigen::VectorXd row_sums = M * ones;
  double total = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(row_sums[3 * static_cast<Eigen::Index>(i)], model->mass()[i], 1e-14);
    total += model->mass()[i];
  }
  EXPECT_NEAR(total, mat.density * 0.4 * 0.1 * 0.1, 1e-12);

  // forces() at rest with velocity v: gravity M g (= m_i g) and damping -α M v.
  std::vector<Vec3> gravity(n, g), f(n);
  model->forces(mesh.positions, p, f);
  const Eigen::VectorXd expected = M * pliant::test::flatten(gravity) - 3.0 * (M * pliant::test::flatten(p));
  EXPECT_LT((pliant::test::flatten(f) - expected).norm(), 1e-12 * expected.norm());
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_LT(((M * pliant::test::flatten(gravity)).segment<3>(3 * static_cast<Eigen::Index>(i)) -
               model->mass()[i] * g)
                  .norm(),
              1e-13);

  EXPECT_NEAR(model->kinetic_energy(p), 0.5 * pliant::test::flatten(p).dot(M * pliant::test::flatten(p)),
              1e-14);
}

// The clamped beam's lowest mode of K φ = λ M φ on the free DOFs for the given mass.
struct Mode {
  double lambda;
  std::vector<Vec3> shape;  // per node, zero on fixed nodes
};

Mode lowest_mode(const TetMesh& mesh, const materials::Material& mat, std::span<const Index> fixed,
                 bool consistent) {
  const std::size_t n = mesh.node_count();
  std::vector<double> density(mesh.tet_count(), mat.density);
  Eigen::MatrixXd K = Eigen::MatrixXd(assemble_stiffness(mesh, mat));
  Eigen::MatrixXd M;
  if (consistent) {
    M = Eigen::MatrixXd(assemble_consistent_mass(mesh, density).value());
  } else {
    const std::vector<double> m = assemble_lumped_mass(mesh, density).value();
    M = Eigen::MatrixXd::Zero(3 * static_cast<Eigen::Index>(n), 3 * static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c)
        M(3 * static_cast<Eigen::Index>(i) + c, 3 * static_cast<Eigen::Index>(i) + c) = m[i];
  }
  std::vector<char> is_fixed(n, 0);
  for (Index i : fixed) is_fixed[static_cast<std::size_t>(i)] = 1;
  std::vector<Eigen::Index> dofs;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_fixed[i])
      for (int c = 0; c < 3; ++c) dofs.push_back(3 * static_cast<Eigen::Index>(i) + c);
  const auto nd = static_cast<Eigen::Index>(dofs.size());
  Eigen::MatrixXd Kf(nd, nd), Mf(nd, nd);
  for (Eigen::Index a = 0; a < nd; ++a)
    for (Eigen::Index b = 0; b < nd; ++b) {
      Kf(a, b) = K(dofs[static_cast<std::size_t>(a)], dofs[static_cast<std::size_t>(b)]);
      Mf(a, b) = M(dofs[static_cast<std::size_t>(a)], dofs[static_cast<std::size_t>(b)]);
    }
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eig(Kf, Mf);
  Mode mode{eig.eigenvalues()[0], std::vector<Vec3>(n, Vec3::Zero())};
  for (Eigen::Index a = 0; a < nd; ++a) {
    const Eigen::Index dof = dofs[static_cast<std::size_t>(a)];
    mode.shape[static_cast<std::size_t>(dof / 3)][static_cast<int>(dof % 3)] = eig.eigenvectors()(a, 0);
  }
  return mode;
}

// Period of q(t) = φᵀ (x - X) from its downward zero crossings (linear interpolation), over `periods`.
template <typename Step>
double measured_period(const TetMesh& mesh, const Mode& mode, double h, int steps, Step&& step) {
  std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
  const double amplitude = 1e-4;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += amplitude * mode.shape[i];
  auto q = [&] {
    double s = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) s += mode.shape[i].dot(x[i] - mesh.positions[i]);
    return s;
  };
  std::vector<double> crossings;
  double previous = q();
  for (int k = 1; k <= steps; ++k) {
    step(x, v);
    const double now = q();
    if (previous > 0.0 && now <= 0.0) crossings.push_back((k - 1 + previous / (previous - now)) * h);
    previous = now;
  }
  EXPECT_GE(crossings.size(), 3u);
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

TEST(ConsistentMass, OneModeOscillatesWithTheConsistentGeneralisedEigenvalue) {
  const TetMesh mesh = test::box(Vec3(0.5, 0.1, 0.1), {5, 1, 1});
  const materials::Material mat = soft();
  const std::vector<Index> clamp = test::nodes_at(mesh, 0, 0.0);
  const Mode consistent = lowest_mode(mesh, mat, clamp, true);
  const Mode lumped = lowest_mode(mesh, mat, clamp, false);
  const double period_c = 2.0 * std::numbers::pi / std::sqrt(consistent.lambda);
  const double period_l = 2.0 * std::numbers::pi / std::sqrt(lumped.lambda);
  ASSERT_GT(std::abs(period_c / period_l - 1.0), 0.01);  // 1.7 %: more than the tolerances below

  for (const MassKind kind : {MassKind::consistent, MassKind::lumped}) {
    const Mode& mode = kind == MassKind::consistent ? consistent : lumped;
    const double period = kind == MassKind::consistent ? period_c : period_l;
    auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                      {.element = ElementKind::linear, .mass = kind, .fixed_nodes = clamp});
    ASSERT_TRUE(model);
    const double h = period / 100.0;
    for (LinearSolverKind solver : {LinearSolverKind::cholmod, LinearSolverKind::pcg}) {
      SCOPED_TRACE(std::string(mass_kind_name(kind)) + " " + linear_solver_name(solver));
      auto newmark = ImplicitSolver::build(
          *model, {.scheme = ImplicitScheme::newmark, .dt = h, .solver = solver, .pcg_tolerance = 1e-12});
      ASSERT_TRUE(newmark);
      const double measured = measured_period(
          mesh, mode, h, 350, [&](std::span<Vec3> x, std::span<Vec3> v) { newmark->step(x, v); });
      // Average acceleration advances a mode by 2 atan(ωh/2) per step: exact up to the crossing estimate.
      const double discrete =
          2.0 * std::numbers::pi * h / (2.0 * std::atan(std::sqrt(mode.lambda) * h / 2.0));
      EXPECT_NEAR(measured / discrete, 1.0, 1e-4);
      EXPECT_NEAR(measured / period, 1.0, 1e-3);
    }
    // Houbolt through dynamics::Integrator (its mass products and start-up solve), second order.
    dynamics::Integrator houbolt(
        {.scheme = dynamics::Scheme::houbolt, .dt = h, .cg_tolerance = 1e-12, .cg_max_iterations = 2000});
    const double measured = measured_period(
        mesh, mode, h, 350, [&](std::span<Vec3> x, std::span<Vec3> v) { houbolt.step(*model, x, v); });
    EXPECT_NEAR(measured / period, 1.0, 5e-3) << mass_kind_name(kind) << " houbolt";
  }
}

TEST(ConsistentMass, SolversAndTheMatrixFreeIntegratorAgree) {
  TetMesh mesh = test::box(Vec3(0.4, 0.1, 0.1), {4, 1, 1});
  test::jitter_interior(mesh, Vec3(0.4, 0.1, 0.1), 0.1, 0.2);
  const materials::Material mat = soft();
  auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                    {.element = ElementKind::corotational,
                                     .mass = MassKind::consistent,
                                     .rayleigh_alpha = 2.0,
                                     .rayleigh_beta = 0.002,
                                     .gravity = Vec3(0, -9.81, 0),
                                     .fixed_nodes = test::nodes_at(mesh, 0, 0.0)});
  ASSERT_TRUE(model);
  for (const bool newmark : {false, true}) {
    dynamics::Integrator reference(
        {.scheme = newmark ? dynamics::Scheme::newmark : dynamics::Scheme::backward_euler,
         .dt = 0.005,
         .cg_tolerance = 1e-13,
         .cg_max_iterations = 4000});
    std::vector<Vec3> xr(mesh.positions), vr(mesh.node_count(), Vec3::Zero());
    std::vector<std::vector<Vec3>> trajectories;
    for (int s = 0; s < 20; ++s) reference.step(*model, xr, vr);
    for (LinearSolverKind kind :
         {LinearSolverKind::cholmod, LinearSolverKind::pcg, LinearSolverKind::rest_factor_pcg}) {
      SCOPED_TRACE(std::string(linear_solver_name(kind)) + (newmark ? " newmark" : " backward Euler"));
      auto solver = ImplicitSolver::build(
          *model, {.scheme = newmark ? ImplicitScheme::newmark : ImplicitScheme::backward_euler,
                   .dt = 0.005,
                   .solver = kind,
                   .pcg_tolerance = 1e-13});
      ASSERT_TRUE(solver);
      std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
      for (int s = 0; s < 20; ++s) EXPECT_TRUE(solver->step(x, v).converged);
      double swing = 0.0, difference = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        swing = std::max(swing, (x[i] - mesh.positions[i]).norm());
        difference = std::max(difference, (x[i] - xr[i]).norm());
      }
      EXPECT_GT(swing, 1e-3);
      EXPECT_LT(difference, 1e-9 * swing);
    }
  }
}

TEST(ConsistentMass, FreeBodyKeepsMomentumAndFallsUndeformed) {
  const TetMesh mesh = test::box(Vec3(0.3, 0.1, 0.1), {3, 1, 1});
  const materials::Material mat = soft();
  const std::size_t n = mesh.node_count();
  // A spinning, stretched free body without gravity: Σ m_i v_i (= 1ᵀ M v) is kept by both schemes.
  auto free_model = FemForceModel::build(
      mesh, std::span(&mat, 1),
      {.element = ElementKind::corotational, .mass = MassKind::consistent, .rayleigh_beta = 0.001});
  ASSERT_TRUE(free_model);
  for (const ImplicitScheme scheme : {ImplicitScheme::backward_euler, ImplicitScheme::newmark}) {
    auto solver =
        ImplicitSolver::build(*free_model, {.scheme = scheme, .dt = 0.01, .max_newton_iterations = 3});
    ASSERT_TRUE(solver);
    std::vector<Vec3> x(mesh.positions), v(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = Vec3(1.1 * x[i].x(), x[i].y(), x[i].z());
      v[i] = Vec3(0.2, 0.0, 0.1) + Vec3(0, 0, 3.0).cross(x[i]);
    }
    auto momentum = [&] {
      Vec3 p = Vec3::Zero();
      for (std::size_t i = 0; i < n; ++i) p += free_model->mass()[i] * v[i];
      return p;
    };
    const Vec3 p0 = momentum();
    for (int s = 0; s < 10; ++s) solver->step(x, v);
    EXPECT_LT((momentum() - p0).norm(), 1e-10 * p0.norm());
  }
  // Under gravity, M a = M g has the uniform solution a = g: no deformation, exact free fall (Newmark).
  auto falling = FemForceModel::build(
      mesh, std::span(&mat, 1),
      {.element = ElementKind::corotational, .mass = MassKind::consistent, .gravity = Vec3(0, -9.81, 0)});
  ASSERT_TRUE(falling);
  for (LinearSolverKind kind : {LinearSolverKind::cholmod, LinearSolverKind::pcg}) {
    auto solver = ImplicitSolver::build(
        *falling, {.scheme = ImplicitScheme::newmark, .dt = 0.01, .solver = kind, .pcg_tolerance = 1e-13});
    ASSERT_TRUE(solver);
    std::vector<Vec3> x(mesh.positions), v(n, Vec3::Zero());
    for (int s = 0; s < 10; ++s) solver->step(x, v);
    const double t = 0.1, drop = 0.5 * 9.81 * t * t;
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_LT((x[i] - (mesh.positions[i] + Vec3(0, -drop, 0))).norm(), 1e-10);
      EXPECT_LT((v[i] - Vec3(0, -9.81 * t, 0)).norm(), 1e-9);
    }
  }
}

TEST(ConsistentMass, HybridBodyRefusesIt) {
  const TetMesh mesh = test::box(Vec3(0.3, 0.1, 0.1), {3, 1, 1});
  const materials::Material mat = soft();
  std::vector<std::uint8_t> operational(mesh.tet_count(), 1);
  auto hybrid = HybridSolver::build(
      mesh, std::span(&mat, 1), {.mass = MassKind::consistent, .fixed_nodes = test::nodes_at(mesh, 0, 0.0)},
      operational, {.dt = 0.01});
  ASSERT_FALSE(hybrid);
  EXPECT_NE(hybrid.message().find("lumped mass"), std::string::npos) << hybrid.message();
}

}  // namespace
}  // namespace pliant::fem
