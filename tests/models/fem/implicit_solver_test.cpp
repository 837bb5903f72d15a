// The assembled implicit solver: agreement with the matrix-free dynamics::Integrator, Newton
// convergence of the nonlinear backward Euler equations, and quasi-static equilibrium against the linear
// static solution.
#include "pliant/models/fem/implicit/implicit_solver.hpp"

#include "fem_test_util.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <gtest/gtest.h>
#include <Eigen/Geometry>

#include <cmath>
#include <vector>

namespace pliant::fem {
namespace {
using linalg::SparseCholesky;

materials::Material soft() { return materials::material_from_young_poisson(1e5, 0.45, 1000.0).value(); }

double max_difference(std::span<const Vec3> a, std::span<const Vec3> b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

TEST(ImplicitSolver, LinearisedStepsEqualTheMatrixFreeIntegrator) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft();
  const FemBodyDef def{.element = ElementKind::corotational,
                       .rayleigh_alpha = 0.2,
                       .rayleigh_beta = 0.01,
                       .gravity = Vec3(0, -9.81, 0),
                       .fixed_nodes = test::nodes_at(mesh, 0, 0.0)};
  auto model = FemForceModel::build(mesh, std::span(&mat, 1), def);
  ASSERT_TRUE(model);
  for (const bool newmark : {false, true})
    for (LinearSolverKind kind :
         {LinearSolverKind::cholmod, LinearSolverKind::pcg, LinearSolverKind::rest_factor_pcg}) {
      SCOPED_TRACE(std::string(linear_solver_name(kind)) + (newmark ? " newmark" : " backward Euler"));
      auto solver = ImplicitSolver::build(
          *model, {.scheme = newmark ? ImplicitScheme::newmark : ImplicitScheme::backward_euler,
                   .dt = 0.02,
                   .solver = kind,
                   .pcg_tolerance = 1e-13});
      ASSERT_TRUE(solver) << solver.message();
      dynamics::Integrator reference(
          {.scheme = newmark ? dynamics::Scheme::newmark : dynamics::Scheme::backward_euler,
           .dt = 0.02,
           .cg_tolerance = 1e-13,
           .cg_max_iterations = 2000});
      std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero()), xr(x), vr(v);
      double swing = 0.0;
      for (int s = 0; s < 30; ++s) {
        const ImplicitReport report = solver->step(x, v);
        reference.step(*model, xr, vr);
        EXPECT_TRUE(report.converged);
        EXPECT_EQ(report.newton_iterations, 1);
        EXPECT_LT(report.relative_residual, 1e-10);
        swing = std::max(swing, max_difference(x, mesh.positions));
      }
      EXPECT_GT(swing, 0.1);  // a large swing: the rotations matter
      EXPECT_LT(max_difference(x, xr), 1e-9 * swing);
      EXPECT_LT(max_difference(v, vr), 1e-8 * swing / 0.02);
    }
}

TEST(ImplicitSolver, NewtonSolvesTheNonlinearBackwardEulerAndNewmarkEquations) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft();
  for (ElementKind kind : {ElementKind::stable_neo_hookean, ElementKind::stvk}) {
    SCOPED_TRACE(element_kind_name(kind));
    auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                      {.element = kind,
                                       .rayleigh_beta = 0.005,
                                       .gravity = Vec3(0, -9.81, 0),
                                       .fixed_nodes = test::nodes_at(mesh, 0, 0.0)});
    ASSERT_TRUE(model);
    const double h = 0.05;
    auto solver =
        ImplicitSolver::build(*model, {.dt = h, .max_newton_iterations = 20, .newton_tolerance = 1e-11});
    ASSERT_TRUE(solver);
    std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
    int most = 0;
    for (int s = 0; s < 10; ++s) {
      const std::vector<Vec3> x0(x), v0(v);
      const ImplicitReport report = solver->step(x, v);
      ASSERT_TRUE(report.converged);
      most = std::max(most, report.newton_iterations);
      ASSERT_LT(report.newton_iterations, 20);
      // Independent check of M (v⁺ - v) = h f(x⁺, v⁺) on the free nodes.
      std::vector<Vec3> f(x.size());
      model->forces(x, v, f);
      double res = 0.0, scale = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (model->inverse_mass()[i] == 0.0) continue;
        res = std::max(res, (model->mass()[i] * (v[i] - v0[i]) - h * f[i]).norm());
        scale = std::max(scale, h * model->mass()[i] * 9.81);
        EXPECT_LT((x[i] - x0[i] - h * v[i]).norm(), 1e-14 + 1e-12 * x[i].norm());
      }
      EXPECT_LT(res, 1e-8 * scale) << "step " << s;
    }
    EXPECT_GT(most, 1);  // genuinely nonlinear: more than one iteration was needed

    // Newmark: M a⁺ = f(x⁺, v⁺) with a⁺ recovered from v⁺ = v + h(a + a⁺)/2.
    auto newmark = ImplicitSolver::build(
        *model,
        {.scheme = ImplicitScheme::newmark, .dt = h, .max_newton_iterations = 20, .newton_tolerance = 1e-11});
    ASSERT_TRUE(newmark);
    std::vector<Vec3> f(x.size()), a(x.size());
    model->forces(x, v, f);
    for (std::size_t i = 0; i < x.size(); ++i) a[i] = model->inverse_mass()[i] * f[i];
    for (int s = 0; s < 10; ++s) {
      const std::vector<Vec3> x0(x), v0(v);
      const ImplicitReport report = newmark->step(x, v);
      ASSERT_TRUE(report.converged);
      ASSERT_LT(report.newton_iterations, 20);
      model->forces(x, v, f);
      double res = 0.0, scale = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (model->inverse_mass()[i] == 0.0) continue;
        const Vec3 a1 = 2.0 * (v[i] - v0[i]) / h - a[i];
        res = std::max(res, (model->mass()[i] * a1 - f[i]).norm());
        scale = std::max(scale, model->mass()[i] * 9.81);
        EXPECT_LT((x[i] - x0[i] - h * v0[i] - 0.25 * h * h * (a[i] + a1)).norm(),
                  1e-12 * (1.0 + x[i].norm()));
        a[i] = a1;
      }
      EXPECT_LT(res, 1e-7 * scale) << "step " << s;
    }
  }
}

