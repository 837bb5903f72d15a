// The hybrid operational / non-operational body (Wu & Heng 2005) against the full body: the same mesh
// with linear elements in the non-operational tets and the operational element elsewhere, stepped by
// ImplicitSolver. Without a topology change the two are the same equations solved two ways, so they agree
// to round-off; after a change of the operational tets they agree with the full body changed alike.
#include "pliant/models/fem/hybrid/hybrid_solver.hpp"

#include "fem_test_util.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/linalg/condensation.hpp"
#include "pliant/models/fem/cut/tet_cut.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace pliant::fem {
namespace {
using linalg::Condensation;

materials::Material soft() { return materials::material_from_young_poisson(2e4, 0.4, 1000.0).value(); }

double max_difference(std::span<const Vec3> a, std::span<const Vec3> b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

struct Body {
  TetMesh mesh;
  std::vector<std::uint8_t> operational;
  FemBodyDef def;
};

// A 0.4 m bar clamped at x = 0, operational where tet centroids have x > split (m).
Body bar(ElementKind element, double split) {
  Body b;
  b.mesh = test::box(Vec3(0.4, 0.1, 0.1), {8, 2, 2});
  test::jitter_interior(b.mesh, Vec3(0.4, 0.1, 0.1), 0.05, 0.2);
  for (const Tet& tet : b.mesh.tets) {
    Vec3 c = Vec3::Zero();
    for (int a = 0; a < 4; ++a) c += 0.25 * b.mesh.positions[static_cast<std::size_t>(tet[a])];
    b.operational.push_back(c.x() > split ? 1 : 0);
  }
  b.def = {.element = element,
           .rayleigh_alpha = 0.5,
           .rayleigh_beta = 0.002,
           .gravity = Vec3(0, -9.81, 0),
           .fixed_nodes = test::nodes_at(b.mesh, 0, 0.0)};
  return b;
}

// The full-body reference: linear elements outside the operational region.
FemBodyDef full_def(const Body& b) {
  FemBodyDef def = b.def;
  for (std::uint8_t op : b.operational) def.tet_elements.push_back(op ? b.def.element : ElementKind::linear);
  return def;
}

// A loaded, perturbed start: the bar bent and twisted (large rotation at the tip), random velocities.
void start_state(const TetMesh& mesh, std::vector<Vec3>& x, std::vector<Vec3>& v) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  x = mesh.positions;
  v.assign(x.size(), Vec3::Zero());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Vec3& p = mesh.positions[i];
    if (p.x() == 0.0) continue;
    const double angle = 1.2 * p.x() / 0.4;  // twist about the bar's axis, up to 69°
    const double cy = p.y() - 0.05, cz = p.z() - 0.05;
    x[i] = Vec3(p.x(), 0.05 + std::cos(angle) * cy - std::sin(angle) * cz,
                0.05 + std::sin(angle) * cy + std::cos(angle) * cz);
    x[i].y() -= 0.3 * p.x() * p.x();
    v[i] = Vec3(u(rng), u(rng), u(rng));
  }
}

// Steps hybrid and full together; returns the largest position difference and checks the motion.
void expect_same(const TetMesh& mesh, HybridSolver& hybrid, const FemForceModel& full_model,
                 const ImplicitSolverDef& solver_def, int steps) {
  ImplicitSolverDef full_def = solver_def;
  if (full_def.solver == LinearSolverKind::interface_pcg) full_def.solver = LinearSolverKind::cholmod;
  auto full = ImplicitSolver::build(full_model, full_def);
  ASSERT_TRUE(full) << full.message();
  std::vector<Vec3> x, v;
  start_state(mesh, x, v);
  std::vector<Vec3> xf(x), vf(v), x0(x);
  for (int s = 0; s < steps; ++s) {
    const ImplicitReport rh = hybrid.step(x, v);
    const ImplicitReport rf = full->step(xf, vf);
    ASSERT_TRUE(rh.converged);
    ASSERT_TRUE(rf.converged);
    EXPECT_EQ(rh.newton_iterations, rf.newton_iterations);
    EXPECT_LT(rh.relative_residual, 1e-10);
  }
  EXPECT_GT(max_difference(x, x0), 1e-3);  // the body moved
  EXPECT_LT(max_difference(x, xf), 1e-8);
  EXPECT_LT(max_difference(v, vf), 1e-8);
}

