// Time integrators for mass-spring bodies: the schemes listed by Grimm (2005) (explicit Euler, midpoint,
// quasi-static Euler, RK2/RK4, implicit Houbolt, Newmark) plus symplectic Euler and backward Euler.
//
// Explicit schemes are conditionally stable: for an undamped spring k between a free node of mass m
// and a fixed one, explicit Euler is unstable for every step (|amplification| = √(1 + ω²h²) > 1 with
// ω = √(k/m)); with damping it is stable only for h below a critical step (explicit_euler_critical_step).
// Symplectic Euler is stable for ω h < 2. The implicit schemes solve the linearised system with
// matrix-free conjugate gradients (Jacobi preconditioner) on M - h D - h² K style operators
// (Baraff & Witkin 1998 for backward Euler; Newmark 1959; Houbolt 1950).
#pragma once

#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <span>
#include <vector>

namespace pliant::springs {

enum class Scheme {
  explicit_euler,      ///< x += h v; v += h a(x, v)  (both from the old state)
  symplectic_euler,    ///< v += h a(x, v); x += h v_new
  midpoint,            ///< RK2: evaluate at the half step, then a full step with that slope
  rk4,                 ///< classical fourth-order Runge-Kutta
  quasi_static_euler,  ///< no inertia: x += h² a(x) each step, velocity kept zero (relaxation)
  backward_euler,      ///< linearised implicit Euler (one Newton step, CG)
  newmark,             ///< Newmark (β, γ), one linearised solve per step (CG)
  houbolt,             ///< Houbolt's implicit 4-level backward difference (CG)
};

/// Plain integrator settings (C++20 aggregate).
struct IntegratorDef {
  Scheme scheme = Scheme::symplectic_euler;
  double dt = 1e-3;             ///< time step h (unit: s), > 0
  double newmark_beta = 0.25;   ///< Newmark β (dimensionless); 0.25 = average acceleration
  double newmark_gamma = 0.5;   ///< Newmark γ (dimensionless); > 0.5 adds numerical damping
  double cg_tolerance = 1e-8;   ///< relative residual at which CG stops (dimensionless)
  int cg_max_iterations = 200;  ///< CG iteration cap per solve
};

/// Integrates a SpringMesh. Holds scratch arrays sized at the first step (or when tearing adds
/// nodes), so steps after warm-up do not allocate. Fixed nodes (inv_mass 0) keep their position and
/// velocity; callers move them (grabs).
class Integrator {
 public:
  explicit Integrator(IntegratorDef def = {}) : def_(def) {}
  const IntegratorDef& def() const { return def_; }
  void set_def(const IntegratorDef& def) {
    def_ = def;
    reset_history();
  }

  /// Advances the mesh by one step of def().dt.
  void step(SpringMesh& mesh, const Loads& loads = {});

  /// Forgets multistep history (Houbolt) and Newmark's acceleration, e.g. after a teleport.
  void reset_history() { history_ = 0; }
  /// CG iterations of the last implicit solve.
  int last_cg_iterations() const { return last_iterations_; }

 private:
  void ensure_size(std::size_t n);
  void explicit_step(SpringMesh& mesh, const Loads& loads);
  // Solves (α M + β_K K + β_D D) y = rhs for free nodes (fixed rows y = 0) by Jacobi-PCG.
  void solve(const SpringMesh& mesh, std::span<const Vec3> x, double alpha, double beta_k, double beta_d,
             std::span<const Vec3> rhs, std::span<Vec3> y);
  void apply(const SpringMesh& mesh, std::span<const Vec3> x, double alpha, double beta_k, double beta_d,
             std::span<const Vec3> p, std::span<Vec3> out);

  IntegratorDef def_;
  std::vector<Vec3> f_, x1_, v1_, k1x_, k1v_, k2x_, k2v_, k3x_, k3v_, k4x_, k4v_;
  std::vector<Vec3> r_, z_, p_, q_, rhs_, y_;
  std::vector<double> diag_;
  std::vector<Vec3> xm1_, xm2_, acc_;  // Houbolt history x_{n-1}, x_{n-2}; Newmark acceleration
  double mass_damping_ = 0.0;
  int history_ = 0;
  int last_iterations_ = 0;
};

/// Critical time step of explicit Euler for one spring (stiffness k, unit: N/m; damping c, unit:
/// N·s/m) between a free node of mass m (unit: kg) and a fixed node: the amplification matrix of
/// ẍ = -(k x + c ẋ)/m has eigenvalues 1 + hλ with λ² + (c/m)λ + k/m = 0; |1 + hλ| < 1 for both roots
/// iff h < c/k when the system is underdamped (c² < 4km), else iff h < 2/|λ_max| (unit: s).
/// Returns 0 when c = 0 (explicit Euler then amplifies every undamped oscillation).
double explicit_euler_critical_step(double k, double c, double m);

/// A conservative largest stable explicit-Euler step for a whole spring network (unit: s), so scenes
/// can refuse or choose a step before it blows up. The eigenvalues ω² of M^(-1/2) K M^(-1/2) (K: the
/// spring stiffness, stretched or not) are bounded by block Gershgorin, max_i Σ_s k_s (1/m_i +
/// 1/√(m_i m_j)); axial spring damping acts on a mode like (c/k) ω², mass damping like α. Every mode
/// ω in (0, ω_max] must pass explicit_euler_critical_step with damping α + (c/k) ω², for the smallest
/// and the largest c/k of the mesh. Returns +∞ for a mesh without free nodes or springs, 0 when some
/// mode has no damping at all (`mass_damping`: α, unit: 1/s).
double explicit_euler_stable_step(const SpringMesh& mesh, double mass_damping);

}  // namespace pliant::springs