// A corotational body turned rigidly by Q has A = M + c Q K0 Qᵀ = Q (M + c K0) Qᵀ, so the rest factor
// applied in the node frames is A's exact inverse (up to the float factor's rounding): one rest-factor CG
// iteration solves the step to 1e-6. Without the frames the same solve takes many iterations.
TEST(ImplicitSolver, RestFactorInRotatedNodeFramesIsExactForARigidlyTurnedBody) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {8, 2, 2});
  const materials::Material mat = soft();
  auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                    {.element = ElementKind::corotational, .gravity = Vec3(0, -9.81, 0)});
  ASSERT_TRUE(model);
  const Mat3 Q = Eigen::AngleAxisd(1.1, Vec3(0.3, -0.5, 0.8).normalized()).toRotationMatrix();
  std::vector<Vec3> x(mesh.node_count()), v(mesh.node_count());
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = Q * mesh.positions[i] + Vec3(1.0, 2.0, 3.0);
    v[i] = Vec3(0.1 * std::sin(3.0 * static_cast<double>(i)), 0.2, -0.1 * std::cos(static_cast<double>(i)));
  }
  std::vector<Vec3> xc(x), vc(v);
  auto rest = ImplicitSolver::build(
      *model, {.dt = 0.02, .solver = LinearSolverKind::rest_factor_pcg, .pcg_tolerance = 1e-6});
  auto cholmod = ImplicitSolver::build(*model, {.dt = 0.02});
  ASSERT_TRUE(rest && cholmod);
  const ImplicitReport report = rest->step(x, v);
  cholmod->step(xc, vc);
  EXPECT_EQ(report.cg_iterations, 1);
  EXPECT_LT(report.relative_residual, 1e-6);
  EXPECT_LT(max_difference(v, vc), 1e-5 * max_difference(vc, std::vector<Vec3>(v.size(), Vec3::Zero())));
}

