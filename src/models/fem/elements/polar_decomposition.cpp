// Rotation-variant SVD and polar decomposition; see polar_decomposition.hpp for the method and sources.
#include "pliant/models/fem/elements/polar_decomposition.hpp"

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
// the column norms, which matters for nearly flat and nearly collapsed tets. Written on plain column
// arrays (b[j] is column j): this runs once per tet per force evaluation and is the hot loop of the
// corotational element.
void orthogonalize_columns(double (&b)[3][3], double (&v)[3][3]) {
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) v[j][i] = i == j ? 1.0 : 0.0;
  const double eps = std::numeric_limits<double>::epsilon();
  auto dot = [](const double* x, const double* y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
  for (int sweep = 0; sweep < 32; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        const double alpha = dot(b[p], b[p]), beta = dot(b[q], b[q]);
        const double gamma = dot(b[p], b[q]);
        if (!(std::abs(gamma) > eps * std::sqrt(alpha * beta))) continue;  // orthogonal, zero or NaN
        rotated = true;
        const double tau = (beta - alpha) / (2.0 * gamma);
        const double t = std::abs(tau) > 1e150
                             ? 0.5 / tau
                             : (tau >= 0 ? 1.0 : -1.0) / (std::abs(tau) + std::sqrt(1.0 + tau * tau));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = t * c;
        for (int i = 0; i < 3; ++i) {
          const double bp = b[p][i], bq = b[q][i], vp = v[p][i], vq = v[q][i];
          b[p][i] = c * bp - s * bq;
          b[q][i] = s * bp + c * bq;
          v[p][i] = c * vp - s * vq;
          v[q][i] = s * vp + c * vq;
        }
      }
    }
    if (!rotated) break;
  }
}

// √(a² + b²): the plain formula, or std::hypot (slow, but safe from overflow and underflow) when the
// squares leave the range where the plain formula is exact to rounding.
double norm2(double a, double b) {
  const double r2 = a * a + b * b;
  if (r2 > 1e-290 && r2 < 1e290) return std::sqrt(r2);
  return std::hypot(a, b);
}

// Givens rotation acting on rows r0, r1 of R that zeroes R(r1, col) and leaves R(r0, col) ≥ 0; the
// transposed rotation is accumulated into the columns of Q so that Q R stays unchanged.
void givens_zero(Mat3& R, Mat3& Q, int r0, int r1, int col) {
  const double a = R(r0, col), b = R(r1, col);
  const double r = norm2(a, b);
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

// Newton's iteration for the orthogonal polar factor, X ← ½ (X + X⁻ᵀ) from X = F (Higham 1986,
// "Computing the polar decomposition, with applications"). Each step maps every singular value σ to
// ½ (σ + 1/σ) and keeps the singular vectors, so it converges quadratically to U Vᵀ, a proper rotation
// when det F > 0, with no square root and one division per step. Used only for well-conditioned F with
// det F > 0 (the usual element); false (R untouched) when F is not such or the iteration has not
// converged in a few steps, and the caller falls back to the SVD.
bool newton_rotation(const Mat3& F, Mat3& R) {
  const double det = F.determinant();
  const double mean_square = F.squaredNorm() / 3.0;
  // det / (‖F‖²/3)^{3/2} ∈ (0, 1] by the AM-GM inequality on σ²; 1 for a rotation.
  if (!(det > 0.1 * mean_square * std::sqrt(mean_square))) return false;
  Mat3 X = F;
  for (int it = 0; it < 10; ++it) {
    Mat3 C;  // cofactor matrix: X⁻ᵀ = C / det X
    C(0, 0) = X(1, 1) * X(2, 2) - X(1, 2) * X(2, 1);
    C(0, 1) = X(1, 2) * X(2, 0) - X(1, 0) * X(2, 2);
    C(0, 2) = X(1, 0) * X(2, 1) - X(1, 1) * X(2, 0);
    C(1, 0) = X(0, 2) * X(2, 1) - X(0, 1) * X(2, 2);
    C(1, 1) = X(0, 0) * X(2, 2) - X(0, 2) * X(2, 0);
    C(1, 2) = X(0, 1) * X(2, 0) - X(0, 0) * X(2, 1);
    C(2, 0) = X(0, 1) * X(1, 2) - X(0, 2) * X(1, 1);
    C(2, 1) = X(0, 2) * X(1, 0) - X(0, 0) * X(1, 2);
    C(2, 2) = X(0, 0) * X(1, 1) - X(0, 1) * X(1, 0);
    const double d = X(0, 0) * C(0, 0) + X(0, 1) * C(0, 1) + X(0, 2) * C(0, 2);
    if (!(d > 0.0)) return false;
    const Mat3 next = 0.5 * (X + (1.0 / d) * C);
    // Quadratic convergence: a step of δ leaves an error of about δ²/2 in `next`.
    const double step = (next - X).squaredNorm();
    X = next;
    if (step < 1e-18) {
      R = X;
      return true;
    }
  }
  return false;
}

}  // namespace

RotationVariantSvd rotation_variant_svd(const Mat3& F) {
  RotationVariantSvd out;
  double b[3][3], v[3][3];
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) b[j][i] = F(i, j);
  orthogonalize_columns(b, v);
  Mat3 B;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      B(i, j) = b[j][i];
      out.V(i, j) = v[j][i];
    }

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

Mat3 extract_rotation(const Mat3& F) {
  Mat3 R;
  if (newton_rotation(F, R)) return R;
  const RotationVariantSvd svd = rotation_variant_svd(F);
  return svd.U * svd.V.transpose();
}

}  // namespace pliant::fem
