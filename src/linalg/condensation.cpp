// Condensation onto surface DOFs (Bro-Nielsen & Cotin, Eurographics 1996); formulas in condensation.hpp.
#include "pliant/linalg/condensation.hpp"

#include "linalg/sparse_select.hpp"

#include <algorithm>
#include <string>

namespace pliant::linalg {

Condensation::Condensation(std::vector<Eigen::Index> surface, std::vector<Eigen::Index> interior,
                           SparseMatrix k_si, SparseCholesky interior_factor, Eigen::MatrixXd condensed)
    : surface_(std::move(surface)),
      interior_(std::move(interior)),
      k_si_(std::move(k_si)),
      interior_factor_(std::move(interior_factor)),
      condensed_(std::move(condensed)),
      condensed_factor_(condensed_) {}

Result<Condensation> Condensation::build(const SparseMatrix& A, std::span<const Eigen::Index> surface,
                                         CholeskyBackend backend) {
  const Eigen::Index n = A.rows();
  if (n == 0 || A.cols() != n) return Error{"condensation: matrix must be square and non-empty"};
  if (surface.empty()) return Error{"condensation: no surface DOFs given"};
  std::vector<Eigen::Index> surface_pos(n, -1);
  for (std::size_t k = 0; k < surface.size(); ++k) {
    const Eigen::Index d = surface[k];
    if (d < 0 || d >= n)
      return Error{"condensation: surface index " + std::to_string(d) + " is out of range (" +
                   std::to_string(n) + ")"};
    if (surface_pos[d] >= 0)
      return Error{"condensation: surface index " + std::to_string(d) + " is listed twice"};
    surface_pos[d] = static_cast<Eigen::Index>(k);
  }
  std::vector<Eigen::Index> surf(surface.begin(), surface.end()), interior, interior_pos(n, -1);
  for (Eigen::Index d = 0; d < n; ++d)
    if (surface_pos[d] < 0) {
      interior_pos[d] = static_cast<Eigen::Index>(interior.size());
      interior.push_back(d);
    }
  const auto ns = static_cast<Eigen::Index>(surf.size());
  const auto ni = static_cast<Eigen::Index>(interior.size());

  // K_ss, dense.
  Eigen::MatrixXd condensed = Eigen::MatrixXd::Zero(ns, ns);
  for (Eigen::Index c = 0; c < ns; ++c)
    for (SparseMatrix::InnerIterator it(A, surf[c]); it; ++it)
      if (surface_pos[it.row()] >= 0) condensed(surface_pos[it.row()], c) = it.value();

  if (ni == 0) {
    // Nothing to eliminate: a 1×1 identity stands in for the (empty) interior factor.
    SparseMatrix one(1, 1);
    one.insert(0, 0) = 1.0;
    auto dummy = SparseCholesky::factor(one, CholeskyBackend::eigen_simplicial_ldlt);
    Condensation result(std::move(surf), {}, SparseMatrix(ns, 0), std::move(dummy.value()),
                        std::move(condensed));
    if (result.condensed_factor_.info() != Eigen::Success)
      return Error{"condensation: the surface matrix is not positive definite"};
    return result;
  }

  const SparseMatrix k_ii = select_submatrix(A, interior_pos, ni, interior);
  const SparseMatrix k_is = select_submatrix(A, interior_pos, ni, surf);  // interior rows, surface columns
  SparseMatrix k_si = k_is.transpose();
  // Its factor serves two solves a step of a hybrid body: worth the slower analysis of both orderings.
  auto factor = SparseCholesky::factor(k_ii, backend, CholeskyOrdering::fewest_nonzeros);
  if (!factor) return Error{"condensation: interior block: " + factor.message()};

  // K*_ss = K_ss - K_si (K_ii⁻¹ K_is), a block of columns at a time so the dense K_ii⁻¹ K_is never
  // exists whole (it would take 8·n_i·n_s bytes).
  constexpr Eigen::Index kBlock = 128;
  for (Eigen::Index c0 = 0; c0 < ns; c0 += kBlock) {
    const Eigen::Index w = std::min(kBlock, ns - c0);
    const Eigen::MatrixXd rhs = Eigen::MatrixXd(k_is.middleCols(c0, w));
    const Eigen::MatrixXd X = factor->solve(rhs);
    condensed.middleCols(c0, w).noalias() -= k_si * X;
  }
  condensed = 0.5 * (condensed + condensed.transpose()).eval();  // remove round-off asymmetry
  Condensation result(std::move(surf), std::move(interior), std::move(k_si), std::move(factor.value()),
                      std::move(condensed));
  if (result.condensed_factor_.info() != Eigen::Success)
    return Error{"condensation: the condensed surface matrix is not positive definite"};
  return result;
}

Eigen::VectorXd Condensation::condense_rhs(const Eigen::VectorXd& f) const {
  Eigen::VectorXd fs(static_cast<Eigen::Index>(surface_.size()));
  for (std::size_t k = 0; k < surface_.size(); ++k) fs[k] = f[surface_[k]];
  if (interior_.empty()) return fs;
  Eigen::VectorXd fi(static_cast<Eigen::Index>(interior_.size()));
  for (std::size_t k = 0; k < interior_.size(); ++k) fi[k] = f[interior_[k]];
  fs.noalias() -= k_si_ * interior_factor_.solve(fi);
  return fs;
}

void Condensation::condense_rhs(const Eigen::VectorXd& f, Eigen::VectorXd& out) const {
  out.resize(static_cast<Eigen::Index>(surface_.size()));
  for (std::size_t k = 0; k < surface_.size(); ++k) out[k] = f[surface_[k]];
  if (interior_.empty()) return;
  interior_load_.resize(static_cast<Eigen::Index>(interior_.size()));
  for (std::size_t k = 0; k < interior_.size(); ++k) interior_load_[k] = f[interior_[k]];
  interior_factor_.solve(interior_load_, interior_solution_);
  out.noalias() -= k_si_ * interior_solution_;
}

void Condensation::recover_interior(const Eigen::VectorXd& f, const Eigen::VectorXd& u_surface,
                                    Eigen::VectorXd& out) const {
  if (interior_.empty()) {
    out.resize(0);
    return;
  }
  interior_load_.resize(static_cast<Eigen::Index>(interior_.size()));
  for (std::size_t k = 0; k < interior_.size(); ++k) interior_load_[k] = f[interior_[k]];
  interior_load_.noalias() -= k_si_.transpose() * u_surface;  // K_is = K_siᵀ
  interior_factor_.solve(interior_load_, out);
}

Eigen::VectorXd Condensation::solve_surface(const Eigen::VectorXd& condensed_rhs) const {
  return condensed_factor_.solve(condensed_rhs);
}

Eigen::VectorXd Condensation::recover_interior(const Eigen::VectorXd& f,
                                               const Eigen::VectorXd& u_surface) const {
  if (interior_.empty()) return Eigen::VectorXd();
  Eigen::VectorXd fi(static_cast<Eigen::Index>(interior_.size()));
  for (std::size_t k = 0; k < interior_.size(); ++k) fi[k] = f[interior_[k]];
  fi.noalias() -= k_si_.transpose() * u_surface;  // K_is = K_siᵀ
  return interior_factor_.solve(fi);
}

Eigen::VectorXd Condensation::solve(const Eigen::VectorXd& f) const {
  const Eigen::VectorXd us = solve_surface(condense_rhs(f));
  const Eigen::VectorXd ui = recover_interior(f, us);
  Eigen::VectorXd u(static_cast<Eigen::Index>(surface_.size() + interior_.size()));
  for (std::size_t k = 0; k < surface_.size(); ++k) u[surface_[k]] = us[k];
  for (std::size_t k = 0; k < interior_.size(); ++k) u[interior_[k]] = ui[k];
  return u;
}

}  // namespace pliant::linalg
