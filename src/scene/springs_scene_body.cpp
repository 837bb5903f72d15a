// The mass-spring family (Grimm 2005) behind the surface contract: scene JSON read into a
// springs::SpringsBody (the family's run time: substeps, grabs, tearing) and forwarding to it.
//
// Scene keys: "springs": {"method": one of the nine Table 2.1 methods (default
// "dragnet_mass_spring"), "dt": s, "stiffness": N/m, "damping": N·s/m, "mass_damping": 1/s,
// "mass_density": kg/m² or kg/m³, "max_stretch": 1, "dragnet_factor": 1, "provot_factor": 1,
// "gravity": [m/s²],
// "tearing": {"mode": "off" | "area_preserving" | "deletion", "seed_threshold": N,
// "edge_threshold": N, "inner_threshold": N}}.
// A grab fixes its node (the interaction node of Grimm's (2005) methods) and moves it to the target over
// the step's substeps; its reaction is the sum of the spring forces on that node and its own weight.
#include "family_registry.hpp"
#include "setting_reader.hpp"

#include "pliant/core/asset_cache.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/springs_asset.hpp"
#include "pliant/models/springs/springs_body.hpp"
#include "pliant/models/springs/tearing.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/family_registry.hpp"
#include "pliant/scene/springs_scene_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pliant::scene::detail {
namespace {

class SpringsSceneBody final : public Body, public ReportsEnergy {
 public:
  SpringsSceneBody(std::string name, springs::SpringsBody body)
      : name_(std::move(name)), body_(std::move(body)) {
    refresh_surface();
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "springs"; }
  BodyEnergy energy() const override {
    const springs::SpringMesh& m = body_.mesh();
    return {.kinetic = springs::kinetic_energy(m),
            .elastic = springs::spring_energy(m),
            .gravity = gravity_potential(m.mass, m.position, body_.def().gravity)};
  }
  // A membrane's nodes are all on its triangles: the mesh arrays are the surface. A volume's (or a
  // mesh with triangle-less handle nodes) are gathered onto the nodes its triangles use.
  std::span<const Vec3> surface_positions() const override {
    return identity_ ? std::span<const Vec3>(body_.mesh().position) : std::span<const Vec3>(x_);
  }
  std::span<const Vec3> surface_rest_positions() const override {
    return identity_ ? std::span<const Vec3>(body_.mesh().rest_position) : std::span<const Vec3>(x0_);
  }
  std::span<const Tri> surface_triangles() const override {
    return identity_ ? std::span<const Tri>(body_.mesh().tri_nodes) : std::span<const Tri>(tris_);
  }
  std::span<const Index> surface_nodes() const override {
    return identity_ ? std::span<const Index>() : std::span<const Index>(nodes_);
  }
  std::uint64_t surface_topology_version() const override { return body_.mesh().topology_version; }
  // The nodes fixed in the asset (the scene's "fixed" regions select initial nodes; tearing keeps their
  // numbers), not those a grab holds now.
  std::vector<Index> fixed_surface_nodes() const override {
    const springs::SpringMesh& initial = body_.asset()->mesh();
    const auto fixed = [&](Index n) { return n >= 0 && n < initial.node_count() && initial.fixed(n); };
    std::vector<Index> out;
    const std::size_t count = identity_ ? body_.mesh().position.size() : nodes_.size();
    for (std::size_t s = 0; s < count; ++s)
      if (fixed(identity_ ? static_cast<Index>(s) : nodes_[s])) out.push_back(static_cast<Index>(s));
    return out;
  }

  // Holds the triangle corner with the largest barycentric weight.
  GrabId grab(const SurfacePoint& p) override {
    if (!on_surface(p, body_.mesh().tri_nodes)) return {};
    const Tri& t = body_.mesh().tri_nodes[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    const int c = static_cast<int>(std::max_element(w, w + 3) - w);
    return body_.grab(t[c]);
  }

  bool holds(GrabId id) const override { return body_.grab_node(id) >= 0; }
  void move_grab(GrabId id, const Vec3& target) override { body_.move_grab(id, target); }
  void release(GrabId id) override { body_.release(id); }
  Vec3 grab_reaction(GrabId id) const override { return body_.grab_reaction(id); }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p, body_.mesh().tri_nodes)) return;
    const Tri& t = body_.mesh().tri_nodes[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    for (int c = 0; c < 3; ++c) body_.add_force(t[c], w[c] * force);
  }

