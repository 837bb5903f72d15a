// The fem family through the scene layer, against independent references: the family's steps equal
// the FEM runtime driven directly; quasi-static linear stepping under gravity equals the assembled
// static solution; a bar of ν = 0 stretched by a grab carries the uniaxial stress E δ/L; the explicit
// stable-step estimate matches the dense eigenvalue problem; bad keys are named by their JSON path.
#include "pliant/scene/fem_scene_body.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

namespace pliant::scene {
namespace {

// A one-body scene of the fem family: `body` holds the body's keys besides name and family.
Result<Scene> fem_scene(const std::string& body, double time_step = 0.01) {
  return parse_scene(R"({"pliant": 1, "time_step": )" + std::to_string(time_step) +
                         R"(, "bodies": [{"name": "b",
      "family": "fem", )" +
                         body + "}]}",
                     "fem.json");
}

const char* kBeam =
    R"("mesh": {"shape": "box", "size": [1.0, 0.2, 0.2], "cells": [5, 1, 1]}, "fixed": ["xmin"],
    "material": {"E": 1e5, "nu": 0.3, "density": 100})";

// The family's steps are the runtime's: fem::ImplicitSolver for backward Euler, Newmark and BDF2, the shared
// dynamics::Integrator for Houbolt.
// Both with the lumped and the consistent mass ("mass").
TEST(FemSceneBody, StepsEqualTheRuntimeDrivenDirectly) {
  for (const std::string mass : {"lumped", "consistent"})
    for (const std::string integrator : {"backward_euler", "newmark", "bdf2", "houbolt"}) {
      SCOPED_TRACE(mass + " " + integrator);
      Result<Scene> scene =
          fem_scene(std::string(kBeam) + R"(, "fem": {"element": "corotational", "mass": ")" + mass + R"(",
        "damping": {"alpha": 0.5, "beta": 0.002}, "gravity": [0, -9.81, 0], "integrator": ")" +
                    integrator +
                    R"(", "solver": {"kind": "cholmod", "newton_iterations": 3, "tolerance": 1e-10,
                  "max_iterations": 500}})");
      ASSERT_TRUE(scene.ok()) << scene.message();
      World& world = *scene->world;
      const fem::FemBody* view = fem_body(world.body(0));
      ASSERT_NE(view, nullptr);
      const fem::FemForceModel& m = view->model();
      const TetMesh mesh{m.rest_positions(), m.tets()};
      const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
      auto model = fem::FemForceModel::build(
          mesh, std::span(&mat, 1),
          {.element = fem::ElementKind::corotational,
           .mass = mass == "consistent" ? fem::MassKind::consistent : fem::MassKind::lumped,
           .rayleigh_alpha = 0.5,
           .rayleigh_beta = 0.002,
           .gravity = {0, -9.81, 0},
           .fixed_nodes = m.def().fixed_nodes});
      ASSERT_TRUE(model.ok()) << model.message();
      std::vector<Vec3> x = mesh.positions, v(x.size(), Vec3::Zero());
      if (integrator == "houbolt") {
        dynamics::Integrator houbolt({.scheme = dynamics::Scheme::houbolt,
                                      .dt = 0.01,
                                      .cg_tolerance = 1e-10,
                                      .cg_max_iterations = 500});
        for (int s = 0; s < 30; ++s) {
          world.step();
          houbolt.step(*model, x, v);
        }
        EXPECT_GT(view->last_report().cg_iterations, 0);
      } else {
        auto solver = fem::ImplicitSolver::build(
            *model, {.scheme = integrator == "newmark" ? fem::ImplicitScheme::newmark
                               : integrator == "bdf2"  ? fem::ImplicitScheme::bdf2
                                                       : fem::ImplicitScheme::backward_euler,
                     .dt = 0.01,
                     .solver = fem::LinearSolverKind::cholmod,
                     .max_newton_iterations = 3,
                     .pcg_tolerance = 1e-10,
                     .pcg_max_iterations = 500});
        ASSERT_TRUE(solver.ok()) << solver.message();
        for (int s = 0; s < 30; ++s) {
          world.step();
          solver->step(x, v);
        }
        EXPECT_GT(view->last_report().newton_iterations, 0);
      }
      double worst = 0.0, swing = 0.0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        worst = std::max(worst, (view->positions()[i] - x[i]).norm());
        swing = std::max(swing, (x[i] - mesh.positions[i]).norm());
      }
      EXPECT_EQ(view->model().def().mass, model->def().mass);
      EXPECT_GT(swing, 1e-3) << integrator << ": the beam moves";
      EXPECT_LE(worst, integrator == "houbolt" ? 0.0 : 1e-12) << integrator;
    }
}

