// The dynamic FEM family behind the surface contract: scene JSON read into a fem::FemBody, and the
// surface contract forwarded to it (the family's run time, its stepping and cuts, are fem::FemBody's).
//
// Scene keys: "material" (the shared reader: preset, E/nu or Lamé, density) and "fem": {"element":
// "linear" | "corotational" | "stvk" | "neo_hookean", "mass": "lumped" | "consistent" (implicit
// integrators; not hybrid), "material_regions": [{"region":
// REGION, "material": {...}}] (tets whose centroid the region selects; later entries win), "damping":
// {"alpha": 1/s, "beta": s}, "gravity": [m/s²], "pressure": [{"region": REGION, "value": Pa}] (a follower
// load on the surface triangles the region selects), "traction": [{"region": REGION, "value": [Pa]}] (a
// dead load per rest area), "integrator": "backward_euler" | "newmark" |
// "bdf2" | "quasi_static" | "symplectic_euler" | "central_difference" | "houbolt", "dt": s (the substep),
// "solver":
// {"kind": "cholmod" | "pcg" | "rest_factor_pcg" | "fast" | "interface_pcg", "tolerance": 1,
// "max_iterations": N, "newton_iterations": N, "newton_tolerance": 1}}. "fast" is rest_factor_pcg with two CG
// iterations (three on a hybrid body) unless "max_iterations" says otherwise: an inexact solve by design,
// refused with "newmark". "modal": {"modes": r,
// "warping": bool, "shift": rad²/s²} makes a modal body instead (fem_modal_scene_body.cpp). "hybrid":
// {"operational": REGION | {"box": {"min": [m], "max": [m]}} | {"sphere": {"centre": [m], "radius": m}}}
// makes the tets whose centroid lies in the region operational (the element above) and the others linear,
// condensed once (fem::HybridSolver, Wu & Heng 2005); its "cut": "split" (default) | "remove" says how a
// blade cuts the operational tets (fem::cut_tets). Only hybrid bodies are cuttable. A hybrid body takes the
// "cholmod" or the "interface_pcg" solver (its interface system by CG to "tolerance"; hybrid_solver.hpp).
// A grab holds its patch nodes kinematic without rebuilding the model or the solver (apply_held), except on
// a hybrid body when it holds nodes of the condensed interior.
#include "family_registry.hpp"
#include "fem_modal_reader.hpp"
#include "material_json.hpp"
#include "soft_grab_patch.hpp"
#include "surface_region.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/models/fem/fem_body.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/fem_scene_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace pliant::scene {
namespace detail {
namespace {

// What a hybrid body takes (fem::FemBody::build refuses the rest), checked here too so that a scene
// error can name its JSON key.
constexpr const char* kHybridIntegrators = "a hybrid body needs the backward_euler or newmark integrator";
constexpr const char* kHybridSolvers =
    "a hybrid body needs the cholmod, interface_pcg or rest_factor_pcg solver";

// The materials of a FEM body's tets, each once (for BodyPhysics).
std::vector<materials::Material> distinct_materials(const fem::FemBody& body) {
  std::vector<materials::Material> out;
  for (std::size_t t = 0; t < body.rest().tets.size(); ++t) {
    const materials::Material& m = body.model().material(static_cast<Index>(t));
    const bool seen = std::any_of(out.begin(), out.end(), [&](const materials::Material& o) {
      return o.lambda == m.lambda && o.mu == m.mu && o.density == m.density;
    });
    if (!seen) out.push_back(m);
  }
  return out;
}

class FemSceneBody : public Body, public InteriorOutput, public SimulationTets, public DescribesPhysics {
 public:
  FemSceneBody(std::string name, fem::FemBody body) : name_(std::move(name)), body_(std::move(body)) {}

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "fem"; }
  BodyPhysics physics() const override { return {distinct_materials(body_), body_.def().gravity}; }
  std::span<const Vec3> surface_positions() const override { return body_.surface_positions(); }
  std::span<const Vec3> surface_rest_positions() const override { return body_.surface().positions; }
  std::span<const Index> surface_nodes() const override { return body_.surface_nodes(); }
  std::span<const Tri> surface_triangles() const override { return body_.surface().triangles; }
  std::uint64_t surface_topology_version() const override { return body_.surface_topology_version(); }

  GrabId grab(const SurfacePoint& p) override { return grab_patch(p, kDefaultGrabRadius); }

