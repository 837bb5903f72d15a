// Render meshes (render_mesh.hpp): embedded in tets they follow any affine motion exactly; embedded by
// surface frames they follow any rigid motion exactly; a render mesh equal to the body's own surface
// reproduces it; scene files give one line for a misplaced mesh; output and PNG see the render mesh.
#include "pliant/scene/render_mesh.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

namespace pliant::scene {
namespace {

// A body whose nodes are moved by the test: a tet mesh's boundary as its surface, and, when `tets`,
// the SimulationTets capability over every node.
class MovedBody final : public Body, public SimulationTets {
 public:
  MovedBody(TetMesh mesh, bool tets) : tets_(tets), rest_(std::move(mesh)), x_(rest_.positions) {
    boundary_ = extract_boundary(rest_);
    xs_ = boundary_.mesh.positions;
  }
  // Every node to f(rest position).
  template <class F>
  void move(F f) {
    for (std::size_t i = 0; i < x_.size(); ++i) x_[i] = f(rest_.positions[i]);
    for (std::size_t s = 0; s < xs_.size(); ++s)
      xs_[s] = x_[static_cast<std::size_t>(boundary_.volume_node[s])];
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "moved"; }
  std::span<const Vec3> surface_positions() const override { return xs_; }
  std::span<const Vec3> surface_rest_positions() const override { return boundary_.mesh.positions; }
  std::span<const Tri> surface_triangles() const override { return boundary_.mesh.triangles; }
  GrabId grab(const SurfacePoint&) override { return {}; }
  void move_grab(GrabId, const Vec3&) override {}
  void release(GrabId) override {}
  Vec3 grab_reaction(GrabId) const override { return Vec3::Zero(); }
  void apply_force(const SurfacePoint&, const Vec3&) override {}
  void step(double, Profile&) override {}
  std::span<const FieldInfo> fields() const override { return {}; }
  void fill_field(std::size_t, std::span<double>) const override {}
  std::uint64_t state_hash() const override { return 0; }

  std::span<const Tet> simulation_tets() const override {
    return tets_ ? std::span<const Tet>(rest_.tets) : std::span<const Tet>();
  }
  std::span<const Vec3> simulation_rest_nodes() const override { return rest_.positions; }
  std::span<const Vec3> simulation_nodes() const override { return x_; }

