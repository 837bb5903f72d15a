// St. Venant-Kirchhoff (StVK) hyperelastic energy density: linear elasticity's Hooke law applied to the
// Green strain E = ½ (FᵀF - I), so that rigid rotations are strain free.
//
//   Ψ(F) = μ E:E + λ/2 (tr E)²,   P = F S with S = 2μ E + λ tr(E) I,
//   dP = dF S + F dS,  dS = 2μ dE + λ tr(dE) I,  dE = ½ (dFᵀ F + Fᵀ dF)
// (Sifakis & Barbič 2012, "FEM simulation of 3D deformable solids", §3.3). The Lamé constants are the
// material's, so for small strains StVK equals the linear element. StVK softens under strong
// compression and it has no resistance to inversion (Ψ depends on FᵀF only: the reflection
// F = diag(1, 1, -1) is strain free), so it is a large-rotation, moderate-strain model;
// stable_neo_hookean.hpp is the one for large compression and inversion. ∂P/∂F is indefinite under
// compression: hyperelastic_tet.hpp projects it with the dense eigen-decomposition of psd_projection.hpp.
//
// Matrices over F use vec(F) column-major (deformation_gradient.hpp).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"  // Mat9

namespace pliant::fem {

/// StVK energy density Ψ(F) (unit: J/m³) of deformation gradient F (dimensionless).
double stvk_energy_density(const Mat3& F, const materials::Material& material);

/// First Piola-Kirchhoff stress P = ∂Ψ/∂F (unit: Pa).
Mat3 stvk_first_piola(const Mat3& F, const materials::Material& material);

/// ∂P/∂F as a 9×9 matrix over vec(F) (unit: Pa); symmetric, indefinite under compression.
Mat9 stvk_first_piola_derivative(const Mat3& F, const materials::Material& material);

}  // namespace pliant::fem
