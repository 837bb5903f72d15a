// Body::fixed_surface_nodes against an independent selection: a box of each family held by its
// "fixed": ["xmin"] region reports exactly the surface nodes whose rest x is the box's least (the
// face the region selects), and grabs and contacts do not add to it.
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/world.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pliant::scene {
namespace {

std::vector<Index> xmin_face(const Body& body) {
  const auto x = body.surface_rest_positions();
  double least = 1e300;
  for (const Vec3& p : x) least = std::min(least, p.x());
  std::vector<Index> out;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i].x() <= least + 1e-12) out.push_back(static_cast<Index>(i));
  return out;
}

TEST(FixedSurfaceNodes, AreTheFaceTheFixedRegionSelects) {
  const double dt = 0.01;
  const char* const bodies[] = {
      R"({"name": "b", "family": "fem", "mesh": {"shape": "box", "size": [0.1, 0.04, 0.04], "cells": [5, 2, 2]},
          "fixed": ["xmin"], "material": {"E": 2e5, "nu": 0.3, "density": 1000}})",
      R"({"name": "b", "family": "fem", "mesh": {"shape": "box", "size": [0.1, 0.04, 0.04], "cells": [5, 2, 2]},
          "fixed": ["xmin"], "material": {"E": 2e5, "nu": 0.3, "density": 1000}, "fem": {"modal": {"modes": 4}}})",
      R"({"name": "b", "family": "green", "mesh": {"shape": "box", "size": [0.1, 0.04, 0.04], "cells": [5, 2, 2]},
          "fixed": ["xmin"], "material": {"E": 2e5, "nu": 0.3}})",
      R"({"name": "b", "family": "springs", "mesh": {"shape": "box", "size": [0.1, 0.04, 0.04], "cells": [5, 2, 2]},
          "fixed": ["xmin"]})",
      R"({"name": "b", "family": "springs", "mesh": {"shape": "rect", "size": [0.1, 0.04], "cells": [5, 2]},
          "fixed": ["xmin"]})"};
  for (const char* json : bodies) {
    Result<std::unique_ptr<Body>> made = make_body(json, "fixed.json", dt);
    ASSERT_TRUE(made.ok()) << made.message();
    World world(dt);
    world.add_body(std::move(made).value());
    Body& body = world.body(0);
    SCOPED_TRACE(std::string(body.family()) + " " + json);
    const std::vector<Index> face = xmin_face(body);
    ASSERT_FALSE(face.empty());
    EXPECT_EQ(body.fixed_surface_nodes(), face);
    // A grab on the free end holds nodes; they are not supports.
    const auto x = body.surface_rest_positions();
    Index far = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (x[i].x() > x[static_cast<std::size_t>(far)].x()) far = static_cast<Index>(i);
    const auto tris = body.surface_triangles();
    SurfacePoint p{-1, 0.0, 0.0};
    for (std::size_t t = 0; t < tris.size() && p.triangle < 0; ++t)
      for (int c = 0; c < 3; ++c)
        if (tris[t][static_cast<std::size_t>(c)] == far)
          p = {static_cast<Index>(t), c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
    ASSERT_GE(p.triangle, 0);
    const GrabId g = body.grab(p);
    world.step();
    EXPECT_EQ(body.fixed_surface_nodes(), face);
    body.release(g);
  }
}

// A meshless body's fixed surface vertices are those fitted only to fixed phyxels: none on a box held
// by one layer of phyxels (each face vertex is fitted to the layers behind it too), all when every
// phyxel is fixed.
TEST(FixedSurfaceNodes, MeshlessVerticesFittedOnlyToFixedPhyxels) {
  const double dt = 0.01;
  for (const char* region : {"xmin", "x<1"}) {
    const std::string json = std::string(R"({"name": "b", "family": "meshless",
        "mesh": {"shape": "box", "size": [0.06, 0.06, 0.06], "cells": [3, 3, 3]},
        "fixed": [")") + region +
                             R"("], "material": {"E": 20000, "nu": 0.3, "density": 1000},
        "meshless": {"spacing": 0.01}})";
    Result<std::unique_ptr<Body>> made = make_body(json, "fixed.json", dt);
    ASSERT_TRUE(made.ok()) << made.message();
    const std::vector<Index> fixed = made.value()->fixed_surface_nodes();
    if (std::string(region) == "x<1")
      EXPECT_EQ(fixed.size(), made.value()->surface_positions().size());
    else
      EXPECT_LT(fixed.size(), xmin_face(*made.value()).size());
  }
}

}  // namespace
}  // namespace pliant::scene
