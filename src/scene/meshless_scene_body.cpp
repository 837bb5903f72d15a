// The meshless family behind the surface contract: scene JSON read into a meshless::MeshlessBody and
// forwarding to it.
//
// Scene keys: "material" (the shared reader: preset, E/nu or Lamé, density) and "meshless":
// {"spacing": m, "sampling": "lattice" | "poisson" (Bridson 2007), "jitter": [0, 1] (lattice only),
// "margin": m (Poisson-disk points keep signed distance <= -margin), "seed": integer, "support":
// h/spacing, "material_regions": [{"mesh": MESH (a closed surface or a volume mesh, as a body's "mesh")
// or "region": REGION (a region string, as in "fixed"),
// "material": {...}}] (phyxels inside it; later entries win), "volume_stiffness": Pa,
// "strain": "green" | "linear", "integrator": a dynamics scheme name (default "symplectic_euler"),
// "tangent": "current" | "rest" (the implicit schemes' stiffness, default "current"), "dt": s (default:
// dt_safety x the stable step, shortened under stretch), "dt_safety": (0, 1] (default 1), "gravity": [m/s²],
// "mass_damping": 1/s, "floor": z in m (a frictionless inelastic floor), "plasticity": {"yield": 1, "creep":
// 1/s, "max": 1} (Müller et al. 2004)}. The body's "mesh" is the surface sampled and driven (a volume mesh
// gives its boundary); "fixed" regions select phyxels at rest.
#include "material_json.hpp"
#include "mesh_reader.hpp"
#include "setting_reader.hpp"

#include "pliant/core/asset_cache.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/meshless/meshless_body.hpp"
#include "pliant/models/meshless/step_warning.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/family_registry.hpp"
#include "pliant/scene/meshless_scene_body.hpp"
#include "pliant/scene/phyxel_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace pliant::scene::detail {
namespace {

// A render mesh moved by the phyxels with the same MLS fit as the body's own surface.
class PhyxelFit final : public SurfaceFit {
 public:
  PhyxelFit(meshless::DrivenSurface fit, const meshless::MeshlessBody& body)
      : fit_(std::move(fit)), body_(body), normals_(fit_.vertex_count()) {}
  void positions(std::span<Vec3> out) const override { fit_.update(body_.phyxels().position, out, normals_); }

 private:
  meshless::DrivenSurface fit_;
  const meshless::MeshlessBody& body_;
  mutable std::vector<Vec3> normals_;  // update's second output, not used
};

class MeshlessSceneBody final : public Body,
                                public Cuttable,
                                public InteriorOutput,
                                public FitsSurfaces,
                                public DescribesPhysics,
                                public ReportsEnergy {
 public:
  MeshlessSceneBody(std::string name, meshless::MeshlessBody body)
      : name_(std::move(name)), body_(std::move(body)) {}

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "meshless"; }
  BodyPhysics physics() const override { return {body_.def().mls.materials, body_.def().gravity}; }
  BodyEnergy energy() const override {
    const meshless::MlsBody& p = body_.phyxels();
    double kinetic = 0.0;
    for (std::size_t i = 0; i < p.mass.size(); ++i)
      if (p.inv_mass[i] > 0.0) kinetic += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
    return {.kinetic = kinetic,
            .elastic = body_.elastic_energy(),
            .gravity = gravity_potential(p.mass, p.position, body_.def().gravity)};
  }
  std::span<const Vec3> surface_positions() const override { return body_.surface_positions(); }
  std::span<const Vec3> surface_rest_positions() const override { return body_.surface().rest_positions(); }
  std::span<const Tri> surface_triangles() const override { return body_.surface().triangles(); }
  std::uint64_t surface_topology_version() const override { return body_.surface_topology_version(); }
  std::vector<Index> fixed_surface_nodes() const override {
    std::vector<std::uint8_t> fixed(body_.phyxels().position.size(), 0);
    for (Index j : body_.def().fixed_phyxels)
      if (j >= 0 && static_cast<std::size_t>(j) < fixed.size()) fixed[static_cast<std::size_t>(j)] = 1;
    std::vector<Index> out;
    for (Index v = 0; v < static_cast<Index>(body_.surface_positions().size()); ++v) {
      const auto bound = body_.surface().phyxels(v);
      if (!bound.empty() && std::all_of(bound.begin(), bound.end(),
                                        [&](Index j) { return fixed[static_cast<std::size_t>(j)] != 0; }))
        out.push_back(v);
    }
    return out;
  }

