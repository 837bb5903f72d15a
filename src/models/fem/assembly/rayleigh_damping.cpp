// Rayleigh damping; see rayleigh_damping.hpp.
#include "pliant/models/fem/assembly/rayleigh_damping.hpp"

#include <cmath>
#include <string>

namespace pliant::fem {
namespace {

Status check_coefficients(double alpha, double beta) {
  if (!(alpha >= 0.0) || !std::isfinite(alpha))
    return Error{"rayleigh damping: alpha " + std::to_string(alpha) + " 1/s must be finite and >= 0"};
  if (!(beta >= 0.0) || !std::isfinite(beta))
    return Error{"rayleigh damping: beta " + std::to_string(beta) + " s must be finite and >= 0"};
  return {};
}

std::string shape(const SparseMatrix& A) { return std::to_string(A.rows()) + "×" + std::to_string(A.cols()); }

}  // namespace

Result<SparseMatrix> rayleigh_damping(const SparseMatrix& M, const SparseMatrix& K, double alpha,
                                      double beta) {
  if (auto s = check_coefficients(alpha, beta); !s) return s.error();
  if (M.rows() != M.cols() || K.rows() != K.cols() || M.rows() != K.rows())
    return Error{"rayleigh damping: mass is " + shape(M) + " but stiffness is " + shape(K)};
  SparseMatrix C = alpha * M + beta * K;
  return C;
}

Result<SparseMatrix> rayleigh_damping(std::span<const double> lumped_mass, const SparseMatrix& K,
                                      double alpha, double beta) {
  if (auto s = check_coefficients(alpha, beta); !s) return s.error();
  const auto n = static_cast<Eigen::Index>(3 * lumped_mass.size());
  if (K.rows() != n || K.cols() != n)
    return Error{"rayleigh damping: " + std::to_string(lumped_mass.size()) +
                 " node masses but stiffness is " + shape(K)};
  SparseMatrix M(n, n);
  M.reserve(Eigen::VectorXi::Constant(n, 1));
  for (Eigen::Index i = 0; i < n; ++i) M.insert(i, i) = lumped_mass[static_cast<std::size_t>(i / 3)];
  M.makeCompressed();
  SparseMatrix C = alpha * M + beta * K;
  return C;
}

}  // namespace pliant::fem
