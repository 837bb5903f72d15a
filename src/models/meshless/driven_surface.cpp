#include "pliant/models/meshless/driven_surface.hpp"

#include "pliant/core/threads.hpp"
#include "point_grid.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace pliant::meshless {
namespace {

using detail::PointGrid;
using Mat4 = Eigen::Matrix4d;
using Vec4 = Eigen::Vector4d;

Mat4 moment_at(const MlsBody& body, const Vec3& X, double R, std::span<const Index> near) {
  Mat4 M = Mat4::Zero();
  for (Index j : near) {
    Vec4 p;
    p << 1.0, (body.rest[static_cast<std::size_t>(j)] - X) / R;
    const double q = 1.0 - (body.rest[static_cast<std::size_t>(j)] - X).squaredNorm() / (R * R);
    M.noalias() += q * q * q * p * p.transpose();
  }
  return M;
}

bool conditioned(const Mat4& M, double max_condition) {
  const Eigen::SelfAdjointEigenSolver<Mat4> eig(M, Eigen::EigenvaluesOnly);
  return eig.eigenvalues()[0] > 0.0 && eig.eigenvalues()[3] / eig.eigenvalues()[0] <= max_condition;
}

Mat3 cofactor(const Mat3& J) {
  Mat3 c;
  c.row(0) = J.row(1).cross(J.row(2));
  c.row(1) = J.row(2).cross(J.row(0));
  c.row(2) = J.row(0).cross(J.row(1));
  return c;
}

}  // namespace

std::vector<Vec3> area_weighted_normals(std::span<const Vec3> positions, std::span<const Tri> triangles) {
  std::vector<Vec3> n(positions.size(), Vec3::Zero());
  for (const Tri& t : triangles) {
    const Vec3 area =
        (positions[static_cast<std::size_t>(t[1])] - positions[static_cast<std::size_t>(t[0])])
            .cross(positions[static_cast<std::size_t>(t[2])] - positions[static_cast<std::size_t>(t[0])]);
    for (Index v : t) n[static_cast<std::size_t>(v)] += area;
  }
  for (Vec3& v : n) {
    if (v.norm() > 0.0) v.normalize();
  }
  return n;
}

Vec3 first_order_normal(const Mat3& H, const Vec3& n) {
  return ((Mat3::Identity() - H.transpose()) * n).normalized();
}

Result<DrivenSurface> DrivenSurface::bind(const MlsBody& body, const TriMesh& surface,
                                          const SurfaceBindingDef& def) {
  if (body.size() == 0) return Error{"driven surface: the body has no phyxels"};
  const double r0 =
      def.radius > 0.0 ? def.radius : *std::min_element(body.support.begin(), body.support.end());
  if (!(r0 > 0.0) || !std::isfinite(r0))
    return Error{fmt::format("driven surface: radius {} m is not positive", r0)};
  if (!(def.enlargement > 1.0) || !(def.max_condition > 1.0)) {
    return Error{"driven surface: enlargement and max_condition must exceed 1"};
  }
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    for (Index v : surface.triangles[t]) {
      if (v < 0 || static_cast<std::size_t>(v) >= surface.positions.size()) {
        return Error{fmt::format("driven surface: triangle {} names node {}, but there are {} nodes", t, v,
                                 surface.positions.size())};
      }
    }
  }
  DrivenSurface ds;
  ds.rest_ = surface.positions;
  ds.triangles_ = surface.triangles;
  ds.normal_ = area_weighted_normals(surface.positions, surface.triangles);
  ds.begin_.assign(surface.positions.size() + 1, 0);
  ds.max_condition_ = def.max_condition;
  const PointGrid grid(body.rest, r0);
  std::vector<Index> near;
  for (std::size_t v = 0; v < surface.positions.size(); ++v) {
    const Vec3& X = surface.positions[v];
    double R = r0;
    Mat4 M;
    bool ok = false;
    for (int attempt = 0; attempt <= def.max_enlargements; ++attempt) {
      grid.within(X, R, -1, near);
      M = moment_at(body, X, R, near);
      ok = conditioned(M, def.max_condition);
      if (ok) break;
      if (attempt < def.max_enlargements) R *= def.enlargement;
    }
    if (!ok) {
      return Error{fmt::format(
          "driven surface: vertex {} has no well-conditioned phyxel neighbourhood within {} m", v, R)};
    }
    ds.radius_.push_back(R);
    ds.append_fit(body, X, R, M, near);
    ds.begin_[v + 1] = static_cast<Index>(ds.phyxel_.size());
  }
  return ds;
}

void DrivenSurface::append_fit(const MlsBody& body, const Vec3& X, double R, const Mat4& M,
                               std::span<const Index> near) {
  const Mat4 Minv = M.inverse();
  for (Index j : near) {
    const Vec3 dx = body.rest[static_cast<std::size_t>(j)] - X;
    Vec4 p;
    p << 1.0, dx / R;
    const double q = 1.0 - dx.squaredNorm() / (R * R);
    const Vec4 c = q * q * q * (Minv * p);
    phyxel_.push_back(j);
    weight_.push_back(c[0]);
    gradient_.push_back((c.tail<3>() / R).cast<float>());
  }
}