  // Holds the triangle corner with the largest barycentric weight.
  GrabId grab(const SurfacePoint& p) override {
    if (!on_surface(p, surface_triangles())) return {};
    const Tri& t = surface_triangles()[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    return body_.grab(t[static_cast<std::size_t>(std::max_element(w, w + 3) - w)]);
  }
  std::span<const Index> grab_nodes(GrabId id) const override { return body_.grab_vertices(id); }
  void move_grab(GrabId id, const Vec3& target) override { body_.move_grab(id, target); }
  void release(GrabId id) override { body_.release(id); }
  Vec3 grab_reaction(GrabId id) const override { return body_.grab_reaction(id); }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p, surface_triangles()) || !force.allFinite()) return;
    const Tri& t = surface_triangles()[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    for (int c = 0; c < 3; ++c) body_.add_surface_force(t[static_cast<std::size_t>(c)], w[c] * force);
  }

  void step(double dt, Profile& profile) override {
    body_.step(dt, profile);
    events_.clear();
    for (const GrabReleased& r : body_.released_grabs()) events_.push(r);
    for (const meshless::CutEvent& e : body_.cut_events()) events_.push(e);
    if (const auto warning = meshless::step_warning(body_)) events_.push(*warning);
  }
  const EventLog& events() const override { return events_; }

  bool cut(const BladeSweep& b) override { return body_.cut({b.a0, b.b0, b.a1, b.b1}); }

  // Render meshes are fitted to the phyxels as they are now, where their rest positions are.
  Result<std::unique_ptr<SurfaceFit>> fit_surface(const TriMesh& rest) const override {
    Result<meshless::DrivenSurface> fit =
        meshless::DrivenSurface::bind(body_.phyxels(), rest, body_.def().binding);
    if (!fit.ok()) return Error{"render mesh: " + fit.message()};
    return std::unique_ptr<SurfaceFit>(std::make_unique<PhyxelFit>(std::move(fit).value(), body_));
  }

  std::string_view interior_name() const override { return "phyxels"; }
  Status write_interior_vtu(const std::filesystem::path& path) const override {
    return write_phyxels_vtu(path, body_.phyxels(), body_.phyxels().position);
  }
  std::span<const Vec3> interior_points() const override { return body_.phyxels().position; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"volume_change", "1"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    const auto x = body_.surface_positions();
    const std::span<const Vec3> x0 = body_.surface().rest_positions();
    if (index > 1 || out.size() != x.size()) return;
    if (index == 0) {
      for (std::size_t i = 0; i < x.size(); ++i) out[i] = (x[i] - x0[i]).norm();
    } else {
      body_.volume_change(out);
    }
  }
  std::uint64_t state_hash() const override { return body_.state_hash(); }
  const meshless::MeshlessBody& body() const { return body_; }

 private:
  std::string name_;
  meshless::MeshlessBody body_;
  EventLog events_;
};

// The integrators a meshless body takes: every pliant::dynamics scheme.
constexpr dynamics::Scheme kSchemes[] = {dynamics::Scheme::explicit_euler,
                                         dynamics::Scheme::symplectic_euler,
                                         dynamics::Scheme::midpoint,
                                         dynamics::Scheme::rk2,
                                         dynamics::Scheme::rk4,
                                         dynamics::Scheme::central_difference,
                                         dynamics::Scheme::quasi_static_euler,
                                         dynamics::Scheme::backward_euler,
                                         dynamics::Scheme::newmark,
                                         dynamics::Scheme::houbolt};

