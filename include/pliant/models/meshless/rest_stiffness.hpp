// The assembled rest tangent of MLS elasticity: the sparse matrix K whose product MlsForceModel's
// add_stiffness_product computes matrix-free (linear strain, λ + k_v for the volume term).
//
// Phyxel i's displacement gradient is linear in the displacements, H_i = Σ_a u_a c_iaᵀ with
// c_ia = d_ia for a neighbour a and c_ii = -Σ_j d_ij, so its energy v_i (μ ε:ε + ½ λ tr(ε)²),
// ε = sym(H_i), contributes the 3×3 blocks
//   K_ab += v_i (λ c_ia c_ibᵀ + μ (c_ia·c_ib) I + μ c_ib c_iaᵀ)
// for every pair a, b of i's stencil (i and its neighbours). K couples phyxels that share a stencil
// (up to two support radii apart), is symmetric positive semidefinite, and is exact for small
// displacements; it is the matrix to factor once for implicit steps with a constant system matrix
// M + h² K (backward Euler on the rest tangent).
#pragma once

#include "pliant/models/meshless/mls_body.hpp"

#include <Eigen/SparseCore>

namespace pliant::meshless {

/// K (unit: N/m) over the phyxels' 3 degrees of freedom each (row and column 3a + k for phyxel a,
/// axis k), or, when `free_only`, over the free phyxels only (inverse mass > 0, numbered in order).
/// Both triangles stored, columns sorted. Plastic strain is ignored (the rest tangent).
Eigen::SparseMatrix<double> rest_stiffness(const MlsBody& body, bool free_only = false);

}  // namespace pliant::meshless
