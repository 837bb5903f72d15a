// Scene loading beyond the error messages (those are covered by tests/data/bad_scenes): where
// interactions attach, and the names a scene may use.
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/springs_scene_body.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

// A spring ball built from tets lists its interior nodes among its positions; a grab "near" the
// centre must still attach to the nearest node of the surface triangles, and move it.
TEST(SceneFile, GrabNearAnInteriorPointAttachesToTheNearestSurfaceNode) {
  const std::string json = R"({
    "pliant": 1, "time_step": 0.01,
    "bodies": [ { "name": "ball", "family": "springs",
                  "mesh": { "shape": "ball", "radius": 0.05, "resolution": 6 }, "fixed": ["zmin:0.01"],
                  "springs": { "stiffness": 50, "mass_density": 1000 } } ],
    "interactions": [ { "type": "grab", "body": "ball", "near": [0.001, 0.002, 0.01],
                        "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.03, "offset": [0, 0, 0.01] } ] } ]
  })";
  Result<Scene> scene = parse_scene(json, "ball.json");
  ASSERT_TRUE(scene.ok()) << scene.message();
  World& world = *scene->world;
  const Body& ball = world.body(0);
  const auto x0 = ball.surface_positions();
  const auto tris = ball.surface_triangles();
  ASSERT_EQ(world.scripted_grabs().size(), 1u);
  const SurfacePoint p = world.scripted_grabs()[0].point;
  ASSERT_GE(p.triangle, 0);
  const Vec3 near(0.001, 0.002, 0.01);
  const Vec3 grabbed = point_on(x0, tris, p);
  // Brute force over the triangle corners: none is nearer.
  double nearest = std::numeric_limits<double>::infinity();
  for (const Tri& t : tris) {
    for (int c = 0; c < 3; ++c)
      nearest = std::min(nearest, (x0[static_cast<std::size_t>(t[c])] - near).norm());
  }
  EXPECT_DOUBLE_EQ((grabbed - near).norm(), nearest);
  EXPECT_GT(nearest, 0.02);  // the interior point is far from the surface of a 5 cm ball
  // Some interior node of the spring network is nearer than any surface node: the surface view leaves
  // it out (the contract's surface is surface nodes only) and the lookup never lands on it.
  const springs::SpringMesh* mesh = springs_mesh(ball);
  ASSERT_NE(mesh, nullptr);
  EXPECT_LT(x0.size(), mesh->position.size());
  EXPECT_EQ(ball.surface_nodes().size(), x0.size());
  bool interior_nearer = false;
  for (const Vec3& q : mesh->position)
    interior_nearer = interior_nearer || (q - near).norm() < nearest - 1e-9;
  EXPECT_TRUE(interior_nearer);

  const Vec3 start = grabbed;
  for (int s = 0; s < 5; ++s) world.step();
  EXPECT_TRUE(point_on(ball.surface_positions(), tris, p).isApprox(start + Vec3(0, 0, 0.01), 1e-12));
}

TEST(SceneFile, SceneAndBodyNamesAreFileNames) {
  const auto load = [](const std::string& scene_name, const std::string& body_name) {
    return parse_scene(R"({"pliant": 1, "name": ")" + scene_name + R"(", "bodies": [ { "name": ")" +
                           body_name +
                           R"(", "family": "springs", "mesh": { "shape": "rect", "cells": [2, 2] } } ] })",
                       "names.json");
  };
  EXPECT_TRUE(load("run-1.b_2", "sheet.A-3").ok());
  for (const std::string bad : {"a/b", "..", ".", "a b", "x\\\\y"}) {
    EXPECT_FALSE(load(bad, "sheet").ok()) << bad;
    EXPECT_FALSE(load("ok", bad).ok()) << bad;
  }
  Result<Scene> unnamed = parse_scene(R"({"pliant": 1, "bodies": [ { "name": "s", "family": "springs",
      "mesh": { "shape": "rect", "cells": [2, 2] } } ] })",
                                      "dir/my_scene.json");
  ASSERT_TRUE(unnamed.ok()) << unnamed.message();
  EXPECT_EQ(unnamed->name, "my_scene");
}

namespace transforms {

// The rest surface of a one-body springs scene whose "mesh" object is `mesh_json`.
std::vector<Vec3> rest_surface(const std::string& mesh_json, const std::filesystem::path& file = "t.json") {
  const std::string json =
      R"({"pliant": 1, "time_step": 0.01, "bodies": [ { "name": "s", "family": "springs",
      "mesh": )" +
      mesh_json + R"(, "fixed": ["xmin"], "springs": { "stiffness": 50, "mass_density": 1000 } } ]})";
  Result<Scene> scene = parse_scene(json, file);
  EXPECT_TRUE(scene.ok()) << scene.message();
  if (!scene.ok()) return {};
  const auto x = scene->world->body(0).surface_positions();
  return {x.begin(), x.end()};
}

// units, scale, rotate, translate in that order, against the transform worked out by hand: a rect
// in cm, scaled by (2, 3, 1), turned 90° about x ((x, y, z) -> (x, -z, y)), then moved.
TEST(SceneFile, MeshUnitsAndTransformApplyInTheDocumentedOrder) {
  const std::string rect = R"({"shape": "rect", "size": [4, 2], "cells": [2, 2])";
  const auto plain = rest_surface(rect + "}");
  for (const char* rotate :
       {R"({"axis": [2, 0, 0], "degrees": 90})", "[0.70710678118654752, 0.70710678118654752, 0, 0]"}) {
    const auto moved = rest_surface(rect + R"(, "units": "cm", "scale": [2, 3, 1], "rotate": )" + rotate +
                                    R"(, "translate": [1, 0, -0.5]})");
    ASSERT_EQ(moved.size(), plain.size());
    ASSERT_FALSE(plain.empty());
    for (std::size_t i = 0; i < plain.size(); ++i) {
      const Vec3 p = plain[i];
      const Vec3 expected(0.02 * p.x() + 1, -0.01 * p.z(), 0.03 * p.y() - 0.5);
      EXPECT_NEAR((moved[i] - expected).norm(), 0, 1e-15) << rotate << " node " << i;
    }
  }
  // A single number scales every axis alike; "m" changes nothing.
  const auto doubled = rest_surface(rect + R"(, "scale": 2, "units": "m"})");
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(doubled[i], 2 * plain[i]);
}

TEST(SceneFile, MeshFileUnitsAreMillimetres) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pliant_scene_units_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream obj(dir / "tri.obj");
    obj << "v 0 0 0\nv 100 0 0\nv 0 50 0\nv 100 50 0\nf 1 2 4\nf 1 4 3\n";
  }
  const auto surface =
      rest_surface(R"({"file": "tri.obj", "units": "mm", "translate": [0, 0, 2]})", dir / "t.json");
  ASSERT_EQ(surface.size(), 4u);
  // Each corner of the file, in metres and moved, is a node of the body.
  for (const Vec3& corner : {Vec3(0, 0, 2), Vec3(0.1, 0, 2), Vec3(0, 0.05, 2), Vec3(0.1, 0.05, 2)}) {
    double nearest = 1;
    for (const Vec3& p : surface) nearest = std::min(nearest, (p - corner).norm());
    EXPECT_LT(nearest, 1e-16) << corner.transpose();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace transforms

}  // namespace
}  // namespace pliant::scene
