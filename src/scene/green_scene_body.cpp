// The Green's-function family behind the surface contract.
//
// Scene keys: "material" ({"preset": NAME} | {"E": Pa, "nu": 1} | {"lambda": Pa, "mu": Pa}) and
// "green": {"rotation_correction": bool, "cache": "file.green", "threads": N, "max_memory_gb": GiB,
// "gravity": [m/s²], "pressure": [{"region": REGION, "value": Pa}]}. With "cache", a matching asset file is
// loaded (memory-mapped) instead of precomputing; a stale or damaged one is rebuilt and rewritten
// atomically. A pressure acts on the surface triangles whose three corners the region selects.
#include "material_json.hpp"
#include "setting_reader.hpp"
#include "surface_region.hpp"

#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/family_registry.hpp"
#include "pliant/scene/green_scene_body.hpp"

#include "pliant/core/asset_cache.hpp"
#include "pliant/core/grab_slots.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/core/region.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_body.hpp"
#include "pliant/models/green/green_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pliant::scene::detail {
namespace {

class GreenSceneBody final : public Body, public DescribesPhysics {
 public:
  GreenSceneBody(std::string name, std::shared_ptr<const green::GreenAsset> asset, green::GreenDef def)
      : name_(std::move(name)), body_(asset, def), asset_(std::move(asset)) {
    body_.update();
  }

  // Applies the loads (before the first step; the start shape includes them). False when the body
  // refuses a pressure load.
  bool load(const GreenLoads& loads) {
    body_.set_body_force(loads.body_force);
    body_force_ = loads.body_force;
    for (const GreenLoads::Pressure& p : loads.pressures) {
      Result<std::size_t> index = body_.add_pressure_load(p.triangles);
      if (!index.ok()) return false;
      body_.set_pressure(*index, p.value);
    }
    body_.update();
    return true;
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "green"; }
  // The asset's material; its body force is ρ g (the reader's), so g is that over the density.
  BodyPhysics physics() const override {
    const materials::Material& m = asset_->material;
    return {{m}, m.density > 0.0 ? Vec3(body_force_ / m.density) : Vec3::Zero()};
  }
  std::span<const Vec3> surface_positions() const override { return body_.state().positions; }
  // Constrained surface nodes but a control element's (moved by its rotation fit, not fixed).
  std::vector<Index> fixed_surface_nodes() const override {
    std::vector<Index> controlled;
    for (const green::ControlElement& e : asset_->control_elements())
      controlled.insert(controlled.end(), e.volume_nodes.begin(), e.volume_nodes.end());
    const std::vector<Index> moved = surface_nodes_among(asset_->volume_node(), controlled);
    std::vector<Index> out;
    for (std::size_t s = 0; s < asset_->constrained().size(); ++s)
      if (asset_->constrained()[s] && !std::binary_search(moved.begin(), moved.end(), static_cast<Index>(s)))
        out.push_back(static_cast<Index>(s));
    return out;
  }
  const std::shared_ptr<const green::GreenAsset>& asset() const { return asset_; }
  std::span<const Vec3> surface_rest_positions() const override { return asset_->surface().positions; }
  std::span<const Tri> surface_triangles() const override { return asset_->surface().triangles; }

  GrabId grab(const SurfacePoint& p) override { return grab_patch(p, kDefaultGrabRadius); }

