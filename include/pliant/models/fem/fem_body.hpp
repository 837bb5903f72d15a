// FemBody: the dynamic FEM family's run time. A fem::FemForceModel over a tet mesh, advanced by the
// family's implicit solver (backward Euler, Newmark, BDF2, quasi-static), by an explicit or Houbolt
// dynamics::Integrator, or, for a hybrid body, by fem::HybridSolver (Wu & Heng 2005); its boundary
// surface, soft grabs held kinematically, point forces, and the cut of a hybrid body's operational
// region with the surface re-extracted after it.
//
// Grabs hold a patch of surface nodes kinematically: the nodes move with the grab's target and their
// velocity stays zero; the force model and the solver take the held nodes in values only (no new
// pattern, symbolic analysis or rest factor), except on a hybrid body whose held nodes reach its
// condensed interior, which is condensed again. A grab's reaction is the sum of the body's forces on
// its nodes after the step (elastic, damping, gravity).
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/grab_id.hpp"
#include "pliant/core/grab_released.hpp"
#include "pliant/core/grab_slots.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/cut/tet_cut.hpp"
#include "pliant/models/fem/fem_asset.hpp"
#include "pliant/models/fem/hybrid/hybrid_solver.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::fem {

/// How a FEM body advances in time.
enum class FemIntegrator {
  backward_euler,      ///< fem::ImplicitSolver, Newton iterations (Baraff & Witkin 1998)
  newmark,             ///< fem::ImplicitSolver, average acceleration (Newmark 1959)
  bdf2,                ///< fem::ImplicitSolver, second-order backward differences (Gear 1971)
  quasi_static,        ///< fem::ImplicitSolver, static equilibrium each step (needs fixed nodes)
  symplectic_euler,    ///< dynamics::Integrator, explicit, substeps below the stable step
  central_difference,  ///< dynamics::Integrator, explicit with lumped M (Masutani et al. 2004)
  houbolt,             ///< dynamics::Integrator, Houbolt's implicit four-level scheme (1950), linearised
                       ///< once per step, Jacobi-PCG to the solver's tolerance
};

/// The scene files' name of an integrator ("backward_euler", ...).
const char* integrator_name(FemIntegrator integrator);

/// True for the conditionally stable integrators (symplectic Euler, central differences), whose substep
/// must stay below the stable step and which take a diagonal (lumped) mass.
bool is_explicit(FemIntegrator integrator);

/// What a hybrid body takes (fem::HybridSolver::build refuses the rest).
bool hybrid_integrator(FemIntegrator integrator);
bool hybrid_linear_solver(LinearSolverKind kind);

/// How a FEM body steps (C++20 aggregate).
struct FemStepDef {
  FemIntegrator integrator = FemIntegrator::backward_euler;
  /// Substep h (unit: s); each FemBody::step(dt) takes ceil(dt / h) equal substeps. 0: one substep per
  /// step for the implicit integrators, explicit_safety times the estimated stable step for the
  /// explicit ones. A given h above the explicit stable step is refused by FemBody::build.
  double substep = 0.0;
  /// Fraction of the estimated explicit stable step taken (dimensionless, in (0, 1]).
  double explicit_safety = 0.8;
  /// Linear solver, Newton iterations and tolerances of the implicit integrators (its scheme and dt are
  /// set from `integrator` and the substep).
  ImplicitSolverDef solver = {};
  /// An inexact solve by design (rest_factor_pcg with a small CG cap, the family's fast path): a CG
  /// cap reached is then not reported as a convergence failure.
  bool inexact_solves = false;
  /// Per-tet operational flags (#tets entries, non-zero = operational): non-empty makes the body hybrid
  /// (fem::HybridSolver, Wu & Heng 2005): the flagged tets use the def's element, the others are linear
  /// and condensed once. Needs the backward_euler or newmark integrator and the cholmod solver.
  std::vector<std::uint8_t> operational = {};
  /// How a blade cuts a hybrid body's operational region (fem::cut_tets: split along the swept surface,
  /// or remove the crossed tets; the snap fraction). Only hybrid bodies are cuttable.
  TetCutDef cut = {};
};

