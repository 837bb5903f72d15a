// The dynamic FEM family behind the surface contract: scene JSON read into a fem::FemForceModel and
// its stepping (fem::ImplicitSolver or dynamics::Integrator), and forwarding to them.
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

#include "pliant/core/hash.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/models/fem/hybrid_solver.hpp"
#include "pliant/models/fem/hyperelastic_tet.hpp"
#include "pliant/models/fem/polar_decomposition.hpp"
#include "pliant/models/fem/tet_cut.hpp"
#include "pliant/scene/capabilities.hpp"
#include "pliant/scene/fem_scene_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace pliant::scene {

const char* fem_integrator_name(FemIntegrator integrator) {
  switch (integrator) {
    case FemIntegrator::backward_euler:
      return "backward_euler";
    case FemIntegrator::newmark:
      return "newmark";
    case FemIntegrator::bdf2:
      return "bdf2";
    case FemIntegrator::quasi_static:
      return "quasi_static";
    case FemIntegrator::symplectic_euler:
      return "symplectic_euler";
    case FemIntegrator::central_difference:
      return "central_difference";
    case FemIntegrator::houbolt:
      return "houbolt";
  }
  return "?";
}

double fem_max_frequency(const fem::FemForceModel& model) {
  const std::size_t n = model.node_count();
  const auto w = model.inverse_mass();
  const std::vector<Vec3>& x0 = model.rest_positions();
  std::vector<Vec3> p(n), q(n), y(n);
  // A deterministic start with components along every mode (a hashed sign pattern).
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t h = hash_bytes(&i, sizeof i, static_cast<std::uint64_t>(k) + 1);
      p[i][k] = w[i] > 0.0 ? ((h & 1u) ? 1.0 : -1.0) * (1.0 + static_cast<double>(h % 7) / 7.0) : 0.0;
    }
  }
  double lambda = 0.0;
  for (int it = 0; it < 60; ++it) {
    double pp = 0.0;
    for (std::size_t i = 0; i < n; ++i) pp += p[i].squaredNorm();
    if (!(pp > 0.0)) return 0.0;
    const double s = 1.0 / std::sqrt(pp);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] *= s;
      q[i] = std::sqrt(w[i]) * p[i];
      y[i].setZero();
    }
    model.add_stiffness_product(x0, q, 1.0, y);
    double py = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      y[i] *= std::sqrt(w[i]);
      py += p[i].dot(y[i]);
    }
    lambda = py;
    std::swap(p, y);
  }
  return std::sqrt(std::max(lambda, 0.0));
}

namespace detail {
namespace {

// What a hybrid body takes (fem::HybridSolver::build refuses the rest), checked here too so that a scene
// error can name its JSON key.
constexpr const char* kHybridIntegrators = "a hybrid body needs the backward_euler or newmark integrator";
constexpr const char* kHybridSolvers =
    "a hybrid body needs the cholmod, interface_pcg or rest_factor_pcg solver";
bool hybrid_integrator(FemIntegrator i) {
  return i == FemIntegrator::backward_euler || i == FemIntegrator::newmark;
}
bool hybrid_solver(fem::LinearSolverKind k) {
  return k == fem::LinearSolverKind::cholmod || k == fem::LinearSolverKind::interface_pcg ||
         k == fem::LinearSolverKind::rest_factor_pcg;
}

// The schemes fem::ImplicitSolver steps; the others go through dynamics::Integrator.
bool uses_implicit_solver(FemIntegrator i) {
  return i == FemIntegrator::backward_euler || i == FemIntegrator::newmark || i == FemIntegrator::bdf2 ||
         i == FemIntegrator::quasi_static;
}

// The conditionally stable schemes: their substep must stay below the stable step.
bool is_explicit(FemIntegrator i) {
  return i == FemIntegrator::symplectic_euler || i == FemIntegrator::central_difference;
}

dynamics::Scheme integrator_scheme(FemIntegrator i) {
  switch (i) {
    case FemIntegrator::central_difference:
      return dynamics::Scheme::central_difference;
    case FemIntegrator::houbolt:
      return dynamics::Scheme::houbolt;
    default:
      return dynamics::Scheme::symplectic_euler;
  }
}

fem::ImplicitScheme implicit_scheme(FemIntegrator i) {
  switch (i) {
    case FemIntegrator::newmark:
      return fem::ImplicitScheme::newmark;
    case FemIntegrator::bdf2:
      return fem::ImplicitScheme::bdf2;
    case FemIntegrator::quasi_static:
      return fem::ImplicitScheme::quasi_static;
    default:
      return fem::ImplicitScheme::backward_euler;
  }
}

// Stable step of symplectic Euler and central differences for the highest mode ω with stiffness-
// proportional damping β: h ≤ (2/ω)(√(1 + ζ²) - ζ), ζ = βω/2 (unit: s).
double explicit_stable_step(const fem::FemForceModel& model) {
  const double omega = fem_max_frequency(model);
  if (!(omega > 0.0)) return 1.0;
  const double zeta = 0.5 * model.def().rayleigh_beta * omega;
  return 2.0 / omega * (std::sqrt(1.0 + zeta * zeta) - zeta);
}

// Most substeps one world step may take.
constexpr double kMaxSubsteps = 100000;

class FemSceneBody : public Body, public FemSceneView, public InteriorOutput {
 public:
  // An unbuilt body: a CuttableFemSceneBody for a hybrid body.
  static std::unique_ptr<FemSceneBody> make_empty(std::string name, bool hybrid);

