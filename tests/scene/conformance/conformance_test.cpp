// The surface contract, checked for every registered family (DESIGN.md, "the surface contract"):
// a grab holds its point and its reaction restores; release emits an event; no interior node
// appears on the surface; fields have one finite value per surface node; the state hash repeats
// across runs and thread counts; a step after warm-up allocates nothing. A family passes by being
// registered: the suite builds each family's own example body (FamilyEntry::example_body).
//
// The dummy family below is registered by this file alone (one register_family call), which is
// all a new family needs besides its own files. The file uses only Pliant's public headers: the
// package installs it (share/pliant/conformance) so that a family built out of tree runs the same
// suite, from a main that registers the family before InitGoogleTest (examples/plugin_family).
#include "alloc_counter.hpp"

#include "pliant/scene/family_registry.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/checked_grab.hpp"
#include "pliant/scene/families.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace pliant::scene {
namespace {

// ---- a dummy family: a surface whose nodes are pulled back to rest by springs of stiffness k ----
// Grabs hold one node at the target; the reaction is the spring's pull; it can be "cut" (it only
// counts the cuts), so the capability query has a body that answers.
class DummyBody final : public Body, public Cuttable {
 public:
  DummyBody(std::string name, TriMesh mesh)
      : name_(std::move(name)), rest_(std::move(mesh)), x_(rest_.positions) {}
  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "dummy"; }
  std::span<const Vec3> surface_positions() const override { return x_; }
  std::span<const Vec3> surface_rest_positions() const override { return rest_.positions; }
  std::span<const Tri> surface_triangles() const override { return rest_.triangles; }
  GrabId grab(const SurfacePoint& p) override {
    if (p.triangle < 0 || static_cast<std::size_t>(p.triangle) >= rest_.triangles.size() || held_ >= 0)
      return {};
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    held_ = rest_.triangles[static_cast<std::size_t>(p.triangle)][std::max_element(w, w + 3) - w];
    target_ = x_[static_cast<std::size_t>(held_)];
    return {0, ++generation_};
  }
  // A family whose grabs list no nodes (grab_nodes) says which it holds.
  bool holds(GrabId id) const override { return live(id); }
  void move_grab(GrabId id, const Vec3& target) override {
    if (live(id)) target_ = target;
  }
  void release(GrabId id) override {
    if (!live(id)) return;
    incoming_.push(GrabReleased{id, held_, x_[static_cast<std::size_t>(held_)]});
    held_ = -1;
  }
  Vec3 grab_reaction(GrabId id) const override {
    if (!live(id)) return Vec3::Zero();
    const auto i = static_cast<std::size_t>(held_);
    return -kStiffness * (x_[i] - rest_.positions[i]);
  }
  Mat3 grab_compliance(GrabId id) const override {
    return live(id) ? Mat3(Mat3::Identity() / kStiffness) : Mat3::Zero();
  }
  void apply_force(const SurfacePoint&, const Vec3&) override {}
  void step(double, Profile& profile) override {
    events_.swap(incoming_);
    incoming_.clear();
    if (held_ >= 0) x_[static_cast<std::size_t>(held_)] = target_;
    profile.record("dummy.solve", 0.0);
  }
  const EventLog& events() const override { return events_; }
  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    if (index != 0 || out.size() != x_.size()) return;
    for (std::size_t i = 0; i < x_.size(); ++i) out[i] = (x_[i] - rest_.positions[i]).norm();
  }
  std::uint64_t state_hash() const override { return Hasher().add(x_).value(); }
  bool cut(const BladeSweep&) override { return ++cuts_ > 0; }

 private:
  static constexpr double kStiffness = 100.0;  // N/m
  bool live(GrabId id) const { return held_ >= 0 && id.slot == 0 && id.generation == generation_; }
  std::string name_;
  TriMesh rest_;
  std::vector<Vec3> x_;
  Index held_ = -1;
  Vec3 target_ = Vec3::Zero();
  std::uint32_t generation_ = 0;
  int cuts_ = 0;
  EventLog events_, incoming_;
};

std::unique_ptr<Body> make_dummy(const JsonReader& body, BodyInputs in) {
  if (!in.surface) body.at("mesh").fail("the dummy family needs a surface mesh");
  return std::make_unique<DummyBody>(in.name, std::move(*in.surface));
}