dynamics::Scheme scheme_named(std::string_view name) {
  for (dynamics::Scheme s : kSchemes) {
    if (name == dynamics::scheme_name(s)) return s;
  }
  return dynamics::Scheme::symplectic_euler;  // unreachable: the name was checked against the table
}

// A material region's "mesh": read as a body's mesh (relative to the scene file), a volume giving its
// boundary, and checked to be a closed surface.
std::shared_ptr<const meshless::SignedDistance> read_region_surface(const JsonReader& m,
                                                                    const BodyInputs& body) {
  BodyInputs region;
  read_mesh(m, body.directory, region, body.max_mesh_elements);
  const TriMesh surface = region.volume ? extract_boundary(*region.volume).mesh : *region.surface;
  Result<meshless::SignedDistance> sd = meshless::SignedDistance::build(surface);
  if (!sd.ok()) {
    if (auto f = m.find("file")) f->fail(fmt::format("\"{}\": {}", f->string(), sd.message()));
    m.fail(sd.message());
  }
  return std::make_shared<const meshless::SignedDistance>(std::move(sd).value());
}

// Most substeps one world step may take.
constexpr double kMaxSubsteps = 100000;

}  // namespace

// The family's settings, declared once (pliant/scene/setting_spec.hpp).
const std::vector<SettingSpec>& meshless_settings() {
  using T = SettingType;
  static const std::vector<SettingSpec> table = [] {
    std::vector<std::string_view> schemes;
    for (dynamics::Scheme s : kSchemes) schemes.push_back(dynamics::scheme_name(s));
    return std::vector<SettingSpec>{
        {.path = "material",
         .type = T::object,
         .required = true,
         .help = "elastic constants and density, as for green",
         .in_viewer = false},
        {.path = "meshless", .type = T::object, .otherwise = "all defaults", .help = "the settings below"},
        {.path = "meshless/spacing",
         .unit = "m",
         .otherwise = "a tenth of the smallest extent",
         .min = 0,
         .min_open = true,
         .help = "phyxel lattice spacing (finer is slower); each phyxel weighs ρ spacing³; at most 4,000,000 "
                 "lattice points over the surface's bounding box",
         .view_min = 1e-3,
         .view_max = 0.1,
         .view_log = true},
        {.path = "meshless/support",
         .fallback = "2.2",
         .min = 1,
         .max = 10,
         .min_open = true,
         .help = "MLS support radius h as a multiple of the spacing",
         .view_min = 1.5,
         .view_max = 4},
        {.path = "meshless/sampling",
         .type = T::choice,
         .fallback = "\"lattice\"",
         .choices = {"lattice", "poisson"},
         .help = "lattice: cell centres at the spacing; poisson: Poisson-disk points (Bridson 2007) at least "
                 "0.84 spacing apart, about as many"},
        {.path = "meshless/jitter",
         .fallback = "0",
         .min = 0,
         .max = 1,
         .help = "lattice points moved by up to ±jitter spacing/2 per axis (lattice only)",
         .shown_if = "sampling=lattice"},
        {.path = "meshless/margin",
         .unit = "m",
         .fallback = "0",
         .min = 0,
         .help = "Poisson-disk points keep at least this distance inside the surface (poisson only)",
         .view_min = 0,
         .view_max = 0.01,
         .shown_if = "sampling=poisson"},
        {.path = "meshless/seed",
         .type = T::integer,
         .fallback = "1",
         .min = 0,
         .max = 9007199254740992.0,
         .help = "the jitter's and the Poisson-disk sampling's stream",
         .in_viewer = false},
        {.path = "meshless/material_regions",
         .type = T::array,
         .help = "{\"mesh\": MESH, \"material\": {...}} or {\"region\": REGION, \"material\": {...}}: the "
                 "phyxels "
                 "inside a closed surface, or selected by a region at rest, take that material (later "
                 "entries win)"},
        {.path = "meshless/volume_stiffness",
         .unit = "Pa",
         .fallback = "0",
         .min = 0,
         .help = "k_v of the volume-preserving energy ½ k_v (det J - 1)²",
         .view_min = 0,
         .view_max = 1e7,
         .view_log = true},
        {.path = "meshless/strain",
         .type = T::choice,
         .fallback = "\"green\"",
         .choices = {"green", "linear"},
         .help = "Green strain is rotation invariant; linear strain is for small deformation"},
        {.path = "meshless/integrator",
         .type = T::choice,
         .fallback = "\"symplectic_euler\"",
         .choices = schemes,
         .help =
             "a pliant::dynamics scheme; the implicit ones solve with `tangent` by Jacobi-preconditioned CG"},
        {.path = "meshless/tangent",
         .type = T::choice,
         .fallback = "\"current\"",
         .choices = {"current", "rest"},
         .help =
             "the implicit schemes' stiffness: the tangent at the current shape (rotates with the body) or "
             "the constant rest tangent (small deformation only)"},
        {.path = "meshless/dt",
         .unit = "s",
         .otherwise = "dt_safety of the stable step, shortened under stretch",
         .min = 0,
         .min_open = true,
         .max_time_step = true,
         .help = "the longest substep; each world step is split into equal substeps",
         .view_min = 1e-6,
         .view_max = 1e-1,
         .view_log = true},
        {.path = "meshless/dt_safety",
         .fallback = "1",
         .min = 0,
         .max = 1,
         .min_open = true,
         .help = "the fraction of the rest stable symplectic-Euler step taken when dt is absent"},
        {.path = "meshless/gravity",
         .type = T::vec3,
         .unit = "m/s²",
         .fallback = "[0, 0, 0]",
         .help = "body acceleration"},
        {.path = "meshless/mass_damping",
         .unit = "1/s",
         .fallback = "0",
         .min = 0,
         .help = "Rayleigh mass damping",
         .view_min = 0,
         .view_max = 1e3,
         .view_log = true},
        {.path = "meshless/floor",
         .unit = "m",
         .otherwise = "none",
         .help = "a frictionless, inelastic floor at this z",
         .in_viewer = false},
        {.path = "meshless/plasticity",
         .type = T::object,
         .otherwise = "off",
         .help = "Müller et al. (2004) plasticity, acting when creep > 0 and yield is given"},
        {.path = "meshless/plasticity/yield",
         .otherwise = "∞ (elastic)",
         .min = 0,
         .help = "elastic limit on the Frobenius norm of the elastic strain",
         .in_viewer = false},
        {.path = "meshless/plasticity/creep",
         .unit = "1/s",
         .fallback = "0",
         .min = 0,
         .help = "the rate at which the plastic strain follows the excess",
         .in_viewer = false},
        {.path = "meshless/plasticity/max",
         .otherwise = "∞",
         .min = 0,
         .help = "the largest plastic strain",
         .in_viewer = false},
    };
  }();
  return table;
}

