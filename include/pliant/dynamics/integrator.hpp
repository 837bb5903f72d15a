// Time integrators over a ForceModel: the schemes Grimm (2005) lists for tissue simulation (explicit
// Euler, midpoint, quasi-static Euler, RK2/RK4, implicit Houbolt, Newmark), central differences with
// lumped mass and Rayleigh mass damping (the explicit FEM scheme of Masutani et al. 2004, reviewed by
// Huang & Wang 2007), symplectic Euler and backward Euler.
//
// Explicit schemes are conditionally stable. For an undamped oscillator of angular frequency ω,
// explicit Euler amplifies every step (|1 + iωh| > 1), symplectic Euler and central differences are
// stable for ω h < 2, RK4 for ω h < 2√2. The implicit schemes linearise the forces once per step and
// solve with block-Jacobi (or Jacobi) preconditioned conjugate gradients on operators of the form α M + β_K K
// + β_D D:
//  backward Euler (Baraff & Witkin 1998): (M + h D + h² K) Δv = h (f - h K v)
//  Newmark (1959), predictors x̃ = x + h v + h²(½ - β) a, ṽ = v + h(1 - γ) a:
//    (M + β h² K + γ h D) a⁺ = f(x̃, ṽ);  x⁺ = x̃ + β h² a⁺, v⁺ = ṽ + γ h a⁺
//  Houbolt (1950): a⁺ = (2x⁺ - 5x + 4x₋₁ - x₋₂)/h², v⁺ = (11x⁺ - 18x + 9x₋₁ - 2x₋₂)/(6h); with
//    x⁺ = x + Δ:  (2M/h² + K + 11/(6h) D) Δ = f(x, v₀) - M(-3x + 4x₋₁ - x₋₂)/h²,
//    v₀ = (-7x + 9x₋₁ - 2x₋₂)/(6h); the history starts from x₋ₖ = x - k h v + ½ (k h)² a, accurate
//    enough (O(h³)) to keep the scheme second order.
// (K = -∂f/∂x, D = -∂f/∂v: positive semidefinite, so every operator is symmetric positive definite on
// the free nodes.) The implicit schemes apply M by ForceModel::add_mass_product, so a consistent mass works
// there (Newmark's and Houbolt's start-up acceleration M⁻¹ f is then one more CG solve); the explicit schemes
// take the diagonal mass().
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/dynamics/force_model.hpp"

#include <span>
#include <vector>

namespace pliant::dynamics {

enum class Scheme {
  explicit_euler,      ///< x += h v; v += h a(x, v)  (both from the old state)
  symplectic_euler,    ///< v += h a(x, v); x += h v_new
  midpoint,            ///< RK2, midpoint rule: a full step with the slope at the half step
  rk2,                 ///< RK2, Heun's rule: a full step with the mean of the slopes at both ends
  rk4,                 ///< classical fourth-order Runge-Kutta
  central_difference,  ///< x⁺ = 2x - x₋ + h² a with exact mass damping; v holds v at the half step
  quasi_static_euler,  ///< no inertia: x += h² a(x) each step, velocity kept zero (relaxation)
  backward_euler,      ///< linearised implicit Euler (one Newton step, CG)
  newmark,             ///< Newmark (β, γ), one linearised solve per step (CG)
  houbolt,             ///< Houbolt's implicit four-level backward difference (CG)
};

/// The scheme's name as scene files spell it ("symplectic_euler", ...).
const char* scheme_name(Scheme scheme);
/// True for the schemes that solve a linear system each step.
bool is_implicit(Scheme scheme);

/// The implicit schemes' CG preconditioner.
enum class Preconditioner {
  /// The model's exact 3×3 diagonal blocks (ForceModel::add_block_diagonal), inverted per node; the
  /// Jacobi diagonal where the model has no blocks or the mass is not diagonal.
  block_jacobi,
  jacobi,  ///< the model's diagonal estimate (ForceModel::add_jacobi_diagonal)
};

/// Plain integrator settings (C++20 aggregate).
struct IntegratorDef {
  Scheme scheme = Scheme::symplectic_euler;
  double dt = 1e-3;             ///< time step h (unit: s), > 0
  double newmark_beta = 0.25;   ///< Newmark β (dimensionless); 0.25 = average acceleration
  double newmark_gamma = 0.5;   ///< Newmark γ (dimensionless); > 0.5 adds numerical damping
  double cg_tolerance = 1e-8;   ///< relative residual at which CG stops (dimensionless)
  int cg_max_iterations = 200;  ///< CG iteration cap per solve
  Preconditioner preconditioner = Preconditioner::block_jacobi;
};

/// Advances a ForceModel's state (x, v). Holds scratch arrays sized at the first step (or when the node
/// count changes, e.g. tearing adds nodes), so steps after warm-up do not allocate.
class Integrator {
 public:
  explicit Integrator(IntegratorDef def = {}) : def_(def) {}
  const IntegratorDef& def() const { return def_; }
  void set_def(const IntegratorDef& def) {
    def_ = def;
    reset_history();
  }

