// The fem family's modal bodies through the scene layer: steps equal fem::ModalBody driven directly
// (to round-off, with gravity, a point force and warping); with all but one mode, a body damped to
// rest sits on the assembled static solution K u = f and a falling beam follows the full linear
// family (Newmark, small steps); a spring grab pulls its patch to the target and
// the body pulls back; modal keys that make no sense are refused by their JSON path.
#include "pliant/scene/fem_modal_scene_body.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"
#include "pliant/models/fem/assembly/mass.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"
#include "pliant/models/fem/modal/modal_body.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <utility>

namespace pliant::scene {
namespace {

Result<Scene> fem_scene(const std::string& body, double time_step = 0.01) {
  return parse_scene(R"({"pliant": 1, "time_step": )" + std::to_string(time_step) +
                         R"(, "bodies": [{"name": "b", "family": "fem", )" + body + "}]}",
                     "fem.json");
}

const char* kBeam =
    R"("mesh": {"shape": "box", "size": [1.0, 0.2, 0.2], "cells": [5, 1, 1]}, "fixed": ["xmin"],
    "material": {"E": 1e5, "nu": 0.3, "density": 100})";

std::vector<Index> xmin_nodes(const TetMesh& mesh) {
  std::vector<Index> fixed;
  for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
    if (mesh.positions[i].x() == 0.0) fixed.push_back(static_cast<Index>(i));
  }
  return fixed;
}

TEST(FemModalSceneBody, StepsEqualTheModalBodyDrivenDirectly) {
  const TetMesh mesh = meshing::box_mesh({.size = {1.0, 0.2, 0.2}, .cells = {5, 1, 1}}).value();
  const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
  const std::vector<Index> fixed = xmin_nodes(mesh);
  const Vec3 g(0.0, -9.81, 0.0);
  const double dt = 0.01;
  std::vector<Vec3> last_lumped;  // the last positions of the lumped body without warping
  for (const fem::MassKind kind : {fem::MassKind::lumped, fem::MassKind::consistent})
    for (bool warping : {false, true}) {
      SCOPED_TRACE(fem::mass_kind_name(kind));
      auto asset = fem::ModalFemAsset::build(mesh, {mat}, {.modes = 8, .mass = kind, .fixed_nodes = fixed});
      ASSERT_TRUE(asset.ok()) << asset.message();
      auto built = make_scene_body(
          "b", *asset,
          {.dt = dt, .warping = warping, .rayleigh_alpha = 0.5, .rayleigh_beta = 0.002, .gravity = g});
      ASSERT_TRUE(built.ok()) << built.message();
      Body& body = **built;
      // The reference: the same basis (a deterministic solve), the body driven by hand.
      auto basis = fem::modal_analysis(
          mesh, std::span(&mat, 1), fixed, {.modes = 8},
          kind == fem::MassKind::consistent ? fem::ModalMass::consistent : fem::ModalMass::lumped);
      ASSERT_TRUE(basis.ok()) << basis.message();
      const auto surface = body.surface_nodes();
      auto ref = fem::ModalBody::build(mesh, *basis,
                                       {.dt = dt,
                                        .rayleigh_alpha = 0.5,
                                        .rayleigh_beta = 0.002,
                                        .warping = warping,
                                        .output_nodes = std::vector<Index>(surface.begin(), surface.end())});
      ASSERT_TRUE(ref.ok()) << ref.message();
      const auto mass = fem::assemble_lumped_mass(mesh, std::vector<double>(mesh.tets.size(), 100.0)).value();
      Eigen::VectorXd weight = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(mesh.node_count()));
      for (std::size_t i = 0; i < mesh.node_count(); ++i)
        weight.segment<3>(3 * static_cast<Eigen::Index>(i)) = mass[i] * g;
      const Eigen::VectorXd gravity = basis->shapes.transpose() * weight;
      // A push at the tip for the first step: a triangle corner of the x = 1 face.
      Index tip = -1;
      for (std::size_t t = 0; t < body.surface_triangles().size() && tip < 0; ++t) {
        if (body.surface_rest_positions()[body.surface_triangles()[t][0]].x() == 1.0)
          tip = static_cast<Index>(t);
      }
      ASSERT_GE(tip, 0);
      const Index tip_node = surface[body.surface_triangles()[static_cast<std::size_t>(tip)][0]];
      const Vec3 push(0.0, 0.0, 3.0);
      Profile profile;
      std::vector<Vec3> u(surface.size());
      double worst = 0.0, swing = 0.0;
      for (int s = 0; s < 40; ++s) {
        if (s == 0) body.apply_force({tip, 0.0, 0.0}, push);
        body.step(dt, profile);
        ref->set_modal_forces(gravity);
        if (s == 0) ref->add_point_force(tip_node, push);
        ref->step();
        ref->reconstruct(u);
        for (std::size_t k = 0; k < u.size(); ++k) {
          const Vec3 x = mesh.positions[static_cast<std::size_t>(surface[k])] + u[k];
          worst = std::max(worst, (body.surface_positions()[k] - x).norm());
          swing = std::max(swing, u[k].norm());
        }
      }
      EXPECT_GT(swing, 1e-2) << "the beam swings";
      // Equal to round-off: the scene sums the lumped masses (M g's rows for either mass) in another order.
      EXPECT_LE(worst, 1e-14 * swing) << "warping " << warping;
      const std::vector<Vec3> last(body.surface_positions().begin(), body.surface_positions().end());
      if (kind == fem::MassKind::lumped && !warping) last_lumped = last;
      if (kind == fem::MassKind::consistent && !warping) {
        double apart = 0.0;  // the mass changes the modes, so the swing
        for (std::size_t k = 0; k < last.size(); ++k)
          apart = std::max(apart, (last[k] - last_lumped[k]).norm());
        EXPECT_GT(apart, 1e-3 * swing);
      }
    }
}