TEST(FemSceneBody, QuasiStaticLinearMatchesTheStaticSolution) {
  Result<Scene> scene =
      fem_scene(std::string(kBeam) + R"(, "fem": {"element": "linear", "gravity": [0, 0, -9.81],
      "integrator": "quasi_static", "solver": {"kind": "cholmod"}})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  world.step();
  const fem::FemBody* view = fem_body(world.body(0));
  ASSERT_NE(view, nullptr);
  const fem::FemForceModel& m = view->model();
  const TetMesh mesh{m.rest_positions(), m.tets()};
  const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
  // K u = f with f the lumped weight ρV/4 g per tet node, u = 0 on the clamp.
  const fem::SparseMatrix K = fem::assemble_stiffness(mesh, mat);
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, m.def().fixed_nodes);
  ASSERT_TRUE(dofs.ok()) << dofs.message();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(mesh.positions.size()));
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    for (Index a : mesh.tets[t]) f[3 * a + 2] += -9.81 * 100.0 * m.rest_shape().volume[t] / 4.0;
  }
  auto factor = linalg::SparseCholesky::factor(dofs->restrict_matrix(K));
  ASSERT_TRUE(factor.ok()) << factor.message();
  const Eigen::VectorXd u = dofs->expand(factor->solve(dofs->restrict_vector(f)));
  double err = 0.0, size = 0.0;
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    const Vec3 ui = u.segment<3>(3 * static_cast<Eigen::Index>(i));
    err = std::max(err, (view->positions()[i] - mesh.positions[i] - ui).norm());
    size = std::max(size, ui.norm());
  }
  EXPECT_GT(size, 1e-3);
  EXPECT_LE(err, 1e-10 * size);
  for (const Vec3& v : view->velocities()) EXPECT_EQ(v, Vec3::Zero());
}