/// A FEM body's per-instance settings beside its shared fem::FemAsset: the force model's def (element,
/// mass, damping, gravity, fixed nodes, surface loads) and the stepping (C++20 aggregate).
struct FemDef {
  FemBodyDef body = {};
  FemStepDef step = {};
};

/// What the last FemBody::step did, summed over its substeps (iteration counts) or worst over them
/// (residuals).
struct FemStepReport {
  int substeps = 0;
  int newton_iterations = 0;       ///< linear solves (0 for the explicit integrators)
  int cg_iterations = 0;           ///< CG iterations (0 for CHOLMOD and the explicit integrators)
  double relative_residual = 0.0;  ///< worst ‖b - A y‖/‖b‖ of the linear solves (dimensionless)
  double newton_residual = -1.0;   ///< worst last nonlinear residual (relative), -1 when none measured
  bool converged = true;           ///< false when a solve failed, or Newton stopped above its tolerance
};

/// The event a FEM body emits for a step whose solve did not converge (FemStepReport::converged false)
/// or whose state stopped being finite.
struct FemSolverWarning {
  static constexpr std::string_view category = "fem.solver";
  int newton_iterations = 0;
  double newton_residual = -1.0;   ///< relative, -1 when none was measured
  double relative_residual = 0.0;  ///< of the worst linear solve
  bool finite = true;              ///< false when positions or velocities became NaN or infinite
  /// The brief carries the worse of the two residuals (relative).
  EventBrief brief() const {
    return {finite ? "fem_not_converged" : "fem_not_finite", -1, Vec3::Zero(), "relative_residual",
            newton_residual > relative_residual ? newton_residual : relative_residual};
  }
};

/// The event a hybrid FEM body emits for a step in which a blade cut its operational region (one per
/// cutting step): how many tets were split (or removed, in remove mode) and nodes added.
struct FemCutEvent {
  static constexpr std::string_view category = "cut";
  Index tets_split = 0;          ///< tets separated along the cut (split mode)
  Index tets_removed = 0;        ///< tets deleted (remove mode)
  Index nodes_added = 0;         ///< nodes the cut appended
  Vec3 position = Vec3::Zero();  ///< mean current position of the cut tets' centroids (unit: m)
  EventBrief brief() const {
    return tets_removed > 0
               ? EventBrief{"cut", -1, position, "tets_removed", static_cast<double>(tets_removed)}
               : EventBrief{"cut", -1, position, "tets_split", static_cast<double>(tets_split)};
  }
};

/// Most substeps one FemBody::step may take (a step that would need more reports no convergence).
inline constexpr double kMaxSubsteps = 100000;

/// Estimated largest angular frequency of the undamped free vibration of `model` at its rest shape
/// (unit: rad/s), by power iteration on M^-1/2 K M^-1/2 over the free nodes (a lower bound that the
/// iteration approaches from below).
double max_frequency(const FemForceModel& model);

/// Stable step of symplectic Euler and central differences for the highest mode ω of `model` with
/// stiffness-proportional damping β: h ≤ (2/ω)(√(1 + ζ²) - ζ), ζ = βω/2 (unit: s).
double explicit_stable_step(const FemForceModel& model);

class FemBody {
 public:
  /// A body over `asset` (shared, never changed: see fem_asset.hpp) with `def` (element, mass, Rayleigh
  /// damping, gravity, fixed nodes) and the stepping `step`. Fails with one line ("fem: ...") on a null
  /// asset, a bad def, an explicit substep above the stable step (then *substep_too_large is set when
  /// given, so that a reader can name its key), or a consistent mass with an explicit integrator or a
  /// hybrid body.
  static Result<FemBody> build(std::shared_ptr<const FemAsset> asset, FemBodyDef def, FemStepDef step,
                               bool* substep_too_large = nullptr);
  /// A convenience for callers that do not share the rest data: builds a private FemAsset from the tet
  /// mesh `rest` (unit: m) with one material or one per tet, then the body over it. Fails as
  /// FemAsset::build does on a bad mesh or material, else as the build above.
  static Result<FemBody> build(const TetMesh& rest, std::vector<materials::Material> materials,
                               FemBodyDef def, FemStepDef step, bool* substep_too_large = nullptr);

