// Dirichlet (prescribed-displacement) conditions by DOF elimination.
//
// Nikitina et al. (2003) partitions the unknowns into free ones u and prescribed ones b:
//     [A B; Bᵀ C] [u; b] = [f; f_b]   =>   A u = f - B b,   reaction f_b = Bᵀ u + C b.
// A DofMap records which DOFs are prescribed and numbers the free ones densely ("reduced" DOFs), so
// that A = K_ff is the reduced, positive-definite matrix a solver factors once. Fixing u = 0 on
// fewer than three non-collinear nodes of a connected piece leaves a rigid motion free and A
// singular; building a DofMap detects that (exactly, for any mix of fixed components) and fails
// with a message instead of letting a solver produce NaN later.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"

#include <Eigen/Core>

#include <span>
#include <vector>

namespace pliant::fem {

/// Free/fixed DOF numbering. Functions taking K read its columns as rows, so K must be symmetric
/// (every stiffness from assembly.hpp is).
class DofMap {
 public:
  /// All three components of each listed node fixed. Fails on an out-of-range node, or when some
  /// connected component of the mesh could still move rigidly (message names the component, its
  /// node count and a sample node).
  static Result<DofMap> from_fixed_nodes(const TetMesh& mesh, std::span<const Index> fixed_nodes);
  /// Arbitrary fixed DOFs (dof = 3·node + component, any order, duplicates allowed), with the same
  /// rigid-motion check per component.
  static Result<DofMap> from_fixed_dofs(const TetMesh& mesh, std::span<const Index> fixed_dofs);
  /// No check at all (for callers that constrain rigid motions otherwise).
  static DofMap from_fixed_dofs_unchecked(Index full_size, std::span<const Index> fixed_dofs);

  Index full_size() const { return static_cast<Index>(reduced_index_.size()); }
  Index free_size() const { return static_cast<Index>(free_dofs_.size()); }
  Index fixed_size() const { return static_cast<Index>(fixed_dofs_.size()); }
  bool is_fixed(Index dof) const { return reduced_index_[dof] < 0; }
  /// Reduced index of a full DOF, or -1 when it is fixed.
  Index reduced_index(Index dof) const { return reduced_index_[dof]; }
  /// Full DOF of each reduced index, ascending.
  const std::vector<Index>& free_dofs() const { return free_dofs_; }
  /// Fixed full DOFs, ascending.
  const std::vector<Index>& fixed_dofs() const { return fixed_dofs_; }

  /// A = K_ff, the reduced stiffness (free rows and columns).
  SparseMatrix restrict_matrix(const SparseMatrix& K) const;
  /// B = K_fc: free rows, fixed columns (#free × #fixed).
  SparseMatrix coupling_matrix(const SparseMatrix& K) const;
  /// Free entries of a full vector.
  Eigen::VectorXd restrict_vector(const Eigen::VectorXd& full) const;
  /// Values of a full vector at the fixed DOFs (in fixed_dofs() order).
  Eigen::VectorXd fixed_values(const Eigen::VectorXd& full) const;
  /// Full vector from reduced values; fixed DOFs get 0.
  Eigen::VectorXd expand(const Eigen::VectorXd& reduced) const;
  /// Full vector from reduced values, fixed DOFs taken from `prescribed_full` (the b of Nikitina et al.).
  Eigen::VectorXd expand(const Eigen::VectorXd& reduced, const Eigen::VectorXd& prescribed_full) const;
  /// Reduced right-hand side f_f - K_fc b for full-size loads f and prescribed displacements b
  /// (only b's fixed entries are read) (unit: N).
  Eigen::VectorXd reduced_rhs(const SparseMatrix& K, const Eigen::VectorXd& f_full,
                              const Eigen::VectorXd& prescribed_full) const;
  /// Reaction forces at the fixed DOFs, (K u - f) restricted to them, for a full solution u (unit: N).
  Eigen::VectorXd reactions(const SparseMatrix& K, const Eigen::VectorXd& u_full,
                            const Eigen::VectorXd& f_full) const;

 private:
  std::vector<Index> reduced_index_;
  std::vector<Index> free_dofs_;
  std::vector<Index> fixed_dofs_;
};

/// Checks that the fixed DOFs remove every rigid motion of every connected component of the mesh:
/// the six rigid modes (3 translations, 3 rotations about the component's centroid) restricted to
/// the fixed DOFs must have rank 6. Fails naming the component and the motion left free.
Status check_constraints(const TetMesh& mesh, std::span<const Index> fixed_dofs);

}  // namespace pliant::fem