TEST(FemSceneBody, GrabStretchesABarUniformly) {
  // ν = 0 and the clamp holding x = 0: moving the x = L face by δ gives the affine field u = δ x/L
  // exactly (linear tets represent it), σ_xx = E δ/L everywhere, and the face pulls back with E A δ/L.
  for (const char* element : {"linear", "corotational"}) {
    Result<Scene> scene =
        fem_scene(R"("mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [2, 1, 1]},
        "fixed": ["xmin"], "material": {"E": 2e5, "nu": 0.0}, "fem": {"element": ")" +
                  std::string(element) + R"(", "integrator": "quasi_static",
        "solver": {"kind": "cholmod", "newton_iterations": 5, "newton_tolerance": 1e-13}})");
    ASSERT_TRUE(scene.ok()) << scene.message();
    World& world = *scene->world;
    Body& b = world.body(0);
    // A triangle corner on the x = L face; a radius of the face diagonal holds the face's nodes only.
    SurfacePoint p;
    const auto x0 = b.surface_rest_positions();
    for (std::size_t t = 0; t < b.surface_triangles().size(); ++t) {
      const Tri& tri = b.surface_triangles()[t];
      if (x0[tri[0]].x() > 0.0999 && x0[tri[1]].x() > 0.0999 && x0[tri[2]].x() > 0.0999)
        p = {Index(t), 0.0, 0.0};
    }
    ASSERT_GE(p.triangle, 0);
    const GrabId id = b.grab_patch(p, 0.02 * std::sqrt(2.0) + 1e-9);
    ASSERT_TRUE(id.valid());
    std::size_t face = 0;
    for (const Vec3& x : x0) face += x.x() > 0.0999;
    ASSERT_EQ(b.grab_nodes(id).size(), face);
    for (Index n : b.grab_nodes(id)) ASSERT_GT(x0[static_cast<std::size_t>(n)].x(), 0.0999);
    const double delta = 0.001;
    b.move_grab(id, x0[b.surface_triangles()[static_cast<std::size_t>(p.triangle)][0]] + Vec3(delta, 0, 0));
    world.step();
    const fem::FemBody* view = fem_body(b);
    for (std::size_t i = 0; i < view->positions().size(); ++i) {
      const Vec3 X = view->model().rest_positions()[i];
      EXPECT_LT((view->positions()[i] - X - Vec3(delta * X.x() / 0.1, 0, 0)).norm(), 1e-12) << element;
    }
    const double stress = 2e5 * delta / 0.1;
    std::vector<double> vm(view->model().tets().size());
    view->von_mises(vm);
    for (double s : vm) EXPECT_NEAR(s, stress, 1e-9 * stress) << element;
    const int field = find_field(b, "von_mises");
    ASSERT_GE(field, 0);
    std::vector<double> node_vm(b.surface_positions().size());
    b.fill_field(static_cast<std::size_t>(field), node_vm);
    for (double s : node_vm) EXPECT_NEAR(s, stress, 1e-9 * stress) << element;
    const Vec3 r = b.grab_reaction(id);
    EXPECT_NEAR(r.x(), -stress * 0.02 * 0.02, 1e-9 * stress * 0.02 * 0.02) << element;
    EXPECT_LT(std::abs(r.y()) + std::abs(r.z()), 1e-12) << element;
  }
}

// A quasi-static body's compliance at a one-node grab (a contact) is the inverse of the node's diagonal
// block of the assembled stiffness, and no more than its true compliance, the node's block of K_ff⁻¹ (the
// Schur complement K_aa − K_ab K_bb⁻¹ K_ba is below K_aa), so the World's contact slides by it fall short
// and never overshoot. A dynamic body and a patch of several nodes report none.
TEST(FemSceneBody, QuasiStaticContactComplianceIsTheNodesStiffnessBlockInverted) {
  const auto body = [](const char* integrator) {
    Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"element": "linear", "integrator": ")" +
                                    integrator + R"("})");
    EXPECT_TRUE(scene.ok()) << scene.message();
    return std::move(scene).value();
  };
  Scene scene = body("quasi_static");
  Body& b = scene.world->body(0);
  const fem::FemBody* view = fem_body(b);
  ASSERT_NE(view, nullptr);
  // The surface node at the tip's corner (1, 0.2, 0.2): a corner of some surface triangle.
  SurfacePoint p;
  Index sn = -1;
  const auto x0 = b.surface_rest_positions();
  for (std::size_t t = 0; t < b.surface_triangles().size() && sn < 0; ++t)
    for (int c = 0; c < 3; ++c) {
      const Index n = b.surface_triangles()[t][static_cast<std::size_t>(c)];
      if ((x0[static_cast<std::size_t>(n)] - Vec3(1.0, 0.2, 0.2)).norm() < 1e-12) {
        sn = n;
        p = {static_cast<Index>(t), c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
      }
    }
  ASSERT_GE(sn, 0);
  const GrabId id = b.grab_patch(p, 0.0);
  ASSERT_TRUE(id.valid());
  ASSERT_EQ(b.grab_nodes(id).size(), 1u);
  const Mat3 c = b.grab_compliance(id);
  const fem::FemForceModel& m = view->model();
  const TetMesh mesh{m.rest_positions(), m.tets()};
  const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
  const Eigen::MatrixXd K = Eigen::MatrixXd(fem::assemble_stiffness(mesh, mat));
  const Eigen::Index a = 3 * view->surface_nodes()[static_cast<std::size_t>(sn)];
  const Mat3 block = K.block<3, 3>(a, a);
  EXPECT_LT((c - block.inverse()).norm(), 1e-12 * block.inverse().norm());
  // The true compliance: the node's block of K⁻¹ with the clamped nodes' rows and columns taken out.
  std::vector<Eigen::Index> free;
  for (std::size_t i = 0; i < mesh.positions.size(); ++i)
    if (mesh.positions[i].x() > 1e-9)
      for (int k = 0; k < 3; ++k) free.push_back(3 * static_cast<Eigen::Index>(i) + k);
  const Eigen::MatrixXd Kff = K(free, free);
  const Eigen::Index at = std::find(free.begin(), free.end(), a) - free.begin();
  const Mat3 exact = Eigen::MatrixXd(Kff.inverse()).block<3, 3>(at, at);
  const Eigen::SelfAdjointEigenSolver<Mat3> gap(exact - c);
  EXPECT_GT(gap.eigenvalues().minCoeff(), 0.0);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Mat3>(c).eigenvalues().minCoeff(), 0.0);
  // A patch of several nodes, and a dynamic body: none.
  const GrabId patch = b.grab_patch(p, 0.3);
  ASSERT_GT(b.grab_nodes(patch).size(), 1u);
  EXPECT_EQ(b.grab_compliance(patch), Mat3::Zero());
  Scene dynamic = body("backward_euler");
  const GrabId held = dynamic.world->body(0).grab_patch(p, 0.0);
  ASSERT_TRUE(held.valid());
  EXPECT_EQ(dynamic.world->body(0).grab_compliance(held), Mat3::Zero());
}