void DrivenSurface::append_fit_or_shepard(const MlsBody& body, const Vec3& X, double R,
                                          std::span<const Index> near) {
  const Mat4 M = moment_at(body, X, R, near);
  if (conditioned(M, max_condition_)) {
    append_fit(body, X, R, M, near);
    return;
  }
  // Too few phyxels for a linear fit: Shepard weights, no gradient (none at all: the vertex stays put).
  double sum = 0.0;
  for (Index j : near) {
    const double q = 1.0 - (body.rest[static_cast<std::size_t>(j)] - X).squaredNorm() / (R * R);
    sum += q * q * q;
  }
  for (Index j : near) {
    const double q = 1.0 - (body.rest[static_cast<std::size_t>(j)] - X).squaredNorm() / (R * R);
    phyxel_.push_back(j);
    weight_.push_back(q * q * q / sum);
    gradient_.push_back(Eigen::Vector3f::Zero());
  }
}

void DrivenSurface::apply_split(const MlsBody& body, std::span<const Vec3> x, std::span<const Vec3> surface_x,
                                const Blade& blade, const SurfaceSplit& split) {
  std::vector<Index> near, candidates, piece(body.rest.size()), labels;
  // The pieces the links now make (union-find): a new vertex takes phyxels only from its side vertex's.
  std::iota(piece.begin(), piece.end(), Index{0});
  const auto root = [&](Index i) {
    while (piece[static_cast<std::size_t>(i)] != i)
      i = piece[static_cast<std::size_t>(i)] =
          piece[static_cast<std::size_t>(piece[static_cast<std::size_t>(i)])];
    return i;
  };
  for (std::size_t i = 0; i < body.rest.size(); ++i) {
    const Index ri = root(static_cast<Index>(i));  // stays a root: only other roots are linked to it
    for (Index l = body.link_begin[i]; l < body.link_begin[i + 1]; ++l)
      piece[static_cast<std::size_t>(root(body.link_target[static_cast<std::size_t>(l)]))] = ri;
  }
  const PointGrid grid(body.rest, *std::min_element(radius_.begin(), radius_.end()));
  const BladeCrossing crossing(blade);
  for (const CutPoint& p : split.points) {
    const auto a = static_cast<std::size_t>(p.a), b = static_cast<std::size_t>(p.b);
    const Vec3 X = (1.0 - p.t) * rest_[a] + p.t * rest_[b];
    const Vec3 on_cut = (1.0 - p.t) * surface_x[a] + p.t * surface_x[b];
    // A point a millionth of the way from the cut point to its side's vertex: on that side.
    const Vec3 seen_from = on_cut + 1e-6 * (surface_x[static_cast<std::size_t>(p.side)] - on_cut);
    labels.clear();
    for (Index j : phyxels(p.side)) labels.push_back(root(j));
    const auto same_piece = [&](Index j) {
      return labels.empty() || std::find(labels.begin(), labels.end(), root(j)) != labels.end();
    };
    double R = radius_[static_cast<std::size_t>(p.side)];
    for (int attempt = 0; attempt < 8; ++attempt, R *= 1.25) {
      grid.within(X, R, -1, candidates);
      near.clear();
      for (Index j : candidates) {
        if (same_piece(j) && !crossing(seen_from, x[static_cast<std::size_t>(j)])) near.push_back(j);
      }
      if (!near.empty()) break;
    }
    rest_.push_back(X);
    radius_.push_back(R);
    append_fit_or_shepard(body, X, R, near);
    begin_.push_back(static_cast<Index>(phyxel_.size()));
  }
  triangles_ = split.triangles;
  normal_ = area_weighted_normals(rest_, triangles_);
  ++topology_version_;
}

Index DrivenSurface::refit_without(const MlsBody& body, const std::function<bool(Index, Index)>& drop) {
  std::vector<Index> begin(1, 0), phyxel;
  std::vector<double> weight;
  std::vector<Eigen::Vector3f> gradient;
  std::vector<Index> kept;
  Index refitted = 0;
  for (std::size_t v = 0; v < rest_.size(); ++v) {
    const auto vi = static_cast<Index>(v);
    kept.clear();
    for (Index k = begin_[v]; k < begin_[v + 1]; ++k) {
      const Index j = phyxel_[static_cast<std::size_t>(k)];
      if (!drop(vi, j)) kept.push_back(j);
    }
    if (static_cast<Index>(kept.size()) == begin_[v + 1] - begin_[v]) {
      for (Index k = begin_[v]; k < begin_[v + 1]; ++k) {
        phyxel.push_back(phyxel_[static_cast<std::size_t>(k)]);
        weight.push_back(weight_[static_cast<std::size_t>(k)]);
        gradient.push_back(gradient_[static_cast<std::size_t>(k)]);
      }
    } else {
      ++refitted;
      std::swap(phyxel, phyxel_);
      std::swap(weight, weight_);
      std::swap(gradient, gradient_);
      append_fit_or_shepard(body, rest_[v], radius_[v], kept);
      std::swap(phyxel, phyxel_);
      std::swap(weight, weight_);
      std::swap(gradient, gradient_);
    }
    begin.push_back(static_cast<Index>(phyxel.size()));
  }
  begin_ = std::move(begin);
  phyxel_ = std::move(phyxel);
  weight_ = std::move(weight);
  gradient_ = std::move(gradient);
  return refitted;
}

