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
#include "fem_modal_reader.hpp"
#include "material_json.hpp"
#include "setting_reader.hpp"
#include "soft_grab_patch.hpp"
#include "surface_region.hpp"

#include "pliant/core/asset_cache.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/models/fem/fem_body.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/family_registry.hpp"
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

class FemSceneBody : public Body,
                     public InteriorOutput,
                     public SimulationTets,
                     public DescribesPhysics,
                     public ReportsEnergy {
 public:
  FemSceneBody(std::string name, fem::FemBody body) : name_(std::move(name)), body_(std::move(body)) {
    if (body_.step_def().integrator == fem::FemIntegrator::quasi_static)
      node_stiffness_ = rest_node_stiffness();
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "fem"; }
  BodyPhysics physics() const override { return {distinct_materials(body_), body_.def().gravity}; }
  BodyEnergy energy() const override {
    const fem::FemForceModel& model = body_.model();
    return {.kinetic = model.kinetic_energy(body_.velocities()),
            .elastic = model.elastic_energy(body_.positions()),
            .gravity = gravity_potential(model.mass(), body_.positions(), body_.def().gravity)};
  }
  std::span<const Vec3> surface_positions() const override { return body_.surface_positions(); }
  std::span<const Vec3> surface_rest_positions() const override { return body_.surface().positions; }
  std::span<const Index> surface_nodes() const override { return body_.surface_nodes(); }
  std::vector<Index> fixed_surface_nodes() const override {
    return surface_nodes_among(body_.surface_nodes(), body_.def().fixed_nodes);
  }
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
  // A quasi-static body's force follows its held positions, so the World decides its contacts per node
  // (world_contact.cpp) from a compliance: for a one-node grab (a contact), the inverse of the node's 3×3
  // diagonal block of the rest stiffness, its move with every other node held. That is
  // below the node's true compliance (the free nodes round it give way too), so a slide by it falls
  // short and is repeated next step: it converges instead of overshooting. Without one, the World slid
  // a quasi-static body's contacts as a dynamic body's patch, which left the nodes' tangential forces in
  // place at μ = 0 (a sphere's indentation force wandered between −0.12 and 1.16 of Hertz's,
  // docs/validation.md). Zero (unknown) for a patch of several nodes and for a dynamic body.
  Mat3 grab_compliance(GrabId id) const override {
    const std::span<const Index> nodes = body_.grab_nodes(id);
    if (node_stiffness_.empty() || nodes.size() != 1) return Mat3::Zero();
    const auto node = static_cast<std::size_t>(body_.surface_nodes()[static_cast<std::size_t>(nodes[0])]);
    if (node >= node_stiffness_.size()) return Mat3::Zero();  // a node a cut added
    const Eigen::FullPivLU<Mat3> lu(node_stiffness_[node]);
    return lu.isInvertible() ? Mat3(lu.inverse()) : Mat3::Zero();
  }

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
  // Per volume node, its 3×3 diagonal block of the stiffness at rest (the force model's element
  // stiffnesses at the rest positions, summed over the node's tets; unit: N/m).
  std::vector<Mat3> rest_node_stiffness() const {
    const TetMesh& rest = body_.rest();
    std::vector<Mat3> k(rest.positions.size(), Mat3::Zero());
    body_.model().for_each_element_stiffness(rest.positions, [&](Index t, const fem::Mat12& ke) {
      const Tet& tet = rest.tets[static_cast<std::size_t>(t)];
      for (int a = 0; a < 4; ++a) k[static_cast<std::size_t>(tet[a])] += ke.block<3, 3>(3 * a, 3 * a);
    });
    return k;
  }
  std::vector<Mat3> node_stiffness_;  // quasi-static only: rest_node_stiffness()
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

fem::LinearSolverKind solver_kind(std::string_view kind) {
  if (kind == "cholmod") return fem::LinearSolverKind::cholmod;
  if (kind == "pcg") return fem::LinearSolverKind::pcg;
  if (kind == "interface_pcg") return fem::LinearSolverKind::interface_pcg;
  return fem::LinearSolverKind::rest_factor_pcg;  // "rest_factor_pcg" and "fast"
}

// The operational flags of a hybrid body: the tets whose centroid the region holds. The region is the
// mini-syntax of core/region.hpp or {"box": {"min", "max"}} or {"sphere": {"centre", "radius"}}.
std::vector<std::uint8_t> read_operational(const JsonReader& v, const TetMesh& mesh) {
  Region region;
  if (v.is_string()) {
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

constexpr fem::FemIntegrator kIntegrators[] = {fem::FemIntegrator::backward_euler,
                                               fem::FemIntegrator::newmark,
                                               fem::FemIntegrator::bdf2,
                                               fem::FemIntegrator::quasi_static,
                                               fem::FemIntegrator::symplectic_euler,
                                               fem::FemIntegrator::central_difference,
                                               fem::FemIntegrator::houbolt};

fem::FemIntegrator integrator_named(std::string_view name) {
  for (fem::FemIntegrator i : kIntegrators) {
    if (name == fem::integrator_name(i)) return i;
  }
  return fem::FemIntegrator::backward_euler;  // unreachable: the name was checked against the table
}

// "solver": {"kind", "tolerance", "max_iterations", "newton_iterations", "newton_tolerance"} into
// scene.solver (after the integrator is read: "fast" depends on it).
void read_solver(const SettingsReader& settings, const JsonReader& s, bool hybrid, fem::FemStepDef& scene) {
  const std::string kind = settings.text(s, "fem/solver/kind");
  scene.solver.solver = solver_kind(kind);
  if (kind == "fast") {
    // A capped solve puts its error into the next state. Newmark has no numerical damping to take it
    // out: on the liver_cut example it diverged with caps of 2, 3 and 4. A hybrid body takes 3: a cut
    // can set a small piece loose, which a cap of 2 flung away there (3 kept it within 1 % of the
    // converged motion on the benchmark organ, docs/fem.md).
    if (scene.integrator == fem::FemIntegrator::newmark)
      s.at("kind").fail(
          "\"fast\" (a capped, inexact solve) needs backward_euler or bdf2: Newmark damps nothing, and "
          "the error a capped solve leaves grows from step to step");
    scene.solver.pcg_max_iterations = hybrid ? 3 : 2;
    scene.inexact_solves = true;
  }
  scene.solver.pcg_tolerance = settings.number(s, "fem/solver/tolerance");
  if (settings.find(s, "fem/solver/max_iterations"))
    scene.solver.pcg_max_iterations = static_cast<int>(settings.integer(s, "fem/solver/max_iterations"));
  scene.solver.max_newton_iterations = static_cast<int>(settings.integer(s, "fem/solver/newton_iterations"));
  scene.solver.newton_tolerance = settings.number(s, "fem/solver/newton_tolerance");
}

// "hybrid": {"operational": REGION, "cut": "split" | "remove"}, checked against the integrator and solver
// read before it.
void read_hybrid(const SettingsReader& settings, const JsonReader& hybrid, const JsonReader& j,
                 const TetMesh& mesh, fem::FemStepDef& scene) {
  scene.operational = read_operational(*settings.find(hybrid, "fem/hybrid/operational"), mesh);
  scene.cut.mode =
      settings.text(hybrid, "fem/hybrid/cut") == "split" ? fem::TetCutMode::split : fem::TetCutMode::remove;
  if (!fem::hybrid_integrator(scene.integrator)) j.at("integrator").fail(kHybridIntegrators);
  if (!fem::hybrid_linear_solver(scene.solver.solver)) j.at("solver").at("kind").fail(kHybridSolvers);
}

// The scene body over `asset` with `def`, the public factory's path; *substep_too_large is set, when
// given, for an explicit substep above the stable step (so that a reader can name "dt").
Result<std::unique_ptr<Body>> build_scene_body(std::string name, std::shared_ptr<const fem::FemAsset> asset,
                                               fem::FemDef def, bool* substep_too_large) {
  Result<fem::FemBody> built =
      fem::FemBody::build(std::move(asset), std::move(def.body), std::move(def.step), substep_too_large);
  if (!built.ok()) return Error{built.message()};
  return make_scene_body(std::move(name), std::move(built).value());
}

// Builds the body of a body entry: its asset through pliant::AssetCache (bodies with the same mesh and
// materials share one), then the body; a failure names the "fem" object (or "dt" for a substep above
// the stable step), and so does a step that would need more than fem::kMaxSubsteps substeps.
std::unique_ptr<Body> build_fem_body(const JsonReader& body, const std::optional<JsonReader>& settings,
                                     const BodyInputs& in, const TetMesh& mesh,
                                     std::vector<materials::Material> materials, fem::FemDef def) {
  Result<std::shared_ptr<const fem::FemAsset>> asset = AssetCache::global().get_or_build<fem::FemAsset>(
      fem::FemAsset::key_of(mesh, materials),
      [&] { return fem::FemAsset::build(mesh, std::move(materials)); });
  bool substep_too_large = false;
  Result<std::unique_ptr<Body>> built =
      asset.ok() ? build_scene_body(in.name, std::move(asset).value(), std::move(def), &substep_too_large)
                 : Result<std::unique_ptr<Body>>(Error{asset.message()});
  if (!built.ok()) {
    // The JSON path names the family: drop the library's own "fem: " prefix after it.
    std::string_view message = built.message();
    if (message.starts_with("fem: ")) message.remove_prefix(5);
    if (substep_too_large) settings->at("dt").fail(message);  // only a given "dt" can be too large
    (settings ? *settings : body).fail(message);
  }
  const double substep = fem_body(**built)->configured_substep();
  if (substep > 0.0 && in.time_step / substep > fem::kMaxSubsteps) {
    (settings ? *settings : body)
        .fail(fmt::format("one world step of {:.3g} s would take {:.3g} substeps of {:.3g} s: raise \"dt\", "
                          "lower the stiffness or pick an implicit \"integrator\"",
                          in.time_step, in.time_step / substep, substep));
  }
  return std::move(built).value();
}

}  // namespace

const std::vector<SettingSpec>& fem_settings() {
  using T = SettingType;
  static const std::vector<SettingSpec> table = [] {
    std::vector<std::string_view> integrators;
    for (fem::FemIntegrator i : kIntegrators) integrators.push_back(fem::integrator_name(i));
    return std::vector<SettingSpec>{
        {.path = "material",
         .type = T::object,
         .required = true,
         .help = "elastic constants and density, as for green (the density sets the masses)",
         .in_viewer = false},
        {.path = "fem", .type = T::object, .otherwise = "all defaults", .help = "the keys below"},
        {.path = "fem/element",
         .type = T::choice,
         .fallback = "\"corotational\"",
         .choices = {"linear", "corotational", "stvk", "neo_hookean", "stable_neo_hookean"},
         .help = "element formulation: linear inflates under large rotations, corotational does not; stvk, "
                 "neo_hookean and stable_neo_hookean for large strain (give the solver several Newton "
                 "iterations)"},
        {.path = "fem/mass",
         .type = T::choice,
         .fallback = "\"lumped\"",
         .choices = {"lumped", "consistent"},
         .help = "the mass matrix: lumped ρV/4 per tet node, or consistent (implicit integrators only; not "
                 "hybrid)"},
        {.path = "fem/material_regions",
         .type = T::array,
         .help =
             "[{\"region\": REGION, \"material\": {...}}]: the tets whose centroid the region selects take "
             "that material (later entries win)"},
        {.path = "fem/damping",
         .type = T::object,
         .otherwise = "no damping",
         .help = "Rayleigh damping C = αM + βK"},
        {.path = "fem/damping/alpha",
         .unit = "1/s",
         .fallback = "0",
         .min = 0,
         .help = "α, mass-proportional",
         .view_min = 0,
         .view_max = 100,
         .view_log = true},
        {.path = "fem/damping/beta",
         .unit = "s",
         .fallback = "0",
         .min = 0,
         .help = "β, stiffness-proportional",
         .view_min = 0,
         .view_max = 0.1,
         .view_log = true},
        {.path = "fem/gravity",
         .type = T::vec3,
         .unit = "m/s²",
         .fallback = "[0, 0, 0]",
         .help = "body acceleration"},
        {.path = "fem/pressure",
         .type = T::array,
         .help =
             "[{\"region\": REGION, \"value\": Pa}]: a pressure on the surface triangles the region selects, "
             "following the deformed surface (positive pushes in)"},
        {.path = "fem/traction",
         .type = T::array,
         .help = "[{\"region\": REGION, \"value\": [x, y, z] Pa}]: a force per unit rest area on those "
                 "triangles, "
                 "fixed in direction (a dead load)"},
        {.path = "fem/integrator",
         .type = T::choice,
         .fallback = "\"backward_euler\"",
         .choices = integrators,
         .help = "time stepping; the explicit schemes take substeps below the estimated stable step; "
                 "quasi_static needs fixed nodes"},
        {.path = "fem/dt",
         .unit = "s",
         .otherwise = "see below",
         .min = 0,
         .min_open = true,
         .max_time_step = true,
         .help = "the substep: each step takes ceil(time_step / dt) equal substeps",
         .in_viewer = false},
        {.path = "fem/solver",
         .type = T::object,
         .otherwise = "all defaults",
         .help = "the implicit integrators' linear solves, the keys below"},
        {.path = "fem/solver/kind",
         .type = T::choice,
         .fallback = "\"cholmod\"",
         .choices = {"cholmod", "pcg", "rest_factor_pcg", "fast", "interface_pcg"},
         .help = "sparse Cholesky, Jacobi-PCG, CG preconditioned by the rest factor, fast (rest_factor_pcg "
                 "capped: inexact), or interface_pcg (hybrid bodies only)"},
        {.path = "fem/solver/tolerance",
         .fallback = "1e-06",
         .min = 0,
         .max = 1,
         .min_open = true,
         .help = "CG's relative residual",
         .in_viewer = false},
        {.path = "fem/solver/max_iterations",
         .type = T::integer,
         .otherwise = "2000 (fast: 2, 3 on a hybrid body)",
         .min = 1,
         .max = 1000000,
         .help = "CG's iteration cap",
         .in_viewer = false},
        {.path = "fem/solver/newton_iterations",
         .type = T::integer,
         .fallback = "1",
         .min = 1,
         .max = 1000,
         .help = "Newton iterations per step (1: the linearised step; give several to hyperelastic elements)",
         .view_min = 1,
         .view_max = 20},
        {.path = "fem/solver/newton_tolerance",
         .fallback = "1e-06",
         .min = 0,
         .max = 1,
         .min_open = true,
         .help = "Newton's relative stopping residual",
         .in_viewer = false},
        {.path = "fem/modal",
         .type = T::object,
         .otherwise = "none",
         .help = "a modally reduced body instead (linear elasticity about the rest shape), the keys below",
         .in_viewer = false},
        {.path = "fem/modal/modes",
         .type = T::integer,
         .min = 1,
         .max = 100000,
         .required = true,
         .help = "the lowest vibration modes kept, below the free DOFs",
         .in_viewer = false},
        {.path = "fem/modal/warping",
         .type = T::boolean,
         .fallback = "false",
         .help = "reconstruct with modal warping (Choi & Ko 2005)",
         .in_viewer = false},
        {.path = "fem/modal/shift",
         .unit = "rad²/s²",
         .otherwise = "a small negative σ",
         .help = "the shift of the eigen-solve",
         .in_viewer = false},
        {.path = "fem/hybrid",
         .type = T::object,
         .otherwise = "none",
         .help = "a hybrid body (Wu & Heng 2005): operational tets take element, the others are linear and "
                 "condensed once; the keys below",
         .in_viewer = false},
        {.path = "fem/hybrid/operational",
         .type = T::object,
         .required = true,
         .help = "a region string, {\"box\": {\"min\": [m], \"max\": [m]}} or {\"sphere\": {\"centre\": [m], "
                 "\"radius\": m}}: the tets whose centroid it holds are operational",
         .in_viewer = false},
        {.path = "fem/hybrid/cut",
         .type = T::choice,
         .fallback = "\"split\"",
         .choices = {"split", "remove"},
         .help = "how a blade cuts the operational tets: split along its swept surface, or removed",
         .in_viewer = false},
    };
  }();
  return table;
}

std::unique_ptr<Body> make_fem_body(const JsonReader& body, BodyInputs in) {
  const SettingsReader reader(fem_settings(), in.time_step);
  if (!in.volume) body.at("mesh").fail("the fem family needs a volume (tetrahedral) mesh");
  const TetMesh& mesh = *in.volume;
  std::vector<materials::Material> materials = {read_material(*reader.find(body, "material"))};
  fem::FemBodyDef def;
  fem::FemStepDef scene;
  std::optional<JsonReader> settings = reader.find(body, "fem");
  if (settings) {
    const JsonReader& j = *settings;
    if (auto v = reader.text_if(j, "fem/element"))
      def.element = take(fem::parse_element_kind(*v), j.at("element"));
    def.mass = reader.text(j, "fem/mass") == "consistent" ? fem::MassKind::consistent : fem::MassKind::lumped;
    if (auto regions = reader.find(j, "fem/material_regions"))
      materials = read_material_regions(*regions, mesh, materials.front());
    const JsonReader d = reader.object(j, "fem/damping");
    def.rayleigh_alpha = reader.number(d, "fem/damping/alpha");
    def.rayleigh_beta = reader.number(d, "fem/damping/beta");
    def.gravity = reader.vec3(j, "fem/gravity");
    reader.find(j, "fem/pressure");
    reader.find(j, "fem/traction");
    def.surface_loads = read_surface_loads(j, mesh);
    scene.integrator = integrator_named(reader.text(j, "fem/integrator"));
    if (auto v = reader.number_if(j, "fem/dt")) scene.substep = *v;
    if (auto s = reader.find(j, "fem/solver")) read_solver(reader, *s, j.has("hybrid"), scene);
    reader.find(j, "fem/modal");  // checks its keys; read by make_fem_modal_body
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
  if (auto hybrid = settings ? reader.find(*settings, "fem/hybrid") : std::nullopt) {
    read_hybrid(reader, *hybrid, *settings, mesh, scene);
  } else if (scene.solver.solver == fem::LinearSolverKind::interface_pcg) {
    settings->at("solver").at("kind").fail("interface_pcg needs a hybrid body");
  }
  if (scene.integrator == fem::FemIntegrator::quasi_static && def.fixed_nodes.empty()) {
    (settings ? settings->at("integrator") : body)
        .fail("quasi_static stepping needs \"fixed\" nodes (static equilibrium of a free body is singular)");
  }
  return build_fem_body(body, settings, in, mesh, std::move(materials), {std::move(def), std::move(scene)});
}

FamilyEntry fem_family() {
  return {.name = "fem",
          .summary =
              "dynamic FEM: linear, corotational (Müller & Gross 2004) and hyperelastic tetrahedra with "
              "implicit or explicit time stepping",
          .keys = body_keys(fem_settings()),
          .why_fixed = {},
          .example_body = R"({"mesh": {"shape": "box", "size": [0.1, 0.02, 0.02], "cells": [5, 1, 1]},
                              "fixed": ["xmin"], "material": {"E": 50000, "nu": 0.3, "density": 1000},
                              "fem": {"element": "corotational", "damping": {"alpha": 1.0, "beta": 0.001},
                              "integrator": "backward_euler", "solver": {"kind": "pcg", "tolerance": 1e-10}}})",
          .make = &make_fem_body,
          .settings = fem_settings()};
}

}  // namespace detail

Result<std::unique_ptr<Body>> make_scene_body(std::string name, std::shared_ptr<const fem::FemAsset> asset,
                                              fem::FemDef def) {
  return detail::build_scene_body(std::move(name), std::move(asset), std::move(def), nullptr);
}

const fem::FemBody* fem_body(const Body& body) {
  const auto* fem = dynamic_cast<const detail::FemSceneBody*>(&body);
  return fem ? &fem->body() : nullptr;
}

}  // namespace pliant::scene