TEST(FemSceneBody, MaxFrequencyMatchesTheDenseEigenproblem) {
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"element": "linear"})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  const fem::FemForceModel& m = fem_body(scene->world->body(0))->model();
  const TetMesh mesh{m.rest_positions(), m.tets()};
  const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, m.def().fixed_nodes);
  ASSERT_TRUE(dofs.ok());
  Eigen::MatrixXd A = Eigen::MatrixXd(dofs->restrict_matrix(fem::assemble_stiffness(mesh, mat)));
  for (Eigen::Index r = 0; r < A.rows(); ++r) {
    for (Eigen::Index c = 0; c < A.cols(); ++c) {
      A(r, c) /= std::sqrt(m.mass()[static_cast<std::size_t>(dofs->free_dofs()[r] / 3)] *
                           m.mass()[static_cast<std::size_t>(dofs->free_dofs()[c] / 3)]);
    }
  }
  const double omega = std::sqrt(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A).eigenvalues().maxCoeff());
  const double estimate = fem::max_frequency(m);
  EXPECT_LE(estimate, omega * (1.0 + 1e-9));
  EXPECT_GE(estimate, 0.95 * omega);
}

TEST(FemSceneBody, ExplicitStepsStayBoundedBelowTheStableStep) {
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"element": "corotational",
      "gravity": [0, -9.81, 0], "integrator": "symplectic_euler"})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const fem::FemBody* view = fem_body(world.body(0));
  for (int s = 0; s < 20; ++s) world.step();
  EXPECT_GT(view->last_report().substeps, 1);
  EXPECT_LE(view->substep(), 2.0 / fem::max_frequency(view->model()));
  // No blow-up: after 0.2 s no node has moved more than twice the free-fall distance ½ g t² (an
  // unstable explicit step grows without bound within a few steps).
  const double fall = 0.5 * 9.81 * 0.2 * 0.2;
  for (std::size_t i = 0; i < view->positions().size(); ++i)
    EXPECT_LT((view->positions()[i] - view->model().rest_positions()[i]).norm(), 2.0 * fall);
  // A given dt above the stable step is refused, naming the dt key.
  Result<Scene> too_big = fem_scene(std::string(kBeam) + R"(, "fem": {"integrator": "central_difference",
      "dt": 0.01})");
  ASSERT_FALSE(too_big.ok());
  EXPECT_NE(too_big.message().find("/bodies/0/fem/dt: "), std::string::npos) << too_big.message();
  EXPECT_NE(too_big.message().find("stable step"), std::string::npos) << too_big.message();
}