  /// The rest data the body reads: the shared asset it was built from, or, after a cut, its own.
  const std::shared_ptr<const FemAsset>& asset() const { return asset_; }
  /// The force model; its fixed nodes include the nodes grabs hold.
  const FemForceModel& model() const { return *model_; }
  /// The mesh as cut so far (unit: m) and its def (without the held nodes) and stepping.
  const TetMesh& rest() const { return asset_->rest(); }
  const FemBodyDef& def() const { return def_; }
  const FemStepDef& step_def() const { return step_; }
  /// All node positions (unit: m) and velocities (unit: m/s), interior nodes included.
  std::span<const Vec3> positions() const { return x_; }
  std::span<const Vec3> velocities() const { return v_; }
  const FemStepReport& last_report() const { return report_; }
  /// The substep of the last step (unit: s), 0 before the first step.
  double substep() const { return h_; }
  /// The substep the body was built with (unit: s; the explicit ones' from the stable step), 0 for one
  /// substep per step.
  double configured_substep() const { return step_.substep; }
  /// The hybrid solver of a hybrid body (its operational tets, interface, condensation), else nullptr.
  const HybridSolver* hybrid() const { return hybrid_ ? &*hybrid_ : nullptr; }

  /// The boundary surface: rest positions (unit: m) and outward triangles in surface numbering, its
  /// nodes' volume ids, their current positions (unit: m) and the surface's edge adjacency.
  const TriMesh& surface() const { return asset_->surface(); }
  std::span<const Index> surface_nodes() const { return asset_->surface_nodes(); }
  std::span<const Vec3> surface_positions() const { return xs_; }
  const Adjacency& surface_adjacency() const { return asset_->surface_adjacency(); }
  /// Incremented whenever a cut re-extracts the surface.
  std::uint64_t surface_topology_version() const { return topology_version_; }
  /// Whether surface node `sn` is neither fixed nor held by a grab.
  bool surface_node_free(Index sn) const;

  /// Holds `surface_nodes` (the handle first, each free) kinematically, translating with the target of
  /// `point` (unit: m, where they are now relative to it); an invalid id (slot -1) for an empty patch or
  /// one the solver cannot hold (no node left free).
  GrabId grab(std::span<const Index> surface_nodes, const Vec3& point);
  /// Moves a grab's target (unit: m); the held nodes reach it linearly over the next step's substeps.
  void move_grab(GrabId id, const Vec3& target);
  void release(GrabId id);
  /// The surface nodes a grab holds, the handle first (empty for an invalid id).
  std::span<const Index> grab_nodes(GrabId id) const;
  /// Sum of the body's forces on the held nodes after the last step (unit: N).
  Vec3 grab_reaction(GrabId id) const;
  /// Grabs released since the previous step's start (valid until the next step).
  std::span<const GrabReleased> released_grabs() const { return released_; }

  /// Adds force f (unit: N) at surface node `sn` for the next step.
  void add_surface_force(Index sn, const Vec3& f);

  /// Cuts the operational tets of a hybrid body along the blade's sweep (fem::cut_tets with
  /// step_def().cut, the interface and fixed nodes frozen), accumulating the sweep while the blade keeps
  /// moving in one direction; the solver is updated locally (HybridSolver::replace_operational, the
  /// condensed part kept) and the surface re-extracted. The cut mesh goes into a new asset the body
  /// owns alone (copy on write): the asset it shared, and the bodies sharing it, are left unchanged. False
  /// (nothing changed) for a body that is not hybrid or a sweep that cuts nothing; a cut allocates, a miss
  /// allocates nothing.
  bool cut(const TetCutBlade& sweep);
  /// The cuts since the previous step's start (valid until the next step).
  std::span<const FemCutEvent> cut_events() const { return cut_events_; }

  /// Advances by dt (unit: s) in equal substeps no longer than the configured one; never throws. After
  /// the first step it allocates nothing with the pcg solver and the explicit integrators (CHOLMOD
  /// allocates inside its factorisations and solves). Stages: "fem.solve", "fem.reaction" (unit: ms).
  void step(double dt, Profile& profile);
  /// The last step's warning: a solve that did not converge or a state no longer finite.
  const std::optional<FemSolverWarning>& warning() const { return warning_; }

