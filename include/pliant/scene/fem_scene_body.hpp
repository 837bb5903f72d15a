// The dynamic FEM family behind the surface contract: a fem::FemForceModel advanced by the family's
// implicit solver (backward Euler, Newmark, quasi-static) or by an explicit dynamics::Integrator
// (symplectic Euler, central differences), seen as a scene body; built from C++ without a scene file,
// and read-only access to the FEM state behind such a body for tests, output and tools.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/fem_force_model.hpp"
#include "pliant/models/fem/implicit_solver.hpp"
#include "pliant/models/fem/tet_cut.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::fem {
class HybridSolver;
}

namespace pliant::scene {

/// How a FEM scene body advances in time.
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
const char* fem_integrator_name(FemIntegrator integrator);

/// How a FEM scene body steps (C++20 aggregate).
struct FemSceneDef {
  FemIntegrator integrator = FemIntegrator::backward_euler;
  /// Substep h (unit: s); each Body::step(dt) takes ceil(dt / h) equal substeps. 0: one substep per
  /// step for the implicit integrators, explicit_safety times the estimated stable step for the
  /// explicit ones. A given h above the explicit stable step is refused by make_fem_scene_body.
  double substep = 0.0;
  /// Fraction of the estimated explicit stable step taken (dimensionless, in (0, 1]).
  double explicit_safety = 0.8;
  /// Linear solver, Newton iterations and tolerances of the implicit integrators (its scheme and dt are
  /// set from `integrator` and the substep).
  fem::ImplicitSolverDef solver = {};
  /// An inexact solve by design (rest_factor_pcg with a small CG cap, the family's fast path): a CG
  /// cap reached is then not reported as a convergence failure.
  bool inexact_solves = false;
  /// Per-tet operational flags (#tets entries, non-zero = operational): non-empty makes the body hybrid
  /// (fem::HybridSolver, Wu & Heng 2005): the flagged tets use the def's element, the others are linear
  /// and condensed once. Needs the backward_euler or newmark integrator and the cholmod solver.
  std::vector<std::uint8_t> operational = {};
  /// How a blade cuts a hybrid body's operational region (fem::cut_tets: split along the swept surface,
  /// or remove the crossed tets; the snap fraction). Only hybrid bodies are cuttable.
  fem::TetCutDef cut = {};
};

/// What the last Body::step did, summed over its substeps (iteration counts) or worst over them
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

/// Read-only access to the FEM state behind a fem-family body.
class FemSceneView {
 public:
  virtual ~FemSceneView() = default;
  /// The force model; its fixed nodes include the nodes grabs hold, so it is rebuilt on grab and release.
  virtual const fem::FemForceModel& model() const = 0;
  /// All node positions (unit: m) and velocities (unit: m/s), interior nodes included.
  virtual std::span<const Vec3> positions() const = 0;
  virtual std::span<const Vec3> velocities() const = 0;
  virtual const FemStepReport& last_report() const = 0;
  /// The substep of the last step (unit: s).
  virtual double substep() const = 0;
  /// The von Mises stress of the Cauchy stress of every tet (unit: Pa) into out (#tets entries):
  /// σ = λ tr ε I + 2μ ε with ε = sym(F) - I (linear) or sym(RᵀF) - I (corotational, R the polar
  /// rotation), σ = P Fᵀ / det F (hyperelastic). Allocates nothing; a wrong size writes nothing.
  virtual void von_mises(std::span<double> out) const = 0;
  /// The hybrid solver of a hybrid body (its operational tets, interface, condensation), else nullptr.
  virtual const fem::HybridSolver* hybrid() const = 0;
};

/// A scene body named `name`: the tet mesh `rest` (unit: m) with one material or one per tet,
/// `def` (element, mass, Rayleigh damping, gravity, fixed nodes) and the stepping of `scene`. Its surface is
/// the mesh's boundary; grabs are soft patches held kinematically (the patch nodes become fixed nodes
/// moved with the handle, so the force model and solver are rebuilt at grab and release); a grab's
/// reaction is the sum of the body's forces on its nodes after the step (elastic, damping, gravity);
/// apply_force spreads a force (unit: N) over a triangle's corners by barycentric weight for the next
/// step. Fields: "displacement" (m), "speed" (m/s), "von_mises" (Pa, the volume-weighted mean over the
/// tets around each surface node). Stages: "fem.solve", "fem.reaction" (unit: ms). Steps never throw;
/// after the first step they allocate nothing with the pcg solver and the explicit integrators (CHOLMOD
/// allocates inside its factorisations and solves). Fails with one line on a bad mesh, material, def,
/// an explicit substep above the stable step, or a consistent mass with an explicit integrator or a
/// hybrid body.
///
/// A hybrid body (non-empty scene.operational) has the Cuttable capability: a blade's sweep cuts its
/// operational tets (fem::cut_tets with `scene.cut`, the interface and fixed nodes frozen, the sweep
/// accumulated while the blade keeps moving in one direction), the solver is updated locally
/// (fem::HybridSolver::replace_operational, the condensed part kept), the surface is re-extracted
/// (surface_topology_version() grows) and a FemCutEvent is emitted in the next step. A cut allocates;
/// a sweep that misses allocates nothing. Other FEM bodies are not Cuttable.
Result<std::unique_ptr<Body>> make_fem_scene_body(std::string name, const TetMesh& rest,
                                                  std::vector<materials::Material> materials,
                                                  fem::FemBodyDef def, FemSceneDef scene);

/// The FEM state behind a fem-family body, or nullptr for a body of another family.
const FemSceneView* fem_view(const Body& body);

/// Estimated largest angular frequency of the undamped free vibration of `model` at its rest shape
/// (unit: rad/s), by power iteration on M^-1/2 K M^-1/2 over the free nodes (a lower bound that the
/// iteration approaches from below).
double fem_max_frequency(const fem::FemForceModel& model);

}  // namespace pliant::scene
