#include "pliant/models/fem/elements/psd_projection.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>

#include <random>

namespace pliant::fem {
namespace {

template <class M>
M random_symmetric(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  M A;
  for (double& a : A.reshaped()) a = n(rng);
  return 0.5 * (A + A.transpose());
}

template <class M>
void check_projection(std::mt19937& rng) {
  for (int trial = 0; trial < 50; ++trial) {
    const M A = random_symmetric<M>(rng);
    const M P = project_psd(A);
    Eigen::SelfAdjointEigenSolver<M> a(A), p(P), d(A - P);
    EXPECT_LT((P - P.transpose()).norm(), 1e-14 * A.norm());
    EXPECT_GT(p.eigenvalues().minCoeff(), -1e-13 * A.norm());  // positive semidefinite
    EXPECT_LT(d.eigenvalues().maxCoeff(), 1e-13 * A.norm());   // only negative parts removed
    // Nearest in the Frobenius norm (Higham 1988): the distance is the norm of the negative eigenvalues.
    EXPECT_NEAR((A - P).norm(), a.eigenvalues().cwiseMin(0.0).norm(), 1e-12 * A.norm());
    EXPECT_LT((project_psd(P) - P).norm(), 1e-13 * A.norm());  // idempotent
    // The identity on positive semidefinite matrices, singular ones included.
    M B = A;
    B.col(0).setZero();
    const M psd = B * B.transpose();
    EXPECT_LT((project_psd(psd) - psd).norm(), 1e-14 * psd.norm());
    // An asymmetric input is projected through its symmetric part.
    std::normal_distribution<double> n(0.0, 1.0);
    M G;
    for (double& g : G.reshaped()) g = n(rng);
    const M skew = G - G.transpose();
    EXPECT_LT((project_psd(M(psd + skew)) - psd).norm(), 1e-13 * psd.norm());
  }
}

TEST(PsdProjection, Matrix9) {
  std::mt19937 rng(51);
  check_projection<Mat9>(rng);
}

TEST(PsdProjection, Matrix12) {
  std::mt19937 rng(52);
  check_projection<Mat12>(rng);
}

}  // namespace
}  // namespace pliant::fem