  // A soft grab: the surface nodes within the radius of the picked point, connected to the handle
  // over the surface, become kinematic and translate with the target.
  GrabId grab_patch(const SurfacePoint& p, double radius) override {
    if (!on_surface(p, surface_triangles()) || std::isnan(radius)) return {};
    Vec3 point;
    const std::vector<Index> nodes = soft_grab_patch(
        body_.surface_positions(), surface_triangles(), body_.surface_adjacency(), p, radius,
        [&](Index sn) { return body_.surface_node_free(sn); }, [&](Index sn) { return default_radius(sn); },
        &point);
    if (nodes.empty()) return {};
    return body_.grab(nodes, point);
  }
  bool soft_grabs() const override { return true; }
  std::span<const Index> grab_nodes(GrabId id) const override { return body_.grab_nodes(id); }
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
    for (const fem::FemCutEvent& e : body_.cut_events()) events_.push(e);
    if (body_.warning()) events_.push(*body_.warning());
  }
  const EventLog& events() const override { return events_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"speed", "m/s"}, {"von_mises", "Pa"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    const std::span<const Index> nodes = body_.surface_nodes();
    if (index > 2 || out.size() != nodes.size()) return;
    if (index == 2) return body_.surface_von_mises(out);
    const std::span<const Vec3> x = body_.positions(), v = body_.velocities();
    const std::vector<Vec3>& x0 = body_.rest().positions;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const auto i = static_cast<std::size_t>(nodes[k]);
      out[k] = index == 0 ? (x[i] - x0[i]).norm() : v[i].norm();
    }
  }
  std::uint64_t state_hash() const override { return body_.state_hash(); }

  // The volume at its current positions: point data "displacement" (m) and "velocity" (m/s), cell
  // data "von_mises" (Pa).
  // Render meshes embed in the tets as they are now (after cuts).
  std::span<const Tet> simulation_tets() const override { return body_.rest().tets; }
  std::span<const Vec3> simulation_rest_nodes() const override { return body_.rest().positions; }
  std::span<const Vec3> simulation_nodes() const override { return body_.positions(); }

  std::string_view interior_name() const override { return "volume"; }
  std::span<const Vec3> interior_points() const override { return body_.positions(); }
  Status write_interior_vtu(const std::filesystem::path& path) const override {
    const std::span<const Vec3> x = body_.positions(), v = body_.velocities();
    const TetMesh& rest = body_.rest();
    const TetMesh mesh{std::vector<Vec3>(x.begin(), x.end()), rest.tets};
    io::Field u{"displacement", 3, std::vector<double>(3 * x.size())};
    io::Field vel{"velocity", 3, std::vector<double>(3 * x.size())};
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        u.values[3 * i + static_cast<std::size_t>(k)] = x[i][k] - rest.positions[i][k];
        vel.values[3 * i + static_cast<std::size_t>(k)] = v[i][k];
      }
    }
    io::Field vm{"von_mises", 1, std::vector<double>(rest.tets.size())};
    body_.von_mises(vm.values);
    return io::write_vtu(path, mesh, {std::move(u), std::move(vel)}, {std::move(vm)});
  }

  const fem::FemBody& body() const { return body_; }

 protected:
  bool cut_body(const BladeSweep& b) { return body_.cut({b.a0, b.b0, b.a1, b.b1}); }

 private:
  double default_radius(Index sn) const {
    return default_grab_radius(body_.surface_positions(), body_.surface_adjacency(), sn);
  }

  std::string name_;
  fem::FemBody body_;
  EventLog events_;
};

// A hybrid body: its operational region can be cut.
class CuttableFemSceneBody final : public FemSceneBody, public Cuttable {
 public:
  using FemSceneBody::FemSceneBody;
  bool cut(const BladeSweep& blade) override { return cut_body(blade); }
};

std::unique_ptr<Body> make_scene_body(std::string name, fem::FemBody body) {
  if (!body.step_def().operational.empty())
    return std::make_unique<CuttableFemSceneBody>(std::move(name), std::move(body));
  return std::make_unique<FemSceneBody>(std::move(name), std::move(body));
}

fem::LinearSolverKind read_solver_kind(const JsonReader& v, bool& fast) {
  const std::string kind = v.one_of({"cholmod", "pcg", "rest_factor_pcg", "fast", "interface_pcg"});
  fast = kind == "fast";
  if (kind == "cholmod") return fem::LinearSolverKind::cholmod;
  if (kind == "pcg") return fem::LinearSolverKind::pcg;
  if (kind == "interface_pcg") return fem::LinearSolverKind::interface_pcg;
  return fem::LinearSolverKind::rest_factor_pcg;
}

