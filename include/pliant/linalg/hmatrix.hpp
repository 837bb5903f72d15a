// HMatrix: a symmetric hierarchical matrix (Hackbusch 1999) with low-rank far blocks in float.
//
// The index set is a ClusterTree over points with `dofs` unknowns per point (3 for displacements,
// kept together). The block tree splits (root, root) recursively: a pair of clusters that is
// admissible (η·dist ≥ min diam) becomes a low-rank block U·Vᵀ, a pair with a leaf becomes a dense
// block, and everything else is split into its children's pairs. The matrix is symmetric, so only
// blocks (t, s) with t after s in the permuted order (and the dense diagonal leaves t = s) are
// stored; A(s, t) = A(t, s)ᵀ is read from the same factors. Values are stored in float, column-major:
// a dense block as its rows × cols entries, a low-rank block of rank k as U (rows × k) then
// V (cols × k). Block rows and columns run over the cluster's permuted points, `dofs` per point.
//
// The factors are built by hmatrix_build.hpp (adaptive cross approximation, Bebendorf 2000, or
// column panels with a QR+SVD recompression) and may be read in place from a memory-mapped file.
// Queries are what a Green's function runtime needs: a point's columns, a point pair's d×d block,
// the product with a vector (or a sparse one, column by column).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/linalg/cluster_tree.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace pliant::linalg {

/// One stored block of an HMatrix.
struct HBlock {
  Index row = 0;             ///< row cluster t
  Index col = 0;             ///< column cluster s (t == s only for dense diagonal leaves)
  Index rank = -1;           ///< rank of U·Vᵀ, or -1 for a dense block
  std::uint64_t offset = 0;  ///< first float of the block's values
};

class HMatrix {
 public:
  HMatrix() = default;

  /// Assembles a matrix from its parts; `values` must stay valid while `storage` lives. No checks:
  /// use from_bytes for untrusted data.
  static HMatrix from_parts(ClusterTree tree, int dofs, std::vector<HBlock> blocks, double tolerance,
                            std::shared_ptr<const void> storage, std::span<const float> values);

  /// Order of the matrix (points × dofs).
  Index rows() const { return tree_.point_count() * dofs_; }
  int dofs_per_point() const { return dofs_; }
  const ClusterTree& tree() const { return tree_; }
  const std::vector<HBlock>& blocks() const { return blocks_; }
  std::span<const float> values() const { return values_; }
  /// Relative Frobenius tolerance the blocks were built to.
  double tolerance() const { return tolerance_; }
  /// Bytes of the stored values (float).
  std::size_t value_bytes() const { return 4 * values_.size(); }
  /// Bytes of the float values plus the tree and block tables (what to_bytes writes).
  std::size_t stored_bytes() const;
  /// Number of low-rank blocks and the largest rank.
  std::size_t low_rank_blocks() const;
  Index max_rank() const;

  /// y += A(:, point's dofs) · v, y over all rows in the original numbering (v has `dofs` entries).
  void add_columns(Index point, const double* v, double* y) const;
  /// out (rows() × dofs, column-major) = A(:, point's dofs).
  void columns(Index point, double* out) const;
  /// out (dofs × dofs, column-major) = A(i's dofs, j's dofs).
  void point_block(Index i, Index j, double* out) const;
  /// y = A x (both of length rows(), original numbering).
  void multiply(const double* x, double* y) const;

  /// Serialises tree, blocks and values (little-endian; 8-byte aligned sections; values last).
  std::vector<std::byte> to_bytes() const;
  /// Bytes to_bytes writes before the float values (so a writer can stream the values itself).
  std::size_t table_bytes() const;
  /// Reads what to_bytes wrote, checking every count, index and range against the size (never
  /// trusting the data); values are used in place when 4-byte aligned (keep `keep_alive` owning
  /// `bytes`), else copied. `name` prefixes messages.
  static Result<HMatrix> from_bytes(std::span<const std::byte> bytes, std::shared_ptr<const void> keep_alive,
                                    const std::string& name);

 private:
  void index();  // builds the per-leaf block lists
  struct Hit {
    std::uint32_t block;
    bool transposed;  // the point's columns are rows of the stored block
  };

  ClusterTree tree_;
  int dofs_ = 1;
  std::vector<HBlock> blocks_;
  double tolerance_ = 0;
  std::shared_ptr<const void> storage_;
  std::span<const float> values_;
  std::vector<Index> leaf_of_;            // permuted position -> leaf cluster
  std::vector<std::uint32_t> hit_start_;  // per cluster (only leaves used), into hits_
  std::vector<Hit> hits_;                 // blocks holding a leaf's columns
};

}  // namespace pliant::linalg
