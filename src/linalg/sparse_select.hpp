// Private helper: extract a sub-matrix of a column-major sparse matrix.
#pragma once

#include "pliant/linalg/sparse_matrix.hpp"

#include <vector>

namespace pliant::linalg {

/// Columns `cols` of K (in that order) with rows renumbered by `row_map` (-1 drops a row) into a
/// `rows`-row matrix. Rows stay sorted when row_map is increasing on the rows it keeps.
template <class IndexT>
SparseMatrix select_submatrix(const SparseMatrix& K, const std::vector<IndexT>& row_map, Eigen::Index rows,
                              const std::vector<IndexT>& cols) {
  SparseMatrix out(rows, static_cast<Eigen::Index>(cols.size()));
  Eigen::Index nnz = 0;
  for (IndexT j : cols)
    for (SparseMatrix::InnerIterator it(K, j); it; ++it) nnz += row_map[it.row()] >= 0;
  out.resizeNonZeros(nnz);
  Eigen::Index k = 0;
  for (std::size_t c = 0; c < cols.size(); ++c) {
    out.outerIndexPtr()[c] = static_cast<int>(k);
    for (SparseMatrix::InnerIterator it(K, cols[c]); it; ++it) {
      const IndexT r = row_map[it.row()];
      if (r < 0) continue;
      out.innerIndexPtr()[k] = static_cast<int>(r);
      out.valuePtr()[k] = it.value();
      ++k;
    }
  }
  out.outerIndexPtr()[cols.size()] = static_cast<int>(k);
  return out;
}

}  // namespace pliant::linalg
