#include "pliant/models/meshless/driven_surface.hpp"

#include "core/cpu_dispatch.hpp"
#include "core/parallel_for.hpp"
#include "pliant/core/threads.hpp"
#include "point_grid.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <functional>

namespace pliant::meshless {
namespace {

using detail::PointGrid;
using Mat4 = Eigen::Matrix4d;
using Vec4 = Eigen::Vector4d;

// The default fit radius as a fraction of the nominal support h (see the header and docs/meshless.md).
constexpr double default_radius_factor = 0.8;

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
  const double r0 = def.radius > 0.0
                        ? def.radius
                        : default_radius_factor * *std::min_element(body.support.begin(), body.support.end());
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
  ds.compute_frames(body);
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
    term_.push_back({c[0], {c[1] / R, c[2] / R, c[3] / R}});
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
    term_.push_back({q * q * q / sum, {0.0, 0.0, 0.0}});
  }
}

Index DrivenSurface::add_vertex(const MlsBody& body, const Vec3& X, double R, std::span<const Index> near) {
  rest_.push_back(X);
  radius_.push_back(R);
  normal_.push_back(Vec3::Zero());
  append_fit_or_shepard(body, X, R, near);
  begin_.push_back(static_cast<Index>(phyxel_.size()));
  frame_.emplace_back();
  compute_frame(body, rest_.size() - 1);
  return static_cast<Index>(rest_.size() - 1);
}

void DrivenSurface::refit_vertex(Index v, const MlsBody& body, const Vec3& X, double R,
                                 std::span<const Index> near) {
  const auto vu = static_cast<std::size_t>(v);
  // The fit is rebuilt at the end of the arrays, then moved into the vertex's place.
  const std::size_t old_size = phyxel_.size();
  append_fit_or_shepard(body, X, R, near);
  std::vector<Index> phyxel(phyxel_.begin() + static_cast<std::ptrdiff_t>(old_size), phyxel_.end());
  std::vector<FitTerm> term(term_.begin() + static_cast<std::ptrdiff_t>(old_size), term_.end());
  phyxel_.resize(old_size);
  term_.resize(old_size);
  const auto first = static_cast<std::ptrdiff_t>(begin_[vu]),
             last = static_cast<std::ptrdiff_t>(begin_[vu + 1]);
  phyxel_.erase(phyxel_.begin() + first, phyxel_.begin() + last);
  term_.erase(term_.begin() + first, term_.begin() + last);
  phyxel_.insert(phyxel_.begin() + first, phyxel.begin(), phyxel.end());
  term_.insert(term_.begin() + first, term.begin(), term.end());
  const auto shift = static_cast<Index>(phyxel.size()) - static_cast<Index>(last - first);
  for (std::size_t w = vu + 1; w < begin_.size(); ++w) begin_[w] += shift;
  rest_[vu] = X;
  radius_[vu] = R;
  compute_frame(body, vu);
}

void DrivenSurface::set_triangles(std::vector<Tri> triangles) {
  triangles_ = std::move(triangles);
  normal_ = area_weighted_normals(rest_, triangles_);
  ++topology_version_;
}

std::vector<Index> DrivenSurface::remove_vertices(std::span<const Index> gone) {
  std::vector<Index> to(rest_.size(), 0);
  for (Index v : gone) to[static_cast<std::size_t>(v)] = -1;
  std::vector<Index> begin(1, 0), phyxel;
  std::vector<FitTerm> term;
  Index kept = 0;
  for (std::size_t v = 0; v < rest_.size(); ++v) {
    if (to[v] < 0) continue;
    to[v] = kept;
    const auto k = static_cast<std::size_t>(kept++);
    rest_[k] = rest_[v];
    normal_[k] = normal_[v];
    radius_[k] = radius_[v];
    frame_[k] = frame_[v];
    for (Index f = begin_[v]; f < begin_[v + 1]; ++f) {
      phyxel.push_back(phyxel_[static_cast<std::size_t>(f)]);
      term.push_back(term_[static_cast<std::size_t>(f)]);
    }
    begin.push_back(static_cast<Index>(phyxel.size()));
  }
  const auto n = static_cast<std::size_t>(kept);
  rest_.resize(n);
  normal_.resize(n);
  radius_.resize(n);
  frame_.resize(n);
  begin_ = std::move(begin);
  phyxel_ = std::move(phyxel);
  term_ = std::move(term);
  for (Tri& t : triangles_) {
    for (Index& v : t) v = to[static_cast<std::size_t>(v)];
  }
  return to;
}