void compare(const Body& b, const ImplicitSolverDef& solver_def, int steps) {
  const materials::Material mat = soft();
  auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, solver_def);
  ASSERT_TRUE(hybrid) << hybrid.message();
  auto full = FemForceModel::build(b.mesh, std::span(&mat, 1), full_def(b));
  ASSERT_TRUE(full) << full.message();
  expect_same(b.mesh, *hybrid, *full, solver_def, steps);
}

TEST(HybridSolver, CorotationalEqualsTheFullBody) {
  const Body b = bar(ElementKind::corotational, 0.2);
  auto mat = soft();
  auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01});
  ASSERT_TRUE(hybrid);
  EXPECT_GT(hybrid->interface_nodes().size(), 4u);
  EXPECT_GT(hybrid->non_operational_tet_count(), 0u);
  EXPECT_EQ(hybrid->condensation_builds(), 1);
  compare(b, {.dt = 0.01}, 6);

  // The comparison can tell: corotational elements everywhere move the body visibly differently.
  auto corotational = FemForceModel::build(b.mesh, std::span(&mat, 1), b.def);
  ASSERT_TRUE(corotational);
  auto solver = ImplicitSolver::build(*corotational, {.dt = 0.01});
  ASSERT_TRUE(solver);
  std::vector<Vec3> x, v, xc, vc;
  start_state(b.mesh, x, v);
  start_state(b.mesh, xc, vc);
  for (int s = 0; s < 6; ++s) {
    hybrid->step(x, v);
    solver->step(xc, vc);
  }
  EXPECT_GT(max_difference(x, xc), 1e-4);
}

TEST(HybridSolver, NewmarkEqualsTheFullBody) {
  compare(bar(ElementKind::corotational, 0.2), {.scheme = ImplicitScheme::newmark, .dt = 0.01}, 6);
}

TEST(HybridSolver, RestFactorPcgConvergedEqualsTheFullBody) {
  // CG preconditioned by the first factor, run to a tight tolerance: the same solution.
  compare(bar(ElementKind::corotational, 0.2),
          {.dt = 0.01, .solver = LinearSolverKind::rest_factor_pcg, .pcg_tolerance = 1e-13}, 6);
}

// rest_factor_pcg keeps the operational system as its interior and interface blocks: the preconditioner
// solves A_ii by its factor at rest and the interface by T⁻¹ (T = S + A_bb - A_bi A_ii⁻¹ A_ib at rest,
// dense, in float). At rest, where the node frames are the identity and the system is the rest system,
// that block solve is the system's exact inverse (to float round-off): CG stops after one iteration. So
// does the whole-system factor of a body with every tet operational (nothing condensed), and from rest
// the two bodies move alike (linear and corotational elements agree to first order).
TEST(HybridSolver, RestFactorPcgBlockPreconditionerIsExactAtRest) {
  const Body b = bar(ElementKind::corotational, 0.2);
  const materials::Material mat = soft();
  const std::vector<std::uint8_t> all(b.operational.size(), 1);
  std::vector<Vec3> moved[2];
  for (int whole = 0; whole < 2; ++whole) {
    SCOPED_TRACE(whole);
    auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, whole ? all : b.operational,
                                      {.dt = 0.01,
                                       .solver = LinearSolverKind::rest_factor_pcg,
                                       .pcg_tolerance = 1e-5,
                                       .pcg_max_iterations = 50});
    ASSERT_TRUE(hybrid) << hybrid.message();
    EXPECT_EQ(hybrid->condensation() == nullptr, whole == 1);
    std::vector<Vec3> x = b.mesh.positions, v(x.size(), Vec3::Zero());
    const ImplicitReport r = hybrid->step(x, v);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(r.cg_iterations, 1);
    EXPECT_LT(r.relative_residual, 1e-5);
    moved[whole] = x;
  }
  EXPECT_LT(max_difference(moved[0], moved[1]), 1e-4 * max_difference(moved[0], b.mesh.positions));
}

