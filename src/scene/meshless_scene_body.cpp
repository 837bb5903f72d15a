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
#include "family_registry.hpp"
#include "material_json.hpp"
#include "mesh_reader.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/meshless/meshless_body.hpp"
#include "pliant/models/meshless/step_warning.hpp"
#include "pliant/scene/capabilities.hpp"
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
                                public DescribesPhysics {
 public:
  MeshlessSceneBody(std::string name, meshless::MeshlessBody body)
      : name_(std::move(name)), body_(std::move(body)) {}

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "meshless"; }
  BodyPhysics physics() const override { return {body_.def().mls.materials, body_.def().gravity}; }
  std::span<const Vec3> surface_positions() const override { return body_.surface_positions(); }
  std::span<const Vec3> surface_rest_positions() const override { return body_.surface().rest_positions(); }
  std::span<const Tri> surface_triangles() const override { return body_.surface().triangles(); }
  std::uint64_t surface_topology_version() const override { return body_.surface_topology_version(); }

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

dynamics::Scheme read_scheme(const JsonReader& v) {
  const std::string name = v.string();
  constexpr dynamics::Scheme all[] = {dynamics::Scheme::explicit_euler,
                                      dynamics::Scheme::symplectic_euler,
                                      dynamics::Scheme::midpoint,
                                      dynamics::Scheme::rk2,
                                      dynamics::Scheme::rk4,
                                      dynamics::Scheme::central_difference,
                                      dynamics::Scheme::quasi_static_euler,
                                      dynamics::Scheme::backward_euler,
                                      dynamics::Scheme::newmark,
                                      dynamics::Scheme::houbolt};
  std::string names;
  for (dynamics::Scheme s : all) {
    if (name == dynamics::scheme_name(s)) return s;
    names += (names.empty() ? "\"" : ", \"") + std::string(dynamics::scheme_name(s)) + "\"";
  }
  v.fail_expected("one of " + names);
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

std::unique_ptr<Body> make_meshless_body(const JsonReader& body, BodyInputs in) {
  meshless::MeshlessBodyDef def;
  def.mls.materials = {read_material(body.at("material"))};
  std::optional<JsonReader> regions_json;
  def.sampling.spacing = 0.0;
  if (auto j = body.find("meshless")) {
    j->expect_object({"spacing", "sampling", "jitter", "margin", "seed", "support", "material_regions",
                      "volume_stiffness", "strain", "integrator", "tangent", "dt", "dt_safety", "gravity",
                      "mass_damping", "floor", "plasticity"});
    if (auto v = j->find("spacing")) def.sampling.spacing = v->positive();
    if (auto v = j->find("sampling")) {
      def.sampling.kind = v->one_of({"lattice", "poisson"}) == "poisson" ? meshless::SamplingKind::poisson
                                                                         : meshless::SamplingKind::lattice;
    }
    if (auto v = j->find("support")) def.mls.support_factor = v->number_in(1.0, 10.0, true);
    if (auto v = j->find("jitter")) {
      def.sampling.jitter = v->number_in(0.0, 1.0);
      if (def.sampling.kind == meshless::SamplingKind::poisson && def.sampling.jitter != 0.0)
        v->fail("jitter applies to \"sampling\": \"lattice\" only");
    }
    if (auto v = j->find("margin")) {
      def.sampling.margin = v->non_negative();
      if (def.sampling.kind != meshless::SamplingKind::poisson)
        v->fail("margin applies to \"sampling\": \"poisson\" only");
    }
    if (auto regions = j->find("material_regions")) regions_json = regions;
    if (auto v = j->find("seed")) def.sampling.seed = static_cast<std::uint64_t>(v->integer(0, 1LL << 53));
    if (auto v = j->find("volume_stiffness")) def.mls.volume_stiffness = v->non_negative();
    if (auto v = j->find("strain")) {
      def.mls.strain = v->one_of({"green", "linear"}) == "green" ? meshless::StrainMeasure::green
                                                                 : meshless::StrainMeasure::linear;
    }
    if (auto v = j->find("integrator")) def.scheme = read_scheme(*v);
    if (auto v = j->find("tangent")) {
      def.tangent = v->one_of({"current", "rest"}) == "current" ? meshless::MlsTangent::current
                                                                : meshless::MlsTangent::rest;
    }
    if (auto v = j->find("dt")) def.dt = v->number_in(0.0, in.time_step, true);
    if (auto v = j->find("dt_safety")) def.dt_safety = v->number_in(0.0, 1.0, true);
    if (auto v = j->find("gravity")) def.gravity = v->vec3();
    if (auto v = j->find("mass_damping")) def.mass_damping = v->non_negative();
    if (auto v = j->find("floor")) def.floor = v->number();
    if (auto p = j->find("plasticity")) {
      p->expect_object({"yield", "creep", "max"});
      if (auto v = p->find("yield")) def.mls.plasticity.yield = v->non_negative();
      if (auto v = p->find("creep")) def.mls.plasticity.creep = v->non_negative();
      if (auto v = p->find("max")) def.mls.plasticity.max = v->non_negative();
    }
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
  Result<meshless::MeshlessBody> built = meshless::MeshlessBody::build(surface, def);
  if (!built.ok()) body.at("mesh").fail(built.message());
  meshless::MeshlessBody mb = std::move(built).value();
  for (std::size_t r = 0; r < region_entries.size(); ++r) {
    const std::vector<Index>& used = mb.phyxels().material;
    if (std::find(used.begin(), used.end(), static_cast<Index>(r + 1)) != used.end()) continue;
    if (auto where = region_entries[r].find("region"))
      where->fail("the region holds no phyxel (it selects none, or a later region takes them all)");
    region_entries[r].at("mesh").fail(
        "the region holds no phyxel (none lies inside its surface, or a later region takes them all)");
  }
  for (const Region& r : in.fixed) {
    const std::vector<Index> held = select_nodes(mb.phyxels().rest, r);
    if (held.empty())
      body.at("fixed").fail("a fixed region selects no phyxel (the phyxels lie inside the surface)");
    for (Index n : held) mb.set_fixed(n, true);
  }
  if (in.time_step / mb.substep() > kMaxSubsteps) {
    body.at("meshless")
        .fail(fmt::format("one world step of {:.3g} s would take {:.3g} substeps of {:.3g} s (the stable "
                          "step): raise \"spacing\", "
                          "lower the stiffness or pick an implicit \"integrator\"",
                          in.time_step, in.time_step / mb.substep(), mb.substep()));
  }
  return make_meshless_scene_body(in.name, std::move(mb));
}

FamilyEntry meshless_family() {
  return {
      .name = "meshless",
      .summary =
          "meshless MLS elasticity on phyxels sampled from a closed surface, driving it (Müller et al. 2004)",
      .keys = {"material", "meshless"},
      .why_fixed = {},
      .example_body = R"({"mesh": {"shape": "box", "size": [0.08, 0.04, 0.04], "cells": [2, 1, 1]},
                              "fixed": ["xmin"], "material": {"E": 20000, "nu": 0.3, "density": 1000},
                              "meshless": {"spacing": 0.01, "mass_damping": 5.0}})",
      .make = &make_meshless_body};
}

}  // namespace pliant::scene::detail

namespace pliant::scene {

std::unique_ptr<Body> make_meshless_scene_body(std::string name, meshless::MeshlessBody body) {
  return std::make_unique<detail::MeshlessSceneBody>(std::move(name), std::move(body));
}

const meshless::MeshlessBody* meshless_body(const Body& body) {
  const auto* b = dynamic_cast<const detail::MeshlessSceneBody*>(&body);
  return b ? &b->body() : nullptr;
}

}  // namespace pliant::scene