  // Builds the model, the solver and the surface; the Result carries build failures. A substep above the
  // explicit stable step sets *substep_too_large (when given), so the reader can name the "dt" key.
  static Result<std::unique_ptr<FemSceneBody>> build(std::string name, const TetMesh& rest,
                                                     std::vector<materials::Material> materials,
                                                     fem::FemBodyDef def, FemSceneDef scene,
                                                     bool* substep_too_large = nullptr) {
    if (!(scene.substep >= 0.0) || !std::isfinite(scene.substep))
      return Error{"fem: the substep must be a finite number >= 0 s"};
    if (!(scene.explicit_safety > 0.0 && scene.explicit_safety <= 1.0))
      return Error{"fem: explicit_safety must be in (0, 1]"};
    if (def.mass == fem::MassKind::consistent && is_explicit(scene.integrator))
      return Error{
          fmt::format("fem: a consistent mass needs an implicit integrator ({} takes a diagonal mass)",
                      fem_integrator_name(scene.integrator))};
    if (!scene.operational.empty()) {
      if (def.mass != fem::MassKind::lumped) return Error{"fem: a hybrid body takes a lumped mass only"};
      if (!hybrid_integrator(scene.integrator)) return Error{std::string("fem: ") + kHybridIntegrators};
      if (!hybrid_solver(scene.solver.solver)) return Error{std::string("fem: ") + kHybridSolvers};
      if (scene.operational.size() != rest.tets.size())
        return Error{"fem: " + std::to_string(scene.operational.size()) + " operational flags for " +
                     std::to_string(rest.tets.size()) + " tets"};
      // The full-body view: linear tets outside the operational region.
      def.tet_elements.clear();
      for (std::uint8_t op : scene.operational)
        def.tet_elements.push_back(op ? def.element : fem::ElementKind::linear);
    }
    std::sort(def.fixed_nodes.begin(), def.fixed_nodes.end());
    def.fixed_nodes.erase(std::unique(def.fixed_nodes.begin(), def.fixed_nodes.end()), def.fixed_nodes.end());
    std::unique_ptr<FemSceneBody> body = make_empty(std::move(name), !scene.operational.empty());
    FemSceneBody& b = *body;
    b.rest_ = rest;
    b.materials_ = std::move(materials);
    b.def_ = def;
    b.scene_ = scene;
    if (Status s = b.rebuild(); !s.ok()) return Error{s.message()};
    if (is_explicit(scene.integrator)) {
      const double stable = explicit_stable_step(*b.model_);
      if (scene.substep > stable) {
        if (substep_too_large) *substep_too_large = true;
        return Error{fmt::format(
            "fem: a substep of {:.3g} s is above the stable step of {} for this mesh, about {:.3g} s "
            "(stiffness, density and damping decide it): lower \"dt\" or pick an implicit integrator",
            scene.substep, fem_integrator_name(scene.integrator), stable)};
      }
      if (scene.substep == 0.0) b.scene_.substep = scene.explicit_safety * stable;
    }
    const std::size_t n = rest.node_count();
    b.x_ = rest.positions;
    b.v_.assign(n, Vec3::Zero());
    b.f_.assign(n, Vec3::Zero());
    b.pending_.assign(n, Vec3::Zero());
    b.start_.assign(n, Vec3::Zero());
    b.vm_tet_.assign(rest.tets.size(), 0.0);
    b.vm_node_.assign(n, 0.0);
    b.volume_node_.assign(n, 0.0);
    BoundarySurface boundary = extract_boundary(rest);
    b.surface_ = std::move(boundary.mesh);
    b.surface_node_ = std::move(boundary.volume_node);
    b.xs_ = b.surface_.positions;
    b.fixed_.assign(n, 0);
    for (Index i : b.def_.fixed_nodes) b.fixed_[static_cast<std::size_t>(i)] = 1;
    b.held_.assign(n, 0);
    b.adjacency_ = vertex_adjacency(static_cast<Index>(b.xs_.size()), unique_edges(b.surface_.triangles));
    return body;
  }

  const std::string& name() const override { return name_; }
  std::string_view family() const override { return "fem"; }
  std::span<const Vec3> surface_positions() const override { return xs_; }
  std::span<const Vec3> surface_rest_positions() const override { return surface_.positions; }
  std::span<const Index> surface_nodes() const override { return surface_node_; }
  std::span<const Tri> surface_triangles() const override { return surface_.triangles; }
  std::uint64_t surface_topology_version() const override { return topology_version_; }

  GrabId grab(const SurfacePoint& p) override { return grab_patch(p, kDefaultGrabRadius); }

  // A soft grab: the surface nodes within the radius of the picked point, connected to the handle
  // over the surface, become kinematic and translate with the target.
  GrabId grab_patch(const SurfacePoint& p, double radius) override {
    if (!on_surface(p) || std::isnan(radius)) return {};
    Vec3 point;
    const std::vector<Index> nodes = soft_grab_patch(
        std::span<const Vec3>(xs_), std::span<const Tri>(surface_.triangles), adjacency_, p, radius,
        [&](Index sn) { return free_surface_node(sn); }, [&](Index sn) { return default_radius(sn); },
        &point);
    if (nodes.empty()) return {};
    std::size_t slot = 0;
    while (slot < slots_.size() && slots_[slot].active) ++slot;
    if (slot == slots_.size()) slots_.push_back({});
    Slot& s = slots_[slot];
    s.active = true;
    ++s.generation;
    s.target = point;
    s.reaction = Vec3::Zero();
    s.nodes.clear();
    s.volume_nodes.clear();
    s.offsets.clear();
    for (Index sn : nodes) {
      const Index vn = surface_node_[static_cast<std::size_t>(sn)];
      s.nodes.push_back(sn);
      s.volume_nodes.push_back(vn);
      s.offsets.push_back(x_[static_cast<std::size_t>(vn)] - point);
      held_[static_cast<std::size_t>(vn)] = 1;
    }
    if (Status st = apply_held(); !st.ok()) {
      // No node left free (or a solver that cannot be built): refuse the grab.
      for (Index vn : s.volume_nodes) held_[static_cast<std::size_t>(vn)] = 0;
      s.active = false;
      (void)apply_held();
      return {};
    }
    return {static_cast<std::int32_t>(slot), s.generation};
  }
  bool soft_grabs() const override { return true; }
  std::span<const Index> grab_nodes(GrabId id) const override {
    return live(id) ? std::span<const Index>(slots_[static_cast<std::size_t>(id.slot)].nodes)
                    : std::span<const Index>();
  }
  void move_grab(GrabId id, const Vec3& target) override {
    if (live(id) && target.allFinite()) slots_[static_cast<std::size_t>(id.slot)].target = target;
  }
  void release(GrabId id) override {
    if (!live(id)) return;
    Slot& s = slots_[static_cast<std::size_t>(id.slot)];
    s.active = false;
    for (Index vn : s.volume_nodes) held_[static_cast<std::size_t>(vn)] = 0;
    // Held nodes keep the velocity zero they had; the model and the solver free them.
    (void)apply_held();
    incoming_.push(GrabReleased{id, s.nodes.front(), s.target});
  }
  Vec3 grab_reaction(GrabId id) const override {
    return live(id) ? slots_[static_cast<std::size_t>(id.slot)].reaction : Vec3::Zero();
  }