// The interface split: the interior block factored, the interface system by CG preconditioned by a dense
// factor of it at a reference state. Run to a tight tolerance it is the same solution; the preconditioner
// changes the iteration count, not the answer.
TEST(HybridSolver, InterfacePcgEqualsTheFullBody) {
  const ImplicitSolverDef tight{
      .dt = 0.01, .solver = LinearSolverKind::interface_pcg, .pcg_tolerance = 1e-12};
  const Body b = bar(ElementKind::corotational, 0.2);
  const materials::Material mat = soft();
  for (const int refresh : {0, 8, 1}) {
    SCOPED_TRACE(refresh);
    auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, tight);
    ASSERT_TRUE(hybrid) << hybrid.message();
    hybrid->set_interface_refresh(refresh);
    auto full = FemForceModel::build(b.mesh, std::span(&mat, 1), full_def(b));
    ASSERT_TRUE(full) << full.message();
    expect_same(b.mesh, *hybrid, *full, tight, 6);
    if (refresh == 0) {
      EXPECT_EQ(hybrid->interface_refreshes(), 1);
    }
    if (refresh == 1) {
      EXPECT_GT(hybrid->interface_refreshes(), 1);
    }
  }
  compare(b,
          {.scheme = ImplicitScheme::newmark,
           .dt = 0.01,
           .solver = LinearSolverKind::interface_pcg,
           .pcg_tolerance = 1e-12},
          6);
  compare(bar(ElementKind::stable_neo_hookean, 0.2),
          {.dt = 0.01,
           .solver = LinearSolverKind::interface_pcg,
           .max_newton_iterations = 3,
           .newton_tolerance = 0.0,
           .pcg_tolerance = 1e-12},
          4);
  {
    SCOPED_TRACE("one operational tet: no interior DOF");
    Body one = bar(ElementKind::corotational, 10.0);
    one.operational[one.operational.size() - 1] = 1;
    compare(one, tight, 4);
  }
  {
    SCOPED_TRACE("all operational: nothing condensed, the direct path");
    compare(bar(ElementKind::corotational, -1.0), tight, 4);
  }
  // A loose tolerance leaves a difference the comparison sees: the test can fail.
  const ImplicitSolverDef loose{.dt = 0.01, .solver = LinearSolverKind::interface_pcg, .pcg_tolerance = 0.3};
  auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, loose);
  ASSERT_TRUE(hybrid);
  hybrid->set_interface_refresh(0);
  auto reference = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01});
  ASSERT_TRUE(reference);
  std::vector<Vec3> x, v, xr, vr;
  start_state(b.mesh, x, v);
  start_state(b.mesh, xr, vr);
  for (int s = 0; s < 6; ++s) {
    hybrid->step(x, v);
    reference->step(xr, vr);
  }
  EXPECT_GT(max_difference(x, xr), 1e-8);
}

TEST(HybridSolver, NeoHookeanNewtonEqualsTheFullBody) {
  // Tolerance 0: both run every Newton iteration, so the iteration counts cannot diverge at round-off.
  compare(bar(ElementKind::stable_neo_hookean, 0.2),
          {.dt = 0.01, .max_newton_iterations = 3, .newton_tolerance = 0.0}, 4);
}

TEST(HybridSolver, AllOperationalAndTinyOperationalRegions) {
  {
    SCOPED_TRACE("all operational");
    const Body b = bar(ElementKind::corotational, -1.0);
    const materials::Material mat = soft();
    auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01});
    ASSERT_TRUE(hybrid) << hybrid.message();
    EXPECT_EQ(hybrid->condensation(), nullptr);
    EXPECT_EQ(hybrid->condensation_builds(), 0);
    compare(b, {.dt = 0.01}, 4);
  }
  {
    SCOPED_TRACE("one operational tet");
    Body b = bar(ElementKind::corotational, 10.0);
    b.operational[b.operational.size() - 1] = 1;  // a tet at the free end
    compare(b, {.dt = 0.01}, 4);
  }
}

