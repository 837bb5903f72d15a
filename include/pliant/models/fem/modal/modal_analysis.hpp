// Modal analysis: the lowest vibration modes of a linear FEM body, K φ = λ M φ.
//
// Pentland & Williams (1989) and Hauser, Shen & O'Brien (2003), reviewed by Huang & Wang (2007):
// linearised about the rest shape, the free vibrations of K u + M ü = 0 are the generalised
// eigenpairs (λ_j = ω_j², φ_j). The lowest r of them carry most of the low-frequency motion a user
// sees. They are found by shift-invert Lanczos (Spectra's SymGEigsShiftSolver, ShiftInvert mode):
// the Lanczos iteration runs on (K - σM)⁻¹ M with the M inner product, so the eigenvalues nearest the
// shift σ converge first; every operator application is one solve with a sparse Cholesky factor of
// K - σM (CHOLMOD, sparse_cholesky.hpp), factored once.
//
// Fixed DOFs are removed (the reduced K_ff, M_ff of a DofMap), so constrained bodies have no rigid
// modes. A free body's K is singular; a small negative shift (σ < 0) keeps K - σM positive definite,
// and its six rigid modes come out first with λ ≈ 0 (frequency 0).
//
// The mode shapes are returned over all DOFs (3·node + component, fixed DOFs 0) and are
// M-orthonormal: Φᵀ M Φ = I, Φᵀ K Φ = diag(λ).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <Eigen/Core>

#include <limits>
#include <span>

namespace pliant::fem {

/// Which mass matrix the modes are computed for.
enum class ModalMass {
  consistent,  ///< consistent mass (mass.hpp): more accurate frequencies for a given mesh
  lumped,      ///< lumped (diagonal) mass: what explicit schemes use; frequencies slightly lower
};

/// Settings of the eigen-solve.
struct ModalAnalysisDef {
  Index modes = 10;  ///< r, the number of lowest modes wanted (1 ≤ r < free DOFs)
  /// Shift σ of shift-invert (unit: rad²/s²): eigenvalues nearest σ converge first. NaN (default):
  /// σ = -1e-8 · tr(K_ff)/tr(M_ff), a small negative value that keeps K - σM positive definite for a
  /// free body and is far below the lowest elastic eigenvalue of any reasonable mesh.
  double shift = std::numeric_limits<double>::quiet_NaN();
  /// Lanczos basis size (Spectra's ncv), r < ncv ≤ free DOFs; 0 (default): min(max(2r + 1, r + 20),
  /// free DOFs).
  Index krylov_dimension = 0;
  int max_restarts = 1000;   ///< Lanczos restarts before giving up
  double tolerance = 1e-10;  ///< relative accuracy of the eigenvalues (Spectra's tol)
  linalg::CholeskyBackend backend = linalg::CholeskyBackend::cholmod_supernodal;  ///< factor of K - σM
};

/// The lowest modes of a body.
struct ModalBasis {
  /// λ_j = ω_j² (unit: rad²/s²), ascending; rigid modes of a free body give |λ| ≈ 0 (round-off).
  Eigen::VectorXd eigenvalues;
  /// Φ, 3·#nodes × r, one M-orthonormal mode per column (unit: kg^-1/2); fixed DOFs are 0.
  Eigen::MatrixXd shapes;
  Index restarts = 0;    ///< Lanczos restarts used
  Index operations = 0;  ///< applications of (K - σM)⁻¹ M
  double shift = 0.0;    ///< σ used (unit: rad²/s²)

  Index mode_count() const { return static_cast<Index>(eigenvalues.size()); }
  /// ω_j = √max(λ_j, 0) (unit: rad/s).
  Eigen::VectorXd angular_frequencies() const;
  /// f_j = ω_j / 2π (unit: Hz).
  Eigen::VectorXd frequencies_hz() const;
};

/// Lowest `def.modes` eigenpairs of K φ = λ M φ over the free DOFs of `dofs`. K (unit: N/m) and M
/// (unit: kg) are 3·#nodes square and symmetric (both triangles stored, as assembly.hpp and mass.hpp
/// build them). Fails with one line on mismatched sizes, r < 1 or r ≥ free DOFs, a bad Krylov size,
/// K - σM not positive definite (σ too large), or no convergence within the restarts.
Result<ModalBasis> modal_analysis(const SparseMatrix& stiffness, const SparseMatrix& mass, const DofMap& dofs,
                                  const ModalAnalysisDef& def);

/// Convenience: assembles K and M of a mesh with one material (span of 1) or one per tet (density
/// from the materials, unit: kg/m³), fixes all components of `fixed_nodes` (none: a free body; some:
/// checked to remove every rigid motion, dirichlet.hpp) and runs the analysis above.
Result<ModalBasis> modal_analysis(const TetMesh& mesh, std::span<const materials::Material> materials,
                                  std::span<const Index> fixed_nodes, const ModalAnalysisDef& def,
                                  ModalMass mass = ModalMass::consistent);

}  // namespace pliant::fem