  /// The von Mises stress of the Cauchy stress of every tet (unit: Pa) into out (#tets entries):
  /// σ = λ tr ε I + 2μ ε with ε = sym(F) - I (linear) or sym(RᵀF) - I (corotational, R the polar
  /// rotation), σ = P Fᵀ / det F (hyperelastic). Allocates nothing; a wrong size writes nothing.
  void von_mises(std::span<double> out) const;
  /// The volume-weighted mean of von_mises over the tets around each surface node (unit: Pa), into
  /// out (#surface nodes entries); a wrong size writes nothing.
  void surface_von_mises(std::span<double> out) const;
  std::uint64_t state_hash() const;

 private:
  FemBody() = default;

  struct Slot {
    std::vector<Index> nodes;         // surface nodes, the handle first
    std::vector<Index> volume_nodes;  // the same nodes in the model's numbering
    std::vector<Vec3> offsets;        // node minus the picked point at grab time (unit: m)
    Vec3 target = Vec3::Zero();       // the picked point's target (unit: m)
    Vec3 reaction = Vec3::Zero();     // force of the body on the tool after the last step (unit: N)
  };
  // The stroke a cut hands to fem::cut_tets: the trimmed sweep and the tets it may cut.
  struct Stroke {
    TetCutBlade blade;
    std::vector<std::uint8_t> cuttable;
  };

  std::vector<Index> held_nodes() const;
  Status apply_held();
  void split_hybrid_held(const std::vector<Index>& held, std::vector<Index>& interior,
                         std::vector<Index>& operational) const;
  std::vector<ElementKind> hybrid_elements() const;
  // Stepping: the stepper choice and one substep.
  Result<std::unique_ptr<FemForceModel>> build_model() const;
  Status rebuild();
  Status build_hybrid_solver(const ImplicitSolverDef& sd, std::optional<HybridSolver>& hybrid,
                             std::vector<Index>& interior_held) const;
  bool set_step_length(double h);
  void advance(double dt);
  void move_held_nodes(int k, int n);
  void solve_substep();
  void update_reactions();
  // Cutting: the stages of a cut.
  void track_sweep(const TetCutBlade& b, double scale);
  bool stroke_misses_region(const TetCutBlade& b) const;
  void tet_bounds(std::size_t t, Vec3& lo, Vec3& hi) const;
  double largest_operational_extent() const;
  std::optional<Stroke> select_stroke(const TetCutBlade& b, double pending, double extent);
  bool apply_cut(const TetCutResult& cut);
  void resize_state();
  void refresh_surface();

  std::shared_ptr<const FemAsset> asset_;  // rest mesh, materials, surface: shared until a cut
  FemBodyDef def_;                         // without the held nodes
  FemStepDef step_;
  std::unique_ptr<FemForceModel> model_;
  std::optional<ImplicitSolver> solver_;
  std::optional<HybridSolver> hybrid_;       // instead of solver_ for a hybrid body
  std::vector<Index> hybrid_interior_held_;  // held nodes hybrid_ was condensed with as fixed ones
  dynamics::Integrator integrator_;
  double h_ = 0.0;  // the substep in use (unit: s), 0 before the first step
  std::vector<Vec3> x_, v_, f_, pending_, start_;
  std::vector<Vec3> start_v_;  // held nodes' velocities at the step's start (unit: m/s)
  double step_dt_ = 0.0;       // the last step (unit: s)
  std::vector<char> fixed_, held_;
  std::vector<Vec3> xs_;  // current surface positions (unit: m)
  GrabSlots<Slot> slots_;
  FemStepReport report_;
  std::optional<FemSolverWarning> warning_;
  std::vector<GrabReleased> released_, pending_released_;
  std::vector<FemCutEvent> cut_events_, pending_cuts_;
  mutable std::vector<double> vm_tet_, vm_node_, volume_node_;
  std::uint64_t topology_version_ = 0;
  // The blade's sweep being accumulated: where it started, where the last step left it (unit: m).
  bool sweeping_ = false;
  Vec3 sweep_a0_ = Vec3::Zero(), sweep_b0_ = Vec3::Zero(), last_a1_ = Vec3::Zero(), last_b1_ = Vec3::Zero();
  Vec3 cut_a_ = Vec3::Zero(), cut_b_ = Vec3::Zero();  // where the last cut left the edge (unit: m)
};

}  // namespace pliant::fem