TEST(HybridSolver, FixedNodesInTheOperationalPartAndOnTheInterface) {
  // The clamped end is operational; the boundary nodes of the plane x = 0.2 m, where the parts meet,
  // are fixed too.
  Body b = bar(ElementKind::corotational, 0.0);
  for (std::size_t t = 0; t < b.mesh.tet_count(); ++t) {
    Vec3 c = Vec3::Zero();
    for (int a = 0; a < 4; ++a) c += 0.25 * b.mesh.positions[static_cast<std::size_t>(b.mesh.tets[t][a])];
    b.operational[t] = c.x() < 0.2 ? 1 : 0;
  }
  const std::vector<Index> plane = test::nodes_at(b.mesh, 0, 0.2);
  b.def.fixed_nodes.insert(b.def.fixed_nodes.end(), plane.begin(), plane.end());
  const materials::Material mat = soft();
  auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01});
  ASSERT_TRUE(hybrid) << hybrid.message();
  std::size_t fixed_interface = 0;
  for (Index i : hybrid->interface_nodes())
    fixed_interface += std::count(plane.begin(), plane.end(), i) > 0 ? 1u : 0u;
  EXPECT_GT(fixed_interface, 0u);
  EXPECT_LT(fixed_interface, hybrid->interface_nodes().size());
  compare(b, {.dt = 0.01}, 5);
  compare(b, {.dt = 0.01, .solver = LinearSolverKind::interface_pcg, .pcg_tolerance = 1e-12}, 5);
}

// A grab without a rebuild: nodes of the operational region and of the interface held by
// set_held_nodes step as a hybrid body built (condensed again) with them fixed, and after the release as
// one built without them; the condensation is not rebuilt. A node of the condensed interior is refused.
TEST(HybridSolver, HeldOperationalAndInterfaceNodesEqualARebuiltSolver) {
  const Body b = bar(ElementKind::corotational, 0.2);
  const materials::Material mat = soft();
  for (LinearSolverKind kind :
       {LinearSolverKind::cholmod, LinearSolverKind::rest_factor_pcg, LinearSolverKind::interface_pcg}) {
    SCOPED_TRACE(linear_solver_name(kind));
    const ImplicitSolverDef sd{.dt = 0.01, .solver = kind, .pcg_tolerance = 1e-13};
    auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, sd);
    ASSERT_TRUE(hybrid) << hybrid.message();
    // Held: the tip face (operational) and two free interface nodes.
    std::vector<Index> held = test::nodes_at(b.mesh, 0, 0.4);
    std::size_t interface_held = 0;
    for (Index i : hybrid->interface_nodes())
      if (interface_held < 2 && std::count(b.def.fixed_nodes.begin(), b.def.fixed_nodes.end(), i) == 0) {
        held.push_back(i);
        ++interface_held;
      }
    ASSERT_EQ(interface_held, 2u);
    std::vector<Vec3> x, v;
    start_state(b.mesh, x, v);
    for (int s = 0; s < 3; ++s) ASSERT_TRUE(hybrid->step(x, v).converged);
    ASSERT_TRUE(hybrid->set_held_nodes(held));
    FemBodyDef held_def = b.def;
    held_def.fixed_nodes.insert(held_def.fixed_nodes.end(), held.begin(), held.end());
    auto rebuilt = HybridSolver::build(b.mesh, std::span(&mat, 1), held_def, b.operational, sd);
    ASSERT_TRUE(rebuilt) << rebuilt.message();
    std::vector<Vec3> xr(x), vr(v);
    for (Index i : held) {
      v[static_cast<std::size_t>(i)].setZero();
      vr[static_cast<std::size_t>(i)].setZero();
    }
    const std::vector<Vec3> grabbed(x);
    for (int s = 0; s < 6; ++s) {
      for (Index i : held) {
        x[static_cast<std::size_t>(i)] += Vec3(0, 0.01, 0.005);
        xr[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(i)];
      }
      const Vec3 before = x[static_cast<std::size_t>(held.back())];
      ASSERT_TRUE(hybrid->step(x, v).converged);
      ASSERT_TRUE(rebuilt->step(xr, vr).converged);
      EXPECT_EQ(x[static_cast<std::size_t>(held.back())], before);
    }
    const double moved = max_difference(x, grabbed);
    EXPECT_GT(moved, 0.02);
    EXPECT_LT(max_difference(x, xr), 1e-9 * moved);
    EXPECT_LT(max_difference(v, vr), 1e-8 * moved / 0.01);
    EXPECT_EQ(hybrid->condensation_builds(), 1);

    ASSERT_TRUE(hybrid->set_held_nodes({}));
    auto fresh = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, sd);
    ASSERT_TRUE(fresh);
    xr = x;
    vr = v;
    const std::vector<Vec3> released(x);
    for (int s = 0; s < 6; ++s) {
      ASSERT_TRUE(hybrid->step(x, v).converged);
      ASSERT_TRUE(fresh->step(xr, vr).converged);
    }
    const double swing = max_difference(x, released);
    EXPECT_GT(swing, 0.01);
    EXPECT_LT(max_difference(x, xr), 1e-9 * swing);
    EXPECT_LT(max_difference(v, vr), 1e-8 * swing / 0.01);

    // The condensed interior (nodes at x = 0.1 m touch non-operational tets only) needs a rebuild.
    const std::vector<Index> interior = test::nodes_at(b.mesh, 0, 0.1);
    const Status refused = hybrid->set_held_nodes(interior);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.message().find('\n'), std::string::npos);
    EXPECT_NE(refused.message().find("condensed interior"), std::string::npos);
  }
}

