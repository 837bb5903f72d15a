// The impact family (Milanović's dents) behind the surface contract and the ImpactTarget capability.
//
// Scene keys: "impact": {"resistance": R in [0, 1], "falloff_radius": m, "hardness": r,
// "min_force": N, "method": "bvh_grid" | "octree" | "brute_force", "grab_stiffness": N/m,
// "projectile_deceleration": m/s², "regions": [{"region": REGION, "resistance", "falloff_radius",
// "hardness", "min_force"}]}. "fixed" regions never move (resistance 1).

// GCC 12 at -O3 reports a false maybe-uninitialized (SphereRegion::radius) inside std::variant's move
// of a Region when the fixed regions are copied into the impact regions; set before the includes, since
// the warning is located in region.hpp.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "family_registry.hpp"
#include "setting_reader.hpp"

#include "pliant/core/asset_cache.hpp"
#include "pliant/core/bvh.hpp"
#include "pliant/core/grab_slots.hpp"
#include "pliant/models/impact/falloff.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/family_registry.hpp"
#include "pliant/scene/impact_scene_body.hpp"

#include <algorithm>

namespace pliant::scene::detail {
namespace {

class ImpactSceneBody final : public Body, public ImpactTarget {
 public:
  ImpactSceneBody(std::string name, impact::DentTarget target, ImpactBodyDef def)
      : name_(std::move(name)), target_(std::move(target)), def_(def) {}

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "impact"; }
  std::span<const Vec3> surface_positions() const override { return target_.surface().positions; }
  std::span<const Vec3> surface_rest_positions() const override { return target_.rest_positions(); }
  std::span<const Tri> surface_triangles() const override { return target_.surface().triangles; }