Index DrivenSurface::refit_without(const MlsBody& body, const std::function<bool(Index, Index)>& drop) {
  std::vector<Index> begin(1, 0), phyxel;
  std::vector<FitTerm> term;
  std::vector<Index> kept, refitted_vertices;
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
        term.push_back(term_[static_cast<std::size_t>(k)]);
      }
    } else {
      refitted_vertices.push_back(vi);
      std::swap(phyxel, phyxel_);
      std::swap(term, term_);
      append_fit_or_shepard(body, rest_[v], radius_[v], kept);
      std::swap(phyxel, phyxel_);
      std::swap(term, term_);
    }
    begin.push_back(static_cast<Index>(phyxel.size()));
  }
  begin_ = std::move(begin);
  phyxel_ = std::move(phyxel);
  term_ = std::move(term);
  for (const Index v : refitted_vertices) compute_frame(body, static_cast<std::size_t>(v));
  return static_cast<Index>(refitted_vertices.size());
}

std::span<const Index> DrivenSurface::phyxels(Index v) const {
  const auto vu = static_cast<std::size_t>(v);
  return {phyxel_.data() + begin_[vu], static_cast<std::size_t>(begin_[vu + 1] - begin_[vu])};
}
std::span<const FitTerm> DrivenSurface::terms(Index v) const {
  const auto vu = static_cast<std::size_t>(v);
  return {term_.data() + begin_[vu], static_cast<std::size_t>(begin_[vu + 1] - begin_[vu])};
}

void DrivenSurface::compute_frames(const MlsBody& body) {
  frame_.resize(rest_.size());
  for (std::size_t v = 0; v < rest_.size(); ++v) compute_frame(body, v);
}

void DrivenSurface::compute_frame(const MlsBody& body, std::size_t v) {
  Frame& fr = frame_[v];
  const auto near = phyxels(static_cast<Index>(v));
  const auto fit = terms(static_cast<Index>(v));
  Vec3 a = Vec3::Zero();
  Mat3 G = Mat3::Identity();
  if (!near.empty()) {
    const Vec3& X0 = body.rest[static_cast<std::size_t>(near[0])];
    a = rest_[v] - X0;
    for (std::size_t k = 0; k < near.size(); ++k) {
      const Vec3 d = body.rest[static_cast<std::size_t>(near[k])] - X0;
      a -= fit[k].phi * d;
      G -= d * Vec3(fit[k].grad[0], fit[k].grad[1], fit[k].grad[2]).transpose();
    }
  }
  for (int i = 0; i < 3; ++i) fr.offset[i] = a[i];
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) fr.g[3 * c + r] = G(r, c);
}

namespace {

// A point [x y z 0] in vector registers: one 32-byte vector (AVX2) or two 16-byte ones (SSE2). Plain
// 32-byte vectors under SSE2 would go through the stack.
template <int Bytes>
struct Point {
  using V = typename cpu::DoubleVector<Bytes>::type;
  static constexpr int parts = 32 / Bytes;
  V part[parts];

