// Float copy of a CHOLMOD supernodal factor and its supernodal triangular solves (header for the idea).
#include "pliant/linalg/single_precision_factor.hpp"

#include "sparse_cholesky_impl.hpp"

#include <algorithm>
#include <string>

namespace pliant::linalg {

namespace {

// CHOLMOD stores the factor's integer arrays as int or SuiteSparse_long (L->itype).
template <class Int>
std::int64_t at(const void* array, std::int64_t k) {
  return static_cast<std::int64_t>(static_cast<const Int*>(array)[k]);
}

std::int64_t entry(const cholmod_factor& L, const void* array, std::int64_t k) {
  return L.itype == CHOLMOD_LONG ? at<SuiteSparse_long>(array, k) : at<int>(array, k);
}

using ConstBlock = Eigen::Map<const Eigen::MatrixXf, 0, Eigen::OuterStride<>>;

}  // namespace

Result<SinglePrecisionFactor> SinglePrecisionFactor::build(const SparseCholesky& cholesky) {
  if (cholesky.backend() == CholeskyBackend::eigen_simplicial_ldlt)
    return Error{"single-precision factor: needs a CHOLMOD supernodal factor, got eigen_simplicial_ldlt"};
  const cholmod_factor* L = cholesky.impl_->cholmod.factor();
  if (L == nullptr || !L->is_super || !L->is_ll || L->xtype != CHOLMOD_REAL || L->x == nullptr)
    return Error{"single-precision factor: the CHOLMOD factor is not a numeric supernodal LLᵀ"};
  const auto n = static_cast<std::int64_t>(L->n);
  const auto nsuper = static_cast<std::int64_t>(L->nsuper);
  SinglePrecisionFactor f;
  f.first_column_.resize(static_cast<std::size_t>(nsuper + 1));
  f.row_offset_.resize(static_cast<std::size_t>(nsuper + 1));
  f.value_offset_.resize(static_cast<std::size_t>(nsuper + 1));
  std::int64_t max_rows = 0;
  for (std::int64_t s = 0; s <= nsuper; ++s) {
    const auto ss = static_cast<std::size_t>(s);
    f.first_column_[ss] = static_cast<std::int32_t>(entry(*L, L->super, s));
    f.row_offset_[ss] = static_cast<std::int32_t>(entry(*L, L->pi, s));
    f.value_offset_[ss] = entry(*L, L->px, s);
    if (s > 0) max_rows = std::max<std::int64_t>(max_rows, f.row_offset_[ss] - f.row_offset_[ss - 1]);
  }
  const std::int64_t nrows = f.row_offset_.back(), nvalues = f.value_offset_.back();
  f.row_index_.resize(static_cast<std::size_t>(nrows));
  for (std::int64_t k = 0; k < nrows; ++k)
    f.row_index_[static_cast<std::size_t>(k)] = static_cast<std::int32_t>(entry(*L, L->s, k));
  const auto* x = static_cast<const double*>(L->x);
  f.values_.assign(x, x + nvalues);  // rounds to float
  f.permutation_.resize(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k)
    f.permutation_[static_cast<std::size_t>(k)] =
        static_cast<std::int32_t>(L->Perm != nullptr ? entry(*L, L->Perm, k) : k);
  f.x_.resize(static_cast<std::size_t>(n));
  f.gather_.resize(static_cast<std::size_t>(max_rows));
  return f;
}

Eigen::Index SinglePrecisionFactor::widest_supernode() const {
  std::int32_t widest = 0;
  for (std::size_t s = 0; s + 1 < first_column_.size(); ++s)
    widest = std::max(widest, first_column_[s + 1] - first_column_[s]);
  return widest;
}

void SinglePrecisionFactor::solve_permuted(float* x) const {
  const std::size_t nsuper = first_column_.size() - 1;
  float* g = gather_.data();
  // Forward: L y = b, supernodes in order.
  for (std::size_t s = 0; s < nsuper; ++s) {
    const Eigen::Index ncol = first_column_[s + 1] - first_column_[s];
    const Eigen::Index nrow = row_offset_[s + 1] - row_offset_[s];
    const float* block = values_.data() + value_offset_[s];
    Eigen::Map<Eigen::VectorXf> xs(x + first_column_[s], ncol);
    ConstBlock(block, ncol, ncol, Eigen::OuterStride<>(nrow)).triangularView<Eigen::Lower>().solveInPlace(xs);
    const Eigen::Index below = nrow - ncol;
    if (below == 0) continue;
    Eigen::Map<Eigen::VectorXf> gs(g, below);
    gs.noalias() = ConstBlock(block + ncol, below, ncol, Eigen::OuterStride<>(nrow)) * xs;
    const std::int32_t* rows = row_index_.data() + row_offset_[s] + ncol;
    for (Eigen::Index i = 0; i < below; ++i) x[rows[i]] -= g[i];
  }
  // Backward: Lᵀ x = y, supernodes in reverse order.
  for (std::size_t s = nsuper; s-- > 0;) {
    const Eigen::Index ncol = first_column_[s + 1] - first_column_[s];
    const Eigen::Index nrow = row_offset_[s + 1] - row_offset_[s];
    const float* block = values_.data() + value_offset_[s];
    Eigen::Map<Eigen::VectorXf> xs(x + first_column_[s], ncol);
    const Eigen::Index below = nrow - ncol;
    if (below > 0) {
      const std::int32_t* rows = row_index_.data() + row_offset_[s] + ncol;
      for (Eigen::Index i = 0; i < below; ++i) g[i] = x[rows[i]];
      xs.noalias() -= ConstBlock(block + ncol, below, ncol, Eigen::OuterStride<>(nrow)).transpose() *
                      Eigen::Map<const Eigen::VectorXf>(g, below);
    }
    ConstBlock(block, ncol, ncol, Eigen::OuterStride<>(nrow))
        .transpose()
        .triangularView<Eigen::Upper>()
        .solveInPlace(xs);
  }
}

void SinglePrecisionFactor::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  const std::size_t n = permutation_.size();
  float* xf = x_.data();
  for (std::size_t k = 0; k < n; ++k) xf[k] = static_cast<float>(b[permutation_[k]]);
  solve_permuted(xf);
  if (x.size() != static_cast<Eigen::Index>(n)) x.resize(static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) x[permutation_[k]] = static_cast<double>(xf[k]);
}

Eigen::MatrixXd SinglePrecisionFactor::solve(const Eigen::MatrixXd& B) const {
  Eigen::MatrixXd X(B.rows(), B.cols());
  Eigen::VectorXd column(B.rows());
  for (Eigen::Index j = 0; j < B.cols(); ++j) {
    column = B.col(j);
    solve(column, column);
    X.col(j) = column;
  }
  return X;
}

}  // namespace pliant::linalg