  void step(double dt, Profile& profile) override {
    body_.step(dt, profile);
    refresh_surface();
    // The family's own event arrays, published as typed categories: its tears (springs::TearEvent)
    // and the released grabs.
    events_.clear();
    for (const springs::TearEvent& e : body_.tear_events()) events_.push(e);
    for (const GrabReleased& r : body_.released_grabs()) events_.push(r);
  }

  const EventLog& events() const override { return events_; }
  const springs::SpringsBody& body() const { return body_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"stress", "N"}};
    return kFields;
  }

  void fill_field(std::size_t index, std::span<double> out) const override {
    const springs::SpringMesh& m = body_.mesh();
    const std::size_t n = identity_ ? m.position.size() : nodes_.size();
    if (index > 1 || out.size() != n) return;
    for (std::size_t i = 0; i < n; ++i) {
      const auto node = identity_ ? static_cast<Index>(i) : nodes_[i];
      const auto k = static_cast<std::size_t>(node);
      out[i] = index == 0 ? (m.position[k] - m.rest_position[k]).norm() : springs::node_stress(m, node);
    }
  }

  std::uint64_t state_hash() const override { return body_.state_hash(); }

 private:
  // Keeps the surface view current: the node map is rebuilt when the topology changed (tearing),
  // positions are gathered every step (no allocation once sized).
  void refresh_surface() {
    const springs::SpringMesh& m = body_.mesh();
    if (map_version_ != m.topology_version || !mapped_) {
      mapped_ = true;
      map_version_ = m.topology_version;
      to_surface_.assign(m.position.size(), -1);
      for (const Tri& t : m.tri_nodes) {
        for (Index v : t) to_surface_[static_cast<std::size_t>(v)] = 0;
      }
      nodes_.clear();
      for (std::size_t i = 0; i < to_surface_.size(); ++i) {
        if (to_surface_[i] < 0) continue;
        to_surface_[i] = static_cast<Index>(nodes_.size());
        nodes_.push_back(static_cast<Index>(i));
      }
      identity_ = nodes_.size() == m.position.size();
      tris_.clear();
      x0_.clear();
      if (!identity_) {
        for (const Tri& t : m.tri_nodes) {
          tris_.push_back({to_surface_[static_cast<std::size_t>(t[0])],
                           to_surface_[static_cast<std::size_t>(t[1])],
                           to_surface_[static_cast<std::size_t>(t[2])]});
        }
        for (Index n : nodes_) x0_.push_back(m.rest_position[static_cast<std::size_t>(n)]);
      }
      x_.resize(identity_ ? 0 : nodes_.size());
    }
    if (identity_) return;
    for (std::size_t i = 0; i < nodes_.size(); ++i) x_[i] = m.position[static_cast<std::size_t>(nodes_[i])];
  }

  std::string name_;
  springs::SpringsBody body_;
  EventLog events_;
  // The surface view (used when some node is on no triangle: a volume's interior).
  bool identity_ = true, mapped_ = false;
  std::uint64_t map_version_ = 0;
  std::vector<Index> nodes_, to_surface_;
  std::vector<Tri> tris_;
  std::vector<Vec3> x_, x0_;
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

Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const springs::SpringsAsset> asset,
                                              springs::SpringsBodyDef def) {
  Result<springs::SpringsBody> body = springs::SpringsBody::build(std::move(asset), def);
  if (!body.ok()) return body.error();
  return std::unique_ptr<Body>(std::make_unique<detail::SpringsSceneBody>(std::move(name), std::move(*body)));
}

const springs::SpringsBody* springs_body(const Body& body) {
  const auto* b = dynamic_cast<const detail::SpringsSceneBody*>(&body);
  return b ? &b->body() : nullptr;
}

const springs::SpringMesh* springs_mesh(const Body& body) {
  const springs::SpringsBody* b = springs_body(body);
  return b ? &b->mesh() : nullptr;
}

}  // namespace pliant::scene