  void apply_force(const SurfacePoint& p, const Vec3& force) override {
    if (!on_surface(p) || !force.allFinite()) return;
    const Tri& t = surface_.triangles[static_cast<std::size_t>(p.triangle)];
    const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
    for (int c = 0; c < 3; ++c)
      pending_[static_cast<std::size_t>(
          surface_node_[static_cast<std::size_t>(t[static_cast<std::size_t>(c)])])] += w[c] * force;
  }

  void step(double dt, Profile& profile) override {
    events_.swap(incoming_);
    incoming_.clear();
    Stopwatch watch;
    report_ = {};
    if (dt > 0.0 && std::isfinite(dt)) advance(dt);
    profile.record("fem.solve", watch.ms());
    watch.reset();
    // Point forces last one step.
    fem::FemForceModel& model = *model_;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i] != Vec3::Zero()) {
        pending_[i].setZero();
        model.set_point_force(static_cast<Index>(i), Vec3::Zero());
        if (hybrid_) hybrid_->set_point_force(static_cast<Index>(i), Vec3::Zero());
      }
    }
    for (std::size_t k = 0; k < surface_node_.size(); ++k)
      xs_[k] = x_[static_cast<std::size_t>(surface_node_[k])];
    if (std::any_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.active; })) {
      model.forces(x_, v_, f_);
      for (Slot& s : slots_) {
        if (!s.active) continue;
        s.reaction.setZero();
        for (Index vn : s.volume_nodes) s.reaction += f_[static_cast<std::size_t>(vn)];
      }
    }
    profile.record("fem.reaction", watch.ms());
    const bool finite = std::all_of(x_.begin(), x_.end(), [](const Vec3& p) { return p.allFinite(); }) &&
                        std::all_of(v_.begin(), v_.end(), [](const Vec3& p) { return p.allFinite(); });
    if (!report_.converged || !finite) {
      events_.push(FemSolverWarning{report_.newton_iterations, report_.newton_residual,
                                    report_.relative_residual, finite});
    }
  }
  const EventLog& events() const override { return events_; }

  std::span<const FieldInfo> fields() const override {
    static constexpr FieldInfo kFields[] = {{"displacement", "m"}, {"speed", "m/s"}, {"von_mises", "Pa"}};
    return kFields;
  }
  void fill_field(std::size_t index, std::span<double> out) const override {
    if (index > 2 || out.size() != xs_.size()) return;
    if (index == 2) {
      von_mises(vm_tet_);
      // Volume-weighted mean over the tets around each node.
      std::fill(vm_node_.begin(), vm_node_.end(), 0.0);
      std::fill(volume_node_.begin(), volume_node_.end(), 0.0);
      const auto& volume = model_->rest_shape().volume;
      for (std::size_t t = 0; t < rest_.tets.size(); ++t) {
        for (Index a : rest_.tets[t]) {
          vm_node_[static_cast<std::size_t>(a)] += volume[t] * vm_tet_[t];
          volume_node_[static_cast<std::size_t>(a)] += volume[t];
        }
      }
    }
    for (std::size_t k = 0; k < xs_.size(); ++k) {
      const auto i = static_cast<std::size_t>(surface_node_[k]);
      if (index == 0) {
        out[k] = (x_[i] - rest_.positions[i]).norm();
      } else if (index == 1) {
        out[k] = v_[i].norm();
      } else {
        out[k] = volume_node_[i] > 0.0 ? vm_node_[i] / volume_node_[i] : 0.0;
      }
    }
  }
  std::uint64_t state_hash() const override { return Hasher().add(x_).add(v_).value(); }

  // The volume at its current positions: point data "displacement" (m) and "velocity" (m/s), cell
  // data "von_mises" (Pa).
  std::string_view interior_name() const override { return "volume"; }
  std::span<const Vec3> interior_points() const override { return x_; }
  Status write_interior_vtu(const std::filesystem::path& path) const override {
    const TetMesh mesh{x_, rest_.tets};
    io::Field u{"displacement", 3, std::vector<double>(3 * x_.size())};
    io::Field v{"velocity", 3, std::vector<double>(3 * x_.size())};
    for (std::size_t i = 0; i < x_.size(); ++i) {
      for (int k = 0; k < 3; ++k) {
        u.values[3 * i + static_cast<std::size_t>(k)] = x_[i][k] - rest_.positions[i][k];
        v.values[3 * i + static_cast<std::size_t>(k)] = v_[i][k];
      }
    }
    io::Field vm{"von_mises", 1, std::vector<double>(rest_.tets.size())};
    von_mises(vm.values);
    return io::write_vtu(path, mesh, {std::move(u), std::move(v)}, {std::move(vm)});
  }

  // The substep the body was built with (unit: s), 0 for one substep per step.
  double configured_substep() const { return scene_.substep; }

  // FemSceneView
  const fem::FemForceModel& model() const override { return *model_; }
  std::span<const Vec3> positions() const override { return x_; }
  std::span<const Vec3> velocities() const override { return v_; }
  const FemStepReport& last_report() const override { return report_; }
  const fem::HybridSolver* hybrid() const override { return hybrid_ ? &*hybrid_ : nullptr; }
  double substep() const override { return h_; }
  void von_mises(std::span<double> out) const override {
    if (out.size() != rest_.tets.size()) return;
    const fem::FemForceModel& m = *model_;
    for (std::size_t t = 0; t < rest_.tets.size(); ++t) {
      const fem::ElementKind kind = m.element(static_cast<Index>(t));
      const Tet& e = rest_.tets[t];
      fem::Vec12 xe;
      for (int a = 0; a < 4; ++a)
        xe.segment<3>(3 * a) = x_[static_cast<std::size_t>(e[static_cast<std::size_t>(a)])];
      const Mat3 F = fem::deformation_gradient(m.rest_shape().dm_inverse[t], xe);
      const materials::Material& mat = m.material(static_cast<Index>(t));
      Mat3 sigma;
      if (kind == fem::ElementKind::linear || kind == fem::ElementKind::corotational) {
        const Mat3 G = kind == fem::ElementKind::linear ? F : Mat3(fem::extract_rotation(F).transpose() * F);
        const Mat3 eps = 0.5 * (G + G.transpose()) - Mat3::Identity();
        sigma = mat.lambda * eps.trace() * Mat3::Identity() + 2.0 * mat.mu * eps;
      } else {
        const fem::Hyperelastic h =
            kind == fem::ElementKind::stvk ? fem::Hyperelastic::stvk : fem::Hyperelastic::stable_neo_hookean;
        const double J = F.determinant();
        sigma = fem::first_piola(h, F, mat) * F.transpose() / (std::abs(J) > 1e-12 ? J : 1.0);
      }
      const Mat3 s = sigma - sigma.trace() / 3.0 * Mat3::Identity();
      out[t] = std::sqrt(1.5 * s.squaredNorm());
    }
  }

 protected:
  explicit FemSceneBody(std::string name) : name_(std::move(name)) {}

  // Cuts the operational tets of a hybrid body along the blade (the Cuttable capability of
  // CuttableFemSceneBody). The sweep is accumulated from where the blade started moving in its current
  // direction (fem::cut_tets needs the sweep since the blade entered the body to open earlier fronts).
  bool cut_operational(const BladeSweep& b) {
    if (!hybrid_ || !(b.a0.allFinite() && b.b0.allFinite() && b.a1.allFinite() && b.b1.allFinite()))
      return false;
    const double scale = std::max((b.b0 - b.a0).norm(), 1e-300);
    const Vec3 da = b.a1 - b.a0, db = b.b1 - b.b0;
    bool continues =
        sweeping_ && (b.a0 - last_a1_).norm() <= 1e-9 * scale && (b.b0 - last_b1_).norm() <= 1e-9 * scale;
    // A turn starts a new sweep (the accumulated quadrilateral is the swept surface only for a blade
    // that keeps its direction).
    const auto same_direction = [](const Vec3& step, const Vec3& so_far) {
      return step.norm() == 0.0 || so_far.norm() == 0.0 ||
             (step.normalized() - so_far.normalized()).norm() <= 1e-6;
    };
    if (continues && !(same_direction(da, b.a0 - sweep_a0_) && same_direction(db, b.b0 - sweep_b0_)))
      continues = false;
    if (!continues) {
      sweep_a0_ = cut_a_ = b.a0;
      sweep_b0_ = cut_b_ = b.b0;
      sweeping_ = true;
    }
    last_a1_ = b.a1;
    last_b1_ = b.b1;
    // A step in which the blade does not move cuts what is left of the stroke, if anything.
    const bool moving = (b.b1 - b.a0).cross(b.a1 - b.b0).norm() > 1e-12 * scale * scale;
    const double pending = std::max((b.a1 - cut_a_).norm(), (b.b1 - cut_b_).norm());
    if (pending <= 1e-12 * scale) return false;
    // The stroke not cut yet misses the operational region's bounds: nothing to cut.
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (Index i : hybrid_->operational_nodes()) {
      lo = lo.cwiseMin(x_[static_cast<std::size_t>(i)]);
      hi = hi.cwiseMax(x_[static_cast<std::size_t>(i)]);
    }
    const Vec3 slo = cut_a_.cwiseMin(cut_b_).cwiseMin(b.a1).cwiseMin(b.b1);
    const Vec3 shi = cut_a_.cwiseMax(cut_b_).cwiseMax(b.a1).cwiseMax(b.b1);
    if ((shi.array() < lo.array()).any() || (slo.array() > hi.array()).any()) {
      cut_a_ = b.a1;
      cut_b_ = b.b1;
      return false;
    }
    const std::size_t old_n = rest_.positions.size(), old_t = rest_.tets.size();
    const auto tet_bounds = [&](std::size_t t, Vec3& tlo, Vec3& thi) {
      tlo = x_[static_cast<std::size_t>(rest_.tets[t][0])];
      thi = tlo;
      for (Index a : rest_.tets[t]) {
        tlo = tlo.cwiseMin(x_[static_cast<std::size_t>(a)]);
        thi = thi.cwiseMax(x_[static_cast<std::size_t>(a)]);
      }
    };
    double extent = 0.0;
    for (std::size_t t = 0; t < old_t; ++t) {
      if (!scene_.operational[t]) continue;
      Vec3 tlo, thi;
      tet_bounds(t, tlo, thi);
      extent = std::max(extent, (thi - tlo).maxCoeff());
    }
    // The blade cuts in strokes of at least the largest tet extent (or what is left when it stops): a
    // front re-cut every short step would be re-tetrahedralised again and again.
    if (moving && pending < extent) return false;
    // The sweep handed to cut_tets: the accumulated one, trimmed to the stroke not cut yet and twice the
    // largest tet extent behind it. That covers the tets around the front the last cut left (so it
    // opens), while the material further behind, which may have moved across the world-fixed surface
    // since the blade passed, is not cut again. Only operational tets whose bounds meet the trimmed
    // sweep's bounds grown by that extent are cuttable (the tets around every edge it crosses are in).
    const double stroke = std::max((b.a1 - sweep_a0_).norm(), (b.b1 - sweep_b0_).norm());
    const double keep = pending + 2.0 * extent;
    const double share = stroke > keep ? keep / stroke : 1.0;
    const fem::TetCutBlade blade{b.a1 + share * (sweep_a0_ - b.a1), b.b1 + share * (sweep_b0_ - b.b1), b.a1,
                                 b.b1};
    cut_a_ = b.a1;
    cut_b_ = b.b1;
    const Vec3 band_lo = blade.a0.cwiseMin(blade.b0).cwiseMin(b.a1).cwiseMin(b.b1) - Vec3::Constant(extent);
    const Vec3 band_hi = blade.a0.cwiseMax(blade.b0).cwiseMax(b.a1).cwiseMax(b.b1) + Vec3::Constant(extent);
    const auto near_stroke = [&](std::size_t t) {
      if (!scene_.operational[t]) return false;
      Vec3 tlo, thi;
      tet_bounds(t, tlo, thi);
      return !((band_hi.array() < tlo.array()).any() || (band_lo.array() > thi.array()).any());
    };
    std::size_t near = 0;
    for (std::size_t t = 0; t < old_t; ++t) near += near_stroke(t) ? 1 : 0;
    if (near == 0) return false;
    std::vector<std::uint8_t> cuttable(old_t, 0);
    for (std::size_t t = 0; t < old_t; ++t) cuttable[t] = near_stroke(t) ? 1 : 0;
    std::vector<std::uint8_t> frozen(old_n, 0);
    for (Index i : hybrid_->interface_nodes()) frozen[static_cast<std::size_t>(i)] = 1;
    for (Index i : def_.fixed_nodes) frozen[static_cast<std::size_t>(i)] = 1;
    Result<fem::TetCutResult> result = fem::cut_tets(rest_, x_, cuttable, frozen, blade, scene_.cut);
    if (!result.ok() || result->empty()) return false;
    const fem::TetCutResult& cut = *result;

    // Where the cut happens, before the tets change: the mean centroid of the tets it replaces.
    Vec3 where = Vec3::Zero();
    for (Index t : cut.removed_tets)
      for (Index a : rest_.tets[static_cast<std::size_t>(t)]) where += 0.25 * x_[static_cast<std::size_t>(a)];
    if (!cut.removed_tets.empty()) where /= static_cast<double>(cut.removed_tets.size());

    TetMesh rest = rest_;
    std::vector<Vec3> x = x_, v = v_;
    const std::vector<Index> tet_map = fem::apply_tet_cut(cut, rest, x, v);
    const std::size_t nt = rest.tets.size(), n = rest.positions.size();
    const std::size_t first_new = nt - cut.new_tets.size();
    std::vector<std::uint8_t> operational(nt, 1);
    std::vector<materials::Material> materials;
    if (materials_.size() > 1) materials.resize(nt);
    for (std::size_t t = 0; t < old_t; ++t) {
      const Index to = tet_map[t];
      if (to < 0) continue;
      operational[static_cast<std::size_t>(to)] = scene_.operational[t];
      if (materials_.size() > 1) materials[static_cast<std::size_t>(to)] = materials_[t];
    }
    if (materials_.size() > 1) {
      for (std::size_t k = 0; k < cut.new_tets.size(); ++k)
        materials[first_new + k] = materials_[static_cast<std::size_t>(cut.new_tet_parent[k])];
    } else {
      materials = materials_;
    }
    std::vector<Tet> op_tets;
    std::vector<materials::Material> op_materials;
    for (std::size_t t = 0; t < nt; ++t) {
      if (!operational[t]) continue;
      op_tets.push_back(rest.tets[t]);
      if (materials.size() > 1) op_materials.push_back(materials[t]);
    }
    if (materials.size() == 1) op_materials = materials;
    const std::span<const Vec3> appended(rest.positions.data() + old_n, n - old_n);
    if (!hybrid_->replace_operational(appended, op_tets, op_materials).ok()) return false;

    rest_ = std::move(rest);
    x_ = std::move(x);
    v_ = std::move(v);
    materials_ = std::move(materials);
    scene_.operational = std::move(operational);
    def_.tet_elements.clear();
    for (std::uint8_t op : scene_.operational)
      def_.tet_elements.push_back(op ? def_.element : fem::ElementKind::linear);
    for (std::vector<Vec3>* a : {&f_, &pending_, &start_}) a->resize(n, Vec3::Zero());
    fixed_.resize(n, 0);
    held_.resize(n, 0);
    vm_tet_.assign(nt, 0.0);
    vm_node_.assign(n, 0.0);
    volume_node_.assign(n, 0.0);
    // The full-body force model (the view's, the reactions' and the stresses'); the solver is not rebuilt.
    if (Result<std::unique_ptr<fem::FemForceModel>> model = build_model(); model.ok())
      model_ = std::move(*model);
    BoundarySurface boundary = extract_boundary(rest_);
    surface_ = std::move(boundary.mesh);
    surface_node_ = std::move(boundary.volume_node);
    xs_.resize(surface_node_.size());
    for (std::size_t k = 0; k < surface_node_.size(); ++k)
      xs_[k] = x_[static_cast<std::size_t>(surface_node_[k])];
    adjacency_ = vertex_adjacency(static_cast<Index>(xs_.size()), unique_edges(surface_.triangles));
    // Grabs keep their volume nodes (a cut only appends nodes); their surface numbering changes.
    for (Slot& s : slots_) {
      for (std::size_t j = 0; j < s.volume_nodes.size(); ++j)
        s.nodes[j] = boundary.surface_node[static_cast<std::size_t>(s.volume_nodes[j])];
    }
    ++topology_version_;
    incoming_.push(FemCutEvent{cut.tets_split, cut.tets_removed, cut.nodes_added, where});
    return true;
  }

 private:
  struct Slot {
    bool active = false;
    std::uint32_t generation = 0;
    std::vector<Index> nodes;         // surface nodes, the handle first
    std::vector<Index> volume_nodes;  // the same nodes in the model's numbering
    std::vector<Vec3> offsets;        // node minus the picked point at grab time (unit: m)
    Vec3 target = Vec3::Zero();       // the picked point's target (unit: m)
    Vec3 reaction = Vec3::Zero();     // force of the body on the tool after the last step (unit: N)
  };

  bool on_surface(const SurfacePoint& p) const {
    return p.triangle >= 0 && static_cast<std::size_t>(p.triangle) < surface_.triangles.size();
  }
  bool live(GrabId id) const {
    return id.slot >= 0 && static_cast<std::size_t>(id.slot) < slots_.size() &&
           slots_[static_cast<std::size_t>(id.slot)].active &&
           slots_[static_cast<std::size_t>(id.slot)].generation == id.generation;
  }
  bool free_surface_node(Index sn) const {
    const auto vn = static_cast<std::size_t>(surface_node_[static_cast<std::size_t>(sn)]);
    return !fixed_[vn] && !held_[vn];
  }
  // Twice the mean length of the surface edges at the node (unit: m).
  double default_radius(Index sn) const {
    const auto a = static_cast<std::size_t>(sn);
    double sum = 0.0;
    int count = 0;
    for (Index e = adjacency_.offsets[a]; e < adjacency_.offsets[a + 1]; ++e, ++count)
      sum +=
          (xs_[static_cast<std::size_t>(adjacency_.neighbors[static_cast<std::size_t>(e)])] - xs_[a]).norm();
    return count > 0 ? 2.0 * sum / count : 0.0;
  }

  // The held nodes (volume ids, ascending).
  std::vector<Index> held_nodes() const {
    std::vector<Index> held;
    for (std::size_t i = 0; i < held_.size(); ++i)
      if (held_[i]) held.push_back(static_cast<Index>(i));
    return held;
  }

  // A grab or release: the model, the implicit solver and the hybrid solver take the new held nodes
  // without a rebuild (values only: no new pattern, symbolic analysis, rest factor or condensation). A
  // hybrid body whose held nodes reach its condensed interior is rebuilt instead (hybrid_solver.hpp).
  Status apply_held() {
    const std::vector<Index> held = held_nodes();
    if (Status st = model_->set_held_nodes(held); !st.ok()) return st;
    if (solver_) {
      if (Status st = solver_->refresh_held_nodes(); !st.ok()) return st;
    }
    if (hybrid_) {
      std::vector<Index> interior, operational;
      split_hybrid_held(held, interior, operational);
      if (interior != hybrid_interior_held_ || !hybrid_->set_held_nodes(operational).ok()) return rebuild();
    }
    integrator_.reset_history();
    return {};
  }

  // Splits held nodes into those of the hybrid body's condensed interior (nodes of non-operational tets
  // only) and the others (operational or interface nodes).
  void split_hybrid_held(const std::vector<Index>& held, std::vector<Index>& interior,
                         std::vector<Index>& operational) const {
    std::vector<char> in_op(rest_.positions.size(), 0), in_lin(rest_.positions.size(), 0);
    for (std::size_t t = 0; t < rest_.tets.size(); ++t)
      for (Index a : rest_.tets[t]) (scene_.operational[t] ? in_op : in_lin)[static_cast<std::size_t>(a)] = 1;
    for (Index i : held) {
      const auto is = static_cast<std::size_t>(i);
      (in_lin[is] && !in_op[is] ? interior : operational).push_back(i);
    }
  }

  // The full-body force model with the held nodes kinematic and the pending point forces.
  Result<std::unique_ptr<fem::FemForceModel>> build_model() const {
    Result<fem::FemForceModel> model = fem::FemForceModel::build(rest_, materials_, def_);
    if (!model.ok()) return Error{model.message()};
    auto next = std::make_unique<fem::FemForceModel>(std::move(model).value());
    if (Status st = next->set_held_nodes(held_nodes()); !st.ok()) return Error{st.message()};
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i] != Vec3::Zero()) next->set_point_force(static_cast<Index>(i), pending_[i]);
    }
    return next;
  }

  // Rebuilds the force model and the implicit or hybrid solver over it (a new step length, a hybrid
  // grab reaching the condensed interior).
  Status rebuild() {
    const fem::FemBodyDef def = def_;
    const std::vector<Index> held = held_nodes();
    Result<std::unique_ptr<fem::FemForceModel>> built_model = build_model();
    if (!built_model.ok()) return Error{built_model.message()};
    std::unique_ptr<fem::FemForceModel> next = std::move(built_model).value();
    std::optional<fem::ImplicitSolver> solver;
    std::optional<fem::HybridSolver> hybrid;
    std::vector<Index> interior_held;
    if (uses_implicit_solver(scene_.integrator)) {
      fem::ImplicitSolverDef sd = scene_.solver;
      sd.scheme = implicit_scheme(scene_.integrator);
      sd.dt = h_ > 0.0 ? h_ : (scene_.substep > 0.0 ? scene_.substep : sd.dt);
      if (!scene_.operational.empty()) {
        // Held nodes in the condensed interior are fixed nodes of the condensation: a grab there
        // condenses the linear part again; elsewhere they are held in values only.
        fem::FemBodyDef hybrid_def = def;
        std::vector<Index> operational_held;
        split_hybrid_held(held, interior_held, operational_held);
        hybrid_def.fixed_nodes.insert(hybrid_def.fixed_nodes.end(), interior_held.begin(),
                                      interior_held.end());
        std::sort(hybrid_def.fixed_nodes.begin(), hybrid_def.fixed_nodes.end());
        Result<fem::HybridSolver> built =
            fem::HybridSolver::build(rest_, materials_, hybrid_def, scene_.operational, sd);
        if (!built.ok()) return Error{built.message()};
        hybrid.emplace(std::move(built).value());
        if (Status st = hybrid->set_held_nodes(operational_held); !st.ok()) return st;
        for (std::size_t i = 0; i < pending_.size(); ++i)
          if (pending_[i] != Vec3::Zero()) hybrid->set_point_force(static_cast<Index>(i), pending_[i]);
      } else {
        Result<fem::ImplicitSolver> built = fem::ImplicitSolver::build(*next, sd);
        if (!built.ok()) return Error{built.message()};
        solver.emplace(std::move(built).value());
      }
    }
    solver_.reset();
    hybrid_ = std::move(hybrid);
    hybrid_interior_held_ = std::move(interior_held);
    integrator_.reset_history();
    model_ = std::move(next);
    solver_ = std::move(solver);
    return {};
  }

  // Covers dt with equal substeps no longer than the configured one.
  void advance(double dt) {
    const double h0 = scene_.substep > 0.0 ? scene_.substep : dt;
    const double count = std::ceil(dt / h0 * (1.0 - 1e-12));
    if (count > kMaxSubsteps) {
      report_.converged = false;
      return;
    }
    const int n = std::max(1, static_cast<int>(count));
    const double h = dt / n;
    if (h != h_) {
      // A new step length (the first step, or the world's step changed): allocates once.
      h_ = h;
      if (uses_implicit_solver(scene_.integrator)) {
        if (!rebuild().ok()) {
          report_.converged = false;
          return;
        }
      } else {
        integrator_.set_def({.scheme = integrator_scheme(scene_.integrator),
                             .dt = h,
                             .cg_tolerance = scene_.solver.pcg_tolerance,
                             .cg_max_iterations = scene_.solver.pcg_max_iterations});
      }
    }
    fem::FemForceModel& model = *model_;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i] != Vec3::Zero()) {
        model.set_point_force(static_cast<Index>(i), pending_[i]);
        if (hybrid_) hybrid_->set_point_force(static_cast<Index>(i), pending_[i]);
      }
    }
    for (const Slot& s : slots_) {
      if (!s.active) continue;
      for (Index vn : s.volume_nodes) start_[static_cast<std::size_t>(vn)] = x_[static_cast<std::size_t>(vn)];
    }
    report_.substeps = n;
    for (int k = 1; k <= n; ++k) {
      // Held nodes move to their targets linearly over the substeps; their velocity stays zero (they
      // are kinematic, and the implicit step holds them where they are put).
      const double share = static_cast<double>(k) / n;
      for (const Slot& s : slots_) {
        if (!s.active) continue;
        for (std::size_t j = 0; j < s.volume_nodes.size(); ++j) {
          const auto i = static_cast<std::size_t>(s.volume_nodes[j]);
          x_[i] = k == n ? Vec3(s.target + s.offsets[j])
                         : Vec3(start_[i] + share * (s.target + s.offsets[j] - start_[i]));
          v_[i].setZero();
        }
      }
      if (solver_ || hybrid_) {
        const fem::ImplicitReport r = solver_ ? solver_->step(x_, v_) : hybrid_->step(x_, v_);
        const fem::ImplicitSolverDef& sd = solver_ ? solver_->def() : hybrid_->def();
        report_.newton_iterations += r.newton_iterations;
        report_.cg_iterations += r.cg_iterations;
        report_.relative_residual = std::max(report_.relative_residual, r.relative_residual);
        report_.newton_residual = std::max(report_.newton_residual, r.newton_residual);
        const bool newton_short = sd.max_newton_iterations > 1 && r.newton_residual > sd.newton_tolerance;
        const bool solve_failed =
            !r.converged && !(scene_.inexact_solves && std::isfinite(r.relative_residual));
        if (solve_failed || newton_short) report_.converged = false;
      } else {
        integrator_.step(model, x_, v_);
        report_.cg_iterations += integrator_.last_cg_iterations();
      }
    }
  }

  std::string name_;
  TetMesh rest_;
  std::vector<materials::Material> materials_;
  fem::FemBodyDef def_;  // without the held nodes
  FemSceneDef scene_;
  std::unique_ptr<fem::FemForceModel> model_;
  std::optional<fem::ImplicitSolver> solver_;
  std::optional<fem::HybridSolver> hybrid_;  // instead of solver_ for a hybrid body
  std::vector<Index> hybrid_interior_held_;  // held nodes hybrid_ was condensed with as fixed ones
  dynamics::Integrator integrator_;
  double h_ = 0.0;  // the substep in use (unit: s), 0 before the first step
  std::vector<Vec3> x_, v_, f_, pending_, start_;
  std::vector<char> fixed_, held_;
  TriMesh surface_;
  std::vector<Index> surface_node_;
  std::vector<Vec3> xs_;
  Adjacency adjacency_;
  std::vector<Slot> slots_;
  FemStepReport report_;
  EventLog events_, incoming_;
  mutable std::vector<double> vm_tet_, vm_node_, volume_node_;
  std::uint64_t topology_version_ = 0;
  // The blade's sweep being accumulated: where it started, where the last step left it (unit: m).
  bool sweeping_ = false;
  Vec3 sweep_a0_ = Vec3::Zero(), sweep_b0_ = Vec3::Zero(), last_a1_ = Vec3::Zero(), last_b1_ = Vec3::Zero();
  Vec3 cut_a_ = Vec3::Zero(), cut_b_ = Vec3::Zero();  // where the last cut left the edge (unit: m)
};