// Convergence order against a fine run: halving dt divides BDF2's error at t = 1 s by about 4 and
// backward Euler's by about 2 (linear tets, exact CHOLMOD solves, a clamped beam falling from rest).
TEST(ImplicitSolver, Bdf2IsSecondOrderAccurateAndBackwardEulerFirst) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft();
  auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                    {.element = ElementKind::linear,
                                     .gravity = Vec3(0, -9.81, 0),
                                     .fixed_nodes = test::nodes_at(mesh, 0, 0.0)});
  ASSERT_TRUE(model);
  auto run = [&](ImplicitScheme scheme, int steps) {
    auto solver = ImplicitSolver::build(*model, {.scheme = scheme, .dt = 1.0 / steps});
    EXPECT_TRUE(solver) << solver.message();
    std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
    for (int k = 0; k < steps; ++k) solver->step(x, v);
    return x;
  };
  const std::vector<Vec3> reference = run(ImplicitScheme::bdf2, 2560);
  for (const ImplicitScheme scheme : {ImplicitScheme::bdf2, ImplicitScheme::backward_euler}) {
    const bool bdf2 = scheme == ImplicitScheme::bdf2;
    SCOPED_TRACE(bdf2 ? "bdf2" : "backward Euler");
    const double e20 = max_difference(run(scheme, 20), reference);
    const double e40 = max_difference(run(scheme, 40), reference);
    const double e80 = max_difference(run(scheme, 80), reference);
    for (const double ratio : {e20 / e40, e40 / e80}) {
      EXPECT_GT(ratio, bdf2 ? 3.3 : 1.7);
      EXPECT_LT(ratio, bdf2 ? 4.7 : 2.3);
    }
  }
}

// BDF2 restarts (with a backward Euler step) after the state was changed from outside: a solver stepped
// across such a change equals a new solver started there.
TEST(ImplicitSolver, Bdf2RestartsAfterAnOutsideChange) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft();
  auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                    {.element = ElementKind::corotational,
                                     .gravity = Vec3(0, -9.81, 0),
                                     .fixed_nodes = test::nodes_at(mesh, 0, 0.0)});
  ASSERT_TRUE(model);
  const ImplicitSolverDef def{.scheme = ImplicitScheme::bdf2, .dt = 0.02};
  auto stepped = ImplicitSolver::build(*model, def);
  ASSERT_TRUE(stepped);
  std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
  for (int k = 0; k < 5; ++k) stepped->step(x, v);
  for (Vec3& vi : v) vi *= 0.5;  // an outside change
  std::vector<Vec3> xf(x), vf(v);
  auto fresh = ImplicitSolver::build(*model, def);
  ASSERT_TRUE(fresh);
  for (int k = 0; k < 5; ++k) {
    stepped->step(x, v);
    fresh->step(xf, vf);
  }
  EXPECT_LT(max_difference(x, xf), 1e-12);
  EXPECT_LT(max_difference(v, vf), 1e-12);

  // Moving only kinematic nodes (the fixed end, a prescribed motion) keeps the history: the next step is
  // BDF2's, not the backward Euler restart a fresh solver takes from the same state.
  for (Index i : model->def().fixed_nodes) x[static_cast<std::size_t>(i)] += Vec3(0.0, 0.001, 0.0);
  std::vector<Vec3> xe(x), ve(v);
  auto euler = ImplicitSolver::build(*model, {.dt = 0.02});
  ASSERT_TRUE(euler);
  stepped->step(x, v);
  euler->step(xe, ve);
  EXPECT_GT(max_difference(v, ve), 1e-6);
}