std::unique_ptr<Body> make_meshless_body(const JsonReader& body, BodyInputs in) {
  const SettingsReader settings(meshless_settings(), in.time_step);
  meshless::MeshlessBodyDef def;
  def.mls.materials = {read_material(*settings.find(body, "material"))};
  std::optional<JsonReader> regions_json;
  const JsonReader j = settings.object(body, "meshless");
  def.sampling.spacing = settings.number_if(j, "meshless/spacing").value_or(0.0);
  def.sampling.kind = settings.text(j, "meshless/sampling") == "poisson" ? meshless::SamplingKind::poisson
                                                                         : meshless::SamplingKind::lattice;
  def.mls.support_factor = settings.number(j, "meshless/support");
  def.sampling.jitter = settings.number(j, "meshless/jitter");
  if (def.sampling.kind == meshless::SamplingKind::poisson && def.sampling.jitter != 0.0)
    j.at("jitter").fail("jitter applies to \"sampling\": \"lattice\" only");
  if (auto v = settings.number_if(j, "meshless/margin")) {
    def.sampling.margin = *v;
    if (def.sampling.kind != meshless::SamplingKind::poisson)
      j.at("margin").fail("margin applies to \"sampling\": \"poisson\" only");
  }
  regions_json = settings.find(j, "meshless/material_regions");
  def.sampling.seed = static_cast<std::uint64_t>(settings.integer(j, "meshless/seed"));
  def.mls.volume_stiffness = settings.number(j, "meshless/volume_stiffness");
  def.mls.strain = settings.text(j, "meshless/strain") == "green" ? meshless::StrainMeasure::green
                                                                  : meshless::StrainMeasure::linear;
  def.scheme = scheme_named(settings.text(j, "meshless/integrator"));
  def.tangent = settings.text(j, "meshless/tangent") == "current" ? meshless::MlsTangent::current
                                                                  : meshless::MlsTangent::rest;
  def.dt = settings.number_if(j, "meshless/dt").value_or(def.dt);
  def.dt_safety = settings.number(j, "meshless/dt_safety");
  def.gravity = settings.vec3(j, "meshless/gravity");
  def.mass_damping = settings.number(j, "meshless/mass_damping");
  if (auto v = settings.number_if(j, "meshless/floor")) def.floor = *v;
  if (auto p = settings.find(j, "meshless/plasticity")) {
    if (auto v = settings.number_if(*p, "meshless/plasticity/yield")) def.mls.plasticity.yield = *v;
    def.mls.plasticity.creep = settings.number(*p, "meshless/plasticity/creep");
    if (auto v = settings.number_if(*p, "meshless/plasticity/max")) def.mls.plasticity.max = *v;
  }
  const TriMesh surface = in.volume ? extract_boundary(*in.volume).mesh : *in.surface;
  Aabb box;
  for (const Vec3& p : surface.positions) box.extend(p);
  const bool spacing_given = def.sampling.spacing != 0.0;
  if (!spacing_given)  // default: about 10 phyxels across the smallest extent of the surface
    def.sampling.spacing = std::max(box.extent().minCoeff(), 1e-9) / 10.0;
  {
    // The phyxels are bounded before anything is sampled (sampling alone can take minutes and
    // gigabytes): the lattice points of the surface's box at this spacing, against the family's
    // limit and, for a scene read with limits (SceneLimits), the mesh element limit.
    double limit = meshless::kMaxPhyxels;
    if (in.max_mesh_elements > 0) limit = std::min(limit, static_cast<double>(in.max_mesh_elements));
    const double count = meshless::lattice_node_estimate(box, def.sampling.spacing);
    if (count > limit) {
      const std::string message =
          fmt::format("about {:.0f} phyxels at a spacing of {} m, above the limit of {:.0f}", count,
                      def.sampling.spacing, limit);
      if (spacing_given) body.at("meshless").at("spacing").fail(message);
      body.at("mesh").fail(message);
    }
  }
  std::vector<JsonReader> region_entries;
  if (regions_json) {
    for (const JsonReader& r : regions_json->elements(1)) {
      r.expect_object({"mesh", "region", "material"});
      const std::optional<JsonReader> mesh = r.find("mesh"), where = r.find("region");
      if (mesh.has_value() == where.has_value())
        r.fail(
            "give either \"mesh\" (a closed surface) or \"region\" (a region string), not both or neither");
      def.mls.materials.push_back(read_material(r.at("material")));
      meshless::MaterialRegion region;
      region.material = static_cast<Index>(def.mls.materials.size() - 1);
      if (mesh)
        region.inside = read_region_surface(*mesh, in);
      else
        region.selection = take(parse_region(where->string()), *where);
      def.mls.regions.push_back(std::move(region));
      region_entries.push_back(r);
    }
  }
  // One asset for every body sampled from the same surface and settings while one of them lives.
  const meshless::MeshlessAssetDef asset_def{
      .sampling = def.sampling, .mls = def.mls, .binding = def.binding};
  Result<std::shared_ptr<const meshless::MeshlessAsset>> asset =
      AssetCache::global().get_or_build<meshless::MeshlessAsset>(
          meshless::MeshlessAsset::key_of(surface, asset_def),
          [&] { return meshless::MeshlessAsset::build(surface, asset_def); });
  if (!asset.ok()) body.at("mesh").fail(asset.message());
  const meshless::MlsBody& phyxels = (*asset)->phyxels();
  for (std::size_t r = 0; r < region_entries.size(); ++r) {
    const std::vector<Index>& used = phyxels.material;
    if (std::find(used.begin(), used.end(), static_cast<Index>(r + 1)) != used.end()) continue;
    if (auto where = region_entries[r].find("region"))
      where->fail("the region holds no phyxel (it selects none, or a later region takes them all)");
    region_entries[r].at("mesh").fail(
        "the region holds no phyxel (none lies inside its surface, or a later region takes them all)");
  }
  for (const Region& r : in.fixed) {
    const std::vector<Index> held = select_nodes(phyxels.rest, r);
    if (held.empty())
      body.at("fixed").fail("a fixed region selects no phyxel (the phyxels lie inside the surface)");
    def.fixed_phyxels.insert(def.fixed_phyxels.end(), held.begin(), held.end());
  }
  Result<std::unique_ptr<Body>> made = make_scene_body(in.name, std::move(*asset), def);
  if (!made.ok()) body.at("meshless").fail(made.message());
  const double substep = meshless_body(**made)->substep();
  if (in.time_step / substep > kMaxSubsteps) {
    body.at("meshless")
        .fail(fmt::format("one world step of {:.3g} s would take {:.3g} substeps of {:.3g} s (the stable "
                          "step): raise \"spacing\", "
                          "lower the stiffness or pick an implicit \"integrator\"",
                          in.time_step, in.time_step / substep, substep));
  }
  return std::move(*made);
}