// The operational flags of a hybrid body: the tets whose centroid the region holds. The region is the
// mini-syntax of core/region.hpp or {"box": {"min", "max"}} or {"sphere": {"centre", "radius"}}.
std::vector<std::uint8_t> read_operational(const JsonReader& v, const TetMesh& mesh) {
  Region region;
  if (v.json().is_string()) {
    region = take(parse_region(v.string()), v);
  } else {
    v.expect_object({"box", "sphere"});
    if (v.has("box") == v.has("sphere")) v.fail("give one of \"box\" or \"sphere\"");
    if (auto box = v.find("box")) {
      box->expect_object({"min", "max"});
      const Vec3 lo = box->at("min").vec3(), hi = box->at("max").vec3();
      if (!(lo.array() <= hi.array()).all()) box->at("max").fail("max must be >= min in every coordinate");
      region = BoxRegion{lo, hi};
    } else {
      const JsonReader sphere = v.at("sphere");
      sphere.expect_object({"centre", "radius"});
      region = SphereRegion{sphere.at("centre").vec3(), sphere.at("radius").positive()};
    }
  }
  std::vector<Vec3> centroids(mesh.tets.size(), Vec3::Zero());
  for (std::size_t t = 0; t < mesh.tets.size(); ++t)
    for (Index a : mesh.tets[t]) centroids[t] += 0.25 * mesh.positions[static_cast<std::size_t>(a)];
  std::vector<std::uint8_t> flags(mesh.tets.size(), 0);
  const std::vector<Index> tets = select_nodes(centroids, region);
  if (tets.empty()) v.fail("the operational region holds no tet (by centroid)");
  for (Index t : tets) flags[static_cast<std::size_t>(t)] = 1;
  return flags;
}

// "pressure": [{"region": REGION, "value": Pa}] and "traction": [{"region": REGION, "value": [Pa]}]: loads on
// the surface triangles whose three corners the region selects.
std::vector<fem::SurfaceLoad> read_surface_loads(const JsonReader& j, const TetMesh& mesh) {
  std::vector<fem::SurfaceLoad> loads;
  if (!j.has("pressure") && !j.has("traction")) return loads;
  const BoundarySurface boundary = extract_boundary(mesh);
  for (const char* key : {"pressure", "traction"}) {
    const auto list = j.find(key);
    if (!list) continue;
    for (const JsonReader& entry : list->elements(1)) {
      entry.expect_object({"region", "value"});
      const JsonReader where = entry.at("region");
      const Region region = take(parse_region(where.string()), where);
      fem::SurfaceLoad load;
      for (Index t : boundary_triangles_in(mesh, boundary, region)) {
        const Tri& tri = boundary.mesh.triangles[static_cast<std::size_t>(t)];
        load.triangles.push_back({boundary.volume_node[static_cast<std::size_t>(tri[0])],
                                  boundary.volume_node[static_cast<std::size_t>(tri[1])],
                                  boundary.volume_node[static_cast<std::size_t>(tri[2])]});
      }
      if (load.triangles.empty())
        where.fail("the region selects no surface triangle (all three corners must be in it)");
      if (std::string_view(key) == "pressure")
        load.pressure = entry.at("value").number();
      else
        load.traction = entry.at("value").vec3();
      loads.push_back(std::move(load));
    }
  }
  return loads;
}

// "material_regions": per-tet materials, each entry overriding the tets whose centroid its region
// selects (later entries win) over `base`.
std::vector<materials::Material> read_material_regions(const JsonReader& regions, const TetMesh& mesh,
                                                       const materials::Material& base) {
  std::vector<Vec3> centroids(mesh.tets.size());
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    centroids[t].setZero();
    for (Index a : mesh.tets[t]) centroids[t] += 0.25 * mesh.positions[static_cast<std::size_t>(a)];
  }
  std::vector<materials::Material> per_tet(mesh.tets.size(), base);
  for (const JsonReader& r : regions.elements(1)) {
    r.expect_object({"region", "material"});
    const JsonReader where = r.at("region");
    const Region region = take(parse_region(where.string()), where);
    const materials::Material m = read_material(r.at("material"));
    const std::vector<Index> tets = select_nodes(centroids, region);
    if (tets.empty()) where.fail("the region selects no tet (by centroid)");
    for (Index t : tets) per_tet[static_cast<std::size_t>(t)] = m;
  }
  return per_tet;
}

fem::FemIntegrator read_integrator(const JsonReader& v) {
  const std::string name = v.one_of({"backward_euler", "newmark", "bdf2", "quasi_static", "symplectic_euler",
                                     "central_difference", "houbolt"});
  using fem::FemIntegrator;
  for (FemIntegrator i : {FemIntegrator::backward_euler, FemIntegrator::newmark, FemIntegrator::bdf2,
                          FemIntegrator::quasi_static, FemIntegrator::symplectic_euler,
                          FemIntegrator::central_difference, FemIntegrator::houbolt}) {
    if (name == fem::integrator_name(i)) return i;
  }
  return FemIntegrator::backward_euler;
}