TEST(ImplicitSolver, QuasiStaticMatchesTheLinearStaticSolution) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {8, 2, 2});
  const materials::Material mat = soft();
  const std::vector<Index> fixed = test::nodes_at(mesh, 0, 0.0);
  const Vec3 g(0, -0.01, 0);  // small load: tip deflection about 1e-4 of the length
  // The existing static path: K u = f on the free DOFs (DofMap + Cholesky).
  const SparseMatrix K = assemble_stiffness(mesh, mat);
  const DofMap dofs = DofMap::from_fixed_nodes(mesh, fixed).value();
  auto probe =
      FemForceModel::build(mesh, std::span(&mat, 1), {.element = ElementKind::linear, .fixed_nodes = fixed});
  ASSERT_TRUE(probe);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(mesh.node_count()));
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    f.segment<3>(3 * static_cast<Eigen::Index>(i)) = probe->mass()[i] * g;
  auto chol = SparseCholesky::factor(dofs.restrict_matrix(K));
  ASSERT_TRUE(chol);
  const Eigen::VectorXd u = dofs.expand(chol->solve(dofs.restrict_vector(f)));
  double umax = 0.0;
  for (Eigen::Index i = 0; i < u.size() / 3; ++i) umax = std::max(umax, u.segment<3>(3 * i).norm());
  ASSERT_GT(umax, 1e-5);

  for (ElementKind kind : {ElementKind::linear, ElementKind::corotational, ElementKind::stable_neo_hookean}) {
    for (LinearSolverKind solver_kind : {LinearSolverKind::cholmod, LinearSolverKind::pcg}) {
      SCOPED_TRACE(std::string(element_kind_name(kind)) + " " + linear_solver_name(solver_kind));
      auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                        {.element = kind, .gravity = g, .fixed_nodes = fixed});
      ASSERT_TRUE(model);
      auto solver = ImplicitSolver::build(*model, {.scheme = ImplicitScheme::quasi_static,
                                                   .solver = solver_kind,
                                                   .max_newton_iterations = 10,
                                                   .newton_tolerance = 1e-9,
                                                   .pcg_tolerance = 1e-12});
      ASSERT_TRUE(solver);
      std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
      const ImplicitReport report = solver->step(x, v);
      EXPECT_TRUE(report.converged);
      EXPECT_LE(report.newton_residual, 1e-9);
      double err = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i)
        err =
            std::max(err, (x[i] - mesh.positions[i] - u.segment<3>(3 * static_cast<Eigen::Index>(i))).norm());
      // Linear: the same equations. Nonlinear: they differ at second order in the strain (~1e-4 here).
      EXPECT_LT(err, (kind == ElementKind::linear ? 1e-9 : 2e-3) * umax);
      if (kind == ElementKind::linear && solver_kind == LinearSolverKind::cholmod) {
        EXPECT_EQ(report.newton_iterations, 1);
      }
    }
  }
  // The shared integrators' static step (matrix-free Jacobi-PCG on any ForceModel) reaches the same
  // linear static solution in one call.
  auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                    {.element = ElementKind::linear, .gravity = g, .fixed_nodes = fixed});
  ASSERT_TRUE(model);
  dynamics::Integrator integrator({.cg_tolerance = 1e-12, .cg_max_iterations = 5000});
  std::vector<Vec3> x(mesh.positions);
  EXPECT_LT(integrator.static_step(*model, x), 5000);
  double err = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    err = std::max(err, (x[i] - mesh.positions[i] - u.segment<3>(3 * static_cast<Eigen::Index>(i))).norm());
  EXPECT_LT(err, 1e-9 * umax);
  for (Index node : fixed)
    EXPECT_EQ(x[static_cast<std::size_t>(node)], mesh.positions[static_cast<std::size_t>(node)]);
}

