// The viewer's models without a window: the scene adapter forwards grabs, fields and steps to the
// bodies of a World, and the pull test model moves the grabbed point to the target.
#include "test_models.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#if PLIANT_VIEWER_HAS_SCENE
#include "world_model.hpp"
#endif

namespace pliant::viewer {
namespace {

TEST(PullTestModel, GrabbedPointReachesTheTargetAndSpringsBack) {
  PullTestModel model(sphere_surface(0.5, 2), "ball");
  model.follow = 0.5;
  const ViewerSurface s0 = model.surface(0);
  const std::vector<Vec3> rest(s0.positions.begin(), s0.positions.end());
  const Tri t = s0.triangles[7];
  const double u = 0.2, v = 0.3;
  const auto point = [&] {
    const ViewerSurface s = model.surface(0);
    return Vec3((1 - u - v) * s.positions[t[0]] + u * s.positions[t[1]] + v * s.positions[t[2]]);
  };
  const Vec3 start = point();
  ASSERT_TRUE(model.grab(0, 7, u, v));
  EXPECT_FALSE(model.grab(0, 100000, u, v));  // out-of-range triangle refused
  ASSERT_TRUE(model.grab(0, 7, u, v));
  const Vec3 target = start + Vec3(0.1, -0.05, 0.02);
  model.move_grab(target);
  for (int i = 0; i < 60; ++i) model.step();
  // Weights are normalised at the grabbed point, and the offset closes geometrically (0.5^60).
  EXPECT_LT((point() - target).norm(), 1e-9);
  const Vec3 f = model.grab_reaction();
  EXPECT_NEAR(f.dot((target - start).normalized()), -model.stiffness * (target - start).norm(), 1e-6);
  std::vector<double> d;
  std::string unit;
  ASSERT_TRUE(model.field(0, "displacement", d, unit));
  EXPECT_EQ(unit, "m");
  EXPECT_EQ(d.size(), rest.size());
  EXPECT_GT(*std::max_element(d.begin(), d.end()), 0.09);
  model.release();
  EXPECT_EQ(model.grab_reaction(), Vec3::Zero());
  for (int i = 0; i < 80; ++i) model.step();
  EXPECT_LT((point() - start).norm(), 1e-9);
}

#if PLIANT_VIEWER_HAS_SCENE
// A body that records what the viewer asks of it.
class RecordingBody : public scene::Body {
 public:
  explicit RecordingBody(std::string name) : name_(std::move(name)), mesh_(sphere_surface(1.0, 1)) {}
  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "recording"; }
  std::span<const Vec3> surface_positions() const override { return mesh_.positions; }
  std::span<const Vec3> surface_rest_positions() const override { return mesh_.positions; }
  std::span<const Tri> surface_triangles() const override { return mesh_.triangles; }
  scene::GrabId grab(const scene::SurfacePoint& p) override {
    grabbed = p;
    return {0, ++generation};
  }
  void move_grab(scene::GrabId, const Vec3& target) override { last_target = target; }
  void release(scene::GrabId) override { ++releases; }
  Vec3 grab_reaction(scene::GrabId) const override { return Vec3(1, 2, 3); }
  void apply_force(const scene::SurfacePoint&, const Vec3&) override {}
  void step(double, Profile&) override { ++steps; }
  std::span<const scene::FieldInfo> fields() const override {
    static constexpr scene::FieldInfo kFields[] = {{"stress", "Pa"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    if (index == 0) std::fill(out.begin(), out.end(), 7.0);
  }
  std::uint64_t state_hash() const override { return static_cast<std::uint64_t>(steps); }

  scene::SurfacePoint grabbed;
  Vec3 last_target = Vec3::Zero();
  int releases = 0, steps = 0;
  std::uint32_t generation = 0;

 private:
  std::string name_;
  TriMesh mesh_;
};

TEST(WorldViewerModel, ForwardsSurfacesFieldsGrabsAndSteps) {
  int builds = 0;
  std::vector<RecordingBody*> bodies;
  auto model = WorldViewerModel::create("test", [&]() -> Result<std::unique_ptr<scene::World>> {
    ++builds;
    auto world = std::make_unique<scene::World>(0.01);
    bodies.clear();
    for (const char* n : {"liver", "skin"}) {
      auto b = std::make_unique<RecordingBody>(n);
      bodies.push_back(b.get());
      world->add_body(std::move(b));
    }
    return world;
  });
  ASSERT_TRUE(model.ok()) << model.message();
  WorldViewerModel& m = **model;
  ASSERT_EQ(m.surface_count(), 2u);
  EXPECT_EQ(m.surface(1).name, "skin");
  EXPECT_EQ(m.surface(0).triangles.size(), 80u);
  // The bodies' own fields, then the World's contact pressure (two bodies: contact runs).
  EXPECT_EQ(m.field_names(), (std::vector<std::string>{"stress", "contact_pressure"}));
  std::vector<double> values;
  std::string unit;
  ASSERT_TRUE(m.field(1, "contact_pressure", values, unit));
  EXPECT_EQ(unit, "Pa");
  EXPECT_EQ(values, std::vector<double>(m.surface(1).positions.size(), 0.0));  // nothing touched yet
  ASSERT_TRUE(m.field(1, "stress", values, unit));
  EXPECT_EQ(unit, "Pa");
  EXPECT_EQ(values.size(), m.surface(1).positions.size());
  EXPECT_FALSE(m.field(1, "nothing", values, unit));

  ASSERT_TRUE(m.grab(1, 5, 0.25, 0.5));
  EXPECT_EQ(bodies[1]->grabbed.triangle, 5);
  EXPECT_EQ(bodies[1]->grabbed.u, 0.25);
  m.move_grab(Vec3(0.5, 0, 0));
  EXPECT_EQ(bodies[1]->last_target, Vec3(0.5, 0, 0));
  EXPECT_EQ(m.grab_reaction(), Vec3(1, 2, 3));
  EXPECT_FALSE(m.grab(0, 999, 0, 0));  // refused, and the previous grab was released
  EXPECT_EQ(bodies[1]->releases, 1);
  EXPECT_EQ(m.grab_reaction(), Vec3::Zero());

  m.step();
  m.step();
  EXPECT_EQ(bodies[0]->steps, 2);
  EXPECT_NEAR(m.world().time(), 0.02, 1e-15);
  m.reset();
  EXPECT_EQ(builds, 2);
  EXPECT_EQ(m.world().step_count(), 0u);
}

TEST(WorldViewerModel, BuilderErrorsReachTheCaller) {
  auto model = WorldViewerModel::create("bad", []() -> Result<std::unique_ptr<scene::World>> {
    return Error{"scene.json: /bodies/0/material/E: expected a number > 0"};
  });
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.message().find("/bodies/0"), std::string::npos);
}
#endif

}  // namespace
}  // namespace pliant::viewer
