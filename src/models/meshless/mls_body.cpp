#include "pliant/models/meshless/mls_body.hpp"

#include <Eigen/Eigenvalues>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pliant::meshless {
namespace {

// Points bucketed in a uniform grid of cubic cells (counting sort), for radius queries.
class PointGrid {
 public:
  PointGrid(std::span<const Vec3> points, double cell) : points_(points), cell_(cell) {
    for (const Vec3& p : points) box_.extend(p);
    for (int a = 0; a < 3; ++a) {
      dims_[static_cast<std::size_t>(a)] =
          std::max<Index>(1, static_cast<Index>(std::floor(box_.extent()[a] / cell)) + 1);
    }
    const std::size_t cells = static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2];
    begin_.assign(cells + 1, 0);
    std::vector<std::size_t> of(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      of[i] = flat(coord(points[i]));
      ++begin_[of[i] + 1];
    }
    for (std::size_t c = 0; c < cells; ++c) begin_[c + 1] += begin_[c];
    items_.resize(points.size());
    std::vector<Index> fill(begin_.begin(), begin_.end() - 1);
    for (std::size_t i = 0; i < points.size(); ++i)
      items_[static_cast<std::size_t>(fill[of[i]]++)] = static_cast<Index>(i);
  }

  // Indices j ≠ i with |p_j - p_i| < radius, ascending.
  void neighbours(Index i, double radius, std::vector<Index>& out) const {
    out.clear();
    const Vec3& p = points_[static_cast<std::size_t>(i)];
    const auto lo = coord(p - Vec3::Constant(radius));
    const auto hi = coord(p + Vec3::Constant(radius));
    const double r2 = radius * radius;
    for (Index z = lo[2]; z <= hi[2]; ++z) {
      for (Index y = lo[1]; y <= hi[1]; ++y) {
        for (Index x = lo[0]; x <= hi[0]; ++x) {
          const std::size_t c = flat({x, y, z});
          for (Index k = begin_[c]; k < begin_[c + 1]; ++k) {
            const Index j = items_[static_cast<std::size_t>(k)];
            if (j != i && (points_[static_cast<std::size_t>(j)] - p).squaredNorm() < r2) out.push_back(j);
          }
        }
      }
    }
    std::sort(out.begin(), out.end());
  }

 private:
  std::array<Index, 3> coord(const Vec3& p) const {
    std::array<Index, 3> c{};
    for (int a = 0; a < 3; ++a) {
      const auto au = static_cast<std::size_t>(a);
      const double g = std::floor((p[a] - box_.min[a]) / cell_);
      c[au] = static_cast<Index>(std::clamp(g, 0.0, static_cast<double>(dims_[au] - 1)));
    }
    return c;
  }
  std::size_t flat(const std::array<Index, 3>& c) const {
    return static_cast<std::size_t>(c[0]) +
           static_cast<std::size_t>(dims_[0]) * (c[1] + static_cast<std::size_t>(dims_[1]) * c[2]);
  }

  std::span<const Vec3> points_;
  double cell_;
  Aabb box_;
  std::array<Index, 3> dims_{1, 1, 1};
  std::vector<Index> begin_, items_;
};

// Dimensionless kernel shape (1 - r²/h²)³: d_ij does not depend on the kernel's scale.
double kernel_shape(double r2, double h2) {
  const double q = 1.0 - r2 / h2;
  return q > 0.0 ? q * q * q : 0.0;
}

struct Neighbourhood {
  Mat3 moment = Mat3::Zero();
  double condition = std::numeric_limits<double>::infinity();
  double lambda_max = 0.0;
};

Neighbourhood moment_of(std::span<const Vec3> points, Index i, std::span<const Index> nbrs, double h) {
  Neighbourhood nb;
  const Vec3& xi = points[static_cast<std::size_t>(i)];
  for (Index j : nbrs) {
    const Vec3 xij = points[static_cast<std::size_t>(j)] - xi;
    nb.moment += kernel_shape(xij.squaredNorm(), h * h) * xij * xij.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(nb.moment, Eigen::EigenvaluesOnly);
  nb.lambda_max = eig.eigenvalues()[2];
  const double lambda_min = eig.eigenvalues()[0];
  if (lambda_min > 0.0) nb.condition = nb.lambda_max / lambda_min;
  return nb;
}

}  // namespace