std::span<const Index> DrivenSurface::phyxels(Index v) const {
  const auto vu = static_cast<std::size_t>(v);
  return {phyxel_.data() + begin_[vu], static_cast<std::size_t>(begin_[vu + 1] - begin_[vu])};
}
std::span<const double> DrivenSurface::weights(Index v) const {
  const auto vu = static_cast<std::size_t>(v);
  return {weight_.data() + begin_[vu], static_cast<std::size_t>(begin_[vu + 1] - begin_[vu])};
}
std::span<const Eigen::Vector3f> DrivenSurface::gradients(Index v) const {
  const auto vu = static_cast<std::size_t>(v);
  return {gradient_.data() + begin_[vu], static_cast<std::size_t>(begin_[vu + 1] - begin_[vu])};
}

namespace {

// u = Σ φ_j u_j and F = I + Σ (u_j - u_0) g_jᵀ over one vertex's fit (see the header), with the phyxel
// displacements u_j = displacement(j). Plain scalar sums: this loop is the whole cost of an update.
template <class Displacement>
void accumulate_fit(std::span<const Index> phyxel, std::span<const double> weight,
                    std::span<const Eigen::Vector3f> gradient, const Displacement& displacement,
                    Vec3& u_vertex, Mat3& F) {
  double s[3] = {0.0, 0.0, 0.0};
  double f[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};  // row-major F
  if (!phyxel.empty()) {
    const Vec3 u0 = displacement(phyxel[0]);
    for (std::size_t k = 0; k < phyxel.size(); ++k) {
      const Vec3& uj = displacement(phyxel[k]);
      const double w = weight[k];
      const float* g = gradient[k].data();
      for (int a = 0; a < 3; ++a) {
        s[a] += w * uj[a];
        const double d = uj[a] - u0[a];
        f[3 * a] += d * g[0];
        f[3 * a + 1] += d * g[1];
        f[3 * a + 2] += d * g[2];
      }
    }
  }
  u_vertex = Vec3(s[0], s[1], s[2]);
  F << f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8];
}

}  // namespace

Mat3 DrivenSurface::deformation_gradient(const MlsBody& body, std::span<const Vec3> x, Index v) const {
  Vec3 u;
  Mat3 F;
  accumulate_fit(
      phyxels(v), weights(v), gradients(v),
      [&](Index j) { return Vec3(x[static_cast<std::size_t>(j)] - body.rest[static_cast<std::size_t>(j)]); },
      u, F);
  return F;
}

void DrivenSurface::update(const MlsBody& body, std::span<const Vec3> x, std::span<Vec3> positions,
                           std::span<Vec3> normals) const {
  const auto n = static_cast<Index>(rest_.size());
  const auto phyxel_count = static_cast<Index>(x.size());
  displacement_.resize(x.size());
  const auto displacement = [&](Index j) -> const Vec3& {
    return displacement_[static_cast<std::size_t>(j)];
  };
#pragma omp parallel num_threads(n >= 4096 ? solver_threads() : 1)
  {
#pragma omp for schedule(static)
    for (Index j = 0; j < phyxel_count; ++j) {
      const auto ju = static_cast<std::size_t>(j);
      displacement_[ju] = x[ju] - body.rest[ju];
    }
#pragma omp for schedule(static)
    for (Index v = 0; v < n; ++v) {
      const auto vu = static_cast<std::size_t>(v);
      Vec3 u;
      Mat3 F;
      accumulate_fit(phyxels(v), weights(v), gradients(v), displacement, u, F);
      positions[vu] = rest_[vu] + u;
      const Vec3 nn = cofactor(F) * normal_[vu];
      const double len = nn.norm();
      normals[vu] = len > 0.0 ? Vec3(nn / len) : normal_[vu];
    }
  }
}

void DrivenSurface::scatter_force(Index v, const Vec3& f, std::span<Vec3> phyxel_force) const {
  const auto vu = static_cast<std::size_t>(v);
  for (Index k = begin_[vu]; k < begin_[vu + 1]; ++k) {
    phyxel_force[static_cast<std::size_t>(phyxel_[static_cast<std::size_t>(k)])] +=
        weight_[static_cast<std::size_t>(k)] * f;
  }
}

}  // namespace pliant::meshless