TEST(FemModalSceneBody, DampedToRestItSitsOnTheStaticSolution) {
  // One exact step of 10 s with α = 20/s leaves e^-100 of any transient: the static response of the
  // kept modes. With all but the stiffest mode kept, that is K u = f up to the dropped mode's share
  // (measured: 3e-10 of the sag; the stiffest mode barely responds to a uniform load).
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"element": "linear",
      "gravity": [0, 0, -9.81], "damping": {"alpha": 20}, "modal": {"modes": 59}})",
                                  10.0);
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  world.step();
  const Body& body = world.body(0);
  const TetMesh mesh = meshing::box_mesh({.size = {1.0, 0.2, 0.2}, .cells = {5, 1, 1}}).value();
  const auto mat = materials::material_from_young_poisson(1e5, 0.3, 100).value();
  const fem::SparseMatrix K = fem::assemble_stiffness(mesh, mat);
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, xmin_nodes(mesh));
  ASSERT_TRUE(dofs.ok()) << dofs.message();
  ASSERT_EQ(dofs->free_size(), 60);
  const auto mass = fem::assemble_lumped_mass(mesh, std::vector<double>(mesh.tets.size(), 100.0)).value();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(mesh.node_count()));
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    f[3 * static_cast<Eigen::Index>(i) + 2] = -9.81 * mass[i];
  auto factor = linalg::SparseCholesky::factor(dofs->restrict_matrix(K));
  ASSERT_TRUE(factor.ok()) << factor.message();
  const Eigen::VectorXd u = dofs->expand(factor->solve(dofs->restrict_vector(f)));
  double err = 0.0, size = 0.0;
  for (std::size_t k = 0; k < body.surface_positions().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(body.surface_nodes()[k]);
    const Vec3 ui = u.segment<3>(3 * i);
    err = std::max(err,
                   (body.surface_positions()[k] - mesh.positions[static_cast<std::size_t>(i)] - ui).norm());
    size = std::max(size, ui.norm());
  }
  EXPECT_GT(size, 1e-3);
  EXPECT_LE(err, 1e-8 * size) << "err " << err << " size " << size;
}

// The same beam as a modal body with 59 of its 60 modes (exact in time) and as the full linear fem family
// stepped by Newmark (second order, small steps), both with the fem settings `fem` (JSON members).
std::pair<Result<Scene>, Result<Scene>> modal_and_full(const std::string& fem) {
  return {fem_scene(std::string(kBeam) + R"(, "fem": {)" + fem + R"(, "modal": {"modes": 59}})", 2e-4),
          fem_scene(std::string(kBeam) + R"(, "fem": {)" + fem +
                        R"(, "element": "linear", "integrator": "newmark", "solver": {"kind": "cholmod"}})",
                    2e-4)};
}

