// ForceModel: the mechanical system the time integrators advance, M ẍ = f(x, ẋ), over nodes with three
// degrees of freedom each and a lumped (diagonal) mass, or a sparse one the implicit schemes apply by
// products (a consistent FEM mass). Every family with dynamics (springs, FEM,
// meshless) implements it once; the integrators (dynamics/integrator.hpp) never see the family.
//
// Kinematic nodes (inverse mass 0: fixed, or moved by a grab) are the caller's: integrators leave their
// position and velocity alone and keep their rows out of implicit solves.
#pragma once

#include "pliant/core/types.hpp"

#include <span>

namespace pliant::dynamics {

class ForceModel {
 public:
  virtual ~ForceModel() = default;

  /// Lumped node masses (unit: kg), one per node, > 0.
  virtual std::span<const double> mass() const = 0;
  /// Inverse masses (unit: 1/kg), one per node; 0 marks a kinematic node.
  virtual std::span<const double> inverse_mass() const = 0;

  /// Writes the total force on every node at state (x, v) (unit: N), damping included; "#nodes" entries
  /// each. Kinematic nodes get their force too (the reaction); integrators ignore it.
  virtual void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const = 0;

  /// Mass-proportional (Rayleigh α) damping inside forces(): f holds -α·M v (unit: 1/s).
  virtual double mass_damping() const { return 0.0; }

  /// False when the model's mass matrix M is not the diagonal of mass() (a consistent FEM mass, whose
  /// rows sum to mass()). Explicit schemes always take mass(); the implicit ones use add_mass_product.
  virtual bool diagonal_mass() const { return true; }
  /// y += scale · M p (unit: kg times p's unit); the default is the diagonal mass().
  virtual void add_mass_product(std::span<const Vec3> p, double scale, std::span<Vec3> y) const {
    const auto m = mass();
    for (std::size_t i = 0; i < m.size(); ++i) y[i] += (scale * m[i]) * p[i];
  }

  /// y += scale · K p with K = -∂f/∂x at positions x, made positive semidefinite by the model (unit: N
  /// per m of p). Needed by the implicit schemes only.
  virtual void add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                     std::span<Vec3> y) const = 0;
  /// y += scale · D p with D = -∂f/∂v without the mass-proportional part α M (unit: N per m/s of p).
  virtual void add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                   std::span<Vec3> y) const = 0;
  /// diagonal[i] += an estimate of the diagonal of beta_k·K + beta_d·D at node i (unit: N/m or N·s/m
  /// times the weights), the Jacobi preconditioner of the implicit solves. Positive.
  virtual void add_jacobi_diagonal(std::span<const Vec3> x, double beta_k, double beta_d,
                                   std::span<double> diagonal) const = 0;
  /// blocks[i] += the 3×3 diagonal block of beta_k·K + beta_d·D at node i (unit as above), exact, for a
  /// model that forms it cheaply: the block-Jacobi preconditioner of the implicit solves, used instead of
  /// add_jacobi_diagonal. Returns false and adds nothing when the model cannot (the default).
  virtual bool add_block_diagonal(std::span<const Vec3> /*x*/, double /*beta_k*/, double /*beta_d*/,
                                  std::span<Mat3> /*blocks*/) const {
    return false;
  }
};

}  // namespace pliant::dynamics
