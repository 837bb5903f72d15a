#include "pliant/models/fem/modal/modal_warping.hpp"

#include "pliant/models/fem/elements/linear_tet.hpp"

#include <cmath>
#include <vector>

namespace pliant::fem {
namespace {

Mat3 skew(const Vec3& v) {
  Mat3 s;
  s << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return s;
}

}  // namespace

Eigen::MatrixXd modal_rotation_field(const TetMesh& mesh, const Eigen::MatrixXd& shapes) {
  const Index n = static_cast<Index>(mesh.node_count());
  const Eigen::Index r = shapes.cols();
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(3 * n, r);
  std::vector<double> weight(static_cast<std::size_t>(n), 0.0);
  Eigen::MatrixXd curl(3, r);
  for (const Tet& t : mesh.tets) {
    const TetGradients g = tet_gradients(
        mesh.positions[static_cast<std::size_t>(t[0])], mesh.positions[static_cast<std::size_t>(t[1])],
        mesh.positions[static_cast<std::size_t>(t[2])], mesh.positions[static_cast<std::size_t>(t[3])]);
    // ½ ∇×u for u = Σ_a u_a N_a: ½ Σ_a ∇N_a × u_a.
    curl.setZero();
    for (int a = 0; a < 4; ++a) {
      const Mat3 cross = skew(g.grad[static_cast<std::size_t>(a)]);
      curl.noalias() += 0.5 * cross * shapes.middleRows(3 * static_cast<Eigen::Index>(t[a]), 3);
    }
    for (int a = 0; a < 4; ++a) {
      W.middleRows(3 * static_cast<Eigen::Index>(t[a]), 3) += g.volume * curl;
      weight[static_cast<std::size_t>(t[a])] += g.volume;
    }
  }
  for (Index i = 0; i < n; ++i)
    if (weight[static_cast<std::size_t>(i)] > 0.0)
      W.middleRows(3 * static_cast<Eigen::Index>(i), 3) /= weight[static_cast<std::size_t>(i)];
  return W;
}

namespace {

// (1 - cos θ)/θ² and (θ - sin θ)/θ³ of θ² = t2; series near 0 (truncation below 1e-17 for t2 < 1e-4).
void warp_coefficients(double t2, double& a, double& b) {
  if (t2 < 1e-4) {
    a = 0.5 - t2 / 24.0 * (1.0 - t2 / 30.0 * (1.0 - t2 / 56.0));
    b = 1.0 / 6.0 - t2 / 120.0 * (1.0 - t2 / 42.0 * (1.0 - t2 / 72.0));
  } else {
    const double t = std::sqrt(t2);
    a = (1.0 - std::cos(t)) / t2;
    b = (t - std::sin(t)) / (t2 * t);
  }
}

}  // namespace

Mat3 modal_warp_matrix(const Vec3& theta) {
  double a = 0.0, b = 0.0;
  warp_coefficients(theta.squaredNorm(), a, b);
  const Mat3 s = skew(theta);
  return Mat3::Identity() + a * s + b * s * s;
}

Vec3 modal_warp(const Vec3& theta, const Vec3& u) {
  double a = 0.0, b = 0.0;
  warp_coefficients(theta.squaredNorm(), a, b);
  const Vec3 tu = theta.cross(u);
  return u + a * tu + b * theta.cross(tu);
}

Mat3 rotation_from_vector(const Vec3& theta) {
  const double t2 = theta.squaredNorm();
  double sa = 0.0, a = 0.0;  // sin θ/θ, (1 - cos θ)/θ²
  if (t2 < 1e-4) {
    sa = 1.0 - t2 / 6.0 * (1.0 - t2 / 20.0 * (1.0 - t2 / 42.0));
    a = 0.5 - t2 / 24.0 * (1.0 - t2 / 30.0 * (1.0 - t2 / 56.0));
  } else {
    const double t = std::sqrt(t2);
    sa = std::sin(t) / t;
    a = (1.0 - std::cos(t)) / t2;
  }
  const Mat3 s = skew(theta);
  return Mat3::Identity() + sa * s + a * s * s;
}

}  // namespace pliant::fem
