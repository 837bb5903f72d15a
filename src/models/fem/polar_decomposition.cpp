// Rotation-variant SVD and polar decomposition; see polar_decomposition.hpp for the method and sources.
#include "pliant/models/fem/polar_decomposition.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pliant::fem {
namespace {

// One-sided Jacobi (Hestenes 1958): right-multiplies B by plane rotations, accumulated in V, until its
// columns are mutually orthogonal; then B = F V = U Σ. Each rotation diagonalises the 2×2 Gram matrix
// of a column pair (the symmetric Schur step of Golub & Van Loan, Alg. 8.5.1). Working on the columns
// rather than on FᵀF keeps the small singular values and their vectors accurate to rounding relative to
// the column norms, which matters for nearly flat and nearly collapsed tets.
void orthogonalize_columns(Mat3& B, Mat3& V) {
  V.setIdentity();
  const double eps = std::numeric_limits<double>::epsilon();
  for (int sweep = 0; sweep < 32; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        const double alpha = B.col(p).squaredNorm(), beta = B.col(q).squaredNorm();
        const double gamma = B.col(p).dot(B.col(q));
        if (!(std::abs(gamma) > eps * std::sqrt(alpha * beta))) continue;  // orthogonal, zero or NaN
        rotated = true;
        const double tau = (beta - alpha) / (2.0 * gamma);
        const double t = std::abs(tau) > 1e150
                             ? 0.5 / tau
                             : (tau >= 0 ? 1.0 : -1.0) / (std::abs(tau) + std::sqrt(1.0 + tau * tau));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = t * c;
        for (Mat3* M : {&B, &V}) {
          const Vec3 mp = M->col(p), mq = M->col(q);
          M->col(p) = c * mp - s * mq;
          M->col(q) = s * mp + c * mq;
        }
      }
    }
    if (!rotated) break;
  }
}

// Givens rotation acting on rows r0, r1 of R that zeroes R(r1, col) and leaves R(r0, col) ≥ 0; the
// transposed rotation is accumulated into the columns of Q so that Q R stays unchanged.
void givens_zero(Mat3& R, Mat3& Q, int r0, int r1, int col) {
  const double a = R(r0, col), b = R(r1, col);
  const double r = std::hypot(a, b);
  if (r == 0.0) return;
  const double c = a / r, s = b / r;
  for (int j = 0; j < 3; ++j) {
    const double x = R(r0, j), y = R(r1, j);
    R(r0, j) = c * x + s * y;
    R(r1, j) = -s * x + c * y;
  }
  R(r1, col) = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double x = Q(i, r0), y = Q(i, r1);
    Q(i, r0) = c * x + s * y;
    Q(i, r1) = -s * x + c * y;
  }
}

}  // namespace

RotationVariantSvd rotation_variant_svd(const Mat3& F) {
  RotationVariantSvd out;
  Mat3 B = F;
  orthogonalize_columns(B, out.V);

  // Sort the columns by decreasing norm (the singular values), V along; then make V a rotation.
  Vec3 norms(B.col(0).squaredNorm(), B.col(1).squaredNorm(), B.col(2).squaredNorm());
  for (int i = 0; i < 2; ++i) {
    int best = i;
    for (int j = i + 1; j < 3; ++j)
      if (norms[j] > norms[best]) best = j;
    if (best != i) {
      std::swap(norms[i], norms[best]);
      B.col(i).swap(B.col(best));
      out.V.col(i).swap(out.V.col(best));
    }
  }
  if (out.V.determinant() < 0) {
    out.V.col(2) = -out.V.col(2);
    B.col(2) = -B.col(2);
  }

  // B = F V = U Σ: a QR factorisation by Givens rotations gives U (a product of rotations) and Σ as the
  // diagonal of the triangular factor, whose off-diagonal entries vanish up to rounding. Σ₃ takes the
  // sign of det B = det F, the choice of Irving et al. (2004).
  Mat3& R = B;
  out.U.setIdentity();
  givens_zero(R, out.U, 0, 1, 0);
  givens_zero(R, out.U, 0, 2, 0);
  givens_zero(R, out.U, 1, 2, 1);
  out.sigma = R.diagonal();
  return out;
}

PolarDecomposition polar_decomposition(const Mat3& F) {
  const RotationVariantSvd svd = rotation_variant_svd(F);
  PolarDecomposition p;
  p.R = svd.U * svd.V.transpose();
  p.S = svd.V * svd.sigma.asDiagonal() * svd.V.transpose();
  p.S = 0.5 * (p.S + p.S.transpose());
  return p;
}

Mat3 extract_rotation(const Mat3& F) { return polar_decomposition(F).R; }

}  // namespace pliant::fem
