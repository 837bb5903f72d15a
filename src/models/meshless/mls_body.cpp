#include "pliant/models/meshless/mls_body.hpp"

#include "point_grid.hpp"

#include <Eigen/Eigenvalues>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pliant::meshless {
namespace {

using detail::PointGrid;

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
  if (!(def.plasticity.yield >= 0.0) || !(def.plasticity.creep >= 0.0) || !(def.plasticity.max >= 0.0) ||
      !std::isfinite(def.plasticity.creep)) {
    return Error{"meshless: plasticity yield, creep and max must be >= 0 (creep finite)"};
  }
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
    if (def.regions[r].selection) {
      if (Status s = check_region(*def.regions[r].selection, points.size()); !s)
        return Error{fmt::format("meshless: region {}: {}", r, s.message())};
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
  body.plasticity = def.plasticity;
  body.volume_stiffness = def.volume_stiffness;
  body.spacing = def.spacing;
  body.material.assign(nu, 0);
  for (const MaterialRegion& region : def.regions) {
    if (region.selection) {
      for (Index i : select_nodes(body.rest, *region.selection))
        body.material[static_cast<std::size_t>(i)] = region.material;
    } else if (region.inside) {
      const Aabb bounds = region.inside->bounds();
      for (std::size_t i = 0; i < nu; ++i) {
        if (bounds.contains(points[i]) && (*region.inside)(points[i]) <= 0.0)
          body.material[i] = region.material;
      }
    } else {
      for (std::size_t i = 0; i < nu; ++i) {
        if (region.box.contains(points[i])) body.material[i] = region.material;
      }
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
    grid.within(points[static_cast<std::size_t>(i)], h, i, nbrs);
    Neighbourhood nb = moment_of(points, i, nbrs, h);
    for (int t = 0; t < def.max_enlargements && !(nb.condition <= def.max_condition); ++t) {
      h *= def.enlargement;
      fix = NeighbourhoodFix::enlarged;
      grid.within(points[static_cast<std::size_t>(i)], h, i, nbrs);
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

  index_links_by_target(body);
  return body;
}

void index_links_by_target(MlsBody& body) {
  const std::size_t nu = body.rest.size();
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
