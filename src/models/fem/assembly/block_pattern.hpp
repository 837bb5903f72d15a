// Private: a symmetric sparsity pattern of 3×3 node blocks, written straight into a compressed
// column-major matrix (no triplets, no search per entry). Shared by StiffnessAssembler and HybridSolver.
//
// Column block a (DOFs 3a..3a+2) holds the rows of node a itself and of its neighbours, ascending; each
// of its three columns stores 3·degree(a) entries, the rows 3b + r of each neighbour slot in order. So
// the value (3b + r, 3a + c) sits at 9·offsets[a] + 3·degree(a)·c + 3·slot(a, b) + r.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"

#include <span>
#include <vector>

namespace pliant::fem::detail {

struct BlockPattern {
  std::vector<Index> offsets;  // #nodes + 1: first slot of node a's column block
  std::vector<Index> nodes;    // row node of each slot: a and its neighbours, ascending

  /// Node a is always coupled with itself; `edges` couple their two nodes (each edge once, e[0] ≠ e[1],
  /// either order; edges naming nodes outside [0, node_count) are ignored).
  static BlockPattern build(Index node_count, const std::vector<Edge>& edges);

  Index node_count() const { return static_cast<Index>(offsets.size()) - 1; }
  Index degree(Index a) const {
    return offsets[static_cast<std::size_t>(a) + 1] - offsets[static_cast<std::size_t>(a)];
  }
  /// Slot of row node b in column node a's block, -1 when they are not coupled.
  Index slot(Index a, Index b) const { return slot(offsets, nodes, a, b); }
  static Index slot(std::span<const Index> offsets, std::span<const Index> nodes, Index a, Index b);
  /// Offset of value (3b + r, 3a + c), b the node of `slot` in column node a's block.
  Index offset(Index a, Index slot, int r, int c) const {
    return 9 * offsets[static_cast<std::size_t>(a)] + 3 * degree(a) * c + 3 * slot + r;
  }
  Index non_zeros() const { return 9 * offsets.back(); }
  /// K becomes 3·#nodes square with this pattern (both triangles); its values are left unset unless K
  /// was not already of this size and count.
  void write(SparseMatrix& K) const { write(offsets, nodes, K); }
  /// The same for a pattern kept as its two arrays.
  static void write(std::span<const Index> offsets, std::span<const Index> nodes, SparseMatrix& K);
};

}  // namespace pliant::fem::detail