// "solver": {"kind", "tolerance", "max_iterations", "newton_iterations", "newton_tolerance"} into
// scene.solver (after the integrator is read: "fast" depends on it).
void read_solver(const JsonReader& s, bool hybrid, fem::FemStepDef& scene) {
  s.expect_object({"kind", "tolerance", "max_iterations", "newton_iterations", "newton_tolerance"});
  bool fast = false;
  if (auto v = s.find("kind")) {
    scene.solver.solver = read_solver_kind(*v, fast);
    if (fast) {
      // A capped solve puts its error into the next state. Newmark has no numerical damping to take it
      // out: on the liver_cut example it diverged with caps of 2, 3 and 4. A hybrid body takes 3: a cut
      // can set a small piece loose, which a cap of 2 flung away there (3 kept it within 1 % of the
      // converged motion on the benchmark organ, docs/fem.md).
      if (scene.integrator == fem::FemIntegrator::newmark)
        v->fail(
            "\"fast\" (a capped, inexact solve) needs backward_euler or bdf2: Newmark damps nothing, and "
            "the error a capped solve leaves grows from step to step");
      scene.solver.pcg_max_iterations = hybrid ? 3 : 2;
      scene.inexact_solves = true;
    }
  }
  if (auto v = s.find("tolerance")) scene.solver.pcg_tolerance = v->number_in(0.0, 1.0, true);
  if (auto v = s.find("max_iterations"))
    scene.solver.pcg_max_iterations = static_cast<int>(v->integer(1, 1000000));
  if (auto v = s.find("newton_iterations"))
    scene.solver.max_newton_iterations = static_cast<int>(v->integer(1, 1000));
  if (auto v = s.find("newton_tolerance")) scene.solver.newton_tolerance = v->number_in(0.0, 1.0, true);
}

// "hybrid": {"operational": REGION, "cut": "split" | "remove"}, checked against the integrator and solver
// read before it.
void read_hybrid(const JsonReader& hybrid, const JsonReader& settings, const TetMesh& mesh,
                 fem::FemStepDef& scene) {
  hybrid.expect_object({"operational", "cut"});
  scene.operational = read_operational(hybrid.at("operational"), mesh);
  if (auto c = hybrid.find("cut"))
    scene.cut.mode =
        c->one_of({"split", "remove"}) == "split" ? fem::TetCutMode::split : fem::TetCutMode::remove;
  if (!fem::hybrid_integrator(scene.integrator)) settings.at("integrator").fail(kHybridIntegrators);
  if (!fem::hybrid_linear_solver(scene.solver.solver)) settings.at("solver").at("kind").fail(kHybridSolvers);
}

// Builds the FemBody of a body entry; a failure names the "fem" object (or "dt" for a substep above the
// stable step), and so does a step that would need more than fem::kMaxSubsteps substeps.
std::unique_ptr<Body> build_fem_body(const JsonReader& body, const std::optional<JsonReader>& settings,
                                     const BodyInputs& in, const TetMesh& mesh,
                                     std::vector<materials::Material> materials, fem::FemBodyDef def,
                                     fem::FemStepDef scene) {
  bool substep_too_large = false;
  Result<fem::FemBody> built =
      fem::FemBody::build(mesh, std::move(materials), std::move(def), std::move(scene), &substep_too_large);
  if (!built.ok()) {
    // The JSON path names the family: drop the library's own "fem: " prefix after it.
    std::string_view message = built.message();
    if (message.starts_with("fem: ")) message.remove_prefix(5);
    if (substep_too_large) settings->at("dt").fail(message);  // only a given "dt" can be too large
    (settings ? *settings : body).fail(message);
  }
  const double substep = built->configured_substep();
  if (substep > 0.0 && in.time_step / substep > fem::kMaxSubsteps) {
    (settings ? *settings : body)
        .fail(fmt::format("one world step of {:.3g} s would take {:.3g} substeps of {:.3g} s: raise \"dt\", "
                          "lower the stiffness or pick an implicit \"integrator\"",
                          in.time_step, in.time_step / substep, substep));
  }
  return make_scene_body(in.name, std::move(built).value());
}

}  // namespace

