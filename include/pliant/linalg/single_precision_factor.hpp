// A single-precision copy of a supernodal Cholesky factor, with its own triangular solves.
//
// Preconditioned CG only needs an SPD approximation of A⁻¹: with L the double-precision supernodal
// CHOLMOD factor of P A Pᵀ (P the fill-reducing permutation) and L_f its rounding to float,
// Pᵀ (L_f L_fᵀ)⁻¹ P is SPD (L_f keeps a positive diagonal) and close to A⁻¹ (float round-off times
// A's conditioning: 1e-7 to 2e-7 relative on the fem-dynamic beam). Its solve streams half the bytes of
// the double factor, the traffic that bounds the solve on factors larger than the caches
// (rest_factor_pcg, implicit_solver.hpp; 1.6-1.9× faster than CHOLMOD's double solve there). The solve
// goes supernode by supernode: a dense triangular solve with the supernode's diagonal block and a dense
// product with its rectangular part (forward), then the same blocks transposed in reverse order
// (backward). Arithmetic is in float.
//
// Not safe for concurrent solves on one object (the solves share a member scratch vector).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::linalg {

class SinglePrecisionFactor {
 public:
  /// Copies the factor of `cholesky` (a CHOLMOD supernodal backend) into float. Fails with a message
  /// for the simplicial LDLᵀ backend. The copy does not follow a later refactor() of `cholesky`.
  static Result<SinglePrecisionFactor> build(const SparseCholesky& cholesky);

  /// x ≈ A⁻¹ b, (L_f L_fᵀ)⁻¹ in float, b and x in double (x is resized when its size differs; no
  /// allocation otherwise). x may be b.
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;
  /// X ≈ A⁻¹ B, column by column.
  Eigen::MatrixXd solve(const Eigen::MatrixXd& B) const;

  Eigen::Index size() const { return static_cast<Eigen::Index>(permutation_.size()); }
  /// Number of supernodes (dense column blocks of the factor).
  Eigen::Index supernodes() const { return static_cast<Eigen::Index>(first_column_.size()) - 1; }
  /// Columns of the widest supernode.
  Eigen::Index widest_supernode() const;
  /// The fill-reducing ordering: row k of the factored P A Pᵀ is row permutation()[k] of A.
  std::span<const std::int32_t> permutation() const { return permutation_; }
  /// Stored float values of the factor (the dense supernodal blocks, explicit zeros included).
  long long stored_values() const { return static_cast<long long>(values_.size()); }

 private:
  SinglePrecisionFactor() = default;
  void solve_permuted(float* x) const;

  // Supernode s: columns first_column_[s] ≤ j < first_column_[s + 1] of the permuted matrix; its rows
  // row_index_[row_offset_[s] .. row_offset_[s + 1]) (the supernode's own columns first), its block
  // values_[value_offset_[s] ..] column-major, rows × columns.
  std::vector<std::int32_t> first_column_, row_offset_, row_index_;
  std::vector<std::int64_t> value_offset_;
  std::vector<float> values_;
  std::vector<std::int32_t> permutation_;  // row k of P A Pᵀ is row permutation_[k] of A
  mutable std::vector<float> x_, gather_;  // solve scratch: permuted vector, one supernode's rows
};

}  // namespace pliant::linalg