TEST(FemSceneBody, UnconvergedSolvesEmitAWarning) {
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"gravity": [0, -9.81, 0],
      "solver": {"kind": "pcg", "tolerance": 1e-14, "max_iterations": 1}})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  world.step();
  const auto warnings = world.body(0).events().get<fem::FemSolverWarning>();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(warnings[0].finite);
  EXPECT_GT(warnings[0].relative_residual, 1e-14);
  EXPECT_FALSE(fem_body(world.body(0))->last_report().converged);
  // The fast path is inexact by design: its capped CG is not a warning.
  Result<Scene> fast = fem_scene(std::string(kBeam) + R"(, "fem": {"gravity": [0, -9.81, 0],
      "solver": {"kind": "fast"}})");
  ASSERT_TRUE(fast.ok()) << fast.message();
  fast->world->step();
  EXPECT_TRUE(fast->world->body(0).events().get<fem::FemSolverWarning>().empty());
}

TEST(FemSceneBody, ErrorsNameTheJsonPath) {
  const auto message = [](const std::string& fem) {
    Result<Scene> s = fem_scene(std::string(kBeam) + R"(, "fem": )" + fem);
    return s.ok() ? std::string("ok") : s.message();
  };
  EXPECT_NE(message(R"({"element": "cubic"})").find("/bodies/0/fem/element: expected one of"),
            std::string::npos);
  EXPECT_NE(message(R"({"solver": {"kind": "lu"}})").find("/bodies/0/fem/solver/kind: expected one of"),
            std::string::npos);
  EXPECT_NE(message(R"({"mass": "heavy"})").find("/bodies/0/fem/mass: expected one of"), std::string::npos);
  EXPECT_NE(message(R"({"mass": "consistent", "integrator": "symplectic_euler"})")
                .find("/bodies/0/fem/mass: a consistent mass needs an implicit integrator (symplectic_euler"),
            std::string::npos);
  EXPECT_NE(message(R"({"mass": "consistent", "integrator": "central_difference"})")
                .find("/bodies/0/fem/mass: a consistent mass needs an implicit integrator"),
            std::string::npos);
  EXPECT_NE(message(R"({"mass": "consistent", "hybrid": {"operational": "x>0.5"}})")
                .find("/bodies/0/fem/mass: a hybrid body takes a lumped mass only"),
            std::string::npos);
  EXPECT_EQ(message(R"({"mass": "consistent", "integrator": "quasi_static"})"), "ok");
  EXPECT_NE(message(R"({"damping": {"alpha": -1}})").find("/bodies/0/fem/damping/alpha: expected"),
            std::string::npos);
  EXPECT_NE(message(R"({"dampnig": {}})").find("/bodies/0/fem"), std::string::npos);
  EXPECT_NE(message(R"({"material_regions": [{"region": "x>5", "material": {"preset": "rubber"}}]})")
                .find("/bodies/0/fem/material_regions/0/region: the region selects no tet"),
            std::string::npos);
  Result<Scene> free_static = parse_scene(R"({"pliant": 1, "bodies": [{"name": "b", "family": "fem",
      "mesh": {"shape": "box", "size": [1, 1, 1], "cells": [1, 1, 1]}, "material": {"preset": "rubber"},
      "fem": {"integrator": "quasi_static"}}]})",
                                          "fem.json");
  ASSERT_FALSE(free_static.ok());
  EXPECT_NE(free_static.message().find("/bodies/0/fem/integrator: quasi_static stepping needs"),
            std::string::npos)
      << free_static.message();
}

