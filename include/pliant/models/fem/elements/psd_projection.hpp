// Projection of a symmetric matrix onto the cone of positive semidefinite matrices.
//
// Newton and implicit solves need a positive (semi)definite stiffness, but the exact Hessian of a
// hyperelastic element is indefinite under compression and inversion. Clamping the negative
// eigenvalues of the symmetric part to zero (Teran et al. 2005 "Robust quasistatic finite elements and
// flesh simulation" clamp per element in the same spirit) gives the nearest positive semidefinite
// matrix in the Frobenius norm (Higham 1988) and leaves a positive semidefinite matrix unchanged.
// These overloads use a dense symmetric eigen-decomposition; stable_neo_hookean.hpp has a closed-form
// alternative for its own 9×9 Hessian.
#pragma once

#include "pliant/models/fem/elements/deformation_gradient.hpp"  // Mat9
#include "pliant/models/fem/elements/linear_tet.hpp"            // Mat12

namespace pliant::fem {

/// Nearest positive semidefinite matrix to the symmetric part of A, by eigenvalue clamping (same unit
/// as A).
Mat9 project_psd(const Mat9& A);
/// Same for an element's 12×12 stiffness (unit: N/m).
Mat12 project_psd(const Mat12& A);

}  // namespace pliant::fem
