// The mass-spring family (Grimm 2005) behind the surface contract.
//
// Scene keys: "springs": {"method": one of the nine Table 2.1 methods (default
// "dragnet_mass_spring"), "dt": s, "stiffness": N/m, "damping": N·s/m, "mass_damping": 1/s,
// "mass_density": kg/m² or kg/m³, "max_stretch": 1, "dragnet_factor": 1, "provot_factor": 1,
// "gravity": [m/s²],
// "tearing": {"mode": "off" | "area_preserving" | "deletion", "seed_threshold": N,
// "edge_threshold": N, "inner_threshold": N}}.
// A grab fixes its node (the interaction node of Grimm's (2005) methods) and moves it to the target over
// the step's substeps; its reaction is the sum of the spring forces on that node.
#include "family_registry.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/tearing.hpp"
#include "pliant/scene/springs_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pliant::scene::detail {
namespace {

enum class TearMode { off, area_preserving, deletion };

struct SpringsSettings {
  springs::SpringMeshDef mesh;
  springs::MethodDef method;
  springs::TearingDef tearing;
  TearMode tear_mode = TearMode::off;
  Vec3 gravity = Vec3::Zero();
};

class SpringsSceneBody final : public Body {
 public:
  SpringsSceneBody(std::string name, springs::SpringMesh mesh, const SpringsSettings& s)
      : name_(std::move(name)),
        mesh_(std::move(mesh)),
        settings_(s),
        stepper_(s.method),
        tearing_(s.tearing) {
    loads_.gravity = s.gravity;
    stepper_.set_interaction(mesh_, {});
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "springs"; }
  std::span<const Vec3> surface_positions() const override { return mesh_.position; }
  std::span<const Vec3> surface_rest_positions() const override { return mesh_.rest_position; }
  std::span<const Tri> surface_triangles() const override { return mesh_.tri_nodes; }
  std::uint64_t surface_topology_version() const override { return topology_version_; }

  GrabId grab(const SurfacePoint& p) override {
    if (!on_surface(p)) return {};
    const Tri& t = mesh_.tri_nodes[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    const int c = static_cast<int>(std::max_element(w, w + 3) - w);
    const Index node = t[c];
    for (const Slot& s : slots_) {
      if (s.active && s.node == node) return {};
    }
    std::size_t slot = 0;
    while (slot < slots_.size() && slots_[slot].active) ++slot;
    if (slot == slots_.size()) slots_.push_back({});
    Slot& s = slots_[slot];
    s.active = true;
    s.node = node;
    s.was_fixed = mesh_.fixed(node);
    s.target = mesh_.position[static_cast<std::size_t>(node)];
    ++s.generation;
    mesh_.set_fixed(node, true);
    interaction_dirty_ = true;
    return {static_cast<std::int32_t>(slot), s.generation};
  }

  void move_grab(GrabId id, const Vec3& target) override {
    if (live(id)) slots_[static_cast<std::size_t>(id.slot)].target = target;
  }

  void release(GrabId id) override {
    if (!live(id)) return;
    Slot& s = slots_[static_cast<std::size_t>(id.slot)];
    s.active = false;
    if (s.node >= 0) {
      mesh_.set_fixed(s.node, s.was_fixed);
      mesh_.velocity[static_cast<std::size_t>(s.node)].setZero();
      incoming_.push(GrabReleased{id, s.node, mesh_.position[static_cast<std::size_t>(s.node)]});
    }
    interaction_dirty_ = true;
  }

  Vec3 grab_reaction(GrabId id) const override {
    if (!live(id)) return Vec3::Zero();
    const Index n = slots_[static_cast<std::size_t>(id.slot)].node;
    if (n < 0) return Vec3::Zero();
    // Spring forces on the held node: the pull the tool feels.
    Vec3 f = Vec3::Zero();
    for (Index s : mesh_.node_springs.of(n)) {
      const Index o = mesh_.other_end(s, n);
      const auto i = static_cast<std::size_t>(s);
      f += springs::spring_force(
          mesh_.position[static_cast<std::size_t>(n)], mesh_.position[static_cast<std::size_t>(o)],
          mesh_.velocity[static_cast<std::size_t>(n)], mesh_.velocity[static_cast<std::size_t>(o)],
          mesh_.stiffness[i], mesh_.damping[i], mesh_.rest_length[i]);
    }
    return f;
  }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p)) return;
    const Tri& t = mesh_.tri_nodes[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    external_.resize(mesh_.position.size(), Vec3::Zero());
    for (int c = 0; c < 3; ++c) external_[static_cast<std::size_t>(t[c])] += w[c] * force;
  }