  // A soft grab: the handle is the picked point; the patch (surface_patch) holds the free nodes
  // within the radius of it, each where it is now, and translates with the handle.
  GrabId grab_patch(const SurfacePoint& p, double radius) override {
    if (!on_surface(p, asset_->surface().triangles) || std::isnan(radius)) return {};
    // The patch grows from a node: the triangle corner with the largest barycentric weight that is
    // free to move.
    const Tri& t = asset_->surface().triangles[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    int order[3] = {0, 1, 2};
    std::sort(order, order + 3, [&](int a, int b) { return w[a] > w[b]; });
    Index node = -1;
    for (int c : order) {
      if (!asset_->constrained()[static_cast<std::size_t>(t[c])] && !held(t[c])) {
        node = t[c];
        break;
      }
    }
    if (node < 0) return {};
    const auto& x = body_.state().positions;
    const Vec3 point = point_on(x, asset_->surface().triangles, p);
    if (radius < 0.0) radius = default_radius(node);
    std::vector<Index> nodes = green::surface_patch(*asset_, x, node, point, radius);
    nodes.erase(std::remove_if(nodes.begin() + 1, nodes.end(), [&](Index n) { return held(n); }),
                nodes.end());
    const GrabId id = slots_.acquire();
    Slot& s = slots_[id];
    s.grab = green::hold_in_place(nodes, x);
    s.nodes = std::move(nodes);
    s.handle_offset = x[static_cast<std::size_t>(node)] - point;
    s.target = point;
    rebuild_grabs();
    return id;
  }

  bool soft_grabs() const override { return true; }

  std::span<const Index> grab_nodes(GrabId id) const override {
    const Slot* s = slots_.find(id);
    return s ? std::span<const Index>(s->nodes) : std::span<const Index>();
  }

  void move_grab(GrabId id, const Vec3& target) override {
    Slot* s = slots_.find(id);
    if (!s || !target.allFinite()) return;
    s->target = target;
    s->grab.target = target + s->handle_offset;
    body_.move_grab(s->index, s->grab.target);
  }

  void release(GrabId id) override {
    if (!slots_.release(id)) return;
    const Slot& s = slots_[id];
    rebuild_grabs();
    incoming_.push(GrabReleased{id, s.grab.node, s.target});
  }

  Vec3 grab_reaction(GrabId id) const override {
    const Slot* s = slots_.find(id);
    if (!s) return Vec3::Zero();
    // grab_forces is what the grab applies to the body (summed over its patch); the tool feels the
    // opposite.
    return -body_.state().grab_forces[s->index];
  }

  Mat3 grab_compliance(GrabId id) const override {
    const Slot* s = slots_.find(id);
    return s ? body_.grab_compliance(s->index) : Mat3::Zero();
  }
  Mat3 grab_set_stiffness(std::span<const GrabId> ids) const override {
    std::vector<std::size_t> grabs;
    grabs.reserve(ids.size());
    for (GrabId id : ids)
      if (const Slot* s = slots_.find(id)) grabs.push_back(s->index);
    // The reaction is minus the body's grab force: it pushes back against the common move.
    return -body_.grab_set_stiffness(grabs);
  }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p, asset_->surface().triangles)) return;
    const Tri& t = asset_->surface().triangles[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    for (int c = 0; c < 3; ++c) {
      if (w[c] == 0.0 || asset_->constrained()[static_cast<std::size_t>(t[c])]) continue;
      pending_.push_back({t[c], w[c] * force});
    }
  }

  void step(double /*dt*/, Profile& profile) override {
    // Quasi-static: every step shows the exact linear equilibrium for the current handles
    // (Nikitina et al. 2003).
    // Events raised by interactions before this step are reported after it.
    events_.swap(incoming_);
    incoming_.clear();
    body_.clear_forces();
    std::sort(pending_.begin(), pending_.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < pending_.size();) {
      Vec3 f = Vec3::Zero();
      const Index n = pending_[i].first;
      for (; i < pending_.size() && pending_[i].first == n; ++i) f += pending_[i].second;
      body_.set_force(n, f);
    }
    pending_.clear();
    body_.update();
    for (const auto& s : body_.state().profile.stages) profile.record(s.name, s.ms);
  }