// Every family name, the dummy registered first (the one registration line of a new family).
std::vector<std::string> family_names() {
  register_family({.name = "dummy",
                   .summary = "a test family: nodes on springs to rest",
                   .keys = {},
                   .why_fixed = {},
                   .example_body = R"({"mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [4, 4]}})",
                   .make = &make_dummy});
  std::vector<std::string> names;
  for (const FamilyInfo& f : registered_families()) names.push_back(f.name);
  return names;
}

const FamilyInfo& info(const std::string& family) {
  static const std::vector<FamilyInfo> all = registered_families();
  for (const FamilyInfo& f : all) {
    if (f.name == family) return f;
  }
  std::abort();
}

// A one-body scene of the family's example body.
std::unique_ptr<World> build(const std::string& family) {
  const std::string text = R"({"pliant": 1, "time_step": 0.01, "bodies": [)" +
                           info(family).example_body.substr(0, info(family).example_body.rfind('}')) +
                           R"(, "name": "b", "family": ")" + family + R"("}]})";
  Result<Scene> scene = parse_scene(text, family + ".json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  if (!scene.ok()) return nullptr;
  return std::move(scene->world);
}

// A triangle corner (u = v = 0: exactly its first node) far from the rest bounding box's min-x side,
// where the example bodies are fixed.
SurfacePoint free_corner(const Body& b) {
  const auto x0 = b.surface_rest_positions();
  const auto tris = b.surface_triangles();
  Index best = 0;
  for (std::size_t t = 0; t < tris.size(); ++t) {
    if (x0[tris[t][0]].x() > x0[tris[static_cast<std::size_t>(best)][0]].x()) best = static_cast<Index>(t);
  }
  return {best, 0.0, 0.0};
}

// What a step after warm-up may allocate.
enum class Allowance {
  nothing,
  // Allocations inside CHOLMOD (the call stack passes through libcholmod), which every refactorisation
  // makes: cholmod_factorize_p copies the permuted matrix (cholmod_ptranspose), the supernodal kernel's
  // OpenMP regions each allocate a libgomp team, and the simplicial solve re-sizes its workspaces
  // (cholmod_solve2). Short of patching CHOLMOD, a body that refactors every Newton iteration (the hybrid
  // body, with cholmod or interface_pcg) pays them. Every other allocation of the step still fails the
  // check, and so does an allowance no longer needed.
  inside_cholmod,
};

class Conformance : public ::testing::TestWithParam<std::string> {};

// A grab held at rest pulls on nothing; moved, its node follows the target and the body pulls back.
void expect_grab_holds_its_point(const std::unique_ptr<World>& world) {
  ASSERT_TRUE(world);
  Body& b = world->body(0);
  const SurfacePoint p = free_corner(b);
  const Index node = b.surface_triangles()[static_cast<std::size_t>(p.triangle)][0];
  const GrabId id = b.grab_patch(p, 0.0);
  ASSERT_TRUE(id.valid());
  world->step();
  EXPECT_LT(b.grab_reaction(id).norm(), 1e-9) << "a grab held where the body rests pulls on nothing";
  const Vec3 start = b.surface_positions()[static_cast<std::size_t>(node)];
  const Vec3 target = start + Vec3(0.0, 0.0, 0.002);
  b.move_grab(id, target);
  for (int k = 0; k < 5; ++k) world->step();
  EXPECT_LT((b.surface_positions()[static_cast<std::size_t>(node)] - target).norm(), 1e-9)
      << "the grabbed node sits at its target";
  const Vec3 r = b.grab_reaction(id);
  EXPECT_LT(r.z(), 0.0) << "the body pulls the tool back toward rest";
  const Mat3 c = b.grab_compliance(id);
  if (c.norm() > 0.0) {
    // The compliance a haptic device extrapolates with agrees with the reaction: for a body held
    // nowhere else than its supports, r ≈ -C⁻¹ u, u the displacement of the grab from rest.
    const Vec3 u = target - b.surface_rest_positions()[static_cast<std::size_t>(node)];
    const Vec3 predicted = -c.inverse() * u;
    EXPECT_LT((r - predicted).norm(), 1e-6 * predicted.norm() + 1e-9)
        << "reaction " << r.transpose() << " predicted " << predicted.transpose();
  }
}

TEST_P(Conformance, GrabHoldsItsPointAndPullsBack) { expect_grab_holds_its_point(build(GetParam())); }

// Bad grabs are refused with one line naming the argument, alike for every family: the checks of
// checked_grab.hpp run before the family's own code, and a released handle is known by Body::holds,
// so nothing hands back a slot −1 or a released grab that silently reads zero force.
template <class R>
void expect_refused(const R& r, std::string_view argument) {
  ASSERT_FALSE(r.ok()) << "accepted where \"" << argument << "\" is bad";
  EXPECT_EQ(r.message().rfind(argument, 0), 0u) << r.message();
  EXPECT_EQ(r.message().find('\n'), std::string::npos) << r.message();
}

TEST_P(Conformance, InvalidGrabsAreRefusedNamingTheArgument) {
  auto world = build(GetParam());
  ASSERT_TRUE(world);
  Body& b = world->body(0);
  const auto n = static_cast<Index>(b.surface_triangles().size());
  const double nan = std::nan("");
  expect_refused(checked_grab(b, {n, 0.2, 0.2}), "point:");  // one past the last triangle
  expect_refused(checked_grab(b, {99999, 0.2, 0.2}), "point:");
  expect_refused(checked_grab(b, {-1, 0.2, 0.2}), "point:");
  expect_refused(checked_grab(b, {0, nan, 0.2}), "point:");
  expect_refused(checked_grab(b, {0, 0.8, 0.8}), "point:");  // outside the triangle
  expect_refused(checked_grab(b, free_corner(b), nan), "radius:");
  expect_refused(checked_grab_reaction(b, GrabId{}), "grab:");
  expect_refused(checked_grab_reaction(b, GrabId{7, 12345}), "grab:");  // never given out

  const Result<GrabId> id = checked_grab(b, free_corner(b), 0.0);
  ASSERT_TRUE(id.ok()) << id.message();
  EXPECT_TRUE(b.holds(*id));
  const Index node = b.surface_triangles()[static_cast<std::size_t>(free_corner(b).triangle)][0];
  const Vec3 start = b.surface_positions()[static_cast<std::size_t>(node)];
  expect_refused(checked_move_grab(b, *id, Vec3(nan, 0.0, 0.0)), "target:");
  expect_refused(checked_move_grab(b, *id, Vec3(0.0, INFINITY, 0.0)), "target:");
  EXPECT_TRUE(checked_move_grab(b, *id, start + Vec3(0.0, 0.0, 0.001)).ok());
  world->step();
  const Result<Vec3> r = checked_grab_reaction(b, *id);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, b.grab_reaction(*id));
  EXPECT_TRUE(checked_release(b, *id).ok());
  EXPECT_FALSE(b.holds(*id)) << "a released grab is not held";
  expect_refused(checked_grab_reaction(b, *id), "grab:");
  expect_refused(checked_release(b, *id), "grab:");  // a second release
  expect_refused(checked_move_grab(b, *id, start), "grab:");
}

