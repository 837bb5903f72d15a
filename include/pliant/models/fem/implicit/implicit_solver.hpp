// Assembled implicit time stepping of a FemForceModel: backward Euler with Newton iterations, and
// quasi-static equilibrium per frame.
//
// Backward Euler (Baraff & Witkin 1998) solves M Δv = h f(x + h(v + Δv), v + Δv) for the velocity
// change Δv. The first Newton iteration linearises the forces at the current state,
//   (M + h D + h² K) Δv = h (f(x, v) - h K v),         D = α M + β K,
// exactly the linearised scheme of dynamics::Integrator; each further iteration re-evaluates forces and
// stiffness at x_k = x + h(v + Δv_k) and solves (M + h D + h² K) δ = h f(x_k, v + Δv_k) - M Δv_k. One
// iteration is the usual choice for linear and corotational elements, several converge the hyperelastic
// ones. Newmark's average-acceleration rule (β = 1/4, γ = 1/2: second order, no numerical damping) solves
// M a⁺ = f(x̃ + βh² a⁺, ṽ + γh a⁺) for the new acceleration, x̃ = x + h v + h²(½ - β) a,
// ṽ = v + h(1 - γ) a, with the Jacobian M + γh D + βh² K; its first iteration starts from a⁺ = 0, which is
// dynamics::Integrator's linearised Newmark step. Quasi-static stepping drops inertia: Newton on f(x) = 0
// (elastic, gravity and point forces) on the free nodes, K(x_k) δ = f(x_k), velocities zero.
//
// M is the model's lumped or consistent mass (FemBodyDef::mass): a consistent M enters the assembled
// matrix in the same sparsity as K (its blocks couple the nodes of a tet), the matrix-free products of
// rest_factor_pcg through FemForceModel::add_mass_product, and Newmark's start-up acceleration M⁻¹ f is
// one Jacobi-PCG solve on M.
//
// The system matrix lives in a sparsity pattern built once over the free nodes (3×3 blocks of mesh
// neighbours); each Newton iteration refills its values from the model's element stiffnesses (the PSD
// projected ones for hyperelastic elements) by a per-node gather, deterministic for any thread count.
// It is solved either by CHOLMOD, analysing the pattern once and then only refactoring numerically, or
// by Jacobi-preconditioned CG warm-started from the previous solution (no allocation after the first
// step; CHOLMOD allocates inside its factorisation and solves). rest_factor_pcg keeps its rest factor in
// single precision (single_precision_factor.hpp) and allocates nothing after its first step either.
#pragma once

#include "pliant/dynamics/implicit_scheme.hpp"

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"

#include <Eigen/Core>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::fem {

enum class ImplicitScheme {
  backward_euler,  ///< implicit Euler with Newton iterations
  newmark,         ///< Newmark (1959) average acceleration (β = 1/4, γ = 1/2) with Newton iterations
  /// Second-order backward differences (BDF2, Gear 1971): backward Euler's system with h' = 2h/3 from the
  /// extrapolated state (4 x_n - x_{n-1})/3, (4 v_n - v_{n-1})/3; second-order accurate and A-stable, it
  /// damps a resolved mode far less than backward Euler. Its first step, and the first after the state
  /// was changed from outside (a stepped node's x or v not as the last step left them; kinematic nodes
  /// may move), is a backward Euler step.
  bdf2,
  quasi_static,  ///< static equilibrium each step (no inertia), Newton
};

enum class LinearSolverKind {
  cholmod,  ///< sparse Cholesky, symbolic analysis once, numeric refactorisation per Newton iteration
  pcg,      ///< Jacobi-preconditioned conjugate gradients, warm-started
  /// Matrix-free CG on the current system, preconditioned by a CHOLMOD factor of the system matrix at
  /// the rest shape, computed once and kept as a float copy (SinglePrecisionFactor: half the memory
  /// traffic per solve; CG's tolerance still holds, the preconditioner only has to be SPD): no assembly
  /// or factorisation per step. With a small fixed
  /// pcg_max_iterations it is a fast, inexact solve whose accuracy the caller measures (the rotations
  /// enter through the matrix-free products and the forces, the constant factor supplies the rest).
  rest_factor_pcg,
  /// fem::HybridSolver only (ImplicitSolver refuses it): the operational system split into its interior
  /// and the condensed interface; the interior block factored per Newton iteration (small and sparse),
  /// the interface system solved by CG to pcg_tolerance, preconditioned by a dense Cholesky factor of
  /// the interface system at a reference state (hybrid_solver.hpp).
  interface_pcg,
};