  const EventLog& events() const override { return events_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}};
    return kFields;
  }

  void fill_field(std::size_t index, std::span<double> out) const override {
    const auto& x = body_.state().positions;
    const auto& x0 = asset_->surface().positions;
    if (index != 0 || out.size() != x.size()) return;
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = (x[i] - x0[i]).norm();
  }

  std::uint64_t state_hash() const override {
    Hasher h;
    h.add(body_.state().positions);
    // Without grabs the force list is empty, and its data() may be null, which hash_bytes must not
    // be given (memcpy of a null pointer, even for 0 bytes): hash its length, then any forces.
    const auto& forces = body_.state().grab_forces;
    h.add_value(forces.size());
    if (!forces.empty()) h.add(forces);
    return h.value();
  }

 private:
  Vec3 body_force_ = Vec3::Zero();  // the loads' body-force density (unit: N/m³)

  struct Slot {
    green::Grab grab;                   // handle node, its target, the patch with offsets
    std::vector<Index> nodes;           // grab.node, then the patch nodes
    Vec3 handle_offset = Vec3::Zero();  // handle node minus the picked point, at grab time (unit: m)
    Vec3 target = Vec3::Zero();         // the picked point's target (unit: m)
    std::size_t index = 0;              // position in the body's grab list
  };

  bool held(Index node) const {
    bool found = false;
    slots_.for_each([&](const Slot& s) {
      found = found || std::find(s.nodes.begin(), s.nodes.end(), node) != s.nodes.end();
    });
    return found;
  }
  // Twice the mean surface edge length at the node: a patch of one or two rings of neighbours, wide
  // enough that the grab shows no cusp, small enough to stay local.
  double default_radius(Index node) const { return 2.0 * green::mean_surface_edge_length(*asset_, node); }
  void rebuild_grabs() {
    std::vector<green::Grab> grabs;
    slots_.for_each([&](Slot& s) {
      s.index = grabs.size();
      grabs.push_back(s.grab);
    });
    // Nodes were checked above (free, distinct, in range), so the grab set is valid.
    (void)body_.set_grabs(grabs);
  }

  std::string name_;
  green::GreenBody body_;
  std::shared_ptr<const green::GreenAsset> asset_;
  GrabSlots<Slot> slots_;
  std::vector<std::pair<Index, Vec3>> pending_;
  EventLog events_;    // published at the last step
  EventLog incoming_;  // collected since (releases between steps)
};

// The scene checked the pressure triangles against the same boundary extraction the asset holds.
std::unique_ptr<Body> make_loaded(std::string name, std::shared_ptr<const green::GreenAsset> asset,
                                  green::GreenDef def, const GreenLoads& loads) {
  auto body = std::make_unique<GreenSceneBody>(std::move(name), std::move(asset), def);
  if (!body->load(loads)) return nullptr;
  return body;
}

}  // namespace

// The family's settings, declared once (pliant/scene/setting_spec.hpp).
const std::vector<SettingSpec>& green_settings() {
  using T = SettingType;
  static const std::vector<SettingSpec> table = {
      {.path = "material",
       .type = T::object,
       .required = true,
       .help = "elastic constants: a preset, E and nu, or the Lamé constants (below)",
       .in_viewer = false},
      {.path = "green",
       .type = T::object,
       .otherwise = "all defaults",
       .help = "runtime and precomputation settings, the keys below"},
      {.path = "green/rotation_correction",
       .type = T::boolean,
       .fallback = "false",
       .help =
           "fit the average rotation of the grabbed nodes and solve in the rotated frame (Nikitina et al. "
           "2003, appendix); it rotates the fixed nodes too, so use it for bodies held by grabs"},
      {.path = "green/cache",
       .type = T::string,
       .otherwise = "none",
       .help = "a .green file, relative to the scene's directory: loaded when it matches the mesh, material "
               "and fixed nodes; otherwise the asset is precomputed and written there atomically",
       .in_viewer = false},
      {.path = "green/threads",
       .type = T::integer,
       .fallback = "0",
       .min = 0,
       .max = 1024,
       .help = "precomputation threads (0: the library's policy: OMP_NUM_THREADS, else the cores available)",
       .in_viewer = false},
      {.path = "green/max_memory_gb",
       .unit = "GiB",
       .fallback = "8",
       .min = 0,
       .min_open = true,
       .help = "refuse a precomputation whose estimated peak memory is larger (as `pliant precompute "
               "--max-memory`)",
       .in_viewer = false},
      {.path = "green/gravity",
       .type = T::vec3,
       .unit = "m/s²",
       .otherwise = "none",
       .help = "gravity on the body (density × g as a uniform body force) from the asset's stored body-force "
               "responses: the start shape already sags"},
      {.path = "green/pressure",
       .type = T::array,
       .help =
           "[{\"region\": REGION, \"value\": Pa}]: a constant pressure on the surface triangles whose three "
           "corners the region selects (positive pushes in)"},
  };
  return table;
}