// Surface loads on a hybrid body: a pressure on the operational tip face and a traction on the top face
// (over both parts, so the condensed part's right-hand side carries load too) step as the full body.
TEST(HybridSolver, PressureAndTractionEqualTheFullBody) {
  Body b = bar(ElementKind::corotational, 0.2);
  const BoundarySurface boundary = extract_boundary(b.mesh);
  SurfaceLoad push{.triangles = {}, .pressure = 40.0},
      pull{.triangles = {}, .traction = Vec3(5.0, 20.0, -3.0)};
  for (const Tri& t : boundary.mesh.triangles) {
    Tri v;
    for (int c = 0; c < 3; ++c) v[c] = boundary.volume_node[static_cast<std::size_t>(t[c])];
    const auto all = [&](auto test) {
      return std::all_of(v.begin(), v.end(),
                         [&](Index i) { return test(b.mesh.positions[static_cast<std::size_t>(i)]); });
    };
    if (all([](const Vec3& p) { return p.x() > 0.4 - 1e-9; })) push.triangles.push_back(v);
    if (all([](const Vec3& p) { return p.y() > 0.1 - 1e-9; })) pull.triangles.push_back(v);
  }
  ASSERT_FALSE(push.triangles.empty());
  ASSERT_FALSE(pull.triangles.empty());
  b.def.surface_loads = {push, pull};
  compare(b, {.dt = 0.01}, 6);
  compare(b, {.dt = 0.01, .solver = LinearSolverKind::interface_pcg, .pcg_tolerance = 1e-12}, 6);
  // The loads act: without them the body moves otherwise.
  const materials::Material mat = soft();
  Body unloaded = bar(ElementKind::corotational, 0.2);
  auto with = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01});
  auto without = HybridSolver::build(unloaded.mesh, std::span(&mat, 1), unloaded.def, unloaded.operational,
                                     {.dt = 0.01});
  ASSERT_TRUE(with && without);
  std::vector<Vec3> x, v, xu, vu;
  start_state(b.mesh, x, v);
  start_state(b.mesh, xu, vu);
  for (int s = 0; s < 6; ++s) {
    with->step(x, v);
    without->step(xu, vu);
  }
  EXPECT_GT(max_difference(x, xu), 1e-4);
  // A load on a node out of range is refused.
  Body bad = b;
  bad.def.surface_loads[0].triangles.push_back({0, 1, static_cast<Index>(b.mesh.node_count())});
  EXPECT_FALSE(HybridSolver::build(bad.mesh, std::span(&mat, 1), bad.def, bad.operational, {.dt = 0.01}));
}