FamilyEntry meshless_family() {
  return {
      .name = "meshless",
      .summary =
          "meshless MLS elasticity on phyxels sampled from a closed surface, driving it (Müller et al. 2004)",
      .keys = body_keys(meshless_settings()),
      .why_fixed = {},
      .example_body = R"({"mesh": {"shape": "box", "size": [0.08, 0.04, 0.04], "cells": [2, 1, 1]},
                              "fixed": ["xmin"], "material": {"E": 20000, "nu": 0.3, "density": 1000},
                              "meshless": {"spacing": 0.01, "mass_damping": 5.0}})",
      .make = &make_meshless_body,
      .settings = meshless_settings()};
}

}  // namespace pliant::scene::detail

namespace pliant::scene {

Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const meshless::MeshlessAsset> asset,
                                              meshless::MeshlessBodyDef def) {
  if (!asset)
    return Error{"meshless: make_scene_body for \"" + name + "\" was given no asset (a null pointer)"};
  Result<meshless::MeshlessBody> built = meshless::MeshlessBody::build(std::move(asset), def);
  if (!built.ok()) return built.error();
  return std::unique_ptr<Body>(
      std::make_unique<detail::MeshlessSceneBody>(std::move(name), std::move(*built)));
}

const meshless::MeshlessBody* meshless_body(const Body& body) {
  const auto* b = dynamic_cast<const detail::MeshlessSceneBody*>(&body);
  return b ? &b->body() : nullptr;
}

}  // namespace pliant::scene
