// Global stiffness assembly into an Eigen sparse matrix.
//
// The sparsity is built once from the mesh edges: node a couples with itself and its edge
// neighbours, giving 3×3 blocks. Assembly then runs in parallel over columns (OpenMP): column block
// a gathers the contributions of the tets incident to a, in a fixed order, so results are
// bit-identical for any thread count (no racy floating-point accumulation). Each tet's K_ab block is
// computed once per column block, so the parallel gather costs no more arithmetic than a scatter.
//
// The matrix is square (3·#nodes), column-major, and stores BOTH triangles (full symmetric), DOF
// 3i + c for node i, component c. Without Dirichlet conditions it is singular (rigid motions);
// see dirichlet.hpp.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/linalg/edge_stiffness.hpp"
#include "pliant/linalg/sparse_matrix.hpp"
#include "pliant/materials/material.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::fem {

using linalg::SparseMatrix;  // column-major, int storage index

/// Checks that a mesh can be assembled: at least one tet, node indices in range, no repeated node in
/// a tet, finite positions, every tet positively oriented with volume above 1e-12 of its bounding
/// box cube. The message names the first offending tet ("tet 40: ...").
Status check_fem_mesh(const TetMesh& mesh);

/// Reusable assembly plan: sparsity pattern and, per (column node, incident tet), where each 3×3
/// block lands. Build once per mesh topology; `assemble` is then cheap (materials may change).
class StiffnessAssembler {
 public:
  /// Validates the mesh (check_fem_mesh) and builds the plan.
  static Result<StiffnessAssembler> build(const TetMesh& mesh);

  /// `mesh` must have the topology the plan was built from (positions may move). K for one
  /// material everywhere; a mesh with another node count gives an empty matrix. `K` is resized and its
  /// pattern reused when already built by this assembler (no reallocation on repeated calls).
  void assemble(const TetMesh& mesh, const materials::Material& material, SparseMatrix& K) const;
  /// K with one material per tet; `per_tet.size() != mesh.tet_count()` gives an empty matrix.
  void assemble(const TetMesh& mesh, std::span<const materials::Material> per_tet, SparseMatrix& K) const;

  /// Unique mesh edges (e[0] < e[1], sorted), the off-diagonal block structure.
  const std::vector<Edge>& edges() const { return edges_; }
  Index node_count() const { return node_count_; }

 private:
  void assemble_impl(const TetMesh& mesh, const materials::Material* materials, bool per_tet,
                     SparseMatrix& K) const;

  Index node_count_ = 0;
  std::vector<Edge> edges_;
  std::vector<Index> block_offsets_;         // #nodes+1: first neighbour slot of node a (self included)
  std::vector<Index> block_nodes_;           // neighbour node of each slot (sorted, self included)
  std::vector<Index> incident_offsets_;      // #nodes+1: node -> incident (tet, local) list
  std::vector<Index> incident_tets_;         // tet index of each incidence
  std::vector<std::int8_t> incident_local_;  // local index (0..3) of the node in that tet
  std::vector<Index> incident_slots_;        // 4 per incidence: slot of tet node b in column a's list
};

/// K for one material (unit: N/m). Runs check_fem_mesh and returns an empty (0×0) matrix when the
/// mesh fails it; use StiffnessAssembler::build to get the message and a reusable plan.
SparseMatrix assemble_stiffness(const TetMesh& mesh, const materials::Material& material);
/// K with one material per tet; empty as above, or when `per_tet.size() != mesh.tet_count()`.
SparseMatrix assemble_stiffness(const TetMesh& mesh, std::span<const materials::Material> per_tet);

/// K in Nikitina et al.'s edge store (linalg/edge_stiffness.hpp), built directly from the elements
/// (independently of StiffnessAssembler, so the two can check each other). Precondition:
/// `check_fem_mesh(mesh)` succeeded.
linalg::EdgeStiffness assemble_edge_stiffness(const TetMesh& mesh, const materials::Material& material);
/// Same with one material per tet.
linalg::EdgeStiffness assemble_edge_stiffness(const TetMesh& mesh,
                                              std::span<const materials::Material> per_tet);

/// Nodal forces f = K u of a displacement field, both 3·#nodes (unit: N, m).
Eigen::VectorXd nodal_forces(const SparseMatrix& K, const Eigen::VectorXd& displacement);

}  // namespace pliant::fem