TEST_P(Conformance, ReleaseEmitsAnEvent) {
  auto world = build(GetParam());
  ASSERT_TRUE(world);
  Body& b = world->body(0);
  const GrabId id = b.grab(free_corner(b));
  ASSERT_TRUE(id.valid());
  world->step();
  b.release(id);
  world->step();
  const auto released = b.events().get<GrabReleased>();
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(released[0].id, id);
  const bool listed = std::any_of(world->events().begin(), world->events().end(),
                                  [](const WorldEvent& e) { return e.brief.kind == "grab_released"; });
  EXPECT_TRUE(listed);
  world->step();
  EXPECT_TRUE(b.events().get<GrabReleased>().empty()) << "events last one step";
}

TEST_P(Conformance, SurfaceHasNoInteriorNodesAndFieldsFit) {
  auto world = build(GetParam());
  ASSERT_TRUE(world);
  const Body& b = world->body(0);
  const std::size_t n = b.surface_positions().size();
  ASSERT_EQ(b.surface_rest_positions().size(), n);
  std::vector<char> on_triangle(n, 0);
  for (const Tri& t : b.surface_triangles()) {
    for (Index v : t) {
      ASSERT_GE(v, 0);
      ASSERT_LT(static_cast<std::size_t>(v), n);
      on_triangle[static_cast<std::size_t>(v)] = 1;
    }
  }
  EXPECT_EQ(std::count(on_triangle.begin(), on_triangle.end(), 0), 0) << "surface nodes on no triangle";
  ASSERT_FALSE(b.fields().empty());
  std::set<std::string_view> names;
  for (std::size_t f = 0; f < b.fields().size(); ++f) {
    EXPECT_TRUE(names.insert(b.fields()[f].name).second) << "field named twice";
    std::vector<double> values(n, std::nan(""));
    b.fill_field(f, values);
    for (double v : values) EXPECT_TRUE(std::isfinite(v)) << b.fields()[f].name;
    std::vector<double> wrong(n + 1, -7.0);
    b.fill_field(f, wrong);
    EXPECT_TRUE(std::all_of(wrong.begin(), wrong.end(), [](double v) { return v == -7.0; }))
        << "a buffer of the wrong size is left alone";
  }
  EXPECT_EQ(find_field(b, "displacement") >= 0, true);
}

