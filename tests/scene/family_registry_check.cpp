// The public family registry as a family outside the library uses it: registration rules, and the
// scene reader's errors for a registered family's keys (file and JSON pointer in every one, unknown
// keys refused with the allowed list, a factory's own refusal passed through as the load's error).
#include "pliant/scene/family_registry.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace pliant::scene {
namespace {

// A body that is its surface mesh and never moves: enough for the reader's side of the registry.
class StillBody final : public Body {
 public:
  StillBody(std::string name, TriMesh mesh, double value)
      : name_(std::move(name)), mesh_(std::move(mesh)), value_(value) {}
  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "registry_test"; }
  std::span<const Vec3> surface_positions() const override { return mesh_.positions; }
  std::span<const Vec3> surface_rest_positions() const override { return mesh_.positions; }
  std::span<const Tri> surface_triangles() const override { return mesh_.triangles; }
  GrabId grab(const SurfacePoint&) override { return {}; }
  void move_grab(GrabId, const Vec3&) override {}
  void release(GrabId) override {}
  Vec3 grab_reaction(GrabId) const override { return Vec3::Zero(); }
  void apply_force(const SurfacePoint&, const Vec3&) override {}
  void step(double, Profile&) override {}
  std::span<const FieldInfo> fields() const override { return {}; }
  void fill_field(std::size_t, std::span<double>) const override {}
  std::uint64_t state_hash() const override { return 0; }
  double value() const { return value_; }

 private:
  std::string name_;
  TriMesh mesh_;
  double value_;
};

// Reads {"still": {"value": > 0 (unit: 1), "mode": "a" | "b"}}; mode "b" is refused by the factory
// itself, naming the key.
std::unique_ptr<Body> make_still(const JsonReader& body, BodyInputs in) {
  double value = 1.0;
  if (const auto s = body.find("still")) {
    s->expect_object({"value", "mode"});
    value = s->positive_or("value", value);
    if (const auto m = s->find("mode"); m && m->one_of({"a", "b"}) == "b") m->fail("mode \"b\" is not built");
  }
  return std::make_unique<StillBody>(in.name, std::move(*in.surface), value);
}

void register_still() {
  static const bool once = register_family({.name = "registry_test",
                                            .summary = "a still surface (the registry's test family)",
                                            .keys = {"still"},
                                            .why_fixed = {},
                                            .example_body = R"({"mesh": {"shape": "rect"}})",
                                            .make = &make_still});
  ASSERT_TRUE(once);
}

std::string load_error(const std::string& still) {
  const Result<Scene> s = parse_scene(
      R"({"pliant": 1, "bodies": [{"name": "s", "family": "registry_test", "mesh": {"shape": "rect"}, )" +
          still + "}]}",
      "reg.json");
  return s.ok() ? "(no error)" : s.message();
}

TEST(FamilyRegistry, RefusesEmptyTakenOrFactorylessEntries) {
  register_still();
  EXPECT_FALSE(register_family(
      {.name = "", .summary = {}, .keys = {}, .why_fixed = {}, .example_body = {}, .make = &make_still}));
  EXPECT_FALSE(register_family({.name = "registry_test_nofactory",
                                .summary = {},
                                .keys = {},
                                .why_fixed = {},
                                .example_body = {},
                                .make = nullptr}));
  EXPECT_EQ(find_family("registry_test_nofactory"), nullptr);
  EXPECT_FALSE(register_family({.name = "registry_test",
                                .summary = {},
                                .keys = {},
                                .why_fixed = {},
                                .example_body = {},
                                .make = &make_still}))
      << "a taken name is refused";
  const FamilyEntry* f = find_family("registry_test");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->keys, std::vector<std::string>{"still"});
  EXPECT_EQ(family_entries().back(), f) << "added after the built-in families";
}

TEST(FamilyRegistry, AFamilysKeysAreReadWithThePointerInEveryError) {
  register_still();
  const Result<Scene> ok = parse_scene(
      R"({"pliant": 1, "bodies": [{"name": "s", "family": "registry_test", "mesh": {"shape": "rect"},
          "still": {"value": 2.5}}]})",
      "reg.json");
  ASSERT_TRUE(ok.ok()) << ok.message();
  const auto* body = dynamic_cast<const StillBody*>(&ok->world->body(0));
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->value(), 2.5);

  EXPECT_EQ(load_error(R"("still": {"value": -1})"),
            "reg.json: /bodies/0/still/value: expected a number > 0, got -1");
  EXPECT_EQ(load_error(R"("still": {"valu": 1})"),
            "reg.json: /bodies/0/still/valu: unknown key (allowed here: value, mode)");
  EXPECT_EQ(load_error(R"("still": {"mode": "b"})"),
            "reg.json: /bodies/0/still/mode: mode \"b\" is not built");
  // A body key the family did not declare is refused by the scene reader, listing the family's own.
  const std::string unknown = load_error(R"("stil": {})");
  EXPECT_EQ(unknown.rfind("reg.json: /bodies/0/stil: unknown key (allowed here: ", 0), 0u) << unknown;
  EXPECT_NE(unknown.find("still"), std::string::npos) << unknown;
}

}  // namespace
}  // namespace pliant::scene