/// "cholmod", "pcg", "rest_factor_pcg" or "interface_pcg".
const char* linear_solver_name(LinearSolverKind kind);
Result<LinearSolverKind> parse_linear_solver(std::string_view name);

/// Plain settings of the implicit solver (C++20 aggregate).
struct ImplicitSolverDef {
  ImplicitScheme scheme = ImplicitScheme::backward_euler;
  double dt = 0.01;  ///< time step h (unit: s), > 0; unused by quasi_static
  LinearSolverKind solver = LinearSolverKind::cholmod;
  int max_newton_iterations = 1;   ///< ≥ 1; 1 = linearised backward Euler
  double newton_tolerance = 1e-6;  ///< stop when the nonlinear residual drops below this, relative
                                   ///< to the first right-hand side (dimensionless)
  double pcg_tolerance = 1e-6;     ///< CG stops at ‖r‖ ≤ tol ‖b‖ (dimensionless)
  int pcg_max_iterations = 2000;   ///< CG iteration cap per linear solve
};

/// What one step did.
struct ImplicitReport {
  int newton_iterations = 0;       ///< linear solves this step
  int cg_iterations = 0;           ///< CG iterations summed over the Newton iterations (0 for CHOLMOD)
  double relative_residual = 0.0;  ///< ‖b - A y‖/‖b‖ of the last linear solve
  double newton_residual = -1.0;   ///< last nonlinear residual measured (relative), -1 when none was
  bool converged = true;           ///< false when a factorisation failed or CG hit its cap
};

class ImplicitSolver {
 public:
  /// Builds the pattern over the nodes not in the model's def().fixed_nodes; those of them that the model
  /// holds (FemForceModel::set_held_nodes: inverse mass 0) are held (see refresh_held_nodes). Holds a
  /// reference to the model: valid while it is, and def().fixed_nodes must not change. Fails with one line
  /// on a bad def or a model without free nodes (or, for quasi_static, without fixed nodes).
  static Result<ImplicitSolver> build(const FemForceModel& model, const ImplicitSolverDef& def);
  /// Re-reads which pattern nodes the model holds (inverse mass 0) after FemForceModel::set_held_nodes,
  /// without a new pattern, symbolic analysis or rest factor: a held node's DOFs become identity rows and
  /// columns of the assembled matrix (values only, so CHOLMOD refactors on the same analysis) with a zero
  /// right-hand side, and CG (pcg, rest_factor_pcg) runs on the free subspace (the rest factor applied as
  /// P L⁻ᵀL⁻¹ P, P the projection onto the free DOFs: still SPD there). Forgets Newmark's acceleration and
  /// the warm start, as a rebuilt solver would. Held nodes stay as given by step. Fails with one line when
  /// the model would leave no node free (or, for quasi_static, none kinematic), changing nothing.
  Status refresh_held_nodes();
  /// The number of held nodes (pattern nodes with inverse mass 0).
  Index held_node_count() const { return held_count_; }
  ImplicitSolver(ImplicitSolver&&) noexcept;
  ImplicitSolver& operator=(ImplicitSolver&&) noexcept;
  ~ImplicitSolver();

  /// Forgets Newmark's acceleration and BDF2's previous state (after a teleport or a change of loads).
  void reset_history() {
    has_acceleration_ = false;
    has_previous_ = false;
  }
  /// Advances x and v (#nodes each, unit: m and m/s) by one step; kinematic nodes stay as given.
  ImplicitReport step(std::span<Vec3> x, std::span<Vec3> v);

  const ImplicitSolverDef& def() const { return def_; }
  /// The system matrix of the last Newton iteration over the pattern's DOFs (unit: kg; identity rows and
  /// columns on held nodes; rest_factor_pcg: the rest matrix, held nodes included), for inspection.
  const SparseMatrix& matrix() const { return A_; }

