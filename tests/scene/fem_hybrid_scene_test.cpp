// The fem family's "hybrid" key (Wu & Heng 2005): the scene body's steps equal the full body (linear
// tets outside the operational region) stepped by fem::ImplicitSolver, the region selects tets by
// centroid, and bad settings are named by their JSON path.
#include "pliant/scene/fem_scene_body.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pliant::scene {
namespace {

Result<Scene> hybrid_scene(const std::string& fem) {
  return parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b", "family": "fem",
      "mesh": {"shape": "box", "size": [1.0, 0.2, 0.2], "cells": [6, 2, 2]}, "fixed": ["xmin"],
      "material": {"E": 1e5, "nu": 0.3, "density": 100}, "fem": )" +
                         fem + "}]}",
                     "hybrid.json");
}

TEST(FemHybridScene, StepsEqualTheFullBody) {
  struct Case {
    std::string op, solver;
  };
  // The interface split and the rest-factor CG to a tight tolerance solve the same equations.
  const std::string split = R"("solver": {"kind": "interface_pcg", "tolerance": 1e-12}, )";
  const std::string rest = R"("solver": {"kind": "rest_factor_pcg", "tolerance": 1e-12}, )";
  for (const Case& c : {Case{R"({"box": {"min": [0.5, -1, -1], "max": [2, 1, 1]}})", ""},
                        Case{R"("x>0.5")", ""}, Case{R"("x>0.5")", split}, Case{R"("x>0.5")", rest}}) {
    SCOPED_TRACE(c.op + c.solver);
    Result<Scene> scene = hybrid_scene(
        R"({"element": "corotational", "damping": {"alpha": 0.5, "beta": 0.002}, )" + c.solver +
        R"("gravity": [0, -9.81, 0], "integrator": "backward_euler", "hybrid": {"operational": )" + c.op +
        "}}");
    ASSERT_TRUE(scene.ok()) << scene.message();
    World& world = *scene->world;
    const fem::FemBody* view = fem_body(world.body(0));
    ASSERT_NE(view, nullptr);
    const fem::FemForceModel& m = view->model();
    // The view's model is the full body: corotational where the centroid has x > 0.5, linear elsewhere.
    int operational = 0;
    for (Index t = 0; t < static_cast<Index>(m.tets().size()); ++t) {
      Vec3 c = Vec3::Zero();
      for (Index a : m.tets()[static_cast<std::size_t>(t)])
        c += 0.25 * m.rest_positions()[static_cast<std::size_t>(a)];
      EXPECT_EQ(m.element(t), c.x() > 0.5 ? fem::ElementKind::corotational : fem::ElementKind::linear);
      operational += c.x() > 0.5;
    }
    EXPECT_GT(operational, 0);
    EXPECT_LT(operational, static_cast<int>(m.tets().size()));

    const TetMesh mesh{m.rest_positions(), m.tets()};
    const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
    fem::FemBodyDef def = m.def();
    auto model = fem::FemForceModel::build(mesh, std::span(&mat, 1), def);
    ASSERT_TRUE(model.ok()) << model.message();
    auto solver = fem::ImplicitSolver::build(*model, {.dt = 0.01});
    ASSERT_TRUE(solver.ok()) << solver.message();
    std::vector<Vec3> x = mesh.positions, v(x.size(), Vec3::Zero());
    for (int s = 0; s < 20; ++s) {
      world.step();
      solver->step(x, v);
    }
    EXPECT_TRUE(view->last_report().converged);
    double worst = 0.0, swing = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      worst = std::max(worst, (view->positions()[i] - x[i]).norm());
      swing = std::max(swing, (x[i] - mesh.positions[i]).norm());
    }
    EXPECT_GT(swing, 1e-3);
    EXPECT_LE(worst, 1e-8);
  }
}

TEST(FemHybridScene, ErrorsNameTheJsonPath) {
  const auto message = [](const std::string& fem) {
    Result<Scene> s = hybrid_scene(fem);
    return s.ok() ? std::string("ok") : s.message();
  };
  EXPECT_NE(message(R"({"hybrid": {"operational": {"box": {"min": [1, 0, 0], "max": [0, 1, 1]}}}})")
                .find("/bodies/0/fem/hybrid/operational/box/max: max must be >= min"),
            std::string::npos);
  EXPECT_NE(message(R"({"hybrid": {"operational": {"box": {"min": [0, 0], "max": [1, 1, 1]}}}})")
                .find("/bodies/0/fem/hybrid/operational/box/min"),
            std::string::npos);
  EXPECT_NE(message(R"({"hybrid": {"operational": {"sphere": {"centre": [5, 5, 5], "radius": 0.1}}}})")
                .find("/bodies/0/fem/hybrid/operational: the operational region holds no tet"),
            std::string::npos);
  EXPECT_NE(
      message(R"({"hybrid": {"operational": {}}})").find("/bodies/0/fem/hybrid/operational: give one of"),
      std::string::npos);
  EXPECT_NE(message(R"({"hybrid": {"region": "x>0.5"}})").find("/bodies/0/fem/hybrid"), std::string::npos);
  EXPECT_NE(message(R"({"integrator": "houbolt", "hybrid": {"operational": "x>0.5"}})")
                .find("/bodies/0/fem/integrator: a hybrid body needs"),
            std::string::npos);
  EXPECT_NE(message(R"({"solver": {"kind": "pcg"}, "hybrid": {"operational": "x>0.5"}})")
                .find("/bodies/0/fem/solver/kind: a hybrid body needs the cholmod, interface_pcg or "
                      "rest_factor_pcg solver"),
            std::string::npos);
  EXPECT_NE(message(R"({"solver": {"kind": "interface_pcg"}})")
                .find("/bodies/0/fem/solver/kind: interface_pcg needs a hybrid body"),
            std::string::npos);
  EXPECT_NE(message(R"({"modal": {"modes": 4}, "hybrid": {"operational": "x>0.5"}})")
                .find("/bodies/0/fem/hybrid: a modal body cannot be hybrid"),
            std::string::npos);
}

}  // namespace
}  // namespace pliant::scene
