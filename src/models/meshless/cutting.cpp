#include "pliant/models/meshless/cutting.hpp"

#include "pliant/core/ray.hpp"
#include "pliant/core/threads.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace pliant::meshless {

BladeCrossing::BladeCrossing(const Blade& blade) : blade_(blade) {
  normal_[0] = (blade.b0 - blade.a0).cross(blade.b1 - blade.a0);
  normal_[1] = (blade.b1 - blade.a0).cross(blade.a1 - blade.a0);
  const double size =
      std::max({(blade.b0 - blade.a0).norm(), (blade.b1 - blade.a0).norm(), (blade.a1 - blade.a0).norm()});
  for (int k = 0; k < 2; ++k) margin_[k] = 1e-9 * size * normal_[k].norm();
}

bool BladeCrossing::operator()(const Vec3& p, const Vec3& q) const {
  // Triangle k is (a0, b[k], c[k]): (a0, b0, b1) and (a0, b1, a1).
  const Vec3* b[2] = {&blade_.b0, &blade_.b1};
  const Vec3* c[2] = {&blade_.b1, &blade_.a1};
  const Vec3 pa = p - blade_.a0, qa = q - blade_.a0;
  for (int k = 0; k < 2; ++k) {
    const double sp = normal_[k].dot(pa), sq = normal_[k].dot(qa);
    if ((sp > margin_[k] && sq > margin_[k]) || (sp < -margin_[k] && sq < -margin_[k])) continue;
    if (intersect_ray_triangle(Ray{p, q - p}, blade_.a0, *b[k], *c[k], 1.0)) return true;
  }
  return false;
}

bool crosses(const Blade& blade, const Vec3& p, const Vec3& q) { return BladeCrossing(blade)(p, q); }

double swept_area(const Blade& blade) {
  return 0.5 * ((blade.b0 - blade.a0).cross(blade.b1 - blade.a0).norm() +
                (blade.b1 - blade.a0).cross(blade.a1 - blade.a0).norm());
}

namespace {

// A phyxel's rest constants A_i⁻¹, d_ij and Σ_j d_ij from its links [first, last) left after a cut, at
// its support (regularised as the build does when left degenerate; isolated when no link is left).
void refresh_constants(MlsBody& body, std::size_t i, std::size_t first, std::size_t last,
                       double max_condition) {
  const double h = body.support[i];
  const auto shape = [h](const Vec3& xij) {
    const double q = 1.0 - xij.squaredNorm() / (h * h);
    return q > 0.0 ? q * q * q : 0.0;
  };
  Mat3 A = Mat3::Zero();
  for (std::size_t k = first; k < last; ++k) {
    const Vec3 xij = body.rest[static_cast<std::size_t>(body.link_target[k])] - body.rest[i];
    A += shape(xij) * xij * xij.transpose();
  }
  body.d_sum[i] = Vec3::Zero();
  if (last == first) {
    body.fix[i] = NeighbourhoodFix::isolated;
    body.moment_inverse[i] = Mat3::Zero();
    body.condition[i] = std::numeric_limits<double>::infinity();
    return;
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
  for (std::size_t k = first; k < last; ++k) {
    const Vec3 xij = body.rest[static_cast<std::size_t>(body.link_target[k])] - body.rest[i];
    body.link_d[k] = body.moment_inverse[i] * xij * shape(xij);
    body.d_sum[i] += body.link_d[k];
  }
}

}  // namespace

Index cut_links(MlsBody& body, std::span<const Vec3> x, const Blade& blade, double max_condition,
                std::vector<CutEvent>& events) {
  const auto n = static_cast<Index>(body.rest.size());
  const BladeCrossing crossing(blade);
  // Mark the crossing links and count them per phyxel (the tests are independent: threads share them).
  std::vector<std::uint8_t> cut(body.link_target.size(), 0);
  std::vector<Index> removed(body.rest.size(), 0);
#pragma omp parallel for schedule(dynamic, 256) if (n >= 2048) num_threads(solver_threads())
  for (Index i = 0; i < n; ++i) {
    const auto iu = static_cast<std::size_t>(i);
    for (Index l = body.link_begin[iu]; l < body.link_begin[iu + 1]; ++l) {
      const auto lu = static_cast<std::size_t>(l);
      if (crossing(x[iu], x[static_cast<std::size_t>(body.link_target[lu])])) {
        cut[lu] = 1;
        ++removed[iu];
      }
    }
  }
  // Compact the links in place (only what follows the first removed link moves) and list the
  // phyxels whose neighbourhoods changed.
  std::vector<Index> affected;
  std::size_t write = 0;
  Index removed_total = 0;
  for (std::size_t i = 0; i < body.rest.size(); ++i) {
    const auto first = static_cast<std::size_t>(body.link_begin[i]);
    const auto last = static_cast<std::size_t>(body.link_begin[i + 1]);
    body.link_begin[i] = static_cast<Index>(write);
    for (std::size_t l = first; l < last; ++l) {
      if (cut[l]) continue;
      if (write != l) {
        body.link_target[write] = body.link_target[l];
        body.link_d[write] = body.link_d[l];
      }
      ++write;
    }
    if (removed[i] == 0) continue;
    removed_total += removed[i];
    affected.push_back(static_cast<Index>(i));
    events.push_back({static_cast<Index>(i), removed[i], x[i]});
  }
  body.link_begin[body.rest.size()] = static_cast<Index>(write);
  if (removed_total == 0) return 0;
  body.link_target.resize(write);
  body.link_d.resize(write);
  const auto count = static_cast<Index>(affected.size());
#pragma omp parallel for schedule(dynamic, 64) if (count >= 256) num_threads(solver_threads())
  for (Index k = 0; k < count; ++k) {
    const auto i = static_cast<std::size_t>(affected[static_cast<std::size_t>(k)]);
    refresh_constants(body, i, static_cast<std::size_t>(body.link_begin[i]),
                      static_cast<std::size_t>(body.link_begin[i + 1]), max_condition);
  }
  index_links_by_target(body);
  return removed_total;
}

}  // namespace pliant::meshless