// Drives a grab on the world's first body for a few steps and returns the world's state hash.
std::uint64_t grabbed_run_hash(std::unique_ptr<World> world) {
  if (!world) return 0;
  Body& b = world->body(0);
  const SurfacePoint p = free_corner(b);
  const Vec3 start = point_on(b.surface_positions(), b.surface_triangles(), p);
  const GrabId id = b.grab(p);
  for (int k = 1; k <= 10; ++k) {
    b.move_grab(id, start + Vec3(0.0, 0.0, 0.0005 * k));
    world->step();
  }
  return world->state_hash();
}

TEST_P(Conformance, StateHashRepeatsAcrossRunsAndThreadCounts) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::uint64_t one = grabbed_run_hash(build(GetParam()));
  omp_set_num_threads(2);
  const std::uint64_t two = grabbed_run_hash(build(GetParam()));
  const std::uint64_t again = grabbed_run_hash(build(GetParam()));
  omp_set_num_threads(threads);
  EXPECT_EQ(two, again) << "two runs";
  EXPECT_EQ(one, two) << "1 and 2 threads";
}

// Checks the count of the last counted span against the allowance.
void expect_allocations(Allowance allowance, const char* span) {
  const long all = test::allocations_counted(), cholmod = test::allocations_attributed();
  if (allowance == Allowance::nothing) {
    EXPECT_EQ(all, 0) << "allocations in " << span << " (" << cholmod << " of them inside CHOLMOD, "
                      << test::bytes_counted() << " bytes; counted by " << test::allocation_counter_method()
                      << "; PLIANT_ALLOC_TRACE=1 prints their stacks)";
    return;
  }
  EXPECT_EQ(all - cholmod, 0) << "allocations outside CHOLMOD in " << span
                              << " (PLIANT_ALLOC_TRACE=1 prints them)";
  EXPECT_GT(cholmod, 0) << "CHOLMOD allocated nothing in " << span << ": drop the allowance";
}

// Counts the allocations of `run()`, CHOLMOD's apart.
template <class Run>
void count(Run&& run) {
  test::attribute_allocations_to("libcholmod");
  test::count_allocations(true);
  run();
  test::count_allocations(false);
  test::attribute_allocations_to(nullptr);
}

// Drives a haptic grab on body 0 for 5 warm-up steps, then counts the allocations of 5 more (every
// allocation: the C allocator, operator new, Eigen, other threads; alloc_counter.hpp).
void expect_no_allocation_after_warm_up(const std::unique_ptr<World>& world,
                                        Allowance allowance = Allowance::nothing) {
  ASSERT_TRUE(world);
  Body& b = world->body(0);
  const SurfacePoint p = free_corner(b);
  const Vec3 start = point_on(b.surface_positions(), b.surface_triangles(), p);
  const GrabId id = b.grab(p);
  // The grab drives a haptic contact: the World publishes its snapshot after every step.
  ASSERT_TRUE(world->bind_haptic_grab(0, 0, id, start));
  std::vector<double> field(b.surface_positions().size());
  auto frame = [&](int k) {
    world->move_haptic_grab(0, start + Vec3(0.0, 0.0, 0.0002 * k));
    world->step();
    b.fill_field(0, field);
    (void)b.grab_reaction(id);
    (void)b.grab_compliance(id);
    (void)world->haptics().read();
  };
  for (int k = 1; k <= 5; ++k) frame(k);  // warm-up: buffers reach their size
  count([&] {
    for (int k = 6; k <= 10; ++k) frame(k);
  });
  expect_allocations(allowance, "5 steps after warm-up");
  const HapticSnapshot& snap = world->haptics().read();
  EXPECT_TRUE(snap.contacts[0].active);
  EXPECT_EQ(snap.step, world->step_count());
  EXPECT_EQ(snap.contacts[0].force, b.grab_reaction(id)) << "the snapshot carries the last step's reaction";
}