// A grab without a rebuild: nodes held through FemForceModel::set_held_nodes and refresh_held_nodes step
// as a solver built on a model with those nodes fixed (the rebuild a grab used to cost), and after the
// release as a solver built without them, for every linear solver and both dynamic schemes.
TEST(ImplicitSolver, HeldNodesWithoutRebuildEqualARebuiltSolver) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {8, 2, 2});
  const materials::Material mat = soft();
  const FemBodyDef def{.element = ElementKind::corotational,
                       .rayleigh_alpha = 0.2,
                       .rayleigh_beta = 0.01,
                       .gravity = Vec3(0, -9.81, 0),
                       .fixed_nodes = test::nodes_at(mesh, 0, 0.0)};
  // Held: the tip face and the nodes of the top edge at x = 2 m.
  std::vector<Index> held = test::nodes_at(mesh, 0, 4.0);
  for (Index i : test::nodes_at(mesh, 0, 2.0))
    if (mesh.positions[static_cast<std::size_t>(i)].y() == 1.0) held.push_back(i);
  FemBodyDef held_def = def;
  held_def.fixed_nodes.insert(held_def.fixed_nodes.end(), held.begin(), held.end());
  for (const bool newmark : {false, true})
    for (LinearSolverKind kind :
         {LinearSolverKind::cholmod, LinearSolverKind::pcg, LinearSolverKind::rest_factor_pcg}) {
      SCOPED_TRACE(std::string(linear_solver_name(kind)) + (newmark ? " newmark" : " backward Euler"));
      const ImplicitSolverDef sd{.scheme = newmark ? ImplicitScheme::newmark : ImplicitScheme::backward_euler,
                                 .dt = 0.02,
                                 .solver = kind,
                                 .max_newton_iterations = 2,
                                 .newton_tolerance = 0.0,
                                 .pcg_tolerance = 1e-13};
      auto model = FemForceModel::build(mesh, std::span(&mat, 1), def);
      ASSERT_TRUE(model);
      auto solver = ImplicitSolver::build(*model, sd);
      ASSERT_TRUE(solver) << solver.message();
      std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
      for (int s = 0; s < 5; ++s) ASSERT_TRUE(solver->step(x, v).converged);  // sag: factors, warm starts

      // Grab: the held nodes stop (v = 0) and are dragged up, each step.
      ASSERT_TRUE(model->set_held_nodes(held));
      ASSERT_TRUE(solver->refresh_held_nodes());
      EXPECT_EQ(solver->held_node_count(), static_cast<Index>(held.size()));
      auto rebuilt_model = FemForceModel::build(mesh, std::span(&mat, 1), held_def);
      ASSERT_TRUE(rebuilt_model);
      auto rebuilt = ImplicitSolver::build(*rebuilt_model, sd);
      ASSERT_TRUE(rebuilt);
      std::vector<Vec3> xr(x), vr(v);
      double moved = 0.0;
      for (int s = 0; s < 8; ++s) {
        for (Index i : held) {
          const auto is = static_cast<std::size_t>(i);
          x[is] += Vec3(0, 0.03, 0.01);
          v[is].setZero();
          xr[is] = x[is];
          vr[is].setZero();
        }
        const Vec3 before = x[static_cast<std::size_t>(held.front())];
        ASSERT_TRUE(solver->step(x, v).converged);
        ASSERT_TRUE(rebuilt->step(xr, vr).converged);
        EXPECT_EQ(x[static_cast<std::size_t>(held.front())], before);  // held nodes stay as given
        moved = std::max(moved, max_difference(x, mesh.positions));
      }
      EXPECT_GT(moved, 0.1);
      EXPECT_LT(max_difference(x, xr), 1e-9 * moved);
      EXPECT_LT(max_difference(v, vr), 1e-8 * moved / 0.02);

      // Release: the body steps as one built without held nodes.
      ASSERT_TRUE(model->set_held_nodes({}));
      ASSERT_TRUE(solver->refresh_held_nodes());
      EXPECT_EQ(solver->held_node_count(), 0);
      auto free_model = FemForceModel::build(mesh, std::span(&mat, 1), def);
      ASSERT_TRUE(free_model);
      auto fresh = ImplicitSolver::build(*free_model, sd);
      ASSERT_TRUE(fresh);
      xr = x;
      vr = v;
      const std::vector<Vec3> released(x);
      for (int s = 0; s < 8; ++s) {
        ASSERT_TRUE(solver->step(x, v).converged);
        ASSERT_TRUE(fresh->step(xr, vr).converged);
      }
      const double swing = max_difference(x, released);
      EXPECT_GT(swing, 0.05);  // the released tip falls back
      EXPECT_LT(max_difference(x, xr), 1e-9 * swing);
      EXPECT_LT(max_difference(v, vr), 1e-8 * swing / 0.02);
    }
  // Holding every free node is refused and changes nothing.
  auto model = FemForceModel::build(mesh, std::span(&mat, 1), def);
  ASSERT_TRUE(model);
  auto solver = ImplicitSolver::build(*model, {.dt = 0.02});
  ASSERT_TRUE(solver);
  std::vector<Index> all(mesh.node_count());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<Index>(i);
  ASSERT_TRUE(model->set_held_nodes(all));
  EXPECT_FALSE(solver->refresh_held_nodes());
  EXPECT_EQ(solver->held_node_count(), 0);
  EXPECT_FALSE(model->set_held_nodes(std::vector<Index>{static_cast<Index>(mesh.node_count())}));
}