  GrabId grab(const SurfacePoint& p) override {
    const auto& tris = target_.surface().triangles;
    if (!on_surface(p, tris)) return {};
    const Tri& t = tris[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    const GrabId id = grabs_.acquire();
    Grab& g = grabs_[id];
    g.nodes.clear();
    g.weights.clear();
    g.start.clear();
    g.node = t[static_cast<int>(std::max_element(w, w + 3) - w)];
    const auto& x = target_.surface().positions;
    g.anchor = x[static_cast<std::size_t>(g.node)];
    g.target = g.anchor;
    // The nodes that follow: within φ of the held node, with weight f (the held node: 1).
    const impact::ImpactMaterial& m = target_.materials()[static_cast<std::size_t>(g.node)];
    for (std::size_t n = 0; n < x.size(); ++n) {
      const double f = impact::falloff((x[n] - g.anchor).norm(), m.falloff_radius, m.hardness) *
                       (1.0 - target_.materials()[n].resistance);
      if (static_cast<Index>(n) == g.node || f > 0.0) {
        g.nodes.push_back(static_cast<Index>(n));
        g.weights.push_back(static_cast<Index>(n) == g.node ? 1.0 : f);
        g.start.push_back(x[n]);
      }
    }
    g.moved.resize(g.nodes.size());
    return id;
  }

  bool holds(GrabId id) const override { return grabs_.holds(id); }
  void move_grab(GrabId id, const Vec3& target) override {
    if (Grab* g = grabs_.find(id)) g->target = target;
  }
  void release(GrabId id) override {
    if (!grabs_.release(id)) return;
    const Grab& g = grabs_[id];
    pending_.push(GrabReleased{id, g.node, target_.surface().positions[static_cast<std::size_t>(g.node)]});
  }
  Vec3 grab_reaction(GrabId id) const override {
    const Grab* g = grabs_.find(id);
    if (!g) return Vec3::Zero();
    const std::size_t n = static_cast<std::size_t>(g->node);
    return -def_.grab_stiffness * (target_.surface().positions[n] - target_.rest_positions()[n]);
  }
  Mat3 grab_compliance(GrabId id) const override {
    return grabs_.holds(id) ? Mat3(Mat3::Identity() / def_.grab_stiffness) : Mat3::Zero();
  }
  void apply_force(const SurfacePoint&, const Vec3&) override {}
  // A grab here pulls a permanent dent, so a collider holding nodes would dent the plate: the target
  // is a rigid surface and takes no contact response.
  bool takes_contact() const override { return false; }

  Vec3 impact(const ProjectileState& p, double dt) override {
    // The step's travel under constant acceleration: x(dt) - x(0) = v·dt + a·dt²/2.
    const Vec3 travel = p.velocity * dt + 0.5 * dt * dt * p.acceleration;
    if (!(travel.squaredNorm() > 0.0) || !p.position.allFinite() || !travel.allFinite()) return Vec3::Zero();
    // A point's reference ray, or any vertex of a mesh, meeting the surface within the step.
    bool hit = false;
    if (p.shape && !p.shape->triangles.empty()) {
      for (const Vec3& v : p.shape->positions) {
        if (target_.raycast(Ray{p.position + v, travel}, 1.0)) {
          hit = true;
          break;
        }
      }
    } else {
      hit = target_.raycast(Ray{p.position, travel}, 1.0).has_value();
    }
    if (!hit) return Vec3::Zero();
    impact::Projectile q;
    if (p.shape) q.shape = *p.shape;
    q.position = p.position;
    q.velocity = p.velocity;
    q.acceleration = p.acceleration;
    q.mass = p.mass;
    q.contact_deceleration = def_.projectile_deceleration;
    target_.launch(std::move(q));
    return -p.velocity;
  }

  void step(double dt, Profile& profile) override {
    Stopwatch clock;
    grabs_.for_each([&](Grab& g) {
      const Vec3 d = g.target - g.anchor;
      for (std::size_t k = 0; k < g.nodes.size(); ++k) g.moved[k] = g.start[k] + g.weights[k] * d;
      target_.move_nodes(g.nodes, g.moved);
    });
    target_.step(dt);
    events_.clear();
    events_.swap(pending_);
    for (const impact::ImpactEvent& e : target_.events()) events_.push(e);
    // The events are copied: a finished projectile is of no more use here, and keeping every one a
    // session launched grew memory by about 2.4 kB an impact (the soak, docs/soak.md).
    target_.drop_finished();
    profile.record("impact.step", clock.ms());
  }

  const EventLog& events() const override { return events_; }
  const impact::DentTarget& target() const { return target_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"resistance", "1"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    const auto& x = target_.surface().positions;
    if (index > 1 || out.size() != x.size()) return;
    for (std::size_t n = 0; n < x.size(); ++n)
      out[n] = index == 0 ? (x[n] - target_.rest_positions()[n]).norm() : target_.materials()[n].resistance;
  }
  std::uint64_t state_hash() const override { return target_.state_hash(); }

 private:
  struct Grab {
    Index node = -1;
    Vec3 anchor = Vec3::Zero(), target = Vec3::Zero();
    std::vector<Index> nodes;
    std::vector<double> weights;
    std::vector<Vec3> start, moved;
  };

  std::string name_;
  impact::DentTarget target_;
  ImpactBodyDef def_;
  GrabSlots<Grab> grabs_;
  EventLog events_, pending_;
};

// The family's settings, declared once (pliant/scene/setting_spec.hpp): Milanović's parameters of the
// target material, the query structure, and the scene body's grab and projectile constants.
const std::vector<SettingSpec>& impact_settings() {
  using T = SettingType;
  static const std::vector<SettingSpec> table = {
      {.path = "impact", .type = T::object, .otherwise = "all defaults", .help = "the settings below"},
      {.path = "impact/resistance",
       .fallback = "0",
       .min = 0,
       .max = 1,
       .help = "R: a node moves (1 - R) f of the projectile's travel",
       .view_min = 0,
       .view_max = 1},
      {.path = "impact/falloff_radius",
       .unit = "m",
       .fallback = "0.05",
       .min = 0,
       .min_open = true,
       .help = "φ: nodes farther than this from every hit do not move",
       .view_min = 1e-4,
       .view_max = 1,
       .view_log = true},
      {.path = "impact/hardness",
       .fallback = "2",
       .min = 0,
       .min_open = true,
       .help = "r in f(x) = (1 - (x/φ)²)^r",
       .view_min = 0.1,
       .view_max = 20,
       .view_log = true},
      {.path = "impact/min_force",
       .unit = "N",
       .fallback = "0",
       .min = 0,
       .help = "a contact force (mass × deceleration) below this dents nothing",
       .view_min = 0,
       .view_max = 1e4},
      {.path = "impact/method",
       .type = T::choice,
       .fallback = "\"bvh_grid\"",
       .choices = {"bvh_grid", "octree", "brute_force"},
       .help = "query structure; all give the same dents, at different speeds"},
      {.path = "impact/grab_stiffness",
       .unit = "N/m",
       .fallback = "1000",
       .min = 0,
       .min_open = true,
       .help = "a grab's reaction per metre from rest",
       .view_min = 1,
       .view_max = 1e6,
       .view_log = true},
      {.path = "impact/projectile_deceleration",
       .unit = "m/s²",
       .fallback = "50",
       .min = 0,
       .min_open = true,
       .help = "how fast an absorbed projectile stops while denting",
       .view_min = 0.1,
       .view_max = 1e4,
       .view_log = true},
      {.path = "impact/regions",
       .type = T::array,
       .help = "per-region material: {\"region\": REGION, \"resistance\", \"falloff_radius\", \"hardness\", "
               "\"min_force\"}, the body's values where absent (later regions win)"},
  };
  return table;
}

// The material keys, read from the "impact" object (defaults: the table's) or from a region entry
// (defaults: the body's material, `m`).
constexpr const char* kMaterialKeys[] = {"impact/resistance", "impact/falloff_radius", "impact/hardness",
                                         "impact/min_force"};

impact::ImpactMaterial read_material(const SettingsReader& settings, const JsonReader& j,
                                     impact::ImpactMaterial m) {
  double* fields[] = {&m.resistance, &m.falloff_radius, &m.hardness, &m.min_force};
  for (std::size_t i = 0; i < std::size(kMaterialKeys); ++i) {
    if (auto v = settings.number_if(j, kMaterialKeys[i])) *fields[i] = *v;
  }
  return m;
}

std::unique_ptr<Body> make_impact_body(const JsonReader& body, BodyInputs in) {
  if (!in.surface) body.at("mesh").fail("the impact family needs a surface mesh (triangles), not a volume");
  const SettingsReader settings(impact_settings(), in.time_step);
  ImpactBodyDef def;
  std::vector<impact::ImpactRegion> regions;
  const std::vector<Vec3>& nodes = in.surface->positions;
  const JsonReader j = settings.object(body, "impact");
  impact::ImpactMaterial material;
  material.resistance = settings.number(j, "impact/resistance");
  material.falloff_radius = settings.number(j, "impact/falloff_radius");
  material.hardness = settings.number(j, "impact/hardness");
  material.min_force = settings.number(j, "impact/min_force");
  const std::string name = settings.text(j, "impact/method");
  const impact::ImpactMethod method = name == "octree"        ? impact::ImpactMethod::octree
                                      : name == "brute_force" ? impact::ImpactMethod::brute_force
                                                              : impact::ImpactMethod::bvh_grid;
  def.grab_stiffness = settings.number(j, "impact/grab_stiffness");
  def.projectile_deceleration = settings.number(j, "impact/projectile_deceleration");
  if (auto rs = settings.find(j, "impact/regions")) {
    std::vector<std::string_view> keys = {"region"};
    for (const char* k : kMaterialKeys) keys.push_back(setting_key(settings.spec(k)));
    for (const JsonReader& r : rs->elements()) {
      r.expect_object(keys);
      const JsonReader text = r.at("region");
      Result<Region> region = parse_region(text.string());
      if (!region.ok()) text.fail(region.message());
      if (Status s = check_region(*region, nodes.size()); !s.ok()) text.fail(s.message());
      regions.push_back({*region, read_material(settings, r, material)});
    }
  }
  // Supports never move: resistance 1.
  for (const Region& r : in.fixed) {
    impact::ImpactMaterial rigid = material;
    rigid.resistance = 1.0;
    regions.push_back({r, rigid});
  }
  if (in.max_threads > 0) def.threading.threads = in.max_threads;
  // Bodies of this scene, or of another load while this one lives, with the same surface, materials
  // and method share one asset: the structures are built once, and each body copies them on its first dent.
  Result<std::shared_ptr<const impact::DentAsset>> asset =
      AssetCache::global().get_or_build<impact::DentAsset>(
          impact::DentAsset::key_of(*in.surface, material, regions, method),
          [&] { return impact::DentAsset::build(*in.surface, material, regions, method); });
  if (!asset.ok()) body.at("mesh").fail(asset.message());
  Result<std::unique_ptr<Body>> made = make_scene_body(in.name, std::move(asset).value(), def);
  if (!made.ok()) body.at("mesh").fail(made.message());
  return std::move(made).value();
}

}  // namespace

FamilyEntry impact_family() {
  return {
      .name = "impact",
      .summary = "rigid surfaces that projectiles dent permanently in real time (Milanovic's falloff method)",
      .keys = body_keys(impact_settings()),
      .why_fixed = {},
      .example_body = R"({"mesh": {"shape": "rect", "size": [0.1, 0.1], "cells": [6, 6]},
                              "fixed": ["xmin"], "impact": {"resistance": 0.2, "falloff_radius": 0.03,
                              "hardness": 2.0}})",
      .make = &make_impact_body,
      .settings = impact_settings()};
}

}  // namespace pliant::scene::detail

namespace pliant::scene {

Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const impact::DentAsset> asset,
                                              ImpactBodyDef def) {
  Result<impact::DentTarget> target = impact::DentTarget::create(std::move(asset), def.threading);
  if (!target.ok()) return target.error();
  return std::unique_ptr<Body>(
      std::make_unique<detail::ImpactSceneBody>(std::move(name), std::move(*target), def));
}

const impact::DentTarget* impact_target(const Body& body) {
  const auto* b = dynamic_cast<const detail::ImpactSceneBody*>(&body);
  return b ? &b->target() : nullptr;
}

}  // namespace pliant::scene
