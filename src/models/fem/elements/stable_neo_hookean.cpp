// Stable Neo-Hookean energy density (Smith, de Goes & Kim 2018); see stable_neo_hookean.hpp.
#include "pliant/models/fem/elements/stable_neo_hookean.hpp"

#include "pliant/models/fem/elements/polar_decomposition.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>

namespace pliant::fem {
namespace {

// cof F = ∂J/∂F: its columns are the cross products of the other two columns of F.
Mat3 cofactor(const Mat3& F) {
  Mat3 C;
  C.col(0) = F.col(1).cross(F.col(2));
  C.col(1) = F.col(2).cross(F.col(0));
  C.col(2) = F.col(0).cross(F.col(1));
  return C;
}

Mat3 cross_matrix(const Vec3& v) {
  Mat3 X;
  X << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return X;
}

// ∂²J/∂F² over vec(F): block (a, b) is ∂²J/∂f_a∂f_b for the columns f_a of F. With J = f0·(f1 × f2):
// blocks (0,1) = -[f2]×, (0,2) = [f1]×, (1,2) = -[f0]×, the transposed blocks below, zero diagonal.
Mat9 determinant_hessian(const Mat3& F) {
  Mat9 H = Mat9::Zero();
  const Mat3 X0 = cross_matrix(F.col(0)), X1 = cross_matrix(F.col(1)), X2 = cross_matrix(F.col(2));
  H.block<3, 3>(0, 3) = -X2;
  H.block<3, 3>(3, 0) = X2;
  H.block<3, 3>(0, 6) = X1;
  H.block<3, 3>(6, 0) = -X1;
  H.block<3, 3>(3, 6) = -X0;
  H.block<3, 3>(6, 3) = X0;
  return H;
}

Vec9 vec(const Mat3& A) { return Eigen::Map<const Vec9>(A.data()); }

}  // namespace

StableNeoHookeanParameters stable_neo_hookean_parameters(const materials::Material& m) {
  StableNeoHookeanParameters p;
  p.mu = 4.0 / 3.0 * m.mu;
  p.lambda = m.lambda + 5.0 / 6.0 * m.mu;
  p.alpha = 1.0 + 0.75 * p.mu / p.lambda;
  return p;
}

double stable_neo_hookean_energy_density(const Mat3& F, const materials::Material& m) {
  const StableNeoHookeanParameters p = stable_neo_hookean_parameters(m);
  const double Ic = F.squaredNorm(), J = F.determinant();
  const double rest = 0.5 * p.lambda * (1.0 - p.alpha) * (1.0 - p.alpha) - 0.5 * p.mu * std::log(4.0);
  return 0.5 * p.mu * (Ic - 3.0) + 0.5 * p.lambda * (J - p.alpha) * (J - p.alpha) -
         0.5 * p.mu * std::log(Ic + 1.0) - rest;
}

Mat3 stable_neo_hookean_first_piola(const Mat3& F, const materials::Material& m) {
  const StableNeoHookeanParameters p = stable_neo_hookean_parameters(m);
  const double Ic = F.squaredNorm(), J = F.determinant();
  return p.mu * (1.0 - 1.0 / (Ic + 1.0)) * F + p.lambda * (J - p.alpha) * cofactor(F);
}

Mat9 stable_neo_hookean_first_piola_derivative(const Mat3& F, const materials::Material& m) {
  const StableNeoHookeanParameters p = stable_neo_hookean_parameters(m);
  const double Ic = F.squaredNorm(), J = F.determinant();
  const Vec9 f = vec(F), g = vec(cofactor(F));
  Mat9 H = p.mu * (1.0 - 1.0 / (Ic + 1.0)) * Mat9::Identity();
  H += (2.0 * p.mu / ((Ic + 1.0) * (Ic + 1.0))) * f * f.transpose();
  H += p.lambda * g * g.transpose();
  H += p.lambda * (J - p.alpha) * determinant_hessian(F);
  return H;
}

Eigensystem9 stable_neo_hookean_eigensystem(const Mat3& F, const materials::Material& m) {
  const StableNeoHookeanParameters p = stable_neo_hookean_parameters(m);
  const RotationVariantSvd svd = rotation_variant_svd(F);
  const Vec3& s = svd.sigma;
  // Invariants from the SVD, so that the eigensystem is consistent with the frame it is built in.
  const double Ic = s.squaredNorm(), J = s.prod();
  const double a = p.mu * (1.0 - 1.0 / (Ic + 1.0));
  const double k = p.lambda * (J - p.alpha);  // weight of ∂²J/∂F²

  Eigensystem9 es;
  const auto frame = [&](const Mat3& D) { return vec(svd.U * D * svd.V.transpose()); };
  const double r = std::sqrt(0.5);
  const int pairs[3][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};  // (i, j, k)
  for (int n = 0; n < 3; ++n) {
    const int i = pairs[n][0], j = pairs[n][1], c = pairs[n][2];
    Mat3 twist = Mat3::Zero(), flip = Mat3::Zero();
    twist(i, j) = r;
    twist(j, i) = -r;
    flip(i, j) = r;
    flip(j, i) = r;
    es.values[n] = a + k * s[c];
    es.vectors.col(n) = frame(twist);
    es.values[3 + n] = a - k * s[c];
    es.vectors.col(3 + n) = frame(flip);
  }

  // Scaling block: ∂P/∂F restricted to U diag(d) Vᵀ.
  const Vec3 cof(s[1] * s[2], s[0] * s[2], s[0] * s[1]);
  Mat3 A = a * Mat3::Identity() + (2.0 * p.mu / ((Ic + 1.0) * (Ic + 1.0))) * s * s.transpose() +
           p.lambda * cof * cof.transpose();
  A(0, 1) += k * s[2];
  A(1, 0) += k * s[2];
  A(0, 2) += k * s[1];
  A(2, 0) += k * s[1];
  A(1, 2) += k * s[0];
  A(2, 1) += k * s[0];
  Eigen::SelfAdjointEigenSolver<Mat3> eig(A);
  for (int n = 0; n < 3; ++n) {
    es.values[6 + n] = eig.eigenvalues()[n];
    es.vectors.col(6 + n) = frame(Mat3(eig.eigenvectors().col(n).asDiagonal()));
  }
  return es;
}

Mat9 stable_neo_hookean_first_piola_derivative_psd(const Mat3& F, const materials::Material& m) {
  const Eigensystem9 es = stable_neo_hookean_eigensystem(F, m);
  return es.vectors * es.values.cwiseMax(0.0).asDiagonal() * es.vectors.transpose();
}

}  // namespace pliant::fem
