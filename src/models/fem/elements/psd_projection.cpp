// Eigenvalue clamping onto the positive semidefinite cone; see psd_projection.hpp.
#include "pliant/models/fem/elements/psd_projection.hpp"

#include <Eigen/Eigenvalues>

namespace pliant::fem {
namespace {

template <class M>
M clamp_eigenvalues(const M& A) {
  const M sym = 0.5 * (A + A.transpose());
  Eigen::SelfAdjointEigenSolver<M> eig(sym);
  if (eig.info() != Eigen::Success) return sym;  // only on non-finite input, which then propagates
  if (eig.eigenvalues().minCoeff() >= 0.0) return sym;
  const auto clamped = eig.eigenvalues().cwiseMax(0.0);
  M out = eig.eigenvectors() * clamped.asDiagonal() * eig.eigenvectors().transpose();
  return 0.5 * (out + out.transpose());
}

}  // namespace

Mat9 project_psd(const Mat9& A) { return clamp_eigenvalues(A); }
Mat12 project_psd(const Mat12& A) { return clamp_eigenvalues(A); }

}  // namespace pliant::fem