// A hybrid body: its operational region can be cut.
class CuttableFemSceneBody final : public FemSceneBody, public Cuttable {
 public:
  explicit CuttableFemSceneBody(std::string name) : FemSceneBody(std::move(name)) {}
  bool cut(const BladeSweep& blade) override { return cut_operational(blade); }
};

std::unique_ptr<FemSceneBody> FemSceneBody::make_empty(std::string name, bool hybrid) {
  if (hybrid) return std::make_unique<CuttableFemSceneBody>(std::move(name));
  return std::unique_ptr<FemSceneBody>(new FemSceneBody(std::move(name)));
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

}  // namespace

std::unique_ptr<Body> make_fem_body(const JsonReader& body, BodyInputs in) {
  if (!in.volume) body.at("mesh").fail("the fem family needs a volume (tetrahedral) mesh");
  const TetMesh& mesh = *in.volume;
  std::vector<materials::Material> materials = {read_material(body.at("material"))};
  fem::FemBodyDef def;
  FemSceneDef scene;
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
    if (auto regions = j.find("material_regions")) {
      // Per-tet materials: each entry overrides the tets whose centroid its region selects.
      std::vector<Vec3> centroids(mesh.tets.size());
      for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
        centroids[t].setZero();
        for (Index a : mesh.tets[t]) centroids[t] += 0.25 * mesh.positions[static_cast<std::size_t>(a)];
      }
      std::vector<materials::Material> per_tet(mesh.tets.size(), materials.front());
      for (const JsonReader& r : regions->elements(1)) {
        r.expect_object({"region", "material"});
        const JsonReader where = r.at("region");
        const Region region = take(parse_region(where.string()), where);
        const materials::Material m = read_material(r.at("material"));
        const std::vector<Index> tets = select_nodes(centroids, region);
        if (tets.empty()) where.fail("the region selects no tet (by centroid)");
        for (Index t : tets) per_tet[static_cast<std::size_t>(t)] = m;
      }
      materials = std::move(per_tet);
    }
    if (auto d = j.find("damping")) {
      d->expect_object({"alpha", "beta"});
      if (auto v = d->find("alpha")) def.rayleigh_alpha = v->non_negative();
      if (auto v = d->find("beta")) def.rayleigh_beta = v->non_negative();
    }
    if (auto v = j.find("gravity")) def.gravity = v->vec3();
    def.surface_loads = read_surface_loads(j, mesh);
    if (auto v = j.find("integrator")) {
      const std::string name = v->one_of({"backward_euler", "newmark", "bdf2", "quasi_static",
                                          "symplectic_euler", "central_difference", "houbolt"});
      for (FemIntegrator i : {FemIntegrator::backward_euler, FemIntegrator::newmark, FemIntegrator::bdf2,
                              FemIntegrator::quasi_static, FemIntegrator::symplectic_euler,
                              FemIntegrator::central_difference, FemIntegrator::houbolt}) {
        if (name == fem_integrator_name(i)) scene.integrator = i;
      }
    }
    if (auto v = j.find("dt")) scene.substep = v->number_in(0.0, in.time_step, true);
    if (auto s = j.find("solver")) {
      s->expect_object({"kind", "tolerance", "max_iterations", "newton_iterations", "newton_tolerance"});
      bool fast = false;
      if (auto v = s->find("kind")) {
        scene.solver.solver = read_solver_kind(*v, fast);
        if (fast) {
          // A capped solve puts its error into the next state. Newmark has no numerical damping to take it
          // out: on the liver_cut example it diverged with caps of 2, 3 and 4. A hybrid body takes 3: a cut
          // can set a small piece loose, which a cap of 2 flung away there (3 kept it within 1 % of the
          // converged motion on the benchmark organ, docs/fem.md).
          if (scene.integrator == FemIntegrator::newmark)
            v->fail(
                "\"fast\" (a capped, inexact solve) needs backward_euler or bdf2: Newmark damps nothing, and "
                "the error a capped solve leaves grows from step to step");
          scene.solver.pcg_max_iterations = settings->has("hybrid") ? 3 : 2;
          scene.inexact_solves = true;
        }
      }
      if (auto v = s->find("tolerance")) scene.solver.pcg_tolerance = v->number_in(0.0, 1.0, true);
      if (auto v = s->find("max_iterations"))
        scene.solver.pcg_max_iterations = static_cast<int>(v->integer(1, 1000000));
      if (auto v = s->find("newton_iterations"))
        scene.solver.max_newton_iterations = static_cast<int>(v->integer(1, 1000));
      if (auto v = s->find("newton_tolerance")) scene.solver.newton_tolerance = v->number_in(0.0, 1.0, true);
    }
  }
  for (const Region& r : in.fixed) {
    const auto nodes = select_nodes(mesh.positions, r);
    def.fixed_nodes.insert(def.fixed_nodes.end(), nodes.begin(), nodes.end());
  }
  if (def.mass == fem::MassKind::consistent && !settings->has("modal")) {
    if (is_explicit(scene.integrator))
      settings->at("mass").fail(
          fmt::format("a consistent mass needs an implicit integrator ({} takes a diagonal "
                      "mass): use \"lumped\" or an implicit \"integrator\"",
                      fem_integrator_name(scene.integrator)));
    if (settings->has("hybrid"))
      settings->at("mass").fail(
          "a hybrid body takes a lumped mass only (its condensed part is built on one)");
  }
  if (settings && settings->has("modal")) {
    if (settings->has("hybrid")) settings->at("hybrid").fail("a modal body cannot be hybrid too");
    return make_fem_modal_body(*settings, mesh, std::move(materials), std::move(def), in);
  }
  if (auto hybrid = settings ? settings->find("hybrid") : std::nullopt) {
    hybrid->expect_object({"operational", "cut"});
    scene.operational = read_operational(hybrid->at("operational"), mesh);
    if (auto c = hybrid->find("cut"))
      scene.cut.mode =
          c->one_of({"split", "remove"}) == "split" ? fem::TetCutMode::split : fem::TetCutMode::remove;
    if (!hybrid_integrator(scene.integrator)) settings->at("integrator").fail(kHybridIntegrators);
    if (!hybrid_solver(scene.solver.solver)) settings->at("solver").at("kind").fail(kHybridSolvers);
  } else if (scene.solver.solver == fem::LinearSolverKind::interface_pcg) {
    settings->at("solver").at("kind").fail("interface_pcg needs a hybrid body");
  }
  if (scene.integrator == FemIntegrator::quasi_static && def.fixed_nodes.empty()) {
    (settings ? settings->at("integrator") : body)
        .fail("quasi_static stepping needs \"fixed\" nodes (static equilibrium of a free body is singular)");
  }
  bool substep_too_large = false;
  Result<std::unique_ptr<FemSceneBody>> built =
      FemSceneBody::build(in.name, mesh, std::move(materials), std::move(def), scene, &substep_too_large);
  if (!built.ok()) {
    // The JSON path names the family: drop the library's own "fem: " prefix after it.
    std::string_view message = built.message();
    if (message.starts_with("fem: ")) message.remove_prefix(5);
    if (substep_too_large) settings->at("dt").fail(message);  // only a given "dt" can be too large
    (settings ? *settings : body).fail(message);
  }
  const double substep = (*built)->configured_substep();
  if (substep > 0.0 && in.time_step / substep > kMaxSubsteps) {
    (settings ? *settings : body)
        .fail(fmt::format("one world step of {:.3g} s would take {:.3g} substeps of {:.3g} s: raise \"dt\", "
                          "lower the stiffness or pick an implicit \"integrator\"",
                          in.time_step, in.time_step / substep, substep));
  }
  return std::move(built).value();
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

Result<std::unique_ptr<Body>> make_fem_scene_body(std::string name, const TetMesh& rest,
                                                  std::vector<materials::Material> materials,
                                                  fem::FemBodyDef def, FemSceneDef scene) {
  Result<std::unique_ptr<detail::FemSceneBody>> built =
      detail::FemSceneBody::build(std::move(name), rest, std::move(materials), std::move(def), scene);
  if (!built.ok()) return Error{built.message()};
  return std::unique_ptr<Body>(std::move(built).value());
}

const FemSceneView* fem_view(const Body& body) { return dynamic_cast<const detail::FemSceneBody*>(&body); }

}  // namespace pliant::scene