  PLIANT_ALWAYS_INLINE void load(const Vec3& p) {
    if constexpr (parts == 1) {
      part[0] = V{p[0], p[1], p[2], 0.0};
    } else {
      part[0] = V{p[0], p[1]};
      part[1] = V{p[2], 0.0};
    }
  }
  PLIANT_ALWAYS_INLINE void sub(const Point& o) {
    for (int i = 0; i < parts; ++i) part[i] -= o.part[i];
  }
  PLIANT_ALWAYS_INLINE void add(const Point& o) {
    for (int i = 0; i < parts; ++i) part[i] += o.part[i];
  }
  PLIANT_ALWAYS_INLINE void fma(double a, const Point& d) {
    for (int i = 0; i < parts; ++i) part[i] += a * d.part[i];
  }
  PLIANT_ALWAYS_INLINE double operator[](int i) const { return part[i / (4 / parts)][i % (4 / parts)]; }
};

struct KernelArgs {
  const Index* begin;
  const Index* phyxel;
  const FitTerm* term;
  const double* frame;  // 12 doubles per vertex: a, then G column-major (DrivenSurface::Frame)
  const Vec3* rest;
  const Vec3* normal;
  const Vec3* x;
  Vec3* positions;
  Vec3* normals;
};

// Positions and normals of vertices [first, last): the header's x = x_0 + a + Σ φ_j (x_j - x_0) and
// F = G + Σ (x_j - x_0) g_jᵀ (column b: Σ g_jb (x_j - x_0)), then n' = cof(F) n normalised. With AVX2 two
// terms go per iteration into separate sums, so that the multiply-add chains overlap.
template <int Bytes>
PLIANT_ALWAYS_INLINE void surface_body(const KernelArgs& k, Index first, Index last) {
  constexpr int unroll = Bytes == 32 ? 2 : 1;
  const Index* const begin = k.begin;
  const Index* const phyxel = k.phyxel;
  const FitTerm* const term = k.term;
  const Vec3* const x = k.x;
  for (Index v = first; v < last; ++v) {
    const auto vu = static_cast<std::size_t>(v);
    const Index b = begin[vu], e = begin[vu + 1];
    if (b == e) {  // no phyxel left: the vertex stays at rest
      k.positions[vu] = k.rest[vu];
      k.normals[vu] = k.normal[vu];
      continue;
    }
    const Index* id = phyxel + b;
    const FitTerm* t = term + b;
    const Index n = e - b;
    Point<Bytes> x0{}, d[unroll]{}, sum[unroll][4]{};  // sum: Σ φ d, then F's columns
    x0.load(x[static_cast<std::size_t>(id[0])]);
    Index j = 1;  // the first term's x_j - x_0 is zero
    for (; j + unroll <= n; j += unroll) {
      for (int u = 0; u < unroll; ++u) {
        d[u].load(x[static_cast<std::size_t>(id[j + u])]);
        d[u].sub(x0);
        sum[u][0].fma(t[j + u].phi, d[u]);
        sum[u][1].fma(t[j + u].grad[0], d[u]);
        sum[u][2].fma(t[j + u].grad[1], d[u]);
        sum[u][3].fma(t[j + u].grad[2], d[u]);
      }
    }
    for (; j < n; ++j) {
      d[0].load(x[static_cast<std::size_t>(id[j])]);
      d[0].sub(x0);
      sum[0][0].fma(t[j].phi, d[0]);
      sum[0][1].fma(t[j].grad[0], d[0]);
      sum[0][2].fma(t[j].grad[1], d[0]);
      sum[0][3].fma(t[j].grad[2], d[0]);
    }
    for (int u = 1; u < unroll; ++u)
      for (int c = 0; c < 4; ++c) sum[0][c].add(sum[u][c]);
    const double* fr = k.frame + 12 * vu;
    k.positions[vu] =
        Vec3(x0[0] + fr[0] + sum[0][0][0], x0[1] + fr[1] + sum[0][0][1], x0[2] + fr[2] + sum[0][0][2]);
    // F(r, c) = G(r, c) + sum[c + 1][r]; cof(F) n = (F row 1 × row 2, row 2 × row 0, row 0 × row 1) · n.
    double F[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) F[r][c] = fr[3 + 3 * c + r] + sum[0][c + 1][r];
    const Vec3& n0 = k.normal[vu];
    double m[3];
    for (int r = 0; r < 3; ++r) {
      const double* p = F[(r + 1) % 3];
      const double* q = F[(r + 2) % 3];
      m[r] = (p[1] * q[2] - p[2] * q[1]) * n0[0] + (p[2] * q[0] - p[0] * q[2]) * n0[1] +
             (p[0] * q[1] - p[1] * q[0]) * n0[2];
    }
    const double len = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    k.normals[vu] = len > 0.0 ? Vec3(m[0] / len, m[1] / len, m[2] / len) : n0;
  }
}

void surface_baseline(const KernelArgs& k, Index first, Index last) { surface_body<16>(k, first, last); }
PLIANT_TARGET_AVX2 void surface_avx2(const KernelArgs& k, Index first, Index last) {
  surface_body<32>(k, first, last);
}

}  // namespace

bool cpu_has_avx2_fma() { return cpu::has_avx2_fma(); }

Mat3 DrivenSurface::deformation_gradient(std::span<const Vec3> x, Index v) const {
  const auto near = phyxels(v);
  const auto fit = terms(v);
  const double* g = frame_[static_cast<std::size_t>(v)].g;
  Mat3 F;
  F << g[0], g[3], g[6], g[1], g[4], g[7], g[2], g[5], g[8];
  if (near.empty()) return F;
  const Vec3& x0 = x[static_cast<std::size_t>(near[0])];
  for (std::size_t k = 1; k < near.size(); ++k) {
    F += (x[static_cast<std::size_t>(near[k])] - x0) *
         Vec3(fit[k].grad[0], fit[k].grad[1], fit[k].grad[2]).transpose();
  }
  return F;
}

void DrivenSurface::update(std::span<const Vec3> x, std::span<Vec3> positions, std::span<Vec3> normals,
                           SurfaceKernel kernel) const {
  static_assert(sizeof(Frame) == 12 * sizeof(double));
  const auto n = static_cast<Index>(rest_.size());
  const KernelArgs args{begin_.data(),  phyxel_.data(), term_.data(),     frame_.data()->offset, rest_.data(),
                        normal_.data(), x.data(),       positions.data(), normals.data()};
  const bool avx2 =
      kernel == SurfaceKernel::avx2 || (kernel == SurfaceKernel::automatic && cpu::has_avx2_fma());
  constexpr Index block = 512;  // vertices per dispatch
  const Index blocks = (n + block - 1) / block;
  parallel_for(blocks, n >= 4096 ? solver_threads() : 1, [&](Index c) {
    const Index first = c * block, last = std::min(n, first + block);
    if (avx2)
      surface_avx2(args, first, last);
    else
      surface_baseline(args, first, last);
  });
}

void DrivenSurface::scatter_force(Index v, const Vec3& f, std::span<Vec3> phyxel_force) const {
  const auto vu = static_cast<std::size_t>(v);
  for (Index k = begin_[vu]; k < begin_[vu + 1]; ++k) {
    phyxel_force[static_cast<std::size_t>(phyxel_[static_cast<std::size_t>(k)])] +=
        term_[static_cast<std::size_t>(k)].phi * f;
  }
}

}  // namespace pliant::meshless