  void step(double dt, Profile& profile) override {
    events_.swap(incoming_);
    incoming_.clear();
    Stopwatch watch;
    if (interaction_dirty_) refresh_interaction();
    // Substeps of the method's own time step cover the world step; handles move linearly across them.
    const int substeps = springs::method_is_dynamic(settings_.method.method)
                             ? std::max(1, static_cast<int>(std::lround(dt / settings_.method.dt)))
                             : 1;
    for (Slot& s : slots_) {
      if (s.active && s.node >= 0) s.start = mesh_.position[static_cast<std::size_t>(s.node)];
    }
    external_.resize(mesh_.position.size(), Vec3::Zero());
    double solve_ms = 0.0;
    double tear_ms = 0.0;
    for (int k = 1; k <= substeps; ++k) {
      watch.reset();
      const double a = static_cast<double>(k) / substeps;
      for (const Slot& s : slots_) {
        if (s.active && s.node >= 0)
          mesh_.position[static_cast<std::size_t>(s.node)] = (1.0 - a) * s.start + a * s.target;
      }
      loads_.external = external_;
      stepper_.step(mesh_, loads_);
      solve_ms += watch.ms();
      watch.reset();
      tear();
      tear_ms += watch.ms();
    }
    std::fill(external_.begin(), external_.end(), Vec3::Zero());
    profile.record("springs.solve", solve_ms);
    profile.record("springs.tear", tear_ms);
  }

  const EventLog& events() const override { return events_; }
  const springs::SpringMesh& mesh() const { return mesh_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"stress", "N"}};
    return kFields;
  }

  void fill_field(std::size_t index, std::span<double> out) const override {
    if (index > 1 || out.size() != mesh_.position.size()) return;
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = index == 0 ? (mesh_.position[i] - mesh_.rest_position[i]).norm()
                          : springs::node_stress(mesh_, static_cast<Index>(i));
    }
  }

  std::uint64_t state_hash() const override {
    Hasher h;
    h.add(mesh_.position).add(mesh_.velocity).add(mesh_.tri_nodes).add(mesh_.spring_nodes);
    return h.value();
  }

 private:
  struct Slot {
    bool active = false;
    bool was_fixed = false;
    Index node = -1;
    Vec3 target = Vec3::Zero();
    Vec3 start = Vec3::Zero();
    std::uint32_t generation = 0;
  };

  bool on_surface(const SurfacePoint& p) const {
    return p.triangle >= 0 && static_cast<std::size_t>(p.triangle) < mesh_.tri_nodes.size();
  }

  bool live(GrabId id) const {
    return id.slot >= 0 && static_cast<std::size_t>(id.slot) < slots_.size() &&
           slots_[static_cast<std::size_t>(id.slot)].active &&
           slots_[static_cast<std::size_t>(id.slot)].generation == id.generation;
  }

  // Hands the held nodes to the stepper as its interaction nodes (and rebuilds its order).
  void refresh_interaction() {
    interaction_nodes_.clear();
    for (const Slot& s : slots_) {
      if (s.active && s.node >= 0) interaction_nodes_.push_back(s.node);
    }
    stepper_.set_interaction(mesh_, interaction_nodes_);
    interaction_dirty_ = false;
  }

  // Runs the tearing mode once (after each substep) and keeps every index this body holds valid.
  // Tearing happens between substeps of one world step, so the stepper's interaction nodes are
  // refreshed here, before the next substep: deferring it to the next world step handed the
  // remaining substeps node indices from before deletion compacted the arrays (out of bounds in the
  // Dragnet pass when a held node had been removed or the node count had shrunk).
  void tear() {
    std::span<const springs::TearEvent> torn;
    if (settings_.tear_mode == TearMode::area_preserving) {
      if (tearing_.step(mesh_) == 0) return;
      torn = tearing_.events();
      // A copy of a held node inherits its inv_mass 0; the grab holds only the original, so the copy
      // takes the node's own fixedness (else it would hang in space forever, fixed by no one).
      for (const springs::TearEvent& e : torn) {
        if (e.new_node < 0) continue;
        for (const Slot& s : slots_) {
          if (s.active && s.node == e.node) mesh_.set_fixed(e.new_node, s.was_fixed);
        }
      }
    } else if (settings_.tear_mode == TearMode::deletion) {
      if (deletion_.step(mesh_) == 0) return;
      torn = deletion_.events();
      // Deletion compacts the arrays: follow the held nodes and pending forces to their new indices.
      const auto map = deletion_.node_map();
      if (!map.empty()) {
        for (std::size_t k = 0; k < slots_.size(); ++k) {
          Slot& s = slots_[k];
          if (s.node < 0) continue;
          const Vec3 where = s.target;
          s.node = map[static_cast<std::size_t>(s.node)];
          if (s.node < 0 && s.active) {
            // The held node was deleted with its last triangle: the grab lets go.
            s.active = false;
            events_.push(GrabReleased{{static_cast<std::int32_t>(k), s.generation}, -1, where});
          }
        }
        remapped_.assign(mesh_.position.size(), Vec3::Zero());
        for (std::size_t i = 0; i < map.size() && i < external_.size(); ++i) {
          if (map[i] >= 0) remapped_[static_cast<std::size_t>(map[i])] = external_[i];
        }
        external_.swap(remapped_);
      }
    } else {
      return;
    }
    for (const springs::TearEvent& e : torn) events_.push(e);
    ++topology_version_;
    external_.resize(mesh_.position.size(), Vec3::Zero());
    refresh_interaction();
  }

  std::string name_;
  springs::SpringMesh mesh_;
  SpringsSettings settings_;
  springs::MethodStepper stepper_;
  springs::Tearing tearing_;
  springs::DeletionTearing deletion_;
  springs::Loads loads_;
  std::vector<Vec3> external_, remapped_;
  std::vector<Slot> slots_;
  std::vector<Index> interaction_nodes_;
  EventLog events_;    // published at the last step
  EventLog incoming_;  // collected since (releases between steps)
  std::uint64_t topology_version_ = 0;
  bool interaction_dirty_ = true;
};