 private:
  struct Factor;
  ImplicitSolver() = default;
  void assemble(std::span<const Vec3> x, double mass_coefficient, double stiffness_coefficient);
  // Solves A y = b on the free DOFs (y warm-started for PCG); fills report's residual and iterations.
  bool solve(ImplicitReport& report);
  // One Newton form for Newmark and backward Euler (dynamics/implicit_scheme.hpp): the free nodes'
  // increment z (dv_) solves r(z) = s f(x + a (z + c v), v + b z) - M z = 0 with the system
  // (cm M + ck K) y = r per iteration.
  using NewtonForm = dynamics::ImplicitForm;
  // Iterates from first_iteration with dv_ as the start; reference 0 takes the first residual's norm.
  void newton(std::span<const Vec3> x, std::span<const Vec3> v, const NewtonForm& form, int first_iteration,
              double reference, ImplicitReport& report);

  const FemForceModel* model_ = nullptr;
  ImplicitSolverDef def_;
  std::vector<Index> free_index_;      // per node: index among free nodes, -1 when kinematic
  std::vector<Index> free_nodes_;      // free node of each index
  std::vector<Index> column_offsets_;  // per free node + 1: first neighbour slot
  std::vector<Index> diagonal_slot_;   // per free node: its own slot
  std::vector<Index> incident_offsets_;
  std::vector<Index> incident_tets_;
  std::vector<std::int8_t> incident_local_;
  std::vector<Index> incident_slots_;  // 4 per incidence: slot of tet node b in column a, -1 if fixed
  std::vector<Mat12> element_;         // per tet, refilled per assembly
  SparseMatrix A_;
  std::unique_ptr<Factor> factor_;
  Eigen::VectorXd b_, y_, r_, z_, p_, q_, diagonal_;
  std::vector<Vec3> f_, rhs_, dv_, xk_, vk_, acc_, pf_, qf_;
  std::span<const Vec3> linearised_at_;  // rest_factor_pcg: positions of the current system
  std::vector<Mat3> frames_;             // rest_factor_pcg, corotational: node rotations at linearised_at_
  Eigen::VectorXd w_;                    // rest_factor_pcg: the residual in the node frames
  double mass_coefficient_ = 0.0, stiffness_coefficient_ = 0.0;
  bool rest_factored_ = false;
  void apply_matrix_free(const Eigen::VectorXd& p, Eigen::VectorXd& q);
  // acc_ = M⁻¹ f_ on the free nodes (0 on kinematic ones): Newmark's start; a CG solve for a consistent M.
  void mass_acceleration();
  // Jacobi-PCG on A y_ = b_ from the y_ given, A applied by apply(p, q) (q = A p), the preconditioner
  // diagonal_ (rest_factor_cg.hpp's CG): stops at ‖r‖ ≤ tolerance, after max_iterations or on a
  // breakdown. Returns the iterations and leaves ‖r‖ in *residual.
  template <class Apply>
  int jacobi_pcg(const Apply& apply, double tolerance, int max_iterations, double* residual);
  bool has_acceleration_ = false;  // Newmark: acc_ holds the last step's acceleration
  // BDF2: the state before the last step, and the last step's result (to notice outside changes).
  std::vector<Vec3> previous_x_, previous_v_, stepped_x_, stepped_v_;
  bool has_previous_ = false;
  // Backward Euler from (x, v) with step h, in place.
  void backward_euler(std::span<Vec3> x, std::span<Vec3> v, double h, ImplicitReport& report);
  std::vector<char> held_;  // per free index: held (kinematic through the model's inverse mass)
  Index held_count_ = 0;
  // z = Q A0⁻¹ Qᵀ r (rest_factor_pcg's preconditioner, Q the node rotations frames_), projected.
  void precondition(const Eigen::VectorXd& r, Eigen::VectorXd& z);
  // b_ <- a per-node vector on the free DOFs, projected; and the norm of one over the stepped nodes.
  void gather_free(const std::vector<Vec3>& full);
  double free_norm(const std::vector<Vec3>& full) const;
  // Zeroes the held DOFs of a vector over the free DOFs.
  void project(Eigen::VectorXd& vec) const;
  // Whether node i is stepped: in the pattern and not held.
  bool stepped(std::size_t i) const {
    const Index a = free_index_[i];
    return a >= 0 && !held_[static_cast<std::size_t>(a)];
  }
};

}  // namespace pliant::fem
