// Stable Neo-Hookean energy density (Smith, de Goes & Kim 2018, "Stable Neo-Hookean flesh simulation",
// ACM TOG 37(2), their final energy), robust to large compression and to inversion:
//
//   Ψ(F) = μ'/2 (I_C - 3) + λ'/2 (J - α)² - μ'/2 log(I_C + 1) - Ψ₀,   I_C = tr(FᵀF), J = det F,
//   α = 1 + 3μ'/(4λ'),
//
// where Ψ₀ = λ'/2 (1 - α)² - μ'/2 log 4 is our addition so that the rest state has zero energy (a
// constant: no effect on forces). α makes F = I stress free; unlike the classical Neo-Hookean energy
// there is no log J, so Ψ, P and ∂P/∂F are finite for every F, inverted (J < 0) and flat (J = 0)
// included, and the J term pushes inverted elements back. The paper's reparameterisation
// μ' = 4μ/3, λ' = λ + 5μ/6 (which gives α = 1 + μ/λ') makes the small-strain limit the linear element
// of Lamé constants (λ, μ); we take (λ, μ) from the Material and apply it, so all elements of this
// family agree for small strains. (Kim & Eberle 2020, "Dynamic deformables", drop the log term; we keep
// the paper's form.)
//
// With g = vec(∂J/∂F) = vec(cof F) and f = vec F:
//   P = μ'(1 - 1/(I_C + 1)) F + λ'(J - α) cof F,
//   ∂P/∂F = μ'(1 - 1/(I_C + 1)) I₉ + 2μ'/(I_C + 1)² f fᵀ + λ' g gᵀ + λ'(J - α) ∂²J/∂F².
//
// Analytic eigensystem (derived in Smith et al. 2018): with the rotation-variant SVD F = U Σ Vᵀ
// (polar_decomposition.hpp) and a = μ'(1 - 1/(I_C + 1)), the six matrices U T Vᵀ with T a unit
// "twist" (e_i e_jᵀ - e_j e_iᵀ)/√2 or "flip" (e_i e_jᵀ + e_j e_iᵀ)/√2, {i, j, k} = {0, 1, 2}, are
// eigenvectors of ∂P/∂F with eigenvalues a + λ'(J - α) σ_k (twist) and a - λ'(J - α) σ_k (flip). The
// remaining three lie in the "scaling" space U diag(d) Vᵀ, where ∂P/∂F acts as the symmetric 3×3
//   a I + 2μ'/(I_C + 1)² σ σᵀ + λ' c cᵀ + λ'(J - α) [0 σ₂ σ₁; σ₂ 0 σ₀; σ₁ σ₀ 0],  c = (σ₁σ₂, σ₀σ₂, σ₀σ₁),
// whose eigenpairs we take from a 3×3 symmetric eigensolver. The definiteness fix clamps these nine
// eigenvalues at zero, with no 9×9 eigen-decomposition.
//
// Matrices over F use vec(F) column-major (deformation_gradient.hpp).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"  // Vec9, Mat9

namespace pliant::fem {

/// The energy's own constants, from a material's Lamé constants by Smith et al.'s reparameterisation.
struct StableNeoHookeanParameters {
  double mu = 0.0;      ///< μ' = 4μ/3 (unit: Pa)
  double lambda = 0.0;  ///< λ' = λ + 5μ/6 (unit: Pa), > 0 for every admissible material
  double alpha = 1.0;   ///< α = 1 + 3μ'/(4λ') (dimensionless)
};

/// μ', λ', α for a material (whose λ, μ are the small-strain Lamé constants, unit: Pa).
StableNeoHookeanParameters stable_neo_hookean_parameters(const materials::Material& material);

/// Ψ(F) (unit: J/m³) of deformation gradient F (dimensionless); zero at F = I.
double stable_neo_hookean_energy_density(const Mat3& F, const materials::Material& material);

/// First Piola-Kirchhoff stress P = ∂Ψ/∂F (unit: Pa).
Mat3 stable_neo_hookean_first_piola(const Mat3& F, const materials::Material& material);

/// ∂P/∂F as a 9×9 matrix over vec(F) (unit: Pa); symmetric, indefinite under compression/inversion.
Mat9 stable_neo_hookean_first_piola_derivative(const Mat3& F, const materials::Material& material);

/// Eigenvalues (unit: Pa) and orthonormal eigenvectors (columns, over vec(F)) of ∂P/∂F.
struct Eigensystem9 {
  Vec9 values;   ///< twist 01, 02, 12; flip 01, 02, 12; scaling 0, 1, 2 (unit: Pa)
  Mat9 vectors;  ///< column n is the eigenvector of values(n) (dimensionless)
};

/// The analytic eigensystem of ∂P/∂F described above (Smith et al. 2018).
Eigensystem9 stable_neo_hookean_eigensystem(const Mat3& F, const materials::Material& material);

/// ∂P/∂F with its negative eigenvalues clamped to zero through the analytic eigensystem (unit: Pa):
/// the nearest positive semidefinite matrix, as psd_projection.hpp's dense route would give.
Mat9 stable_neo_hookean_first_piola_derivative_psd(const Mat3& F, const materials::Material& material);

}  // namespace pliant::fem