std::unique_ptr<Body> make_green_body(const JsonReader& body, BodyInputs in) {
  const SettingsReader reader(green_settings(), in.time_step);
  if (!in.volume) body.at("mesh").fail("the green family needs a volume (tetrahedral) mesh");
  const TetMesh& mesh = *in.volume;
  const materials::Material material = read_material(*reader.find(body, "material"));
  green::GreenDef def;
  green::GreenBuildSettings settings;
  GreenLoads loads;
  const BoundarySurface boundary = extract_boundary(mesh);
  const JsonReader g = reader.object(body, "green");
  if (auto v = reader.vec3_if(g, "green/gravity")) loads.body_force = material.density * *v;
  if (auto pressures = reader.find(g, "green/pressure")) {
    for (const JsonReader& p : pressures->elements(1)) {
      p.expect_object({"region", "value"});
      const JsonReader where = p.at("region");
      const Region region = take(parse_region(where.string()), where);
      GreenLoads::Pressure pressure;
      pressure.triangles = boundary_triangles_in(mesh, boundary, region);
      if (pressure.triangles.empty())
        where.fail("the region selects no surface triangle (all three corners must be in it)");
      pressure.value = p.at("value").number();
      loads.pressures.push_back(std::move(pressure));
    }
  }
  def.rotation_correction = reader.boolean(g, "green/rotation_correction");
  const std::string cache = reader.text_if(g, "green/cache").value_or("");
  if (g.has("cache") && cache.empty()) g.at("cache").fail_expected("a file name");
  settings.threads = static_cast<int>(reader.integer(g, "green/threads"));
  if (in.max_threads > 0)
    settings.threads = std::min(settings.threads > 0 ? settings.threads : solver_threads(), in.max_threads);
  // The same default as `pliant precompute --max-memory`.
  const double max_memory_gb = reader.number(g, "green/max_memory_gb");
  std::vector<Index> fixed;
  for (const Region& r : in.fixed) {
    const auto nodes = select_nodes(mesh.positions, r);
    fixed.insert(fixed.end(), nodes.begin(), nodes.end());
  }
  std::sort(fixed.begin(), fixed.end());
  fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
  if (fixed.empty())
    body.at("fixed").fail("the fixed regions select no node: a Green body must be held somewhere");
  {
    // A Green body is linear and static: it needs three fixed nodes not on one line (else it turns
    // freely about that line and K stays singular). Said here, at the region, with what it selected.
    const Vec3 p0 = mesh.positions[static_cast<std::size_t>(fixed[0])];
    Vec3 p1 = p0;
    for (Index n : fixed)
      if ((mesh.positions[static_cast<std::size_t>(n)] - p0).squaredNorm() > (p1 - p0).squaredNorm())
        p1 = mesh.positions[static_cast<std::size_t>(n)];
    double spread = 0.0;  // the largest distance of a fixed node from the line p0 p1 (unit: m)
    const Vec3 axis = (p1 - p0).norm() > 0.0 ? Vec3((p1 - p0).normalized()) : Vec3::Zero();
    for (Index n : fixed)
      spread = std::max(spread, (mesh.positions[static_cast<std::size_t>(n)] - p0).cross(axis).norm());
    if (spread <= 1e-9 * std::max((p1 - p0).norm(), 1e-300))
      body.at("fixed").fail(fmt::format(
          "the fixed regions select {} node{}{}: a Green body needs at least 3 fixed nodes not on one "
          "line (on a curved body \"zmin\" selects its lowest point only: a band such as \"zmin+5%\" "
          "holds a patch)",
          fixed.size(), fixed.size() == 1 ? "" : "s", fixed.size() == 1 ? "" : ", all on one line"));
  }
  const std::size_t surface_nodes = boundary.volume_node.size();
  if (fixed.size() == mesh.node_count())
    body.at("fixed").fail("the fixed regions hold all " + std::to_string(fixed.size()) +
                          " nodes: nothing is left to deform");

  // One asset for every body built from the same inputs while one of them lives (pliant::AssetCache);
  // else the cache file when it matches them; else a fresh build, written to the cache file.
  const std::filesystem::path cache_path = cache.empty() ? std::filesystem::path() : in.directory / cache;
  bool built_here = false;
  Result<std::shared_ptr<const green::GreenAsset>> got = AssetCache::global().get_or_build<green::GreenAsset>(
      green::asset_key(mesh, material, fixed, {}, settings),
      [&]() -> Result<std::shared_ptr<const green::GreenAsset>> {
        if (!cache_path.empty() && std::filesystem::exists(cache_path)) {
          Result<green::GreenAsset> loaded = green::load_green_file(cache_path);
          if (loaded.ok() &&
              green::check_green_matches(*loaded, green::mesh_hash(mesh), material,
                                         green::constraint_hash(fixed, {}), cache_path.string())
                  .ok())
            return std::make_shared<const green::GreenAsset>(std::move(*loaded));
          // Stale or damaged: rebuilt below and rewritten, never used.
        }
        // A scene must not be able to ask for a precomputation that exhausts memory (a typo in "cells").
        const int threads = settings.threads > 0 ? settings.threads : solver_threads();
        const double need = static_cast<double>(
            green::estimate_build_bytes(mesh, surface_nodes, 0, threads, settings.block_columns));
        const double gib = 1024.0 * 1024.0 * 1024.0;
        if (need > max_memory_gb * gib) {
          char buf[200];
          std::snprintf(
              buf, sizeof buf,
              "green: the precomputation needs about %.3g GiB (%zu nodes, %zu surface nodes), more than "
              "\"max_memory_gb\" %.3g GiB: use a coarser mesh, fewer threads or a larger limit",
              need / gib, mesh.node_count(), surface_nodes, max_memory_gb);
          body.fail(buf);
        }
        Result<green::GreenAsset> built = green::build_green_asset(mesh, material, fixed, {}, settings);
        if (!built.ok()) return Error{built.message()};
        built_here = true;
        return std::make_shared<const green::GreenAsset>(std::move(*built));
      });
  if (!got.ok()) body.fail(got.message());
  std::shared_ptr<const green::GreenAsset> asset = std::move(*got);
  // An asset another body built (or read) is written too when the named file is missing.
  if (!cache_path.empty() && in.write_files && (built_here || !std::filesystem::exists(cache_path))) {
    const Status written = io::write_file_atomically(
        cache_path, [&](std::ostream& out) { return green::write_green(*asset, out); });
    if (!written.ok()) body.at("green").at("cache").fail(written.message());
  }
  std::unique_ptr<Body> made = make_loaded(in.name, std::move(asset), def, loads);
  if (!made)
    body.at("green").at("pressure").fail("a pressure region covers only degenerate (zero-area) triangles");
  return made;
}

FamilyEntry green_family() {
  return {
      .name = "green",
      .summary =
          "linear FEM with precomputed Green's functions and exact haptic compliance (Nikitina et al. 2003)",
      .keys = body_keys(green_settings()),
      .why_fixed = "a Green body must be held somewhere",
      .example_body = R"({"mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [10, 2, 2]},
                              "fixed": ["xmin"], "material": {"preset": "rubber"}})",
      .make = &make_green_body,
      .settings = green_settings()};
}

}  // namespace pliant::scene::detail

namespace pliant::scene {

Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const green::GreenAsset> asset,
                                              green::GreenDef def, const GreenLoads& loads) {
  if (!asset) return Error{"green: make_scene_body for \"" + name + "\" was given no asset (a null pointer)"};
  std::unique_ptr<Body> made = detail::make_loaded(std::move(name), std::move(asset), def, loads);
  if (!made)
    return Error{
        "green: a pressure load names no triangle, a triangle outside the asset's surface, or only "
        "zero-area triangles"};
  return made;
}

std::shared_ptr<const green::GreenAsset> green_asset(const Body& body) {
  const auto* b = dynamic_cast<const detail::GreenSceneBody*>(&body);
  return b ? b->asset() : nullptr;
}

}  // namespace pliant::scene
