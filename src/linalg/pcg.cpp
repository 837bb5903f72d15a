// Preconditioned conjugate gradients (Hestenes & Stiefel 1952) with the preconditioners compared in
// the survey of Huang & Wang (2007) (Frank et al. 2001: Jacobi, SSOR) plus 3×3 block-Jacobi and incomplete
// Cholesky (Lin & Moré 1999, as implemented by Eigen's IncompleteCholesky).
#include "pliant/linalg/pcg.hpp"

#include "core/parallel_for.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/types.hpp"

#include <Eigen/IterativeLinearSolvers>

#include <cmath>
#include <limits>
#include <string>

namespace pliant::linalg {

std::string_view to_string(Preconditioner p) {
  switch (p) {
    case Preconditioner::none:
      return "none";
    case Preconditioner::jacobi:
      return "jacobi";
    case Preconditioner::block_jacobi:
      return "block_jacobi";
    case Preconditioner::ssor:
      return "ssor";
    case Preconditioner::incomplete_cholesky:
      return "ic";
  }
  return "unknown";
}

Result<Preconditioner> parse_preconditioner(std::string_view name) {
  if (name == "none") return Preconditioner::none;
  if (name == "jacobi") return Preconditioner::jacobi;
  if (name == "block_jacobi") return Preconditioner::block_jacobi;
  if (name == "ssor") return Preconditioner::ssor;
  if (name == "ic" || name == "incomplete_cholesky") return Preconditioner::incomplete_cholesky;
  return Error{"pcg: unknown preconditioner '" + std::string(name) +
               "' (known: none, jacobi, block_jacobi, ssor, ic)"};
}

using RowMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct PcgSolver::Impl {
  PcgSettings settings;
  RowMatrix A;                   // row-major copy: parallel SpMV in Eigen, row sweeps for SSOR
  Eigen::VectorXd inv_diag;      // Jacobi, SSOR
  std::vector<Mat3> inv_blocks;  // block-Jacobi
  Eigen::IncompleteCholesky<double, Eigen::Lower, Eigen::AMDOrdering<int>> ic;
  Eigen::VectorXd r, z, p, q;  // work vectors, sized once
  double setup_seconds = 0.0;
  int team_ = 1;  // OpenMP team of the product, from the thread policy when the solver is built

  // out = A in. Rows are independent, so the parallel loop is deterministic. Small systems stay serial:
  // waking threads costs more than the product, and much more when cores are shared.
  void multiply(const Eigen::VectorXd& in, Eigen::VectorXd& out) const {
    const Eigen::Index n = A.rows();
    const int* outer = A.outerIndexPtr();
    const int* inner = A.innerIndexPtr();
    const double* values = A.valuePtr();
    parallel_for(n, A.nonZeros() > 2'000'000 ? team_ : 1, [&](Eigen::Index i) {
      double sum = 0.0;
      for (int k = outer[i]; k < outer[i + 1]; ++k) sum += values[k] * in[inner[k]];
      out[i] = sum;
    });
  }

  void apply(const Eigen::VectorXd& in, Eigen::VectorXd& out) {
    const Eigen::Index n = in.size();
    switch (settings.preconditioner) {
      case Preconditioner::none:
        out = in;
        break;
      case Preconditioner::jacobi:
        out = inv_diag.cwiseProduct(in);
        break;
      case Preconditioner::block_jacobi:
        for (Eigen::Index b = 0; b < n / 3; ++b)
          out.segment<3>(3 * b).noalias() = inv_blocks[b] * in.segment<3>(3 * b);
        break;
      case Preconditioner::ssor: {
        // M = (D + ωL) D⁻¹ (D + ωU) / (ω(2-ω)), with L and U the strict triangles of A (U = Lᵀ), applied
        // as a forward sweep y = (D/ω + L)⁻¹ r, a backward sweep z = (D/ω + U)⁻¹ (D/ω) y, then the
        // factor 2-ω (since (D + ωL) = ω(D/ω + L), this is exactly M⁻¹ r).
        const double w = settings.ssor_omega;
        for (Eigen::Index i = 0; i < n; ++i) {
          double s = in[i];
          for (RowMatrix::InnerIterator it(A, i); it && it.col() < i; ++it) s -= it.value() * out[it.col()];
          out[i] = s * w * inv_diag[i];
        }
        for (Eigen::Index i = n - 1; i >= 0; --i) {
          double s = 0.0;
          for (RowMatrix::ReverseInnerIterator it(A, i); it && it.col() > i; --it)
            s += it.value() * out[it.col()];
          out[i] -= w * inv_diag[i] * s;
        }
        out *= 2.0 - w;
        break;
      }
      case Preconditioner::incomplete_cholesky:
        out = ic.solve(in);
        break;
    }
  }
};

PcgSolver::PcgSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PcgSolver::PcgSolver(PcgSolver&&) noexcept = default;
PcgSolver& PcgSolver::operator=(PcgSolver&&) noexcept = default;
PcgSolver::~PcgSolver() = default;

Result<PcgSolver> PcgSolver::build(const SparseMatrix& A, const PcgSettings& settings) {
  const Stopwatch clock;
  if (A.rows() == 0 || A.rows() != A.cols())
    return Error{"pcg: matrix must be square and non-empty, got " + std::to_string(A.rows()) + "×" +
                 std::to_string(A.cols())};
  if (!(settings.relative_tolerance > 0.0) || settings.max_iterations < 1)
    return Error{"pcg: tolerance must be positive and max_iterations at least 1"};
  if (settings.preconditioner == Preconditioner::ssor &&
      !(settings.ssor_omega > 0.0 && settings.ssor_omega < 2.0))
    return Error{"pcg: SSOR relaxation ω must lie in (0, 2), got " + std::to_string(settings.ssor_omega)};
  auto impl = std::make_unique<Impl>();
  impl->settings = settings;
  impl->team_ = solver_threads();
  impl->A = A;
  impl->A.makeCompressed();
  const Eigen::Index n = A.rows();
  impl->inv_diag.resize(n);
  const Eigen::VectorXd diag = impl->A.diagonal();
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!(diag[i] > 0.0))
      return Error{"pcg: diagonal entry " + std::to_string(i) + " is not positive (" +
                   std::to_string(diag[i]) + "): the matrix is not positive definite"};
    impl->inv_diag[i] = 1.0 / diag[i];
  }
  if (settings.preconditioner == Preconditioner::block_jacobi) {
    if (n % 3 != 0) return Error{"pcg: block-Jacobi needs a size divisible by 3, got " + std::to_string(n)};
    impl->inv_blocks.resize(n / 3);
    for (Eigen::Index b = 0; b < n / 3; ++b) {
      Mat3 block = Mat3::Zero();
      for (int c = 0; c < 3; ++c)
        for (RowMatrix::InnerIterator it(impl->A, 3 * b + c); it; ++it)
          if (it.col() >= 3 * b && it.col() < 3 * b + 3) block(c, it.col() - 3 * b) = it.value();
      Eigen::LLT<Mat3> llt(block);
      if (llt.info() != Eigen::Success)
        return Error{"pcg: diagonal block " + std::to_string(b) + " is not positive definite"};
      impl->inv_blocks[b] = llt.solve(Mat3::Identity());
    }
  }
  if (settings.preconditioner == Preconditioner::incomplete_cholesky) {
    impl->ic.compute(A);
    if (impl->ic.info() != Eigen::Success) return Error{"pcg: incomplete Cholesky factorisation failed"};
  }
  impl->r.resize(n);
  impl->z.resize(n);
  impl->p.resize(n);
  impl->q.resize(n);
  impl->setup_seconds = clock.seconds();
  return PcgSolver(std::move(impl));
}

