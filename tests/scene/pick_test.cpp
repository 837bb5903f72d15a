// World::pick, the seeds' virtual ray: hits the current surface where geometry says, and a grab at
// the picked point holds the body there.
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

namespace pliant::scene {
namespace {

TEST(WorldPick, RayHitsTheCurrentSurfaceAndGrabsThere) {
  const char* text = R"({
  "pliant": 1, "name": "pick", "time_step": 0.01,
  "bodies": [ { "name": "m", "family": "springs",
    "mesh": { "shape": "disc", "radius": 0.05, "nodes": 630, "boundary_nodes": 88 },
    "fixed": ["nodes:542-629"],
    "springs": { "method": "dragnet", "max_stretch": 1.3 } } ]
})";
  auto sc = parse_scene(text, "pick.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  // Straight down onto the flat disc (z = 0) from 1 m above.
  const Ray down{Vec3(0.01, 0.004, 1.0), Vec3(0, 0, -1)};
  auto hit = w.pick(down);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->body, 0);
  EXPECT_NEAR(hit->t, 1.0, 1e-12);
  EXPECT_NEAR((hit->position - Vec3(0.01, 0.004, 0.0)).norm(), 0.0, 1e-12);
  EXPECT_NEAR(
      (point_on(w.body(0).surface_positions(), w.body(0).surface_triangles(), hit->point) - hit->position)
          .norm(),
      0.0, 1e-12);
  EXPECT_FALSE(w.pick({Vec3(0.2, 0.0, 1.0), Vec3(0, 0, -1)}));  // beside the disc

  // Grab the picked point and lift it 1 cm: the same ray now meets the lifted surface sooner.
  Body& body = w.body(0);
  const GrabId g = body.grab(hit->point);
  ASSERT_TRUE(g.valid());
  const Vec3 held = point_on(body.surface_positions(), body.surface_triangles(), hit->point);
  body.move_grab(g, held + Vec3(0, 0, 0.01));
  w.step();
  auto lifted = w.pick(down);
  ASSERT_TRUE(lifted);
  EXPECT_LT(lifted->t, 1.0 - 0.005);
}

}  // namespace
}  // namespace pliant::scene
