#include "pliant/models/fem/elements/polar_decomposition.hpp"

#include "element_test_util.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

namespace pliant::fem {
namespace {

// The reference: Eigen's two-sided Jacobi SVD with Irving et al.'s (2004) sign fix applied by hand
// (reflections moved from U and V onto the smallest singular value).
struct Reference {
  Vec3 sigma;
  Mat3 R;
};
Reference irving_reference(const Mat3& F) {
  // Dynamic size: GCC 12 reports a false maybe-uninitialized inside the fixed-size 3×3 JacobiSVD.
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(Eigen::MatrixXd(F), Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU(), V = svd.matrixV();
  Vec3 s = svd.singularValues();
  if (U.determinant() < 0) {
    U.col(2) *= -1.0;
    s[2] *= -1.0;
  }
  if (V.determinant() < 0) {
    V.col(2) *= -1.0;
    s[2] *= -1.0;
  }
  return {s, U * V.transpose()};
}

void expect_rotation(const Mat3& R, const char* what) {
  EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-13) << what;
  EXPECT_NEAR(R.determinant(), 1.0, 1e-13) << what;
}

// Checks the decomposition's invariants and its signed singular values against the reference; R too
// when r_tolerance > 0 (R is unique only when σ₂ + σ₃ > 0, and its sensitivity grows as 1/(σ₂ + σ₃)).
void check(const Mat3& F, double r_tolerance, const char* what) {
  const RotationVariantSvd svd = rotation_variant_svd(F);
  expect_rotation(svd.U, what);
  expect_rotation(svd.V, what);
  const double scale = std::max(F.norm(), 1e-300);
  EXPECT_LT((svd.U * svd.sigma.asDiagonal() * svd.V.transpose() - F).norm(), 1e-13 * scale) << what;
  EXPECT_GE(svd.sigma[0], svd.sigma[1] - 1e-14 * scale) << what;
  EXPECT_GE(svd.sigma[1], std::abs(svd.sigma[2]) - 1e-14 * scale) << what;
  EXPECT_GE(svd.sigma[1], 0.0) << what;
  if (std::abs(F.determinant()) > 1e-12 * scale * scale * scale) {  // a sign above rounding
    EXPECT_EQ(svd.sigma[2] < 0, F.determinant() < 0) << what;
  }

  const PolarDecomposition p = polar_decomposition(F);
  expect_rotation(p.R, what);
  EXPECT_LT((p.S - p.S.transpose()).norm(), 1e-15 * scale) << what;
  EXPECT_LT((p.R * p.S - F).norm(), 1e-13 * scale) << what;

  const Reference ref = irving_reference(F);
  EXPECT_LT((svd.sigma - ref.sigma).norm(), 1e-13 * scale) << what;
  if (r_tolerance > 0) {
    EXPECT_LT((p.R - ref.R).norm(), r_tolerance) << what;
  }
}

TEST(PolarDecomposition, RandomGradientsMatchEigenSvd) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (int trial = 0; trial < 500; ++trial) {
    Mat3 F;
    for (double& a : F.reshaped()) a = u(rng);  // about half of them inverted
    const Reference ref = irving_reference(F);
    // R is unique when σ₂ + σ₃ > 0; skip the R comparison on the rare near-ties.
    const double gap = ref.sigma[1] + ref.sigma[2];
    check(F, gap > 1e-3 ? 1e-12 / gap : -1.0, "random");
  }
}

TEST(PolarDecomposition, InvertedElementsGetAProperRotation) {
  std::mt19937 rng(22);
  for (const Vec3& s : {Vec3(1, 1, -1), Vec3(2, 0.5, -0.3), Vec3(1.2, 1.1, -1.0), Vec3(3, 1, -0.999)}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Mat3 Q = test::random_rotation(rng), W = test::random_rotation(rng);
      const Mat3 F = Q * s.asDiagonal() * W;
      check(F, 1e-11 / (s[1] + s[2]), "inverted");
      const PolarDecomposition p = polar_decomposition(F);
      // The analytic answer: R = Q W, and S = Wᵀ diag(s) W keeps the reflection.
      EXPECT_LT((p.R - Q * W).norm(), 1e-11 / (s[1] + s[2]));
      EXPECT_LT((p.S - W.transpose() * s.asDiagonal() * W).norm(), 1e-11 / (s[1] + s[2]));
    }
  }
}

