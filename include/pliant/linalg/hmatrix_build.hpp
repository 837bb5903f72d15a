// Building an HMatrix without forming the dense matrix.
//
// Two ways, both ending in the same truncation (QR of both factors, SVD of the small core, the tail
// dropped while its Frobenius norm stays below tolerance × the block's norm):
//  - build_hmatrix_aca: adaptive cross approximation with partial pivoting (Bebendorf 2000) per
//    admissible block from an entry oracle (a column of a symmetric matrix restricted to some rows;
//    a row is a column by symmetry). Needs about 2·rank columns per block: right when an entry is
//    cheap (an analytic kernel).
//  - HMatrixPanelBuilder: whole columns arrive in panels, one leaf cluster's columns at a time (a
//    Green's function, where one sparse solve yields a column over all rows at once). Each block
//    keeps an orthonormal basis U and extends it with the part of each new piece that U does not
//    already capture (QR+SVD of the residual, truncated to tolerance/2 × the piece's norm); at the
//    end the factors are recompressed to tolerance/2 × the block's norm. Memory is the compressed
//    blocks (double while building) plus the panels in flight, never the dense matrix.
#pragma once

#include "pliant/linalg/hmatrix.hpp"

#include <Eigen/Core>

#include <functional>
#include <span>
#include <vector>

namespace pliant::linalg {

/// Settings of a hierarchical-matrix build.
struct HMatrixSettings {
  double tolerance = 1e-3;  ///< relative Frobenius error per block (dimensionless), in (0, 1]
  double eta = 2.0;         ///< admissibility: eta · dist ≥ min diam (dimensionless)
  Index leaf_size = 32;     ///< points per leaf cluster
  int threads = 1;          ///< OpenMP threads over blocks
};

/// out[k] = A(rows[k], col) for a symmetric A; indices in the original unknown numbering
/// (point · dofs + component). Called concurrently from several threads.
using ColumnOracle = std::function<void(std::span<const Index> rows, Index col, double* out)>;

/// Builds a symmetric HMatrix over `points` (dofs unknowns each) by ACA from entries.
HMatrix build_hmatrix_aca(std::span<const Vec3> points, int dofs, const ColumnOracle& oracle,
                          const HMatrixSettings& settings);

/// Builds a symmetric HMatrix from whole columns, one leaf cluster at a time.
class HMatrixPanelBuilder {
 public:
  HMatrixPanelBuilder(std::span<const Vec3> points, int dofs, const HMatrixSettings& settings);
  HMatrixPanelBuilder(const HMatrixPanelBuilder&) = delete;
  HMatrixPanelBuilder& operator=(const HMatrixPanelBuilder&) = delete;
  HMatrixPanelBuilder(HMatrixPanelBuilder&&) noexcept;
  ~HMatrixPanelBuilder();

  /// The leaf clusters, in the order panels should come (any order is correct; this one is cheapest).
  const std::vector<Index>& leaves() const;
  /// The unknowns (original numbering) whose columns form leaf's panel, in panel column order.
  std::vector<Index> leaf_columns(Index leaf) const;
  /// Adds panels[k] = A(:, leaf_columns(leaves[k])) over all rows (original numbering). Blocks are
  /// updated in parallel, each by its panels in the given order, so the result does not depend on
  /// the thread count or on how a sequence of leaves is cut into calls.
  void add_panels(std::span<const Index> leaves, std::span<const Eigen::MatrixXd> panels);
  /// Recompresses and packs the blocks into float storage. Call once, after every leaf was added.
  HMatrix finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pliant::linalg