double mls_kernel(double r, double h) {
  if (!(r < h)) return 0.0;
  const double q = h * h - r * r;
  return 315.0 / (64.0 * std::numbers::pi * std::pow(h, 9)) * q * q * q;
}

double MlsBody::total_mass() const {
  double m = 0.0;
  for (double mi : mass) m += mi;
  return m;
}

Index MlsBody::count_fixes(NeighbourhoodFix what) const {
  return static_cast<Index>(std::count(fix.begin(), fix.end(), what));
}

Result<MlsBody> build_mls_body(std::span<const Vec3> points, const MlsDef& def) {
  if (!(def.spacing > 0.0) || !std::isfinite(def.spacing)) {
    return Error{fmt::format("meshless: spacing {} m is not positive", def.spacing)};
  }
  if (!(def.support_factor > 1.0) || !std::isfinite(def.support_factor)) {
    return Error{fmt::format("meshless: support factor {} must exceed 1", def.support_factor)};
  }
  if (!(def.volume_stiffness >= 0.0) || !std::isfinite(def.volume_stiffness)) {
    return Error{fmt::format("meshless: volume stiffness {} Pa is negative", def.volume_stiffness)};
  }
  if (!(def.max_condition > 1.0) || !(def.enlargement > 1.0) || def.max_enlargements < 0) {
    return Error{"meshless: max_condition and enlargement must exceed 1, max_enlargements must be >= 0"};
  }
  if (def.materials.empty()) return Error{"meshless: no material given"};
  for (std::size_t m = 0; m < def.materials.size(); ++m) {
    if (auto s = materials::validate(def.materials[m]); !s) {
      return Error{fmt::format("meshless: material {}: {}", m, s.message())};
    }
  }
  for (std::size_t r = 0; r < def.regions.size(); ++r) {
    const Index m = def.regions[r].material;
    if (m < 0 || static_cast<std::size_t>(m) >= def.materials.size()) {
      return Error{
          fmt::format("meshless: region {} names material {}, but there are {}", r, m, def.materials.size())};
    }
  }
  if (points.empty()) return Error{"meshless: no phyxels"};
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) return Error{fmt::format("meshless: phyxel {} has a non-finite position", i)};
  }
  if (points.size() > static_cast<std::size_t>(std::numeric_limits<Index>::max() / 64)) {
    return Error{fmt::format("meshless: {} phyxels are too many", points.size())};
  }

  const auto n = static_cast<Index>(points.size());
  const auto nu = points.size();
  MlsBody body;
  body.rest.assign(points.begin(), points.end());
  body.position = body.rest;
  body.velocity.assign(nu, Vec3::Zero());
  body.materials = def.materials;
  body.strain = def.strain;
  body.volume_stiffness = def.volume_stiffness;
  body.spacing = def.spacing;
  body.material.assign(nu, 0);
  for (const MaterialRegion& region : def.regions) {
    for (std::size_t i = 0; i < nu; ++i) {
      if (region.box.contains(points[i])) body.material[i] = region.material;
    }
  }
  const double cell_volume = std::pow(def.spacing, 3);
  body.mass.resize(nu);
  body.inv_mass.resize(nu);
  for (std::size_t i = 0; i < nu; ++i) {
    body.mass[i] = body.materials[static_cast<std::size_t>(body.material[i])].density * cell_volume;
    body.inv_mass[i] = 1.0 / body.mass[i];
  }

  const double h0 = def.support_factor * def.spacing;
  const PointGrid grid(points, h0);
  body.support.resize(nu);
  body.moment_inverse.resize(nu);
  body.d_sum.assign(nu, Vec3::Zero());
  body.condition.resize(nu);
  body.fix.resize(nu);
  body.density.resize(nu);
  body.volume.resize(nu);
  body.link_begin.assign(nu + 1, 0);
  std::vector<Index> nbrs;
  for (Index i = 0; i < n; ++i) {
    const auto iu = static_cast<std::size_t>(i);
    double h = h0;
    NeighbourhoodFix fix = NeighbourhoodFix::none;
    grid.neighbours(i, h, nbrs);
    Neighbourhood nb = moment_of(points, i, nbrs, h);
    for (int t = 0; t < def.max_enlargements && !(nb.condition <= def.max_condition); ++t) {
      h *= def.enlargement;
      fix = NeighbourhoodFix::enlarged;
      grid.neighbours(i, h, nbrs);
      nb = moment_of(points, i, nbrs, h);
    }
    Mat3 moment = nb.moment;
    if (nbrs.empty()) {
      fix = NeighbourhoodFix::isolated;
      body.moment_inverse[iu] = Mat3::Zero();
      body.condition[iu] = std::numeric_limits<double>::infinity();
    } else {
      if (!(nb.condition <= def.max_condition)) {
        // (λmax + δ)/(λmin + δ) = max_condition with λmin ≈ 0 → δ = λmax/(max_condition - 1).
        fix = NeighbourhoodFix::regularised;
        moment += nb.lambda_max / (def.max_condition - 1.0) * Mat3::Identity();
        const Eigen::SelfAdjointEigenSolver<Mat3> eig(moment, Eigen::EigenvaluesOnly);
        nb.condition = eig.eigenvalues()[2] / eig.eigenvalues()[0];
      }
      body.moment_inverse[iu] = moment.inverse();
      body.condition[iu] = nb.condition;
    }
    body.support[iu] = h;
    body.fix[iu] = fix;
    double rho = body.mass[iu] * mls_kernel(0.0, h);
    for (Index j : nbrs) {
      const Vec3 xij = points[static_cast<std::size_t>(j)] - points[iu];
      const Vec3 d = body.moment_inverse[iu] * xij * kernel_shape(xij.squaredNorm(), h * h);
      body.link_target.push_back(j);
      body.link_d.push_back(d);
      body.d_sum[iu] += d;
      rho += body.mass[static_cast<std::size_t>(j)] * mls_kernel(xij.norm(), h);
    }
    body.link_begin[iu + 1] = static_cast<Index>(body.link_target.size());
    body.density[iu] = rho;
    body.volume[iu] = body.mass[iu] / rho;
  }

  // Links grouped by target (a counting sort; sources come out ascending).
  body.in_begin.assign(nu + 1, 0);
  for (Index j : body.link_target) ++body.in_begin[static_cast<std::size_t>(j) + 1];
  for (std::size_t j = 0; j < nu; ++j) body.in_begin[j + 1] += body.in_begin[j];
  body.in_link.resize(body.link_target.size());
  body.in_source.resize(body.link_target.size());
  std::vector<Index> fill(body.in_begin.begin(), body.in_begin.end() - 1);
  for (std::size_t i = 0; i < nu; ++i) {
    for (Index l = body.link_begin[i]; l < body.link_begin[i + 1]; ++l) {
      const auto j = static_cast<std::size_t>(body.link_target[static_cast<std::size_t>(l)]);
      const auto slot = static_cast<std::size_t>(fill[j]++);
      body.in_link[slot] = l;
      body.in_source[slot] = static_cast<Index>(i);
    }
  }
  return body;
}

Mat3 deformation_gradient(const MlsBody& body, std::span<const Vec3> x, Index i) {
  const auto iu = static_cast<std::size_t>(i);
  const Vec3 ui = x[iu] - body.rest[iu];
  Mat3 J = Mat3::Identity();
  for (Index l = body.link_begin[iu]; l < body.link_begin[iu + 1]; ++l) {
    const auto j = static_cast<std::size_t>(body.link_target[static_cast<std::size_t>(l)]);
    J.noalias() += (x[j] - body.rest[j] - ui) * body.link_d[static_cast<std::size_t>(l)].transpose();
  }
  return J;
}

}  // namespace pliant::meshless