  /// Advances positions x and velocities v ("#nodes" entries each, unit: m and m/s) by def().dt.
  void step(const ForceModel& model, std::span<Vec3> x, std::span<Vec3> v);

  /// Forgets multistep history (Houbolt, central differences) and Newmark's acceleration, e.g. after a
  /// teleport or a topology change.
  void reset_history() { history_ = 0; }
  /// CG iterations of the last implicit solve.
  int last_cg_iterations() const { return last_iterations_; }
  /// ‖rhs - A y‖ / ‖rhs‖ over the free nodes after the last implicit solve (dimensionless; 0 for a zero
  /// right-hand side): above def().cg_tolerance when CG stopped at def().cg_max_iterations.
  double last_relative_residual() const { return last_residual_; }

  /// One Newton step toward static equilibrium f(x, 0) = 0: solves K(x) Δ = f(x, 0) on the free nodes
  /// (PCG to def().cg_tolerance, at most def().cg_max_iterations) and moves x (unit: m) by Δ.
  /// For a model whose forces are linear in x (linear elements, linear strain) one call reaches the
  /// static solution; repeat it for a nonlinear one. Returns the CG iterations taken.
  int static_step(const ForceModel& model, std::span<Vec3> x);

 private:
  void ensure_size(std::size_t n);
  void explicit_step(const ForceModel& model, std::span<Vec3> x, std::span<Vec3> v);
  // Solves (α M + β_K K + β_D D) y = rhs on the free nodes (kinematic rows y = 0) by PCG, block Jacobi
  // or Jacobi (def().preconditioner).
  void solve(const ForceModel& model, std::span<const Vec3> x, double alpha, double beta_k, double beta_d,
             std::span<const Vec3> rhs, std::span<Vec3> y);
  void apply(const ForceModel& model, std::span<const Vec3> x, double alpha, double beta_k, double beta_d,
             std::span<const Vec3> p, std::span<Vec3> out);
  // a = M⁻¹ f_ on the free nodes (0 on kinematic ones): w f_ for a diagonal mass, else a CG solve.
  void start_acceleration(const ForceModel& model, std::span<const Vec3> x, std::span<Vec3> a);

  IntegratorDef def_;
  std::vector<Vec3> f_, x1_, v1_, k1x_, k1v_, k2x_, k2v_, k3x_, k3v_, k4x_, k4v_;
  std::vector<Vec3> r_, z_, p_, q_, rhs_, y_;
  std::vector<double> diag_;
  std::vector<Mat3> blocks_;           // inverted diagonal blocks of the solve's matrix (block Jacobi)
  std::vector<Vec3> xm1_, xm2_, acc_;  // Houbolt history x₋₁, x₋₂; Newmark acceleration
  int history_ = 0;
  int last_iterations_ = 0;
  double last_residual_ = 0.0;
};

/// Critical time step of explicit Euler for ẍ = -(k x + c ẋ)/m (stiffness k, unit: N/m; damping c,
/// unit: N·s/m; mass m, unit: kg): the amplification matrix has eigenvalues 1 + hλ with
/// λ² + (c/m)λ + k/m = 0; |1 + hλ| < 1 for both roots iff h < c/k when underdamped (c² < 4km), else
/// iff h < 2/|λ_max| (unit: s). Returns 0 when c = 0 (explicit Euler then amplifies every undamped
/// oscillation).
double explicit_euler_critical_step(double k, double c, double m);

}  // namespace pliant::dynamics