PcgReport PcgSolver::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) {
  PcgReport report;
  solve(b, x, report);
  return report;
}

void PcgSolver::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x, PcgReport& report) {
  const Stopwatch clock;
  Impl& s = *impl_;
  const Eigen::Index n = s.A.rows();
  report.iterations = 0;
  report.converged = false;
  report.residual_history.clear();
  if (s.settings.record_history) report.residual_history.reserve(s.settings.max_iterations + 1);
  if (x.size() != n) x.setZero(n);
  if (b.size() != n) {  // programming error; report non-convergence rather than read out of bounds
    report.relative_residual = std::numeric_limits<double>::quiet_NaN();
    report.solve_seconds = clock.seconds();
    return;
  }
  const double bnorm = b.norm();
  if (!std::isfinite(bnorm)) {
    report.relative_residual = std::numeric_limits<double>::quiet_NaN();
    report.solve_seconds = clock.seconds();
    return;
  }
  if (bnorm == 0.0) {
    x.setZero();
    report.converged = true;
    report.relative_residual = 0.0;
    if (s.settings.record_history) report.residual_history.push_back(0.0);
    report.solve_seconds = clock.seconds();
    return;
  }
  s.multiply(x, s.r);
  s.r = b - s.r;
  double rel = s.r.norm() / bnorm;
  if (s.settings.record_history) report.residual_history.push_back(rel);
  if (rel <= s.settings.relative_tolerance) {
    report.converged = true;
    report.relative_residual = rel;
    report.solve_seconds = clock.seconds();
    return;
  }
  s.apply(s.r, s.z);
  s.p = s.z;
  double rz = s.r.dot(s.z);
  for (int k = 1; k <= s.settings.max_iterations; ++k) {
    s.multiply(s.p, s.q);
    const double pq = s.p.dot(s.q);
    if (!(pq > 0.0) || !std::isfinite(rz)) break;  // breakdown: A (or M) not positive definite
    const double alpha = rz / pq;
    x.noalias() += alpha * s.p;
    s.r.noalias() -= alpha * s.q;
    rel = s.r.norm() / bnorm;
    report.iterations = k;
    if (s.settings.record_history) report.residual_history.push_back(rel);
    if (rel <= s.settings.relative_tolerance) {
      report.converged = true;
      break;
    }
    s.apply(s.r, s.z);
    const double rz_new = s.r.dot(s.z);
    const double beta = rz_new / rz;
    rz = rz_new;
    s.p = s.z + beta * s.p;
  }
  report.relative_residual = rel;
  report.solve_seconds = clock.seconds();
}

const PcgSettings& PcgSolver::settings() const { return impl_->settings; }
double PcgSolver::setup_seconds() const { return impl_->setup_seconds; }

}  // namespace pliant::linalg