// ImplicitSolver's rest_factor_pcg (float preconditioner) converges to 1e-10 on a swinging corotational
// beam and steps like the exact CHOLMOD solver to that tolerance.
TEST(ImplicitSolver, RestFactorPcgStepsLikeCholmod) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {12, 3, 3}, meshing::CellSplit::five);
  const materials::Material mat = materials::material_from_young_poisson(1e5, 0.45, 1000.0).value();
  auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                    {.element = ElementKind::corotational,
                                     .gravity = Vec3(0, -9.81, 0),
                                     .fixed_nodes = test::nodes_at(mesh, 0, 0.0)});
  ASSERT_TRUE(model);
  auto exact = ImplicitSolver::build(*model, {.dt = 0.02, .solver = LinearSolverKind::cholmod});
  auto rest = ImplicitSolver::build(
      *model, {.dt = 0.02, .solver = LinearSolverKind::rest_factor_pcg, .pcg_tolerance = 1e-10});
  ASSERT_TRUE(exact && rest);
  std::vector<Vec3> xe(mesh.positions), ve(mesh.node_count(), Vec3::Zero()), xr(xe), vr(ve);
  double swing = 0.0, most = 0.0;
  for (int s = 0; s < 25; ++s) {
    (void)exact->step(xe, ve);
    const ImplicitReport report = rest->step(xr, vr);
    EXPECT_LE(report.relative_residual, 1e-10) << "step " << s;
    EXPECT_GT(report.cg_iterations, 1);  // the rotations make the rest factor inexact
    for (std::size_t i = 0; i < xe.size(); ++i) {
      swing = std::max(swing, (xe[i] - mesh.positions[i]).norm());
      most = std::max(most, (xr[i] - xe[i]).norm());
    }
  }
  EXPECT_GT(swing, 0.3);
  EXPECT_LT(most, 1e-8 * swing);
}

TEST(ImplicitSolver, BuildRejectsBadSettings) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = soft();
  auto free_body = FemForceModel::build(mesh, std::span(&mat, 1), {});
  ASSERT_TRUE(free_body);
  EXPECT_FALSE(ImplicitSolver::build(*free_body, {.dt = 0.0}));
  EXPECT_FALSE(ImplicitSolver::build(*free_body, {.max_newton_iterations = 0}));
  EXPECT_FALSE(ImplicitSolver::build(*free_body, {.scheme = ImplicitScheme::quasi_static}));
  EXPECT_TRUE(ImplicitSolver::build(*free_body, {}));
  // The interface split needs a hybrid body's condensed part.
  EXPECT_FALSE(ImplicitSolver::build(*free_body, {.solver = LinearSolverKind::interface_pcg}));
  EXPECT_EQ(parse_linear_solver("interface_pcg").value(), LinearSolverKind::interface_pcg);
  EXPECT_TRUE(parse_linear_solver("pcg"));
  EXPECT_FALSE(parse_linear_solver("lu"));
}

}  // namespace
}  // namespace pliant::fem