TEST(FemSceneBody, MaterialRegionsSetPerTetMaterials) {
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"material_regions": [
      {"region": "x>0.5", "material": {"E": 4e5, "nu": 0.3, "density": 300}}]})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  const fem::FemForceModel& m = fem_body(scene->world->body(0))->model();
  int stiff = 0;
  for (Index t = 0; t < static_cast<Index>(m.tets().size()); ++t) {
    Vec3 c = Vec3::Zero();
    for (Index a : m.tets()[static_cast<std::size_t>(t)])
      c += 0.25 * m.rest_positions()[static_cast<std::size_t>(a)];
    const double density = m.material(t).density;
    EXPECT_EQ(density, c.x() > 0.5 ? 300.0 : 100.0);
    stiff += c.x() > 0.5;
  }
  EXPECT_GT(stiff, 0);
}

TEST(FemSceneBody, WritesItsVolumeAtTheCurrentPositions) {
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"gravity": [0, -9.81, 0]})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  for (int s = 0; s < 5; ++s) world.step();
  const auto* volume = capability<InteriorOutput>(world.body(0));
  ASSERT_NE(volume, nullptr);
  EXPECT_EQ(volume->interior_name(), "volume");
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "fem_volume.vtu";
  ASSERT_TRUE(volume->write_interior_vtu(path).ok());
  Result<TetMesh> back = io::read_tet_mesh(path);
  ASSERT_TRUE(back.ok()) << back.message();
  const fem::FemBody* view = fem_body(world.body(0));
  ASSERT_EQ(back->positions.size(), view->positions().size());
  EXPECT_EQ(back->tets, view->model().tets());
  double moved = 0.0;
  for (std::size_t i = 0; i < back->positions.size(); ++i) {
    EXPECT_LT((back->positions[i] - view->positions()[i]).norm(), 1e-12);
    moved = std::max(moved, (view->positions()[i] - view->model().rest_positions()[i]).norm());
  }
  EXPECT_GT(moved, 1e-4);
  std::filesystem::remove(path);
}

TEST(FemSceneBody, ExampleBeamSwingsAndSettles) {
  auto loaded = load_scene(std::filesystem::path(PLIANT_EXAMPLES_DIR) / "fem_swinging_beam.json");
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  World& world = *loaded->world;
  const Body& b = world.body(0);
  // The tip: the surface node at rest nearest (1, 0.075, 0.075).
  std::size_t tip = 0;
  const auto x0 = b.surface_rest_positions();
  for (std::size_t i = 0; i < x0.size(); ++i) {
    if ((x0[i] - Vec3(1, 0.075, 0.075)).norm() < (x0[tip] - Vec3(1, 0.075, 0.075)).norm()) tip = i;
  }
  std::vector<double> y;
  for (int s = 0; s < loaded->steps; ++s) {
    world.step();
    y.push_back(b.surface_positions()[tip].y() - x0[tip].y());
    ASSERT_TRUE(b.events().empty()) << "step " << s;
  }
  // Released from rest under gravity, the tip falls, swings back up past its lowest point by a good
  // part of the drop, and its swings shrink (stiffness damping and backward Euler's own).
  const auto lowest = std::min_element(y.begin(), y.end()) - y.begin();
  EXPECT_LT(y[static_cast<std::size_t>(lowest)], -0.05);
  const double rebound = *std::max_element(y.begin() + lowest, y.end());
  EXPECT_GT(rebound - y[static_cast<std::size_t>(lowest)], 0.3 * -y[static_cast<std::size_t>(lowest)]);
  double late = 0.0;
  for (std::size_t k = y.size() - 50; k < y.size(); ++k) late = std::max(late, std::abs(y[k] - y.back()));
  EXPECT_LT(late, rebound - y[static_cast<std::size_t>(lowest)]);
}