 private:
  std::string name_ = "moved";
  bool tets_;
  TetMesh rest_;
  BoundarySurface boundary_;
  std::vector<Vec3> x_, xs_;
};

TetMesh box() {
  meshing::BoxDef def;
  def.size = Vec3(0.1, 0.06, 0.04);
  def.cells = {5, 3, 2};
  return meshing::box_mesh(def).value();
}

// A finer surface around the box's middle: a sphere partly inside, partly outside the box.
TriMesh sphere(double radius) {
  meshing::IcosphereDef def;
  def.center = Vec3(0.05, 0.03, 0.02);
  def.radius = radius;
  def.subdivisions = 3;
  return meshing::icosphere(def).value();
}

double max_error(std::span<const Vec3> got, const std::vector<Vec3>& rest, auto f) {
  double e = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) e = std::max(e, (got[i] - f(rest[i])).norm());
  return e;
}

// Barycentric coordinates are affine invariant: stretch, shear, rotation and translation of the
// simulation nodes move every render vertex, inside or outside the tets, exactly as they move space.
TEST(RenderMesh, TetEmbeddingFollowsAnyAffineMotionExactly) {
  MovedBody body(box(), true);
  const TriMesh mesh = sphere(0.035);  // pokes out of the 0.04 m thick box
  RenderMesh r = RenderMesh::embed(body, mesh).value();
  ASSERT_EQ(r.embedding(), RenderMesh::Embedding::tets);
  Mat3 a;
  a << 1.3, 0.2, -0.1, 0.05, 0.8, 0.3, -0.2, 0.1, 1.1;
  const Vec3 t(0.3, -0.2, 0.05);
  const auto f = [&](const Vec3& p) { return Vec3(a * p + t); };
  body.move(f);
  r.update(body);
  EXPECT_LT(max_error(r.positions(), mesh.positions, f), 1e-14);
  // A non-affine motion is not reproduced exactly (the check can fail).
  const auto bend = [](const Vec3& p) { return Vec3(p.x(), p.y(), p.z() + 5.0 * p.x() * p.x()); };
  body.move(bend);
  r.update(body);
  EXPECT_GT(max_error(r.positions(), mesh.positions, bend), 1e-6);
}

// Triangle frames turn with the surface: a rigid motion moves every vertex exactly, an offset one too.
TEST(RenderMesh, SurfaceFramesFollowRigidMotionExactly) {
  MovedBody body(box(), false);
  const TriMesh mesh = sphere(0.035);
  RenderMesh r = RenderMesh::embed(body, mesh).value();
  ASSERT_EQ(r.embedding(), RenderMesh::Embedding::surface_frames);
  EXPECT_GT(r.max_offset(), 0.005);
  const Mat3 rot = Eigen::AngleAxisd(1.1, Vec3(1, 2, -0.5).normalized()).toRotationMatrix();
  const Vec3 t(-0.4, 0.1, 0.25);
  const auto f = [&](const Vec3& p) { return Vec3(rot * p + t); };
  body.move(f);
  r.update(body);
  EXPECT_LT(max_error(r.positions(), mesh.positions, f), 1e-13);
}

// The body's own surface as its render mesh is the body's surface, whatever the body does.
TEST(RenderMesh, TheBodysOwnSurfaceIsReproduced) {
  for (bool tets : {true, false}) {
    MovedBody body(box(), tets);
    TriMesh own;
    own.positions.assign(body.surface_rest_positions().begin(), body.surface_rest_positions().end());
    own.triangles.assign(body.surface_triangles().begin(), body.surface_triangles().end());
    RenderMesh r = RenderMesh::embed(body, own).value();
    EXPECT_LT(r.max_offset(), 1e-15);
    body.move(
        [](const Vec3& p) { return Vec3(p.x() + 0.3 * p.y() * p.y(), p.y() * (1 + 2 * p.x()), p.z()); });
    r.update(body);
    double e = 0.0;
    for (std::size_t i = 0; i < own.positions.size(); ++i)
      e = std::max(e, (r.positions()[i] - body.surface_positions()[i]).norm());
    EXPECT_LT(e, 1e-14) << (tets ? "tets" : "surface frames");
  }
}

TEST(RenderMesh, ASurfaceFieldIsSampledByTheNearestPoint) {
  MovedBody body(box(), true);
  TriMesh own;
  own.positions.assign(body.surface_rest_positions().begin(), body.surface_rest_positions().end());
  own.triangles.assign(body.surface_triangles().begin(), body.surface_triangles().end());
  RenderMesh r = RenderMesh::embed(body, own).value();
  // A linear field is reproduced exactly at any point of the surface.
  std::vector<double> field(own.positions.size()), sampled(own.positions.size());
  for (std::size_t i = 0; i < field.size(); ++i) field[i] = 2.0 * own.positions[i].x() - own.positions[i].z();
  r.sample_surface_field(field, sampled);
  for (std::size_t i = 0; i < field.size(); ++i) EXPECT_NEAR(sampled[i], field[i], 1e-14);
}

TEST(RenderMesh, AMeshAwayFromTheBodyIsRefusedWithTheDistanceAndSize) {
  MovedBody body(box(), true);
  TriMesh far = sphere(0.035);
  for (Vec3& p : far.positions) p *= 100.0;  // centimetres taken as metres
  const auto r = RenderMesh::embed(body, far);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("from body \"moved\", whose size is 0.1233 m"), std::string::npos)
      << r.message();
  EXPECT_NE(r.message().find("\"units\""), std::string::npos) << r.message();
  TriMesh broken = sphere(0.035);
  broken.triangles[3][1] = 100000;
  EXPECT_NE(RenderMesh::embed(body, broken).message().find("render mesh triangle 3 names node 100000"),
            std::string::npos);
  EXPECT_FALSE(RenderMesh::embed(body, TriMesh{}).ok());
}

