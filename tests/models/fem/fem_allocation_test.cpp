// No heap allocation after warm-up: FemForceModel's forces and products, the dynamics integrators over
// it, and ImplicitSolver's PCG and rest-factor PCG steps (rest_factor_pcg factors once, in its first
// step; its float preconditioner solves in member scratch; the cholmod path allocates inside CHOLMOD). The
// counter sees every allocation: operator new (standard containers) and malloc (Eigen, OpenMP, CHOLMOD).
#include "fem_test_util.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"
#include "scene/conformance/alloc_counter.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pliant::fem {
namespace {

TEST(FemAllocation, StepsDoNotAllocateAfterWarmUp) {
  const TetMesh mesh = test::box(Vec3(4, 1, 1), {4, 1, 1});
  const materials::Material mat = materials::material_from_young_poisson(1e5, 0.45, 1000.0).value();
  for (ElementKind kind :
       {ElementKind::linear, ElementKind::corotational, ElementKind::stvk, ElementKind::stable_neo_hookean}) {
    SCOPED_TRACE(element_kind_name(kind));
    auto model = FemForceModel::build(mesh, std::span(&mat, 1),
                                      {.element = kind,
                                       .rayleigh_alpha = 0.1,
                                       .rayleigh_beta = 0.01,
                                       .gravity = Vec3(0, -9.81, 0),
                                       .fixed_nodes = test::nodes_at(mesh, 0, 0.0)});
    ASSERT_TRUE(model);
    auto solver = ImplicitSolver::build(
        *model,
        {.dt = 0.01, .solver = LinearSolverKind::pcg, .max_newton_iterations = 3, .newton_tolerance = 1e-12});
    ASSERT_TRUE(solver);
    auto rest = ImplicitSolver::build(*model, {.dt = 0.01,
                                               .solver = LinearSolverKind::rest_factor_pcg,
                                               .max_newton_iterations = 2,
                                               .newton_tolerance = 1e-12,
                                               .pcg_tolerance = 1e-10});
    ASSERT_TRUE(rest);
    std::vector<Vec3> xr(mesh.positions), vr(mesh.node_count(), Vec3::Zero());
    dynamics::Integrator se({.scheme = dynamics::Scheme::symplectic_euler, .dt = 1e-4});
    dynamics::Integrator be({.scheme = dynamics::Scheme::backward_euler, .dt = 0.01});
    std::vector<Vec3> x(mesh.positions), v(mesh.node_count(), Vec3::Zero());
    auto run = [&] {
      se.step(*model, x, v);
      be.step(*model, x, v);
      (void)solver->step(x, v);
      (void)rest->step(xr, vr);
    };
    run();  // warm-up: scratch arrays sized
    pliant::test::count_allocations(true);
    for (int s = 0; s < 3; ++s) run();
    pliant::test::count_allocations(false);
    EXPECT_EQ(pliant::test::allocations_counted(), 0);
    // The counter counts: a container growing inside the window is seen.
    pliant::test::count_allocations(true);
    x.reserve(x.capacity() + 1);
    pliant::test::count_allocations(false);
    EXPECT_GT(pliant::test::allocations_counted(), 0);
  }
}

}  // namespace
}  // namespace pliant::fem
