// Factor-once, solve-many sparse Cholesky. CHOLMOD (Chen, Davis, Hager & Rajamanickam, "Algorithm 887:
// CHOLMOD, supernodal sparse Cholesky factorization and update/downdate", ACM TOMS 35(3), 2008) via
// Eigen's CholmodSupport, or Eigen's SimplicialLDLT. CHOLMOD headers stay in src/ (sparse_cholesky_impl.hpp).
#include "pliant/linalg/sparse_cholesky.hpp"

#include "pliant/core/threads.hpp"
#include "sparse_cholesky_impl.hpp"

#include <string>

namespace pliant::linalg {

std::string_view to_string(CholeskyBackend backend) {
  switch (backend) {
    case CholeskyBackend::cholmod_supernodal:
      return "cholmod_supernodal";
    case CholeskyBackend::eigen_simplicial_ldlt:
      return "eigen_simplicial_ldlt";
    case CholeskyBackend::cholmod_supernodal_wide:
      return "cholmod_supernodal_wide";
    case CholeskyBackend::cholmod_simplicial:
      return "cholmod_simplicial";
  }
  return "unknown";
}

SparseCholesky::SparseCholesky(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SparseCholesky::SparseCholesky(SparseCholesky&&) noexcept = default;
SparseCholesky& SparseCholesky::operator=(SparseCholesky&&) noexcept = default;
SparseCholesky::~SparseCholesky() = default;

Result<SparseCholesky> SparseCholesky::factor(const SparseMatrix& A, CholeskyBackend backend,
                                              CholeskyOrdering ordering) {
  if (A.rows() == 0 || A.rows() != A.cols())
    return Error{"cholesky: matrix must be square and non-empty, got " + std::to_string(A.rows()) + "×" +
                 std::to_string(A.cols())};
  // CHOLMOD calls the BLAS: one BLAS thread per solve (core/threads.hpp), unless the user said otherwise.
  apply_blas_threads();
  auto impl = std::make_unique<Impl>();
  impl->backend = backend;
  impl->size = A.rows();
  const char* failure =
      "cholesky: matrix is not positive definite (singular constraints or a degenerate element?)";
  if (backend != CholeskyBackend::eigen_simplicial_ldlt) {
    cholmod_common& common = impl->cholmod.cholmod();
    common.print = 0;  // report through our Result, not CHOLMOD's stderr warnings
    if (backend == CholeskyBackend::cholmod_supernodal_wide)
      for (int i = 0; i < 3; ++i) {
        common.nrelax[i] *= 3;
        common.zrelax[i] *= 3.0;
      }
    if (backend == CholeskyBackend::cholmod_simplicial) {
      // LLᵀ, not CHOLMOD's default simplicial LDLᵀ, which factors an indefinite matrix without complaint.
      common.supernodal = CHOLMOD_SIMPLICIAL;
      common.final_asis = 0;
      common.final_ll = 1;
    }
    if (ordering == CholeskyOrdering::fewest_nonzeros) {
      common.nmethods = 2;
      common.method[0].ordering = CHOLMOD_AMD;
      common.method[1].ordering = CHOLMOD_METIS;
    }
    impl->cholmod.compute(A);
    if (impl->cholmod.info() != Eigen::Success) return Error{failure};
    impl->factor_nonzeros = static_cast<long long>(impl->cholmod.cholmod().lnz);
  } else {
    impl->ldlt.compute(A);
    if (impl->ldlt.info() != Eigen::Success || !(impl->ldlt.vectorD().array() > 0.0).all())
      return Error{failure};
    impl->factor_nonzeros = impl->ldlt.matrixL().nestedExpression().nonZeros() + A.rows();
  }
  return SparseCholesky(std::move(impl));
}

Status SparseCholesky::refactor(const SparseMatrix& A) {
  if (A.rows() != impl_->size || A.cols() != impl_->size)
    return Error{"cholesky: refactor needs a " + std::to_string(impl_->size) + "-square matrix, got " +
                 std::to_string(A.rows()) + "×" + std::to_string(A.cols())};
  const char* failure = "cholesky: refactored matrix is not positive definite";
  if (impl_->backend != CholeskyBackend::eigen_simplicial_ldlt) {
    impl_->cholmod.factorize(A);
    if (impl_->cholmod.info() != Eigen::Success) return Error{failure};
  } else {
    impl_->ldlt.factorize(A);
    if (impl_->ldlt.info() != Eigen::Success || !(impl_->ldlt.vectorD().array() > 0.0).all())
      return Error{failure};
  }
  return {};
}

Eigen::VectorXd SparseCholesky::solve(const Eigen::VectorXd& b) const {
  if (impl_->backend != CholeskyBackend::eigen_simplicial_ldlt) return impl_->cholmod.solve(b);
  return impl_->ldlt.solve(b);
}

Eigen::MatrixXd SparseCholesky::solve(const Eigen::MatrixXd& B) const {
  if (impl_->backend != CholeskyBackend::eigen_simplicial_ldlt) return impl_->cholmod.solve(B);
  return impl_->ldlt.solve(B);
}

Eigen::Index SparseCholesky::size() const { return impl_->size; }
CholeskyBackend SparseCholesky::backend() const { return impl_->backend; }
long long SparseCholesky::factor_nonzeros() const { return impl_->factor_nonzeros; }

}  // namespace pliant::linalg
