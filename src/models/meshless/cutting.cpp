#include "pliant/models/meshless/cutting.hpp"

#include "pliant/core/ray.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <limits>

namespace pliant::meshless {

bool crosses(const Blade& blade, const Vec3& p, const Vec3& q) {
  const Ray segment{p, q - p};
  return intersect_ray_triangle(segment, blade.a0, blade.b0, blade.b1, 1.0).has_value() ||
         intersect_ray_triangle(segment, blade.a0, blade.b1, blade.a1, 1.0).has_value();
}

double swept_area(const Blade& blade) {
  return 0.5 * ((blade.b0 - blade.a0).cross(blade.b1 - blade.a0).norm() +
                (blade.b1 - blade.a0).cross(blade.a1 - blade.a0).norm());
}

Index cut_links(MlsBody& body, std::span<const Vec3> x, const Blade& blade, double max_condition,
                std::vector<CutEvent>& events) {
  const std::size_t n = body.rest.size();
  std::vector<Index> begin(n + 1, 0), target;
  std::vector<Vec3> d;
  target.reserve(body.link_target.size());
  d.reserve(body.link_d.size());
  Index removed_total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first = target.size();
    Index removed = 0;
    for (Index l = body.link_begin[i]; l < body.link_begin[i + 1]; ++l) {
      const auto lu = static_cast<std::size_t>(l);
      const Index j = body.link_target[lu];
      if (crosses(blade, x[i], x[static_cast<std::size_t>(j)])) {
        ++removed;
        continue;
      }
      target.push_back(j);
      d.push_back(body.link_d[lu]);
    }
    begin[i + 1] = static_cast<Index>(target.size());
    if (removed == 0) continue;
    removed_total += removed;
    events.push_back({static_cast<Index>(i), removed, x[i]});
    // Rest constants from the neighbours left, at the phyxel's support.
    const double h = body.support[i];
    const auto shape = [h](const Vec3& xij) {
      const double q = 1.0 - xij.squaredNorm() / (h * h);
      return q > 0.0 ? q * q * q : 0.0;
    };
    Mat3 A = Mat3::Zero();
    for (std::size_t k = first; k < target.size(); ++k) {
      const Vec3 xij = body.rest[static_cast<std::size_t>(target[k])] - body.rest[i];
      A += shape(xij) * xij * xij.transpose();
    }
    body.d_sum[i] = Vec3::Zero();
    if (target.size() == first) {
      body.fix[i] = NeighbourhoodFix::isolated;
      body.moment_inverse[i] = Mat3::Zero();
      body.condition[i] = std::numeric_limits<double>::infinity();
      continue;
    }
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(A, Eigen::EigenvaluesOnly);
    const double lmax = eig.eigenvalues()[2], lmin = eig.eigenvalues()[0];
    double condition = lmin > 0.0 ? lmax / lmin : std::numeric_limits<double>::infinity();
    if (!(condition <= max_condition)) {
      A += lmax / (max_condition - 1.0) * Mat3::Identity();
      const Eigen::SelfAdjointEigenSolver<Mat3> reg(A, Eigen::EigenvaluesOnly);
      condition = reg.eigenvalues()[2] / reg.eigenvalues()[0];
      body.fix[i] = NeighbourhoodFix::regularised;
    }
    body.moment_inverse[i] = A.inverse();
    body.condition[i] = condition;
    for (std::size_t k = first; k < target.size(); ++k) {
      const Vec3 xij = body.rest[static_cast<std::size_t>(target[k])] - body.rest[i];
      d[k] = body.moment_inverse[i] * xij * shape(xij);
      body.d_sum[i] += d[k];
    }
  }
  if (removed_total == 0) return 0;
  body.link_begin = std::move(begin);
  body.link_target = std::move(target);
  body.link_d = std::move(d);
  index_links_by_target(body);
  return removed_total;
}

}  // namespace pliant::meshless
