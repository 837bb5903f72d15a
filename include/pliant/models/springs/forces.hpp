// Mass-spring forces: Hooke springs with axial damping, gravity and external forces (Grimm 2005,
// eq. 2.6: F_i = S_i(x) - R_i(ẋ) + E_i), and the force Jacobian products implicit integrators need.
#pragma once

#include "pliant/models/springs/spring_mesh.hpp"

#include <span>
#include <vector>

namespace pliant::springs {

/// Force on node a of one spring from a to b (the force on b is its negative) (unit: N).
/// Hooke: k (l - l0) along the unit axis n = (x_b - x_a)/l; damping c ((v_b - v_a)·n) along n, so
/// damping resists only stretching motion and leaves rigid rotation undamped.
/// k: stiffness (unit: N/m), c: damping (unit: N·s/m), l0: rest length (unit: m).
inline Vec3 spring_force(const Vec3& xa, const Vec3& xb, const Vec3& va, const Vec3& vb, double k, double c,
                         double l0) {
  const Vec3 d = xb - xa;
  const double l = d.norm();
  if (!(l > 0.0)) return Vec3::Zero();
  const Vec3 n = d / l;
  return (k * (l - l0) + c * n.dot(vb - va)) * n;
}

/// Global loads applied on top of spring forces.
struct Loads {
  Vec3 gravity = Vec3::Zero();  ///< gravitational acceleration (unit: m/s²), applied as mass·g
  /// Mass-proportional (Rayleigh α, "air") damping: F_i -= m_i · mass_damping · v_i (unit: 1/s).
  /// Axial spring damping leaves transverse and rotational motion undamped, and explicit Euler
  /// amplifies every undamped mode, so explicit membranes need some of this.
  double mass_damping = 0.0;
  /// Optional per-node external force E_i (unit: N): empty, or node_count() entries.
  std::span<const Vec3> external = {};
};

/// Writes the loads alone, F_i = m_i (g - mass_damping · v_i) + E_i, at velocities v (`force`: node_count()
/// entries, unit: N): the part of the force every model on a SpringMesh shares.
void load_forces(const SpringMesh& mesh, std::span<const Vec3> v, const Loads& loads, std::span<Vec3> force);

/// F = Σ spring forces + mass·g + external, evaluated at (x, v) (any positions, not necessarily the
/// mesh's own, so RK stages can use scratch arrays). `force` must have node_count() entries; fixed
/// nodes get their force too (the reaction), integrators ignore it.
void accumulate_forces(const SpringMesh& mesh, std::span<const Vec3> x, std::span<const Vec3> v,
                       const Loads& loads, std::span<Vec3> force);

/// y = -(∂F/∂x) p  (the tangent stiffness product, unit: N per m of p) at positions x. The transverse
/// part k(1 - l0/l) is clamped at zero for compressed springs so the operator stays positive
/// semidefinite (the usual definiteness fix of Baraff & Witkin 1998 for CG). Adds into y.
void add_stiffness_product(const SpringMesh& mesh, std::span<const Vec3> x, std::span<const Vec3> p,
                           double scale, std::span<Vec3> y);

/// y += scale · (-(∂F/∂v) p): the axial damping product c n nᵀ per spring (unit: N per m/s of p).
void add_damping_product(const SpringMesh& mesh, std::span<const Vec3> x, std::span<const Vec3> p,
                         double scale, std::span<Vec3> y);

/// Elastic potential energy Σ ½ k (l - l0)² (unit: J).
double spring_energy(const SpringMesh& mesh);
/// Kinetic energy Σ ½ m |v|² over free nodes (unit: J).
double kinetic_energy(const SpringMesh& mesh);

}  // namespace pliant::springs