namespace pliant::scene::detail {

// The family's settings, declared once (pliant/scene/setting_spec.hpp). The method names come from
// the model (springs::all_methods).
const std::vector<SettingSpec>& springs_settings() {
  using T = SettingType;
  constexpr std::string_view kDynamic =
      "method=mass_spring|interaction_ordered|lr_mass_spring|length_correction_mass_spring|dragnet_mass_"
      "spring";
  static const std::vector<SettingSpec> table = [&] {
    std::vector<std::string_view> methods;
    for (springs::Method m : springs::all_methods) methods.push_back(springs::method_name(m));
    return std::vector<SettingSpec>{
        {.path = "springs", .type = T::object, .otherwise = "all defaults", .help = "the settings below"},
        {.path = "springs/method",
         .type = T::choice,
         .fallback = "\"dragnet_mass_spring\"",
         .choices = methods,
         .help = "Grimm's (2005) Table 2.1 method (pliant/models/springs/methods.hpp)"},
        {.path = "springs/dt",
         .unit = "s",
         .otherwise = "from the stability limit",
         .min = 0,
         .max = 1,
         .min_open = true,
         .help =
             "the dynamic methods' explicit-Euler step, at most time_step and the mesh's stability limit; "
             "rounded down to time_step / n so that a world step runs exactly n of them",
         .view_min = 1e-6,
         .view_max = 1e-1,
         .view_log = true,
         .shown_if = kDynamic},
        {.path = "springs/stiffness",
         .unit = "N/m",
         .fallback = "100",
         .min = 0,
         .min_open = true,
         .help = "spring constant of every spring",
         .view_min = 0.1,
         .view_max = 1e6,
         .view_log = true,
         .shown_if = kDynamic},
        {.path = "springs/damping",
         .unit = "N s/m",
         .fallback = "0.05",
         .min = 0,
         .help = "damping along each spring",
         .view_min = 0,
         .view_max = 100,
         .view_log = true,
         .shown_if = kDynamic},
        {.path = "springs/mass_damping",
         .unit = "1/s",
         .fallback = "0",
         .min = 0,
         .help = "mass-proportional damping (drag on every node)",
         .view_min = 0,
         .view_max = 1e4,
         .view_log = true,
         .shown_if = kDynamic},
        {.path = "springs/mass_density",
         .unit = "kg/m² or kg/m³",
         .fallback = "1",
         .min = 0,
         .min_open = true,
         .help = "per area on a membrane (kg/m²), per volume on a volume mesh (kg/m³); lumped to the nodes",
         .view_min = 1e-4,
         .view_max = 1e4,
         .view_log = true,
         .shown_if = kDynamic},
        {.path = "springs/max_stretch",
         .fallback = "1.1",
         .min = 1,
         .help = "springs are never longer than max_stretch × rest length",
         .view_min = 1,
         .view_max = 3},
        {.path = "springs/dragnet_factor",
         .fallback = "1",
         .min = 0,
         .max = 1,
         .min_open = true,
         .help = "Dragnet's damping factor",
         .shown_if = "method=dragnet|dragnet_mass_spring"},
        {.path = "springs/provot_factor",
         .fallback = "1",
         .min = 0,
         .max = 2,
         .min_open = true,
         .help = "Provot's correction factor (unstable near 2.1)",
         .shown_if = "method=provot|lr_mass_spring|length_correction_mass_spring"},
        {.path = "springs/gravity",
         .type = T::vec3,
         .unit = "m/s²",
         .fallback = "[0, 0, 0]",
         .help = "body force on every node"},
        {.path = "springs/tearing", .type = T::object, .otherwise = "no tearing", .help = "the keys below"},
        {.path = "springs/tearing/mode",
         .type = T::choice,
         .choices = {"off", "area_preserving", "deletion"},
         .required = true,
         .help = "area_preserving: nodes split along cracks and the triangle count stays; deletion: "
                 "over-stressed springs are removed"},
        {.path = "springs/tearing/seed_threshold",
         .unit = "N",
         .fallback = "0.5",
         .min = 0,
         .min_open = true,
         .help = "node stress at which a crack tip propagates",
         .view_min = 1e-4,
         .view_max = 1e4,
         .view_log = true,
         .shown_if = "mode=area_preserving|deletion"},
        {.path = "springs/tearing/edge_threshold",
         .unit = "N",
         .fallback = "1",
         .min = 0,
         .min_open = true,
         .help = "the threshold of other boundary nodes (branching, border cracks)",
         .view_min = 1e-4,
         .view_max = 1e4,
         .view_log = true,
         .shown_if = "mode=area_preserving|deletion"},
        {.path = "springs/tearing/inner_threshold",
         .unit = "N",
         .fallback = "2",
         .min = 0,
         .min_open = true,
         .help = "the threshold of inner nodes (new holes)",
         .view_min = 1e-4,
         .view_max = 1e4,
         .view_log = true,
         .shown_if = "mode=area_preserving|deletion"},
    };
  }();
  return table;
}

std::unique_ptr<Body> make_springs_body(const JsonReader& body, BodyInputs in) {
  const SettingsReader settings(springs_settings(), in.time_step);
  springs::SpringMeshDef mesh_def;
  springs::SpringsBodyDef s;
  const JsonReader j = settings.object(body, "springs");
  s.method.method = *springs::method_from_name(settings.text(j, "springs/method"));
  if (auto v = settings.number_if(j, "springs/dt")) {
    s.method.dt = *v;
    // Keep dt within the world step so simulated time advances as the scene says (the substep
    // count and the stability limit are checked once the mesh exists: check_time_step).
    char what[160];
    if (s.method.dt > in.time_step) {
      std::snprintf(what, sizeof what, "a number <= %g (the scene's time_step)", in.time_step);
      j.at("dt").fail_expected(what);
    }
  }
  s.method.mass_damping = settings.number(j, "springs/mass_damping");
  mesh_def.stiffness = settings.number(j, "springs/stiffness");
  mesh_def.damping = settings.number(j, "springs/damping");
  mesh_def.mass_density = settings.number(j, "springs/mass_density");
  mesh_def.max_stretch = settings.number(j, "springs/max_stretch");
  s.method.dragnet_factor = settings.number(j, "springs/dragnet_factor");
  s.method.provot_factor = settings.number(j, "springs/provot_factor");
  s.gravity = settings.vec3(j, "springs/gravity");
  if (auto t = settings.find(j, "springs/tearing")) {
    s.tear_mode = springs::tear_mode_from_name(settings.text(*t, "springs/tearing/mode"))
                      .value_or(springs::TearMode::off);
    s.tearing.seed_threshold = settings.number(*t, "springs/tearing/seed_threshold");
    s.tearing.edge_threshold = settings.number(*t, "springs/tearing/edge_threshold");
    s.tearing.inner_threshold = settings.number(*t, "springs/tearing/inner_threshold");
  }
  // The fixed regions select initial nodes, which are the mesh's own nodes in order: the asset's key
  // is known before anything is built, and bodies with the same mesh and settings share one asset.
  const std::vector<Vec3>& rest = in.volume ? in.volume->positions : in.surface->positions;
  std::vector<Index> fixed;
  for (const Region& r : in.fixed) {
    for (Index n : select_nodes(rest, r)) fixed.push_back(n);
  }
  const std::uint64_t key = in.volume ? springs::SpringsAsset::key_of(*in.volume, mesh_def, fixed)
                                      : springs::SpringsAsset::key_of(*in.surface, mesh_def, fixed);
  Result<std::shared_ptr<const springs::SpringsAsset>> asset =
      AssetCache::global().get_or_build<springs::SpringsAsset>(key, [&] {
        return in.volume ? springs::SpringsAsset::build(*in.volume, mesh_def, fixed)
                         : springs::SpringsAsset::build(*in.surface, mesh_def, fixed);
      });
  if (!asset.ok()) body.at("mesh").fail(asset.message());
  if (springs::method_is_dynamic(s.method.method))
    check_time_step(body, in.time_step, (*asset)->mesh(), s.method);
  Result<std::unique_ptr<Body>> made = make_scene_body(in.name, std::move(*asset), s);
  if (!made.ok()) body.fail(made.message());
  return std::move(*made);
}

FamilyEntry springs_family() {
  return {
      .name = "springs",
      .summary =
          "mass-spring tissue with Dragnet, ChainMail, length correction and membrane tearing (Grimm 2005)",
      .keys = body_keys(springs_settings()),
      .why_fixed = {},
      .example_body = R"({"mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [6, 6]},
                              "fixed": ["xmin"], "springs": {"method": "dragnet_mass_spring",
                              "mass_damping": 5.0}})",
      .make = &make_springs_body,
      .settings = springs_settings()};
}

}  // namespace pliant::scene::detail