TEST(HybridSolver, ChangedOperationalTopologyKeepsTheCondensation) {
  const Body b = bar(ElementKind::corotational, 0.2);
  const materials::Material mat = soft();
  auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01});
  ASSERT_TRUE(hybrid) << hybrid.message();
  const Condensation* condensed = hybrid->condensation();
  const Eigen::MatrixXd S = condensed->condensed_matrix();

  // The change: drop one operational tet whose nodes all stay in others, and detach another operational
  // tet at one free non-interface node by giving it a duplicate of that node.
  TetMesh changed = b.mesh;
  std::vector<int> uses(changed.node_count(), 0);
  for (std::size_t t = 0; t < changed.tet_count(); ++t)
    if (b.operational[t])
      for (int a = 0; a < 4; ++a) ++uses[static_cast<std::size_t>(changed.tets[t][a])];
  std::vector<std::uint8_t> interface(changed.node_count(), 0);
  for (Index i : hybrid->interface_nodes()) interface[static_cast<std::size_t>(i)] = 1;
  std::size_t removed = changed.tet_count(), detached = changed.tet_count();
  int detached_local = -1;
  for (std::size_t t = changed.tet_count(); t-- > 0;) {
    if (!b.operational[t]) continue;
    bool shared = true;
    for (int a = 0; a < 4; ++a) shared = shared && uses[static_cast<std::size_t>(changed.tets[t][a])] >= 3;
    if (removed == changed.tet_count() && shared) {
      removed = t;
      for (int a = 0; a < 4; ++a) --uses[static_cast<std::size_t>(changed.tets[t][a])];
      continue;
    }
    if (removed != changed.tet_count() && detached == changed.tet_count())
      for (int a = 0; a < 4 && detached_local < 0; ++a) {
        const auto node = static_cast<std::size_t>(changed.tets[t][a]);
        if (!interface[node] && changed.positions[node].x() > 0.0 && uses[node] >= 3) {
          detached = t;
          detached_local = a;
        }
      }
  }
  ASSERT_LT(removed, changed.tet_count());
  ASSERT_LT(detached, changed.tet_count());
  const Index original = changed.tets[detached][detached_local];
  const Index duplicate = static_cast<Index>(changed.node_count());
  changed.positions.push_back(changed.positions[static_cast<std::size_t>(original)]);
  changed.tets[detached][detached_local] = duplicate;
  std::vector<Tet> op_tets;
  std::vector<std::uint8_t> flags;
  TetMesh full_mesh = changed;
  full_mesh.tets.clear();
  for (std::size_t t = 0; t < changed.tet_count(); ++t) {
    if (t == removed) continue;
    full_mesh.tets.push_back(changed.tets[t]);
    flags.push_back(b.operational[t]);
    if (b.operational[t]) op_tets.push_back(changed.tets[t]);
  }
  const Vec3 appended = changed.positions.back();
  ASSERT_TRUE(hybrid->replace_operational(std::span(&appended, 1), op_tets, std::span(&mat, 1)));
  EXPECT_EQ(hybrid->node_count(), full_mesh.node_count());
  EXPECT_EQ(hybrid->condensation(), condensed);  // the same object, not rebuilt
  EXPECT_EQ(hybrid->condensation_builds(), 1);
  EXPECT_EQ((hybrid->condensation()->condensed_matrix() - S).norm(), 0.0);

  Body fb{full_mesh, flags, b.def};
  auto full = FemForceModel::build(full_mesh, std::span(&mat, 1), full_def(fb));
  ASSERT_TRUE(full) << full.message();
  expect_same(full_mesh, *hybrid, *full, {.dt = 0.01}, 5);

  // A bad replacement is refused and changes nothing.
  std::vector<Tet> bad = op_tets;
  bad[0][0] = static_cast<Index>(hybrid->node_count() + 5);
  const auto refused = hybrid->replace_operational({}, bad, std::span(&mat, 1));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.message().find("out of range"), std::string::npos);
  EXPECT_EQ(hybrid->node_count(), full_mesh.node_count());
  EXPECT_EQ(hybrid->operational_tets().size(), op_tets.size());
}

