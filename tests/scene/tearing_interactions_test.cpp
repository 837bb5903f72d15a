// Interactions stay attached while tearing renumbers a body's surface: a probe on a membrane that
// deletion tearing shrinks keeps pointing at a live triangle near where it was placed.
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

namespace pliant::scene {
namespace {

TEST(TearingInteractions, ProbeFollowsTheSurfaceThroughDeletionTearing) {
  const char* text = R"({
  "pliant": 1, "name": "probe_tear", "time_step": 0.001, "steps": 300,
  "bodies": [ { "name": "m", "family": "springs",
    "mesh": { "shape": "disc", "radius": 0.05, "nodes": 630, "boundary_nodes": 88 },
    "fixed": ["nodes:542-629"],
    "springs": { "method": "dragnet_mass_spring", "stiffness": 50, "damping": 0.015, "mass_damping": 600,
                 "mass_density": 180, "max_stretch": 1.2, "tearing": { "mode": "deletion" } } } ],
  "interactions": [
    { "type": "grab", "body": "m", "near": [0, 0, 0],
      "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.3, "offset": [0, 0, 0.05] } ] },
    { "type": "probe", "body": "m", "near": [0.03, 0, 0], "force": [0, 0, -0.01] } ]
})";
  auto sc = parse_scene(text, "probe_tear.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  const std::size_t triangles0 = w.body(0).surface_triangles().size();
  int deletions = 0;
  for (int s = 0; s < 300; ++s) {
    w.step();
    for (const WorldEvent& e : w.events()) deletions += e.brief.kind == "tear_delete";
    for (const Vec3& x : w.body(0).surface_positions()) ASSERT_TRUE(x.allFinite()) << "step " << s;
  }
  EXPECT_GT(deletions, 0);
  EXPECT_LT(w.body(0).surface_triangles().size(), triangles0);  // deletion tearing loses triangles
}

}  // namespace
}  // namespace pliant::scene
