// Interactions stay attached while tearing renumbers a body's surface: a probe on a membrane that
// deletion tearing shrinks keeps pushing where it was placed.
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/springs_scene_body.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace pliant::scene {
namespace {

// A clamped disc pulled up at its centre until deletion tearing removes triangles near the grab.
constexpr const char* kScene = R"({
  "pliant": 1, "name": "probe_tear", "time_step": 0.001, "steps": 300,
  "bodies": [ { "name": "m", "family": "springs",
    "mesh": { "shape": "disc", "radius": 0.05, "nodes": 630, "boundary_nodes": 88 },
    "fixed": ["nodes:542-629"],
    "springs": { "method": "dragnet_mass_spring", "stiffness": 50, "damping": 0.015, "mass_damping": 600,
                 "mass_density": 180, "max_stretch": 1.2, "tearing": { "mode": "deletion" } } } ],
  "interactions": [
    { "type": "grab", "body": "m", "near": [0, 0, 0],
      "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.3, "offset": [0, 0, 0.05] } ] } ]
})";

struct ProbeRun {
  std::vector<Vec3> site;  // after every step: where the node under the probe is (unit: m)
  int deletions = 0;
  int last_deletion = -1;  // step of the last deletion event
  std::size_t triangles0 = 0, triangles = 0;
};

// Runs the scene, with a downward probe of 10 mN on corner `corner` of triangle `triangle` or without.
ProbeRun run(Index triangle, int corner, bool with_probe) {
  ProbeRun r;
  auto sc = parse_scene(kScene, "probe_tear.json");
  EXPECT_TRUE(sc.ok()) << sc.message();
  if (!sc.ok()) return r;
  World& w = *sc->world;
  const Body& b = w.body(0);
  const Vec3 rest = b.surface_rest_positions()[b.surface_triangles()[triangle][corner]];
  if (with_probe) {
    ForceProbe p;
    p.point = {triangle, corner == 1 ? 1.0 : 0.0, corner == 2 ? 1.0 : 0.0};
    p.force = Vec3(0.0, 0.0, -0.01);
    w.add(p);
  }
  r.triangles0 = b.surface_triangles().size();
  for (int s = 0; s < 300; ++s) {
    w.step();
    for (const WorldEvent& e : w.events()) {
      if (e.brief.kind == "tear_delete") ++r.deletions, r.last_deletion = s;
    }
    const auto x = b.surface_positions();
    for (const Vec3& xi : x) EXPECT_TRUE(xi.allFinite()) << "step " << s;
    // The node is found by its rest position: deletion renumbers nodes too.
    std::size_t node = x.size();
    for (std::size_t i = 0; i < x.size(); ++i)
      if (b.surface_rest_positions()[i] == rest) node = i;
    EXPECT_LT(node, x.size()) << "step " << s;
    r.site.push_back(node < x.size() ? x[node] : Vec3::Constant(std::numeric_limits<double>::quiet_NaN()));
  }
  r.triangles = b.surface_triangles().size();
  return r;
}

TEST(TearingInteractions, ProbeFollowsTheSurfaceThroughDeletionTearing) {
  // The probe sits on a free corner of the last triangle that has two free corners, near the clamped
  // rim and far from the tearing. Deletion fills freed triangle slots from the end, so that index
  // stops existing: the probe must follow its node through the renumbering to keep pushing.
  Index triangle = -1;
  int corner = 0;
  {
    auto sc = parse_scene(kScene, "probe_tear.json");
    ASSERT_TRUE(sc.ok()) << sc.message();
    const springs::SpringMesh& m = *springs_mesh(sc->world->body(0));
    for (Index t = 0; t < m.triangle_count(); ++t) {
      const Tri& n = m.tri_nodes[static_cast<std::size_t>(t)];
      if (!m.fixed(n[0]) + !m.fixed(n[1]) + !m.fixed(n[2]) >= 2) triangle = t, corner = m.fixed(n[0]) ? 1 : 0;
    }
  }
  ASSERT_GE(triangle, 0);
  const ProbeRun with = run(triangle, corner, true);
  const ProbeRun without = run(triangle, corner, false);
  ASSERT_EQ(with.site.size(), 300u);
  ASSERT_EQ(without.site.size(), 300u);
  EXPECT_GT(with.deletions, 0);
  EXPECT_LT(with.triangles, with.triangles0);                     // deletion tearing loses triangles
  EXPECT_GE(static_cast<std::size_t>(triangle), with.triangles);  // the probe's slot is gone
  ASSERT_GE(with.last_deletion, 0);
  ASSERT_LT(with.last_deletion, 200);  // leaves time to see the probe act after it

  // The probe's effect: its node, against the same run without it, moves along the force (down,
  // hardly sideways) from the second step on (explicit Euler moves it one step after the force
  // arrives), and keeps sinking after the last deletion (a probe
  // left on a vanished triangle would stop pushing and its node would stay, or creep back).
  EXPECT_EQ(with.site[0], without.site[0]);
  for (std::size_t s = 1; s < with.site.size(); ++s) {
    const Vec3 d = with.site[s] - without.site[s];
    ASSERT_LT(d.z(), 0.0) << "step " << s;
    ASSERT_LT(d.head<2>().norm(), 0.1 * -d.z()) << "step " << s;
  }
  const double at_last_deletion = with.site[static_cast<std::size_t>(with.last_deletion)].z() -
                                  without.site[static_cast<std::size_t>(with.last_deletion)].z();
  const double at_end = with.site.back().z() - without.site.back().z();
  EXPECT_LT(at_end, 2.0 * at_last_deletion);
  EXPECT_LT(at_end, -5e-4);  // 10 mN sinks the node by over half a millimetre (unit: m)
}

}  // namespace
}  // namespace pliant::scene
