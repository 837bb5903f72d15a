// Time integration of mass-spring bodies: the shared integrators of pliant::dynamics (the schemes
// Grimm (2005) lists: explicit Euler, midpoint, quasi-static Euler, RK2/RK4, implicit Houbolt, Newmark;
// plus symplectic Euler, central differences and backward Euler) over the spring network seen as a
// dynamics::ForceModel (SpringForceModel), and the stable explicit step of a whole network.
//
// For an undamped spring k between a free node of mass m and a fixed one, explicit Euler is unstable
// for every step (|amplification| = √(1 + ω²h²) > 1 with ω = √(k/m)); with damping it is stable only
// for h below a critical step (explicit_euler_critical_step). Symplectic Euler is stable for ω h < 2.
#pragma once

#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <span>

namespace pliant::springs {

using dynamics::explicit_euler_critical_step;
using dynamics::IntegratorDef;
using dynamics::Scheme;

/// A spring network with its loads as the force model the integrators advance: lumped masses, spring
/// forces with axial damping, gravity, mass damping and external forces (accumulate_forces), and the
/// tangent products of forces.hpp. Holds references: valid while the mesh and loads are.
class SpringForceModel final : public dynamics::ForceModel {
 public:
  SpringForceModel(const SpringMesh& mesh, const Loads& loads) : mesh_(mesh), loads_(loads) {}
  std::span<const double> mass() const override { return mesh_.mass; }
  std::span<const double> inverse_mass() const override { return mesh_.inv_mass; }
  double mass_damping() const override { return loads_.mass_damping; }
  void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const override;
  void add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y) const override;
  void add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                           std::span<Vec3> y) const override;
  /// Each spring's axial stiffness and damping on both its ends.
  void add_jacobi_diagonal(std::span<const Vec3> x, double beta_k, double beta_d,
                           std::span<double> diagonal) const override;

 private:
  const SpringMesh& mesh_;
  const Loads& loads_;
};

/// Integrates a SpringMesh with a dynamics::Integrator. Scratch arrays are sized at the first step (or
/// when tearing adds nodes), so steps after warm-up do not allocate. Fixed nodes (inv_mass 0) keep their
/// position and velocity; callers move them (grabs).
class Integrator {
 public:
  explicit Integrator(IntegratorDef def = {}) : integrator_(def) {}
  const IntegratorDef& def() const { return integrator_.def(); }
  void set_def(const IntegratorDef& def) { integrator_.set_def(def); }

  /// Advances the mesh by one step of def().dt.
  void step(SpringMesh& mesh, const Loads& loads = {}) {
    integrator_.step(SpringForceModel(mesh, loads), mesh.position, mesh.velocity);
  }

  /// Forgets multistep history (Houbolt, central differences) and Newmark's acceleration.
  void reset_history() { integrator_.reset_history(); }
  /// CG iterations of the last implicit solve.
  int last_cg_iterations() const { return integrator_.last_cg_iterations(); }

 private:
  dynamics::Integrator integrator_;
};

/// A conservative largest stable explicit-Euler step for a whole spring network (unit: s), so scenes
/// can refuse or choose a step before it blows up. The eigenvalues ω² of M^(-1/2) K M^(-1/2) (K: the
/// spring stiffness, stretched or not) are bounded by block Gershgorin, max_i Σ_s k_s (1/m_i +
/// 1/√(m_i m_j)); axial spring damping acts on a mode like (c/k) ω², mass damping like α. Every mode
/// ω in (0, ω_max] must pass explicit_euler_critical_step with damping α + (c/k) ω², for the smallest
/// and the largest c/k of the mesh. Returns +∞ for a mesh without free nodes or springs, 0 when some
/// mode has no damping at all (`mass_damping`: α, unit: 1/s).
double explicit_euler_stable_step(const SpringMesh& mesh, double mass_damping);

}  // namespace pliant::springs
