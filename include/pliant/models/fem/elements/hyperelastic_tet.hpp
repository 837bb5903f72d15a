// Hyperelastic linear tetrahedron: element energy, forces and stiffness of an energy density Ψ(F)
// (StVK or stable Neo-Hookean), with an optional definiteness fix.
//
// F = Ds Dm⁻¹ is constant over the element, so with rest volume V (deformation_gradient.hpp):
//   E = V Ψ(F),   f = -∂E/∂x = -V (dF/dx)ᵀ vec P,   K = -∂f/∂x = V (dF/dx)ᵀ (∂P/∂F) (dF/dx)
// (Sifakis & Barbič 2012, "FEM simulation of 3D deformable solids", §4). K is the exact Hessian of E and
// is indefinite under compression or inversion; Definiteness::projected replaces ∂P/∂F by its nearest
// positive semidefinite matrix before the congruence, which keeps K positive semidefinite (Teran et
// al. 2005 project per element for the same reason): for the stable Neo-Hookean energy through its
// analytic eigensystem (stable_neo_hookean.hpp), for StVK by a dense 9×9 eigen-decomposition
// (psd_projection.hpp). Projecting the 9×9 rather than the 12×12 is cheaper (closed form for the stable
// Neo-Hookean energy), and K still maps translations to zero. The material is an argument of every
// call, so per-tet materials are a plain array.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

namespace pliant::fem {

/// The hyperelastic energy densities of this family.
enum class Hyperelastic {
  stvk,                ///< St. Venant-Kirchhoff (stvk.hpp)
  stable_neo_hookean,  ///< Smith, de Goes & Kim 2018 (stable_neo_hookean.hpp)
};

/// Whether a stiffness is the exact Hessian or its positive semidefinite projection.
enum class Definiteness {
  exact,      ///< the exact Hessian, indefinite under compression or inversion
  projected,  ///< ∂P/∂F clamped to its positive semidefinite part (for Newton and implicit solves)
};

/// Ψ(F) (unit: J/m³) of the chosen model for deformation gradient F (dimensionless).
double energy_density(Hyperelastic model, const Mat3& F, const materials::Material& material);
/// P(F) = ∂Ψ/∂F (unit: Pa).
Mat3 first_piola(Hyperelastic model, const Mat3& F, const materials::Material& material);
/// ∂P/∂F over vec(F) (unit: Pa), exact or projected.
Mat9 first_piola_derivative(Hyperelastic model, const Mat3& F, const materials::Material& material,
                            Definiteness definiteness = Definiteness::exact);

/// Element energy V Ψ(F) (unit: J) from Dm⁻¹ (unit: 1/m), rest volume V (unit: m³) and the current
/// stacked positions (12 entries, unit: m).
double hyperelastic_energy(Hyperelastic model, const materials::Material& material, const Mat3& dm_inverse,
                           double volume, const Vec12& positions);

/// Elastic forces on the four nodes, -V (dF/dx)ᵀ vec P (unit: N).
Vec12 hyperelastic_force(Hyperelastic model, const materials::Material& material, const Mat3& dm_inverse,
                         double volume, const Vec12& positions);

/// Element stiffness -∂f/∂x (unit: N/m), exact or with the definiteness fix.
Mat12 hyperelastic_stiffness(Hyperelastic model, const materials::Material& material, const Mat3& dm_inverse,
                             double volume, const Vec12& positions,
                             Definiteness definiteness = Definiteness::exact);

}  // namespace pliant::fem