std::unique_ptr<Body> make_fem_body(const JsonReader& body, BodyInputs in) {
  if (!in.volume) body.at("mesh").fail("the fem family needs a volume (tetrahedral) mesh");
  const TetMesh& mesh = *in.volume;
  std::vector<materials::Material> materials = {read_material(body.at("material"))};
  fem::FemBodyDef def;
  fem::FemStepDef scene;
  std::optional<JsonReader> settings = body.find("fem");
  if (settings) {
    const JsonReader& j = *settings;
    j.expect_object({"element", "mass", "material_regions", "damping", "gravity", "pressure", "traction",
                     "integrator", "dt", "solver", "modal", "hybrid"});
    if (auto v = j.find("element")) {
      def.element = take(fem::parse_element_kind(v->one_of(
                             {"linear", "corotational", "stvk", "neo_hookean", "stable_neo_hookean"})),
                         *v);
    }
    if (auto v = j.find("mass"))
      def.mass = v->one_of({"lumped", "consistent"}) == "consistent" ? fem::MassKind::consistent
                                                                     : fem::MassKind::lumped;
    if (auto regions = j.find("material_regions"))
      materials = read_material_regions(*regions, mesh, materials.front());
    if (auto d = j.find("damping")) {
      d->expect_object({"alpha", "beta"});
      if (auto v = d->find("alpha")) def.rayleigh_alpha = v->non_negative();
      if (auto v = d->find("beta")) def.rayleigh_beta = v->non_negative();
    }
    if (auto v = j.find("gravity")) def.gravity = v->vec3();
    def.surface_loads = read_surface_loads(j, mesh);
    if (auto v = j.find("integrator")) scene.integrator = read_integrator(*v);
    if (auto v = j.find("dt")) scene.substep = v->number_in(0.0, in.time_step, true);
    if (auto s = j.find("solver")) read_solver(*s, j.has("hybrid"), scene);
  }
  for (const Region& r : in.fixed) {
    const auto nodes = select_nodes(mesh.positions, r);
    def.fixed_nodes.insert(def.fixed_nodes.end(), nodes.begin(), nodes.end());
  }
  if (def.mass == fem::MassKind::consistent && !settings->has("modal")) {
    if (fem::is_explicit(scene.integrator))
      settings->at("mass").fail(
          fmt::format("a consistent mass needs an implicit integrator ({} takes a diagonal "
                      "mass): use \"lumped\" or an implicit \"integrator\"",
                      fem::integrator_name(scene.integrator)));
    if (settings->has("hybrid"))
      settings->at("mass").fail(
          "a hybrid body takes a lumped mass only (its condensed part is built on one)");
  }
  if (settings && settings->has("modal")) {
    if (settings->has("hybrid")) settings->at("hybrid").fail("a modal body cannot be hybrid too");
    return make_fem_modal_body(*settings, mesh, std::move(materials), std::move(def), in);
  }
  if (auto hybrid = settings ? settings->find("hybrid") : std::nullopt) {
    read_hybrid(*hybrid, *settings, mesh, scene);
  } else if (scene.solver.solver == fem::LinearSolverKind::interface_pcg) {
    settings->at("solver").at("kind").fail("interface_pcg needs a hybrid body");
  }
  if (scene.integrator == fem::FemIntegrator::quasi_static && def.fixed_nodes.empty()) {
    (settings ? settings->at("integrator") : body)
        .fail("quasi_static stepping needs \"fixed\" nodes (static equilibrium of a free body is singular)");
  }
  return build_fem_body(body, settings, in, mesh, std::move(materials), std::move(def), std::move(scene));
}

FamilyEntry fem_family() {
  return {.name = "fem",
          .summary =
              "dynamic FEM: linear, corotational (Müller & Gross 2004) and hyperelastic tetrahedra with "
              "implicit or explicit time stepping",
          .keys = {"material", "fem"},
          .why_fixed = {},
          .example_body = R"({"mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [5, 1, 1]},
                              "fixed": ["xmin"], "material": {"E": 50000, "nu": 0.3, "density": 1000},
                              "fem": {"element": "corotational", "damping": {"alpha": 1.0, "beta": 0.001},
                              "integrator": "backward_euler", "solver": {"kind": "pcg", "tolerance": 1e-10}}})",
          .make = &make_fem_body};
}

}  // namespace detail

std::unique_ptr<Body> make_fem_scene_body(std::string name, fem::FemBody body) {
  return detail::make_scene_body(std::move(name), std::move(body));
}

const fem::FemBody* fem_body(const Body& body) {
  const auto* fem = dynamic_cast<const detail::FemSceneBody*>(&body);
  return fem ? &fem->body() : nullptr;
}

}  // namespace pliant::scene