TEST(PolarDecomposition, FlatCollapsedAndZeroGradients) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat3 Q = test::random_rotation(rng), W = test::random_rotation(rng);
    // Flat (rank 2): R is still unique and equals Q W.
    const Mat3 flat = Q * Vec3(1.5, 0.7, 0.0).asDiagonal() * W;
    check(flat, 1e-11, "flat");
    EXPECT_LT((extract_rotation(flat) - Q * W).norm(), 1e-11);
    // Nearly flat with either orientation.
    check(Q * Vec3(1.0, 0.8, 1e-9).asDiagonal() * W, 1e-11, "nearly flat");
    check(Q * Vec3(1.0, 0.8, -1e-9).asDiagonal() * W, 1e-11, "nearly flat, inverted");
    // Nearly collapsed to a line: R is unique but ill conditioned (1/(σ₂ + σ₃) ≈ 1e6).
    const Mat3 thin = Q * Vec3(1.0, 1e-6, 3e-7).asDiagonal() * W;
    check(thin, 1e-7, "thin");
    // Collapsed to a line or a point: R is not unique; only its properties are checked.
    check(Q * Vec3(2.0, 0.0, 0.0).asDiagonal() * W, -1.0, "line");
  }
  check(Mat3::Zero(), -1.0, "zero");
  EXPECT_TRUE(extract_rotation(Mat3::Zero()).isApprox(Mat3::Identity()));
}

TEST(PolarDecomposition, RotationIsTheNearestOne) {
  // Irving et al.'s R minimises ‖F - R‖ over proper rotations, inverted F included.
  std::mt19937 rng(24);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    Mat3 F;
    for (double& a : F.reshaped()) a = u(rng);
    const Mat3 R = extract_rotation(F);
    const double best = (F - R).norm();
    for (int k = 0; k < 20; ++k) {
      const Vec3 w(u(rng), u(rng), u(rng));
      const Mat3 other = R * test::rotation(0.05 * w.norm() + 1e-3, w);
      EXPECT_LE(best, (F - other).norm() + 1e-14);
      EXPECT_LE(best, (F - test::random_rotation(rng)).norm() + 1e-14);
    }
  }
}

TEST(PolarDecomposition, PositiveDeterminantGivesTheClassicalPolarDecomposition) {
  std::mt19937 rng(25);
  for (int trial = 0; trial < 100; ++trial) {
    const Mat3 F = test::gradient_with_singular_values(rng, Vec3(1.7, 0.9, 0.4));
    const PolarDecomposition p = polar_decomposition(F);
    Eigen::SelfAdjointEigenSolver<Mat3> eig(p.S);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0.39);
    EXPECT_NEAR(eig.eigenvalues().maxCoeff(), 1.7, 1e-12);
    // S = sqrt(FᵀF), an independent route.
    Eigen::SelfAdjointEigenSolver<Mat3> c(F.transpose() * F);
    EXPECT_LT((p.S - c.operatorSqrt()).norm(), 1e-12);
  }
}

TEST(PolarDecomposition, ExtractRotationMatchesTheReferenceOnEveryBranch) {
  // extract_rotation takes Newton's polar iteration for well-conditioned det F > 0 and the SVD
  // otherwise: both branches and their boundary must give Irving et al.'s R.
  std::mt19937 rng(26);
  const Vec3 spectra[] = {Vec3(1.1, 1.0, 0.9),    Vec3(3.0, 1.0, 0.2),   Vec3(1.0, 1.0, 0.05),
                          Vec3(1.0, 0.7, -0.6),   Vec3(1.2, 1.0, -1e-3), Vec3(1.0, 1.0, 1.0),
                          Vec3(1e-9, 1e-9, 1e-9), Vec3(1e8, 1e8, 0.9e8), Vec3(2.0, 0.5, 0.33)};
  for (const Vec3& s : spectra)
    for (int trial = 0; trial < 50; ++trial) {
      const Mat3 F = test::gradient_with_singular_values(rng, s);
      const Mat3 R = extract_rotation(F);
      expect_rotation(R, "extract_rotation");
      const double gap = std::abs(s[1]) + std::abs(s[2]);  // R's condition: 1 / (σ₂ + σ₃)
      EXPECT_LT((R - irving_reference(F).R).norm(), 1e-12 * std::abs(s[0]) / gap);
    }
}

}  // namespace
}  // namespace pliant::fem