// Steps both scenes `steps` times: the largest surface-position difference between them and the full
// body's largest surface displacement (its swing), both in m, over all steps.
void modal_against_full(Scene& modal, Scene& full, int steps, double& worst, double& swing) {
  for (int k = 0; k < steps; ++k) {
    modal.world->step();
    full.world->step();
    const Body& a = modal.world->body(0);
    const Body& b = full.world->body(0);
    ASSERT_EQ(a.surface_positions().size(), b.surface_positions().size());
    for (std::size_t i = 0; i < a.surface_positions().size(); ++i) {
      worst = std::max(worst, (a.surface_positions()[i] - b.surface_positions()[i]).norm());
      swing = std::max(swing, (b.surface_positions()[i] - b.surface_rest_positions()[i]).norm());
    }
  }
}

TEST(FemModalSceneBody, NearlyAllModesFollowTheFullLinearFamily) {
  // The same damped beam falling under gravity from rest, as a modal body with 59 of its 60 modes
  // (exact in time) and as the full linear fem family stepped by Newmark (second order, small steps):
  // the same mass, stiffness, Rayleigh damping and gravity conventions, so the same motion.
  const std::string fem = R"("gravity": [0, 0, -9.81], "damping": {"alpha": 0.5, "beta": 0.002})";
  auto [modal, full] = modal_and_full(fem);
  ASSERT_TRUE(modal.ok()) << modal.message();
  ASSERT_TRUE(full.ok()) << full.message();
  double worst = 0.0, swing = 0.0;
  modal_against_full(*modal, *full, 250, worst, swing);
  EXPECT_GT(swing, 1e-3);
  // Measured: 4.5e-6 of the swing, a quarter of that at half the step: Newmark's own O(h²) error.
  EXPECT_LE(worst, 1e-5 * swing) << "worst " << worst << " swing " << swing;
}

TEST(FemModalSceneBody, SurfaceLoadsFollowTheFullLinearFamily) {
  // As above with a traction on the top face and a pressure on a side face (a follower load on the
  // current triangles) instead of gravity: the modal forces Φᵀ f of the loads' node forces, formed each
  // step, give the full linear family's motion up to the modes left out. Loads on faces excite the
  // dropped stiffest mode far more than gravity does (4.5e-6 above): measured 3.8e-4 of the swing for the
  // traction alone and 1.1e-3 for the pressure alone, the same at half the step, three times more with
  // two modes dropped, so truncation, not the time step. Without warping the reconstructed surface is
  // the linear one, the full family's.
  const std::string fem = R"("traction": [{"region": "zmax", "value": [0, 30, -60]}],
      "pressure": [{"region": "ymax", "value": 15}], "damping": {"alpha": 0.5, "beta": 0.002})";
  auto [modal, full] = modal_and_full(fem);
  ASSERT_TRUE(modal.ok()) << modal.message();
  ASSERT_TRUE(full.ok()) << full.message();
  double worst = 0.0, swing = 0.0;
  modal_against_full(*modal, *full, 250, worst, swing);
  EXPECT_GT(swing, 1e-3);  // the loads alone move the body
  EXPECT_LE(worst, 2e-3 * swing) << "worst " << worst << " swing " << swing;
}

// A triangle corner (u = v = 0) farthest along +x.
SurfacePoint tip_corner(const Body& b) {
  const auto x0 = b.surface_rest_positions();
  const auto tris = b.surface_triangles();
  Index best = 0;
  for (std::size_t t = 0; t < tris.size(); ++t) {
    if (x0[tris[t][0]].x() > x0[tris[static_cast<std::size_t>(best)][0]].x()) best = static_cast<Index>(t);
  }
  return {best, 0.0, 0.0};
}