// The local solver update with the tet cutter: a blade splits operational tets (the interface frozen),
// replace_operational takes the new nodes and tets, and the body steps as the full body cut alike.
void cut_and_compare(const ImplicitSolverDef& solver_def) {
  const Body b = bar(ElementKind::corotational, 0.2);
  const materials::Material mat = soft();
  auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, solver_def);
  ASSERT_TRUE(hybrid) << hybrid.message();
  std::vector<Vec3> x, v;
  start_state(b.mesh, x, v);
  for (int s = 0; s < 3; ++s) ASSERT_TRUE(hybrid->step(x, v).converged);

  std::vector<std::uint8_t> frozen(b.mesh.node_count(), 0);
  for (Index i : hybrid->interface_nodes()) frozen[static_cast<std::size_t>(i)] = 1;
  // A blade edge across the bar near x = 0.3 m, swept down through about half its height.
  Vec3 centre = Vec3::Zero();
  int count = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::abs(b.mesh.positions[i].x() - 0.3) < 1e-9) {
      centre += x[i];
      ++count;
    }
  ASSERT_GT(count, 0);
  centre /= count;
  const TetCutBlade blade{centre + Vec3(0, -1, 0.2), centre + Vec3(0, 1, 0.2), centre + Vec3(0, -1, 0.0),
                          centre + Vec3(0, 1, 0.0)};
  auto cut = cut_tets(b.mesh, x, b.operational, frozen, blade);
  ASSERT_TRUE(cut) << cut.message();
  ASSERT_GT(cut->new_tets.size(), 0u);
  ASSERT_GT(cut->nodes_added, 0);
  EXPECT_GT(cut->tets_split, 0);
  for (Index t : cut->removed_tets) ASSERT_TRUE(b.operational[static_cast<std::size_t>(t)]);

  TetMesh cut_mesh = b.mesh;
  const std::size_t old_nodes = cut_mesh.node_count();
  const std::vector<Index> tet_map = apply_tet_cut(*cut, cut_mesh, x, v);
  std::vector<std::uint8_t> flags(cut_mesh.tet_count(), 1);  // new tets come from operational ones
  for (std::size_t t = 0; t < tet_map.size(); ++t)
    if (tet_map[t] >= 0) flags[static_cast<std::size_t>(tet_map[t])] = b.operational[t];
  std::vector<Tet> op_tets;
  for (std::size_t t = 0; t < cut_mesh.tet_count(); ++t)
    if (flags[t]) op_tets.push_back(cut_mesh.tets[t]);
  const std::vector<Vec3> appended(cut_mesh.positions.begin() + static_cast<std::ptrdiff_t>(old_nodes),
                                   cut_mesh.positions.end());
  const Condensation* condensed = hybrid->condensation();
  ASSERT_TRUE(hybrid->replace_operational(appended, op_tets, std::span(&mat, 1)));
  EXPECT_EQ(hybrid->condensation(), condensed);
  EXPECT_EQ(hybrid->condensation_builds(), 1);

  Body cut_body{cut_mesh, flags, b.def};
  auto full_model = FemForceModel::build(cut_mesh, std::span(&mat, 1), full_def(cut_body));
  ASSERT_TRUE(full_model) << full_model.message();
  auto full = ImplicitSolver::build(*full_model, {.dt = 0.01});
  ASSERT_TRUE(full) << full.message();
  std::vector<Vec3> xf = x, vf = v, x0 = x;
  for (int s = 0; s < 5; ++s) {
    ASSERT_TRUE(hybrid->step(x, v).converged);
    ASSERT_TRUE(full->step(xf, vf).converged);
  }
  EXPECT_GT(max_difference(x, x0), 1e-3);
  EXPECT_LT(max_difference(x, xf), 1e-8);
  EXPECT_LT(max_difference(v, vf), 1e-8);
}

