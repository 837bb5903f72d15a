// Factor-once, solve-many sparse Cholesky. CHOLMOD (Chen, Davis, Hager & Rajamanickam, "Algorithm 887:
// CHOLMOD, supernodal sparse Cholesky factorization and update/downdate", ACM TOMS 35(3), 2008) via
// Eigen's CholmodSupport, or Eigen's SimplicialLDLT. CHOLMOD headers stay in src/ (sparse_cholesky_impl.hpp).
#include "pliant/linalg/sparse_cholesky.hpp"

#include "pliant/core/threads.hpp"
#include "sparse_cholesky_impl.hpp"

#include <limits>
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

SparseCholesky::Impl::~Impl() {
  cholmod_common& common = cholmod.cholmod();
  cholmod_free_dense(&solution, &common);
  cholmod_free_dense(&work_y, &common);
  cholmod_free_dense(&work_e, &common);
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

void SparseCholesky::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  x.resize(impl_->size);
  if (impl_->backend == CholeskyBackend::eigen_simplicial_ldlt) {
    x = impl_->ldlt.solve(b);  // permutes and substitutes in x: no temporary
    return;
  }
  // cholmod_solve (what Eigen's wrapper calls) allocates its result and workspaces and frees them again
  // on every call; cholmod_solve2 is the same solve with them kept (it is what cholmod_solve runs).
  cholmod_dense rhs{};
  rhs.nrow = rhs.d = static_cast<std::size_t>(b.size());
  rhs.ncol = 1;
  rhs.nzmax = rhs.nrow;
  rhs.x = const_cast<double*>(b.data());  // read only
  rhs.xtype = CHOLMOD_REAL;
  rhs.dtype = CHOLMOD_DOUBLE;
  auto* L = const_cast<cholmod_factor*>(impl_->cholmod.factor());
  if (!cholmod_solve2(CHOLMOD_A, L, &rhs, nullptr, &impl_->solution, nullptr, &impl_->work_y, &impl_->work_e,
                      &impl_->cholmod.cholmod())) {
    x.setConstant(std::numeric_limits<double>::quiet_NaN());  // as a failed solve(b) reports: not finite
    return;
  }
  x = Eigen::Map<const Eigen::VectorXd>(static_cast<const double*>(impl_->solution->x), impl_->size);
}

Eigen::MatrixXd SparseCholesky::solve(const Eigen::MatrixXd& B) const {
  if (impl_->backend != CholeskyBackend::eigen_simplicial_ldlt) return impl_->cholmod.solve(B);
  return impl_->ldlt.solve(B);
}

Eigen::Index SparseCholesky::size() const { return impl_->size; }
CholeskyBackend SparseCholesky::backend() const { return impl_->backend; }
long long SparseCholesky::factor_nonzeros() const { return impl_->factor_nonzeros; }

}  // namespace pliant::linalg