TEST_P(Conformance, StepAfterWarmUpDoesNotAllocate) { expect_no_allocation_after_warm_up(build(GetParam())); }

// The fem family's modal bodies ("modal" key) are another body type behind the same family: the
// checks that do not assume kinematic grabs (a modal grab is a stiff spring, so its node comes near
// its target, not onto it; fem_modal_scene_body_test.cpp checks how near).
std::unique_ptr<World> build_modal_fem(bool warping) {
  Result<Scene> scene = parse_scene(std::string(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b",
      "family": "fem", "mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [5, 1, 1]},
      "fixed": ["xmin"], "material": {"E": 50000, "nu": 0.3, "density": 1000},
      "fem": {"gravity": [0, 0, -9.81], "damping": {"alpha": 1.0, "beta": 0.001},
      "modal": {"modes": 10, "warping": )") +
                                        (warping ? "true" : "false") + "}}}]}",
                                    "fem_modal.json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  return scene.ok() ? std::move(scene->world) : nullptr;
}

TEST(Conformance, ModalFemBodyStepAfterWarmUpDoesNotAllocate) {
  for (bool warping : {false, true}) expect_no_allocation_after_warm_up(build_modal_fem(warping));
}

TEST(Conformance, ModalFemBodyStateHashRepeatsAcrossRunsAndThreadCounts) {
  auto run = [] { return grabbed_run_hash(build_modal_fem(true)); };
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::uint64_t one = run();
  omp_set_num_threads(2);
  const std::uint64_t two = run();
  const std::uint64_t again = run();
  omp_set_num_threads(threads);
  EXPECT_EQ(two, again) << "two runs";
  EXPECT_EQ(one, two) << "1 and 2 threads";
}

// The fem family with a consistent mass ("mass" key): the implicit integrators, each with a solver whose
// steps allocate nothing (pcg through fem::ImplicitSolver, dynamics::Integrator's CG for Houbolt). Damped
// more than the family's example: the pulled corner's transient swings the reaction's sign for a few
// steps (with either mass), and the shared check reads it after five; Houbolt, whose multistep history
// restarts at the grab, is still in that transient then, so it takes the other checks only.
std::unique_ptr<World> build_consistent_fem(const std::string& integrator) {
  Result<Scene> scene = parse_scene(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b",
      "family": "fem", "mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [5, 1, 1]},
      "fixed": ["xmin"], "material": {"E": 50000, "nu": 0.3, "density": 1000},
      "fem": {"mass": "consistent", "damping": {"alpha": 20.0, "beta": 0.005},
      "integrator": ")" + integrator + R"(", "solver": {"kind": "pcg", "tolerance": 1e-10}}}]})",
                                    "fem_consistent.json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  return scene.ok() ? std::move(scene->world) : nullptr;
}

TEST(Conformance, ConsistentMassFemBodyGrabsStepsAndRepeats) {
  for (const std::string integrator : {"backward_euler", "newmark", "houbolt"}) {
    SCOPED_TRACE(integrator);
    if (integrator != "houbolt") expect_grab_holds_its_point(build_consistent_fem(integrator));
    expect_no_allocation_after_warm_up(build_consistent_fem(integrator));
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const std::uint64_t one = grabbed_run_hash(build_consistent_fem(integrator));
    omp_set_num_threads(2);
    const std::uint64_t two = grabbed_run_hash(build_consistent_fem(integrator));
    omp_set_num_threads(threads);
    EXPECT_EQ(one, two) << "1 and 2 threads";
  }
}

