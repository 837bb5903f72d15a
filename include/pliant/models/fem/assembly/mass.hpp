// Mass matrices of linear tetrahedra: consistent and lumped, per element and assembled over a mesh.
//
// With linear shape functions N_a and constant density ρ, the consistent mass M_ab = ∫ ρ N_a N_b dV
// over a tet of volume V is ρV/20 (1 + δ_ab) per node pair, times I₃ for the three components
// (Zienkiewicz & Taylor, The Finite Element Method, vol. 1); it makes uᵀ M v = ∫ ρ u·v dV exact
// for the piecewise linear fields the element represents. Row sums give the lumped mass ρV/4 per node,
// the diagonal mass explicit schemes need (central differences, Masutani et al. 2004, reviewed by
// Huang & Wang 2007). Both conserve the total mass Σ ρ_t V_t.
//
// Assembled matrices use DOF 3i + c for node i, component c (as assembly.hpp).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"    // SparseMatrix
#include "pliant/models/fem/elements/linear_tet.hpp"  // Mat12

#include <span>
#include <vector>

namespace pliant::fem {

/// Consistent element mass (unit: kg), 12×12: ρV/20 (1 + δ_ab) I₃ for nodes a, b, from density ρ
/// (unit: kg/m³) and volume V (unit: m³).
Mat12 consistent_tet_mass(double density, double volume);

/// Lumped element mass per node, ρV/4 (unit: kg).
double lumped_tet_mass(double density, double volume);

/// Consistent mass matrix (unit: kg), 3·#nodes square, symmetric positive definite, with one density
/// per tet (#tets entries, unit: kg/m³, > 0 and finite). Fails with one line naming the mesh problem
/// (check_fem_mesh), a wrong density count, or the first bad density's tet.
Result<SparseMatrix> assemble_consistent_mass(const TetMesh& mesh, std::span<const double> density);

/// Lumped node masses (unit: kg), #nodes entries (the diagonal of the lumped matrix, once per node
/// rather than per DOF), with one density per tet as above.
Result<std::vector<double>> assemble_lumped_mass(const TetMesh& mesh, std::span<const double> density);

}  // namespace pliant::fem