TEST(FemModalSceneBody, AGrabPullsItsPatchToTheTargetAndTheBodyPullsBack) {
  for (const char* warping : {"false", "true"}) {
    Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"damping": {"alpha": 5, "beta": 0.002},
        "modal": {"modes": 12, "warping": )" +
                                    warping + "}}");
    ASSERT_TRUE(scene.ok()) << scene.message();
    World& world = *scene->world;
    Body& b = world.body(0);
    const SurfacePoint p = tip_corner(b);
    const Index node = b.surface_triangles()[static_cast<std::size_t>(p.triangle)][0];
    const GrabId id = b.grab_patch(p, 0.0);
    ASSERT_TRUE(id.valid());
    world.step();
    EXPECT_LT(b.grab_reaction(id).norm(), 1e-9) << "a grab held where the body rests pulls on nothing";
    const Vec3 start = b.surface_positions()[static_cast<std::size_t>(node)];
    const Vec3 target = start + Vec3(0.0, 0.0, 0.01);
    b.move_grab(id, target);
    for (int k = 0; k < 200; ++k) world.step();
    const Vec3 x = b.surface_positions()[static_cast<std::size_t>(node)];
    // The spring is κ = 100 times the stiffest kept mode: the node reaches its target within ~1 %.
    EXPECT_LT((x - target).norm(), 0.02 * 0.01) << warping << ": " << x.transpose();
    const Vec3 r = b.grab_reaction(id);
    EXPECT_LT(r.z(), 0.0) << "the body pulls the tool back toward rest";
    b.release(id);
    world.step();
    const auto released = b.events().get<GrabReleased>();
    ASSERT_EQ(released.size(), 1u);
    EXPECT_EQ(released[0].id, id);
    EXPECT_EQ(b.grab_reaction(id), Vec3::Zero());
    for (int k = 0; k < 300; ++k) world.step();
    EXPECT_LT((b.surface_positions()[static_cast<std::size_t>(node)] - start).norm(), 1e-4)
        << "released, it swings back to rest";
  }
}

TEST(FemModalSceneBody, FieldsAndInteriorOutput) {
  Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": {"gravity": [0, -9.81, 0],
      "modal": {"modes": 6, "warping": true}})");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  for (int k = 0; k < 10; ++k) world.step();
  const Body& b = world.body(0);
  ASSERT_EQ(find_field(b, "displacement"), 0);
  ASSERT_EQ(find_field(b, "speed"), 1);
  std::vector<double> d(b.surface_positions().size()), s(d.size());
  b.fill_field(0, d);
  b.fill_field(1, s);
  for (std::size_t k = 0; k < d.size(); ++k) {
    EXPECT_NEAR(d[k], (b.surface_positions()[k] - b.surface_rest_positions()[k]).norm(), 1e-15);
    EXPECT_TRUE(std::isfinite(s[k]));
  }
  EXPECT_GT(*std::max_element(s.begin(), s.end()), 0.0);
  const InteriorOutput* out = capability<InteriorOutput>(b);
  ASSERT_NE(out, nullptr);
  const auto points = out->interior_points();
  ASSERT_EQ(points.size(), 24u);
  // The full reconstruction agrees with the surface one on the surface nodes.
  for (std::size_t k = 0; k < b.surface_positions().size(); ++k)
    EXPECT_LT((points[static_cast<std::size_t>(b.surface_nodes()[k])] - b.surface_positions()[k]).norm(),
              1e-14);
  const auto path = std::filesystem::temp_directory_path() / "pliant_fem_modal_volume.vtu";
  ASSERT_TRUE(out->write_interior_vtu(path).ok());
  EXPECT_GT(std::filesystem::file_size(path), 100u);
  std::filesystem::remove(path);
}

TEST(FemModalSceneBody, BadKeysAreNamedByTheirPath) {
  struct Case {
    const char* fem;
    const char* message;
  };
  for (const Case& c : {
           Case{R"({"element": "stvk", "modal": {"modes": 4}})",
                "/bodies/0/fem/element: a modal body is linear"},
           Case{R"({"integrator": "newmark", "modal": {"modes": 4}})",
                "/bodies/0/fem/integrator: a modal body"},
           Case{R"({"dt": 0.001, "modal": {"modes": 4}})", "/bodies/0/fem/dt: a modal body"},
           Case{R"({"solver": {"kind": "pcg"}, "modal": {"modes": 4}})",
                "/bodies/0/fem/solver: a modal body"},
           Case{R"({"modal": {"modes": 0}})", "/bodies/0/fem/modal/modes:"},
           Case{R"({"modal": {}})", "/bodies/0/fem/modal"},
           Case{R"({"modal": {"modes": 4, "warp": true}})", "/bodies/0/fem/modal"},
           Case{R"({"modal": {"modes": 4, "warping": 1}})", "/bodies/0/fem/modal/warping:"},
           Case{R"({"modal": {"modes": 60}})", "/bodies/0/fem/modal: fem modal:"},
       }) {
    Result<Scene> scene = fem_scene(std::string(kBeam) + R"(, "fem": )" + c.fem);
    ASSERT_FALSE(scene.ok()) << c.fem;
    EXPECT_NE(scene.message().find(c.message), std::string::npos) << scene.message();
    EXPECT_EQ(scene.message().find('\n'), std::string::npos) << scene.message();
  }
}

}  // namespace
}  // namespace pliant::scene