// Most substeps one world step may take (time_step / dt).
constexpr int kMaxSubsteps = 100000;

// The dynamic methods integrate with explicit Euler, which blows up above a step set by stiffness,
// mass and damping. Without "dt" the body takes 0.9 x the network's stable step (at most 1 ms and the
// world step); a given "dt" above it is refused here instead of turning the positions into NaN
// mid-run. Either is then rounded down to divide the world step.
void check_time_step(const JsonReader& body, double world_step, const springs::SpringMesh& mesh,
                     springs::MethodDef& def) {
  const std::optional<JsonReader> settings = body.find("springs");
  const JsonReader& j = settings ? *settings : body;
  const double limit = springs::explicit_euler_stable_step(mesh, def.mass_damping);
  if (limit == 0.0) {
    j.fail(
        "explicit Euler amplifies undamped motion: give \"mass_damping\" > 0 (unit: 1/s) or a "
        "\"damping\" > 0 on every spring");
  }
  if (auto v = settings ? j.find("dt") : std::nullopt) {
    if (def.dt > limit) {
      v->fail(fmt::format(
          "{:.3g} s is above the explicit-Euler stability limit of this mesh, {:.3g} s (stiffness, node "
          "masses and damping decide it): lower \"dt\" or \"stiffness\", raise \"mass_density\" or "
          "\"mass_damping\"",
          def.dt, limit));
    }
  } else {
    def.dt = std::min({0.9 * limit, 1e-3, world_step});
  }
  if (world_step / def.dt > kMaxSubsteps) {
    j.fail(fmt::format(
        "one world step of {:.3g} s would take {:.3g} substeps of {:.3g} s (the stable step of this mesh): "
        "lower \"stiffness\", raise \"mass_density\", or pick a quasi-static method such as \"dragnet\"",
        world_step, world_step / def.dt, def.dt));
  }
  // Whole substeps cover the world step exactly: round dt down to world_step / n (never above the
  // stable step, and the body's clock keeps pace with the world's).
  def.dt = world_step / std::ceil(world_step / def.dt * (1.0 - 1e-12));
}

}  // namespace

}  // namespace pliant::scene::detail

