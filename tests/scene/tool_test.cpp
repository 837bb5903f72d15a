// The scripted cylinder tool: pushes surface nodes out of itself through the surface contract, feels
// the opposite force, and tears a membrane it is driven through.
#include "pliant/models/springs/forces.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/springs_scene_body.hpp"
#include "pliant/scene/tool_cylinders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

std::string membrane_with_tool(const std::string& tearing) {
  return R"({
  "pliant": 1, "name": "tool", "time_step": 0.001, "steps": 400,
  "bodies": [ { "name": "m", "family": "springs",
    "mesh": { "shape": "disc", "radius": 0.05, "nodes": 630, "boundary_nodes": 88 },
    "fixed": ["nodes:542-629"],
    "springs": { "method": "mass_spring", "stiffness": 50, "damping": 0.015, "mass_damping": 600,
                 "mass_density": 180, "max_stretch": 1.3, "tearing": )" +
         tearing + R"( } } ],
  "interactions": [ { "type": "tool", "shape": "cylinder", "start": [0.0, 0.0, 0.02], "axis": [0, 1, 0],
    "radius": 0.006, "length": 0.2, "stiffness": 200,
    "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.4, "offset": [0, 0, -0.04] } ] } ]
})";
}

// The penalty a tool applies, recomputed from the surface positions before a step: the force on the
// tool (the opposite of the sum of the node forces, unit: N) and the number of nodes inside it.
struct Penalty {
  Vec3 on_tool = Vec3::Zero();
  int contacts = 0;
};
Penalty penalty(std::span<const Vec3> x, const Vec3& centre, const Vec3& axis, double radius,
                double half_length, double stiffness) {
  Penalty p;
  for (const Vec3& xi : x) {
    const Vec3 d = xi - centre;
    const Vec3 radial = d - d.dot(axis) * axis;
    if (std::abs(d.dot(axis)) > half_length || radial.norm() >= radius) continue;
    // On the axis the push direction is arbitrary; the tool takes axis.unitOrthogonal() (rim nodes of
    // the membrane are on the axis when the tool passes z = 0).
    const Vec3 out = radial.norm() > 1e-12 * radius ? Vec3(radial.normalized()) : axis.unitOrthogonal();
    p.on_tool -= stiffness * (radius - radial.norm()) * out;
    ++p.contacts;
  }
  return p;
}

TEST(ScriptedTool, PushesTheMembraneAndFeelsItsResistance) {
  auto sc = parse_scene(membrane_with_tool(R"({ "mode": "off" })"), "tool.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  ASSERT_EQ(w.tools().size(), 1u);
  int max_contacts = 0;
  double lowest = 0.0, max_up_force = 0.0;
  for (int s = 0; s < 300; ++s) {
    // The tool acts at the end of the step, where the track puts it then, on the positions before it.
    const double t = w.time() + w.time_step();
    const Vec3 centre(0.0, 0.0, 0.02 - 0.04 * std::min(1.0, t / 0.4));
    const std::vector<Vec3> before(w.body(0).surface_positions().begin(),
                                   w.body(0).surface_positions().end());
    const Penalty expected = penalty(before, centre, Vec3::UnitY(), 0.006, 0.1, 200.0);
    w.step();
    const ScriptedTool& tool = w.tools()[0];
    ASSERT_EQ(tool.contacts, expected.contacts) << "step " << s;
    ASSERT_LE((tool.force - expected.on_tool).norm(), 1e-12) << "step " << s;
    max_contacts = std::max(max_contacts, tool.contacts);
    max_up_force = std::max(max_up_force, tool.force.z());
    for (const Vec3& x : w.body(0).surface_positions()) {
      ASSERT_TRUE(x.allFinite());
      lowest = std::min(lowest, x.z());
    }
  }
  const ScriptedTool& tool = w.tools()[0];
  EXPECT_NEAR(tool.centre.z(), 0.02 - 0.04 * 0.3 / 0.4, 1e-12);  // the track, at t = 0.3 s
  EXPECT_GT(max_contacts, 0);
  EXPECT_GT(max_up_force, 0.0);     // the membrane resists a downward push
  EXPECT_LT(lowest, -0.008);        // and is pushed down
  EXPECT_GT(lowest, -0.02 - 1e-3);  // no deeper than the tool's bottom (centre − radius)
}

// `text` with its one occurrence of `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// A tool held still in a membrane clamped at its rim: once the membrane has come to rest, the force it
// exerts on the tool is what the clamps hold, the opposite of the spring forces on the clamped nodes
// (spring forces are internal and sum to zero, so at rest the penalty and the clamps balance). Less
// mass damping than the other tests, or the overdamped membrane creeps for seconds; a softer penalty,
// or it chatters on the membrane (ScriptedTool's stiffness × compliance rule).
TEST(ScriptedTool, SteadyToolIsHeldByTheSupportReactions) {
  std::string text = membrane_with_tool(R"({ "mode": "off" })");
  text =
      replaced(text, R"({ "t": 0.4, "offset": [0, 0, -0.04] })", R"({ "t": 0.1, "offset": [0, 0, -0.03] })");
  text = replaced(text, R"("mass_damping": 600)", R"("mass_damping": 60)");
  text = replaced(text, R"("stiffness": 200)", R"("stiffness": 100)");
  auto sc = parse_scene(text, "tool.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  for (int s = 0; s < 4000; ++s) w.step();  // 4 s
  const springs::SpringMesh* mesh = springs_mesh(w.body(0));
  ASSERT_NE(mesh, nullptr);
  EXPECT_LT(springs::kinetic_energy(*mesh), 1e-10);  // at rest (unit: J)
  std::vector<Vec3> f(mesh->position.size(), Vec3::Zero());
  springs::accumulate_forces(*mesh, mesh->position, mesh->velocity, {}, f);
  Vec3 clamps = Vec3::Zero();  // force of the clamps on the membrane (unit: N)
  int clamped = 0;
  for (Index i = 0; i < mesh->node_count(); ++i) {
    if (!mesh->fixed(i)) continue;
    clamps -= f[static_cast<std::size_t>(i)];
    ++clamped;
  }
  EXPECT_EQ(clamped, 88);
  const ScriptedTool& tool = w.tools()[0];
  EXPECT_NEAR(tool.centre.z(), -0.01, 1e-12);
  EXPECT_GT(tool.contacts, 0);
  EXPECT_GT(tool.force.z(), 0.1);  // pushed up, a sizeable force (unit: N)
  EXPECT_LE((tool.force - clamps).norm(), 1e-3 * tool.force.norm())
      << "tool " << tool.force.transpose() << ", clamps " << clamps.transpose();
}

TEST(ScriptedTool, TearsAMembraneDrivenThroughIt) {
  auto sc = parse_scene(membrane_with_tool(
                            R"({ "mode": "area_preserving", "seed_threshold": 0.02, "edge_threshold": 0.04,
                                 "inner_threshold": 0.05 })"),
                        "tool.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  int tears = 0;
  for (int s = 0; s < 400; ++s) {
    w.step();
    tears += static_cast<int>(w.events().size());
  }
  EXPECT_GT(tears, 0);
}

// A body that only records the forces applied to it, its surface a flat grid in z = 0 (spacing 2.5 mm)
// plus one node in no triangle, which the surface contract cannot push.
class RecordingBody final : public Body {
 public:
  explicit RecordingBody(const Vec3& shift) {
    constexpr int n = 17;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) x_.push_back(shift + Vec3(0.0025 * (i - n / 2), 0.0025 * (j - n / 2), 0.0));
    for (int j = 0; j + 1 < n; ++j) {
      for (int i = 0; i + 1 < n; ++i) {
        const Index a = j * n + i;
        tris_.push_back({a, a + 1, a + n + 1});
        tris_.push_back({a, a + n + 1, a + n});
      }
    }
    x_.push_back(shift + Vec3(0.0001, 0.0, 0.0001));  // in no triangle
  }
  struct Applied {
    Vec3 at;
    Vec3 force;
  };
  std::vector<Applied> applied;  // during the last step

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "recording"; }
  std::span<const Vec3> surface_positions() const override { return x_; }
  std::span<const Vec3> surface_rest_positions() const override { return x_; }
  std::span<const Tri> surface_triangles() const override { return tris_; }
  GrabId grab(const SurfacePoint&) override { return {}; }
  void move_grab(GrabId, const Vec3&) override {}
  void release(GrabId) override {}
  Vec3 grab_reaction(GrabId) const override { return Vec3::Zero(); }
  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    pending_.push_back({point_on(x_, tris_, p), force});
  }
  void step(double, Profile&) override {
    applied.swap(pending_);
    pending_.clear();
  }
  std::span<const FieldInfo> fields() const override { return {}; }
  void fill_field(std::size_t, std::span<double>) const override {}
  std::uint64_t state_hash() const override { return 0; }

 private:
  std::string name_ = "recording";
  std::vector<Vec3> x_;
  std::vector<Tri> tris_;
  std::vector<Applied> pending_;
};

// What the tool reports is the opposite of what it applied, summed over every body it touches, and each
// applied force is the penalty of its node: radial, stiffness × depth. The second step puts nodes on
// the axis, where the push direction is arbitrary but its size is stiffness × radius.
TEST(ScriptedTool, FeelsTheOppositeOfTheForcesItApplies) {
  World w(0.01);
  std::vector<RecordingBody*> bodies;
  for (const Vec3& shift : {Vec3(0.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.006)}) {
    auto b = std::make_unique<RecordingBody>(shift);
    bodies.push_back(b.get());
    w.add_body(std::move(b));
  }
  ScriptedTool tool;
  tool.start = Vec3(0.0004, 0.001, 0.003);
  tool.radius = 0.006;
  tool.half_length = 0.012;
  tool.stiffness = 300.0;
  tool.track = {{0.01, Vec3::Zero()}, {0.02, Vec3(-0.0004, -0.001, -0.003)}};
  w.add(tool);
  for (int s = 0; s < 2; ++s) {
    w.step();
    const ScriptedTool& t = w.tools()[0];
    const Vec3 centre = s == 0 ? Vec3(0.0004, 0.001, 0.003) : Vec3::Zero();
    EXPECT_LE((t.centre - centre).norm(), 1e-15);
    Vec3 applied = Vec3::Zero();
    int count = 0, inside = 0;
    for (const RecordingBody* b : bodies) {
      for (const RecordingBody::Applied& a : b->applied) {
        const Vec3 d = a.at - centre;
        const Vec3 radial = d - d.dot(Vec3::UnitY()) * Vec3::UnitY();
        ASSERT_LT(radial.norm(), tool.radius);
        ASSERT_LE(std::abs(d.y()), tool.half_length);
        EXPECT_NEAR(a.force.norm(), tool.stiffness * (tool.radius - radial.norm()), 1e-12);
        EXPECT_NEAR(a.force.y(), 0.0, 1e-15);  // perpendicular to the axis
        if (radial.norm() > 1e-9) {
          EXPECT_NEAR(a.force.dot(radial), a.force.norm() * radial.norm(), 1e-12);  // pushed outwards
        }
        applied += a.force;
        ++count;
      }
      for (const Vec3& x : b->surface_positions().first(17 * 17)) {
        const Vec3 d = x - centre;
        inside += std::abs(d.y()) <= tool.half_length && (d - d.y() * Vec3::UnitY()).norm() < tool.radius;
      }
    }
    EXPECT_EQ(count, inside) << "step " << s;  // every grid node inside, the loose node never
    EXPECT_EQ(t.contacts, count);
    EXPECT_GT(count, 20);
    EXPECT_LE((t.force + applied).norm(), 1e-12) << "step " << s;
    EXPECT_GT(t.force.norm(), 0.1);
  }
}

TEST(ScriptedTool, BadToolsNameTheirJsonPath) {
  std::string text = membrane_with_tool(R"({ "mode": "off" })");
  const std::string bad = std::string(text).replace(text.find("\"radius\": 0.006"), 15, "\"radius\": -1");
  auto sc = parse_scene(bad, "tool.json");
  ASSERT_FALSE(sc.ok());
  EXPECT_NE(sc.message().find("/interactions/0/radius"), std::string::npos) << sc.message();
}

// The cylinders drawn for the instruments (headless PNGs and the viewer share them): a tool waits at
// its first keyframe before the first step, then follows the world; a blade is a thin rod along its
// current edge.
TEST(ToolCylinders, FollowTheToolAndTheBladeEdge) {
  std::string text = membrane_with_tool(R"({ "mode": "off" })");
  const std::string blade = R"(, { "type": "blade", "edge": [[-0.01, 0.0, 0.03], [0.03, 0.0, 0.03]],
    "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.1, "offset": [0, 0.01, 0] } ] } ] })";
  text.replace(text.rfind("} ]"), std::string::npos, "}" + blade);
  auto sc = parse_scene(text, "tool.json");
  ASSERT_TRUE(sc.ok()) << sc.message();
  World& w = *sc->world;
  std::vector<ToolCylinder> before = tool_cylinders(w);
  ASSERT_EQ(before.size(), 2u);
  EXPECT_TRUE(before[0].centre.isApprox(Vec3(0.0, 0.0, 0.02)));
  EXPECT_DOUBLE_EQ(before[0].radius, 0.006);
  EXPECT_DOUBLE_EQ(before[0].half_length, 0.1);
  EXPECT_TRUE(before[1].centre.isApprox(Vec3(0.01, 0.0, 0.03)));
  EXPECT_NEAR(std::abs(before[1].axis.x()), 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(before[1].half_length, 0.02);
  EXPECT_LT(before[1].radius, 0.05 * before[1].half_length);
  for (int s = 0; s < 50; ++s) w.step();
  std::vector<ToolCylinder> after = tool_cylinders(w);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_TRUE(after[0].centre.isApprox(w.tools()[0].centre));
  EXPECT_TRUE(after[0].force.isApprox(w.tools()[0].force));
  EXPECT_TRUE(after[1].centre.isApprox(0.5 * (w.blades()[0].edge_a + w.blades()[0].edge_b)));
  EXPECT_NEAR(after[1].centre.y(), 0.005, 1e-12);  // half-way along the blade's track at t = 0.05 s
}

}  // namespace
}  // namespace pliant::scene
