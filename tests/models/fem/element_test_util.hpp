// Shared helpers of the element kernel tests: random tets, rotations and deformation gradients,
// stacking of element positions, and finite differences.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>

#include <array>
#include <cmath>
#include <functional>
#include <random>

namespace pliant::fem::test {

/// A positively oriented tet with vertices in [-1, 1]³ and |det Dm| ≥ 0.05 (not a sliver).
inline std::array<Vec3, 4> random_tet(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (;;) {
    std::array<Vec3, 4> x;
    for (auto& p : x) p = scale * Vec3(u(rng), u(rng), u(rng));
    Mat3 E;
    E << x[1] - x[0], x[2] - x[0], x[3] - x[0];
    const double det = E.determinant() / (scale * scale * scale);
    if (std::abs(det) < 0.05) continue;
    if (det < 0) std::swap(x[2], x[3]);
    return x;
  }
}

/// A uniformly distributed rotation (normalised Gaussian quaternion).
inline Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  Eigen::Quaterniond q(n(rng), n(rng), n(rng), n(rng));
  q.normalize();
  return q.toRotationMatrix();
}

/// Rotation by `angle` (unit: rad) about `axis`.
inline Mat3 rotation(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Rotations of 90° and 180° about the coordinate axes and a skew axis, plus two random ones.
inline std::vector<Mat3> test_rotations(std::mt19937& rng) {
  const double pi = 3.14159265358979323846;
  std::vector<Mat3> out;
  for (const Vec3& axis : {Vec3(Vec3::UnitX()), Vec3(Vec3::UnitY()), Vec3(Vec3::UnitZ()), Vec3(1, 2, -0.5)})
    for (double angle : {0.5 * pi, pi}) out.push_back(rotation(angle, axis));
  out.push_back(random_rotation(rng));
  out.push_back(random_rotation(rng));
  return out;
}

/// F = Q₁ diag(s) Q₂ with random rotations: a deformation gradient with prescribed signed singular
/// values (s(2) < 0 gives an inverted element).
inline Mat3 gradient_with_singular_values(std::mt19937& rng, const Vec3& s) {
  return random_rotation(rng) * s.asDiagonal() * random_rotation(rng);
}

/// Stacked element positions (x0, x1, x2, x3) of a tet's vertices under x = A X + b.
inline Vec12 stack(const std::array<Vec3, 4>& X, const Mat3& A = Mat3::Identity(),
                   const Vec3& b = Vec3::Zero()) {
  Vec12 x;
  for (int k = 0; k < 4; ++k) x.segment<3>(3 * k) = A * X[k] + b;
  return x;
}

inline Mat3 dm_inverse_of(const std::array<Vec3, 4>& X) {
  Mat3 Dm;
  Dm << X[1] - X[0], X[2] - X[0], X[3] - X[0];
  return Dm.inverse();
}

/// Central-difference Jacobian of a vector function of 12 positions, step h (unit: m).
inline Mat12 central_jacobian(const std::function<Vec12(const Vec12&)>& f, const Vec12& x, double h) {
  Mat12 J;
  for (int j = 0; j < 12; ++j) {
    Vec12 xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    J.col(j) = (f(xp) - f(xm)) / (2.0 * h);
  }
  return J;
}

/// Central-difference gradient of a scalar function of 12 positions.
inline Vec12 central_gradient(const std::function<double(const Vec12&)>& e, const Vec12& x, double h) {
  Vec12 g;
  for (int j = 0; j < 12; ++j) {
    Vec12 xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    g[j] = (e(xp) - e(xm)) / (2.0 * h);
  }
  return g;
}

}  // namespace pliant::fem::test