namespace pliant::scene {
const springs::SpringMesh* springs_mesh(const Body& body) {
  const auto* b = dynamic_cast<const detail::SpringsSceneBody*>(&body);
  return b ? &b->mesh() : nullptr;
}
}  // namespace pliant::scene

namespace pliant::scene::detail {

std::unique_ptr<Body> make_springs_body(const JsonReader& body, BodyInputs in) {
  SpringsSettings s;
  s.method.method = springs::Method::dragnet_mass_spring;
  if (auto j = body.find("springs")) {
    j->expect_object({"method", "dt", "stiffness", "damping", "mass_damping", "mass_density", "max_stretch",
                      "dragnet_factor", "provot_factor", "gravity", "tearing"});
    if (auto m = j->find("method")) {
      const auto method = springs::method_from_name(m->string());
      if (!method) {
        m->fail_expected(
            "one of \"mass_spring\", \"interaction_ordered\", \"provot\", \"wagner\", "
            "\"enhanced_chainmail\", \"dragnet\", \"lr_mass_spring\", "
            "\"length_correction_mass_spring\", \"dragnet_mass_spring\"");
      }
      s.method.method = *method;
    }
    if (auto v = j->find("dt")) {
      s.method.dt = v->number_in(0.0, 1.0, true);
      // Keep dt within the world step so simulated time advances as the scene says (the substep
      // count and the stability limit are checked once the mesh exists: check_time_step).
      char what[160];
      if (s.method.dt > in.time_step) {
        std::snprintf(what, sizeof what, "a number <= %g (the scene's time_step)", in.time_step);
        v->fail_expected(what);
      }
    }
    if (auto v = j->find("mass_damping")) s.method.mass_damping = v->non_negative();
    s.mesh.stiffness = j->positive_or("stiffness", s.mesh.stiffness);
    if (auto v = j->find("damping")) s.mesh.damping = v->non_negative();
    s.mesh.mass_density = j->positive_or("mass_density", s.mesh.mass_density);
    if (auto v = j->find("max_stretch")) s.mesh.max_stretch = v->number_in(1.0, JsonReader::kInf);
    if (auto v = j->find("dragnet_factor")) s.method.dragnet_factor = v->number_in(0.0, 1.0, true);
    if (auto v = j->find("provot_factor")) s.method.provot_factor = v->number_in(0.0, 2.0, true);
    if (auto v = j->find("gravity")) s.gravity = v->vec3();
    if (auto t = j->find("tearing")) {
      t->expect_object({"mode", "seed_threshold", "edge_threshold", "inner_threshold"});
      const std::string mode = t->at("mode").one_of({"off", "area_preserving", "deletion"});
      s.tear_mode = mode == "area_preserving" ? TearMode::area_preserving
                    : mode == "deletion"      ? TearMode::deletion
                                              : TearMode::off;
      s.tearing.seed_threshold = t->positive_or("seed_threshold", s.tearing.seed_threshold);
      s.tearing.edge_threshold = t->positive_or("edge_threshold", s.tearing.edge_threshold);
      s.tearing.inner_threshold = t->positive_or("inner_threshold", s.tearing.inner_threshold);
    }
  }
  Result<springs::SpringMesh> mesh = in.volume ? springs::build_spring_mesh(*in.volume, s.mesh)
                                               : springs::build_spring_mesh(*in.surface, s.mesh);
  if (!mesh.ok()) body.at("mesh").fail(mesh.message());
  for (const Region& r : in.fixed) {
    for (Index n : select_nodes(mesh->rest_position, r)) mesh->set_fixed(n, true);
  }
  if (springs::method_is_dynamic(s.method.method)) check_time_step(body, in.time_step, *mesh, s.method);
  return std::make_unique<SpringsSceneBody>(in.name, std::move(*mesh), s);
}

FamilyEntry springs_family() {
  return {
      .name = "springs",
      .summary =
          "mass-spring tissue with Dragnet, ChainMail, length correction and membrane tearing (Grimm 2005)",
      .keys = {"springs"},
      .why_fixed = {},
      .example_body = R"({"mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [6, 6]},
                              "fixed": ["xmin"], "springs": {"method": "dragnet_mass_spring",
                              "mass_damping": 5.0}})",
      .make = &make_springs_body};
}

}  // namespace pliant::scene::detail