// An interface node that no operational tet holds any more (the tets around it removed, as a "remove"
// cut does) stays in the system with S alone: the matrix-free rest_factor_pcg products and its node
// frames must skip it, and the step equal cholmod's assembled one.
TEST(HybridSolver, InterfaceNodeLeftWithoutOperationalTetsStepsAlikeInEverySolver) {
  const Body b = bar(ElementKind::corotational, 0.2);
  const materials::Material mat = soft();
  std::vector<Vec3> results[2];
  for (const LinearSolverKind kind : {LinearSolverKind::cholmod, LinearSolverKind::rest_factor_pcg}) {
    SCOPED_TRACE(linear_solver_name(kind));
    auto hybrid = HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational,
                                      {.dt = 0.01, .solver = kind, .pcg_tolerance = 1e-13});
    ASSERT_TRUE(hybrid) << hybrid.message();
    // The first free interface node: drop every operational tet that holds it.
    Index orphan = -1;
    for (Index i : hybrid->interface_nodes())
      if (orphan < 0 && std::count(b.def.fixed_nodes.begin(), b.def.fixed_nodes.end(), i) == 0) orphan = i;
    ASSERT_GE(orphan, 0);
    std::vector<Tet> op_tets;
    for (const Tet& tet : hybrid->operational_tets())
      if (std::find(tet.begin(), tet.end(), orphan) == tet.end()) op_tets.push_back(tet);
    ASSERT_LT(op_tets.size(), hybrid->operational_tets().size());
    ASSERT_TRUE(hybrid->replace_operational({}, op_tets, std::span(&mat, 1)));
    std::vector<Vec3> x, v;
    start_state(b.mesh, x, v);
    for (int s = 0; s < 4; ++s) ASSERT_TRUE(hybrid->step(x, v).converged);
    results[kind == LinearSolverKind::rest_factor_pcg] = x;
  }
  EXPECT_LT(max_difference(results[0], results[1]), 1e-8);
  EXPECT_GT(max_difference(results[0], b.mesh.positions), 1e-3);
}

TEST(HybridSolver, CutOperationalRegionEqualsTheFullBodyCutAlike) {
  cut_and_compare({.dt = 0.01});
  SCOPED_TRACE("interface_pcg");
  cut_and_compare({.dt = 0.01, .solver = LinearSolverKind::interface_pcg, .pcg_tolerance = 1e-12});
}

TEST(HybridSolver, ErrorsAreOneLine) {
  const materials::Material mat = soft();
  auto expect_error = [](const Result<HybridSolver>& r, const std::string& part) {
    ASSERT_FALSE(r);
    EXPECT_NE(r.message().find(part), std::string::npos) << r.message();
    EXPECT_EQ(r.message().find('\n'), std::string::npos);
  };
  {
    const Body b = bar(ElementKind::corotational, 10.0);  // no tet in the region
    expect_error(HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01}),
                 "holds no tets");
  }
  {
    Body b = bar(ElementKind::corotational, 10.0);
    b.operational[0] = 1;  // one tet, all of whose nodes are fixed
    b.def.fixed_nodes.clear();
    for (int a = 0; a < 4; ++a) b.def.fixed_nodes.push_back(b.mesh.tets[0][a]);
    expect_error(HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational, {.dt = 0.01}),
                 "fixed");
  }
  {
    const Body b = bar(ElementKind::corotational, 0.2);
    const std::vector<std::uint8_t> few(3, 1);
    expect_error(HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, few, {.dt = 0.01}), "flags");
    expect_error(HybridSolver::build(b.mesh, std::span(&mat, 1), b.def, b.operational,
                                     {.dt = 0.01, .solver = LinearSolverKind::pcg}),
                 "cholmod, rest_factor_pcg or interface_pcg");
  }
}

}  // namespace
}  // namespace pliant::fem