// From a scene file: a coarse FEM block drawn through a fine sphere; the World moves it every step,
// and the mesh's own units and transform apply.
TEST(RenderMesh, SceneFileKeyEmbedsAndTheWorldMovesIt) {
  const std::string text = R"({
    "pliant": 1, "time_step": 0.01,
    "bodies": [{
      "name": "block", "family": "fem",
      "mesh": {"shape": "box", "size": [0.1, 0.06, 0.04], "cells": [5, 3, 2]},
      "fixed": ["x<0.001"], "material": {"preset": "liver"}, "fem": {"gravity": [0, 0, -9.81]},
      "render_mesh": {"shape": "icosphere", "center": [5, 3, 2], "radius": 1.8, "subdivisions": 3, "units": "cm"}
    }]})";
  auto scene = parse_scene(text, "render.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene.value().world;
  const RenderMesh* r = world.render_mesh(0);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->embedding(), RenderMesh::Embedding::tets);
  EXPECT_NEAR(r->rest().positions[0].norm(), Vec3(0.05, 0.03, 0.02).norm(), 0.02);
  for (int i = 0; i < 5; ++i) world.step();
  // Sagging under gravity: the render mesh went down with the block.
  double dz = 0.0;
  for (std::size_t i = 0; i < r->positions().size(); ++i)
    dz += r->positions()[i].z() - r->rest().positions[i].z();
  EXPECT_LT(dz / static_cast<double>(r->positions().size()), -1e-6);
  const auto& stages = world.profile().stages;
  EXPECT_TRUE(
      std::any_of(stages.begin(), stages.end(), [](const auto& s) { return s.name == "render_meshes"; }));

  const std::string far = R"({"pliant": 1, "bodies": [{"name": "block", "family": "fem",
      "mesh": {"shape": "box", "size": [0.1, 0.06, 0.04], "cells": [5, 3, 2]}, "fixed": ["x<0.001"],
      "material": {"preset": "liver"}, "render_mesh": {"shape": "icosphere", "center": [5, 3, 2], "radius": 1.8}}]})";
  auto bad = parse_scene(far, "far.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(
      bad.message(),
      "far.json: /bodies/0/render_mesh: render mesh node 0 lies 6.282 m from body \"block\", whose size is "
      "0.1233 m: check the render mesh's \"units\" and transform (both meshes are in the scene frame)");
}

// A meshless body fits a render mesh with its own MLS fit over the phyxels: its own surface as the
// render mesh is reproduced (the same fit), under gravity and a grab, step after step.
TEST(RenderMesh, AMeshlessBodyFitsItByItsPhyxels) {
  auto scene = parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "jelly",
      "family": "meshless", "fixed": ["xmin"],
      "mesh": {"shape": "box", "size": [0.06, 0.02, 0.02], "cells": [6, 2, 2]},
      "render_mesh": {"shape": "box", "size": [0.06, 0.02, 0.02], "cells": [6, 2, 2]},
      "material": {"E": 20000, "nu": 0.3}, "meshless": {"spacing": 0.005, "gravity": [0, 0, -9.81]}}]})",
                           "jelly.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene.value().world;
  const RenderMesh& r = *world.render_mesh(0);
  ASSERT_EQ(r.embedding(), RenderMesh::Embedding::fitted);
  const Body& body = world.body(0);
  ASSERT_EQ(r.positions().size(), body.surface_positions().size());
  for (int i = 0; i < 20; ++i) world.step();
  double e = 0.0, moved = 0.0;
  for (std::size_t i = 0; i < r.positions().size(); ++i) {
    e = std::max(e, (r.positions()[i] - body.surface_positions()[i]).norm());
    moved = std::max(moved, (r.positions()[i] - r.rest().positions[i]).norm());
  }
  EXPECT_GT(moved, 1e-5);
  EXPECT_LT(e, 1e-15);
}

// A FEM body (tets) and a membrane (surface frames) with render meshes from a file and a shape.
TEST(RenderMesh, EveryFamilyTakesOneFromTheTestScene) {
  auto scene = load_scene(std::filesystem::path(PLIANT_TESTS_DATA_DIR) / "scenes" / "render_meshes.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene.value().world;
  ASSERT_NE(world.render_mesh(0), nullptr);
  ASSERT_NE(world.render_mesh(1), nullptr);
  EXPECT_EQ(world.render_mesh(0)->embedding(), RenderMesh::Embedding::tets);
  EXPECT_EQ(world.render_mesh(1)->embedding(), RenderMesh::Embedding::surface_frames);
  // The file is 2 x 1 x 0.5 cm, scaled 1.9 times: a 3.8 cm box inside the 4 cm block.
  EXPECT_EQ(world.render_mesh(0)->rest().positions.size(), 8u);
  for (int i = 0; i < scene.value().steps; ++i) world.step();
  // The grabbed corner of the membrane rose, and the render vertex above it with it.
  const RenderMesh& r = *world.render_mesh(1);
  double rise = -1.0;
  for (std::size_t i = 0; i < r.positions().size(); ++i)
    rise = std::max(rise, r.positions()[i].z() - r.rest().positions[i].z());
  EXPECT_GT(rise, 1e-4);
}

}  // namespace
}  // namespace pliant::scene