// Bodies of a scene with the same mesh and materials share one fem::FemAsset (through
// pliant::AssetCache), whatever their per-body settings; a different material or mesh is another asset,
// and so is a different material region. A second load of the scene while the first lives shares it too.
TEST(FemSceneBody, BodiesWithTheSameMeshAndMaterialsShareOneAsset) {
  const auto entry = [](const std::string& name, const std::string& mesh, const std::string& material,
                        const std::string& fem) {
    return R"({"name": ")" + name + R"(", "family": "fem", "mesh": {"shape": "box", "size": )" + mesh +
           R"(, "cells": [5, 1, 1]}, "fixed": ["xmin"], "material": )" + material + R"(, "fem": )" + fem +
           "}";
  };
  const std::string rubber = R"({"E": 1e5, "nu": 0.3, "density": 100})";
  const std::string stiffer = R"({"E": 2e5, "nu": 0.3, "density": 100})";
  const std::string size = "[1.0, 0.2, 0.2]";
  const std::string text =
      R"({"pliant": 1, "time_step": 0.01, "bodies": [)" +
      entry("a", size, rubber, R"({"damping": {"alpha": 0.5}})") + ", " +
      entry("b", size, rubber, R"({"gravity": [0, -9.81, 0], "integrator": "newmark"})") + ", " +
      entry("c", size, stiffer, "{}") + ", " + entry("d", "[1.0, 0.2, 0.25]", rubber, "{}") + ", " +
      entry(
          "e", size, rubber,
          R"({"material_regions": [{"region": "x>0.5", "material": {"E": 4e5, "nu": 0.3, "density": 300}}]})") +
      "]}";
  Result<Scene> scene = parse_scene(text, "shared.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  const auto asset = [&](const Scene& s, std::size_t i) { return fem_body(s.world->body(i))->asset().get(); };
  ASSERT_NE(asset(*scene, 0), nullptr);
  EXPECT_EQ(asset(*scene, 0), asset(*scene, 1)) << "only per-body settings differ";
  EXPECT_NE(asset(*scene, 0), asset(*scene, 2)) << "the material differs";
  EXPECT_NE(asset(*scene, 0), asset(*scene, 3)) << "the mesh differs";
  EXPECT_NE(asset(*scene, 0), asset(*scene, 4)) << "a material region differs";
  Result<Scene> again = parse_scene(text, "shared.json");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(asset(*again, 0), asset(*scene, 0)) << "a second load shares the live asset";
  scene->world->step();
  EXPECT_NE(fem_body(scene->world->body(0))->state_hash(), fem_body(scene->world->body(1))->state_hash());
}

// The C++ factory: an asset, a def, and the body behind the surface contract; a null asset or a def the
// body refuses is an error, not a crash.
TEST(FemSceneBody, TheFactoryBuildsFromAnAssetAndADef) {
  const TetMesh mesh = meshing::box_mesh({.size = {0.1, 0.02, 0.02}, .cells = {4, 1, 1}}).value();
  const auto rubber = materials::material_from_young_poisson(1e5, 0.3, 1000.0).value();
  Result<std::shared_ptr<const fem::FemAsset>> asset = fem::FemAsset::build(mesh, {rubber});
  ASSERT_TRUE(asset.ok()) << asset.message();
  fem::FemDef def;
  def.body.gravity = Vec3(0.0, 0.0, -9.81);
  Result<std::unique_ptr<Body>> body = make_scene_body("bar", *asset, def);
  ASSERT_TRUE(body.ok()) << body.message();
  EXPECT_EQ((*body)->name(), "bar");
  ASSERT_NE(fem_body(**body), nullptr);
  EXPECT_EQ(fem_body(**body)->asset().get(), asset->get());
  EXPECT_EQ((*body)->surface_triangles().size(), (*asset)->surface().triangles.size());

  Result<std::unique_ptr<Body>> none = make_scene_body("none", nullptr, def);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("no asset"), std::string::npos) << none.message();
  fem::FemDef bad = def;
  bad.step.explicit_safety = 2.0;
  Result<std::unique_ptr<Body>> refused = make_scene_body("bad", *asset, bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message(), "fem: explicit_safety must be in (0, 1]");
}

}  // namespace
}  // namespace pliant::scene