// The fem family's hybrid bodies ("hybrid" key, fem::HybridSolver): a corotational operational end on a
// condensed linear bar, grabbed in its operational region.
// `split`: the interface_pcg solver instead of cholmod.
std::unique_ptr<World> build_hybrid_fem(bool split = false) {
  Result<Scene> scene =
      parse_scene(std::string(R"({"pliant": 1, "time_step": 0.01, "bodies": [{"name": "b",
      "family": "fem", "mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [5, 1, 1]},
      "fixed": ["xmin"], "material": {"E": 50000, "nu": 0.3, "density": 1000},
      "fem": {"damping": {"alpha": 1.0, "beta": 0.001}, )") +
                      (split ? R"("solver": {"kind": "interface_pcg", "tolerance": 1e-10}, )" : "") +
                      R"("hybrid": {"operational": {"box": {"min": [0.05, -1, -1], "max": [1, 1, 1]}}}}}]})",
                  "fem_hybrid.json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  return scene.ok() ? std::move(scene->world) : nullptr;
}

TEST(Conformance, HybridFemBodyGrabsStepsAndRepeats) {
  expect_grab_holds_its_point(build_hybrid_fem());
  expect_no_allocation_after_warm_up(build_hybrid_fem(), Allowance::inside_cholmod);
  expect_grab_holds_its_point(build_hybrid_fem(true));
  expect_no_allocation_after_warm_up(build_hybrid_fem(true), Allowance::inside_cholmod);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::uint64_t one = grabbed_run_hash(build_hybrid_fem());
  omp_set_num_threads(2);
  const std::uint64_t two = grabbed_run_hash(build_hybrid_fem());
  const std::uint64_t again = grabbed_run_hash(build_hybrid_fem());
  omp_set_num_threads(threads);
  EXPECT_EQ(two, again) << "two runs";
  EXPECT_EQ(one, two) << "1 and 2 threads";
}

// A hybrid body can be cut: a blade that misses costs no allocation, a cut may allocate, and after it
// (and a warm-up) steps allocate nothing again.
void hybrid_cut_allocations(bool split);

TEST(Conformance, HybridFemBodyAllocatesOnlyInStepsThatCut) {
  for (const bool split : {false, true}) {
    SCOPED_TRACE(split ? "interface_pcg" : "cholmod");
    hybrid_cut_allocations(split);
  }
}

void hybrid_cut_allocations(bool split) {
  std::unique_ptr<World> world = build_hybrid_fem(split);
  ASSERT_TRUE(world);
  Body& b = world->body(0);
  Cuttable* cuttable = capability<Cuttable>(b);
  ASSERT_NE(cuttable, nullptr);
  auto steps = [&](int count, bool blade_misses) {
    for (int k = 0; k < count; ++k) {
      const double y = 1.0 - 0.01 * k;
      if (blade_misses) {
        EXPECT_FALSE(cuttable->cut({{5, y, -1}, {5, y, 1}, {5, y - 0.01, -1}, {5, y - 0.01, 1}}));
      }
      world->step();
    }
  };
  steps(3, true);
  count([&] { steps(5, true); });
  expect_allocations(Allowance::inside_cholmod, "5 steps with a missing blade");
  // Through the operational half of the bar, top to bottom.
  EXPECT_TRUE(cuttable->cut({{0.0775, 0.1, -1}, {0.0775, 0.1, 1}, {0.0775, -0.1, -1}, {0.0775, -0.1, 1}}));
  steps(3, false);
  count([&] { steps(5, false); });
  expect_allocations(Allowance::inside_cholmod, "5 steps after a cut");
}

TEST(Conformance, CapabilitiesAreQueriedNotAssumed) {
  auto dummy = build("dummy");
  ASSERT_TRUE(dummy);
  Cuttable* c = capability<Cuttable>(dummy->body(0));
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->cut({}));
  EXPECT_EQ(capability<ImpactTarget>(dummy->body(0)), nullptr);
  for (const std::string& f : {std::string("green"), std::string("springs")}) {
    auto world = build(f);
    ASSERT_TRUE(world);
    EXPECT_EQ(capability<Cuttable>(world->body(0)), nullptr) << f;
  }
}

TEST(Conformance, RegistryListsFamiliesInErrors) {
  const Result<Scene> bad = parse_scene(
      R"({"pliant": 1, "bodies": [{"name": "b", "family": "nope", "mesh": {"shape": "rect"}}]})", "x.json");
  ASSERT_FALSE(bad.ok());
  for (const FamilyInfo& f : registered_families())
    EXPECT_NE(bad.message().find('"' + f.name + '"'), std::string::npos) << bad.message();
  EXPECT_FALSE(register_family(
      {.name = "green", .summary = {}, .keys = {}, .why_fixed = {}, .example_body = {}, .make = &make_dummy}))
      << "a taken name is refused";
}

INSTANTIATE_TEST_SUITE_P(Families, Conformance, ::testing::ValuesIn(family_names()),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace pliant::scene
