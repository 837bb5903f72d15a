#include "pliant/models/meshless/signed_distance.hpp"

#include "pliant/core/threads.hpp"

#include <fmt/format.h>
#include <cmath>
#include <map>
#include <utility>

namespace pliant::meshless {

Result<SignedDistance> SignedDistance::build(const TriMesh& surface) {
  if (surface.triangles.empty()) return Error{"signed distance: the surface has no triangles"};
  const auto n_nodes = static_cast<Index>(surface.positions.size());
  SignedDistance sd;
  sd.surface_ = surface;
  sd.face_normal_.resize(surface.triangles.size());
  sd.vertex_normal_.assign(surface.positions.size(), Vec3::Zero());
  sd.edge_normal_.assign(surface.triangles.size(), {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()});
  std::map<std::pair<Index, Index>, std::vector<std::pair<std::size_t, int>>> edges;
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    const Tri& tri = surface.triangles[t];
    for (Index n : tri) {
      if (n < 0 || n >= n_nodes) {
        return Error{
            fmt::format("signed distance: triangle {} names node {}, but there are {} nodes", t, n, n_nodes)};
      }
    }
    const Vec3& a = surface.positions[tri[0]];
    const Vec3& b = surface.positions[tri[1]];
    const Vec3& c = surface.positions[tri[2]];
    const Vec3 area = (b - a).cross(c - a);
    if (!(area.norm() > 0.0)) return Error{fmt::format("signed distance: triangle {} has zero area", t)};
    const Vec3 n = area.normalized();
    sd.face_normal_[t] = n;
    for (int e = 0; e < 3; ++e) {
      const Vec3& p = surface.positions[tri[e]];
      const Vec3 u = (surface.positions[tri[(e + 1) % 3]] - p).normalized();
      const Vec3 v = (surface.positions[tri[(e + 2) % 3]] - p).normalized();
      sd.vertex_normal_[tri[e]] += std::acos(std::clamp(u.dot(v), -1.0, 1.0)) * n;
      const Index i = tri[e], j = tri[(e + 1) % 3];
      edges[{std::min(i, j), std::max(i, j)}].push_back({t, e});
    }
  }
  for (const auto& [edge, uses] : edges) {
    if (uses.size() != 2) {
      return Error{
          fmt::format("signed distance: edge ({}, {}) is used by {} triangles, a closed surface needs 2",
                      edge.first, edge.second, uses.size())};
    }
    const Vec3 n = sd.face_normal_[uses[0].first] + sd.face_normal_[uses[1].first];
    for (const auto& [t, e] : uses) sd.edge_normal_[t][static_cast<std::size_t>(e)] = n;
  }
  sd.bvh_ = TriangleBvh(surface);
  return sd;
}

double SignedDistance::operator()(const Vec3& p) const {
  const auto hit = bvh_.nearest(p);
  if (!hit) return std::numeric_limits<double>::infinity();
  const auto t = static_cast<std::size_t>(hit->triangle);
  const Tri& tri = surface_.triangles[t];
  const std::array<double, 3> w{1.0 - hit->u - hit->v, hit->u, hit->v};
  constexpr double eps = 1e-9;
  int zeros = 0, nonzero = -1, zero = -1;
  for (int k = 0; k < 3; ++k) {
    if (w[static_cast<std::size_t>(k)] < eps) {
      ++zeros;
      zero = k;
    } else {
      nonzero = k;
    }
  }
  Vec3 normal;
  if (zeros >= 2) {
    normal = vertex_normal_[tri[static_cast<std::size_t>(nonzero)]];
  } else if (zeros == 1) {
    normal = edge_normal_[t][static_cast<std::size_t>((zero + 1) % 3)];  // the edge opposite node `zero`
  } else {
    normal = face_normal_[t];
  }
  const double d = std::sqrt(hit->distance_squared);
  return (p - hit->point).dot(normal) < 0.0 ? -d : d;
}

double SdfGrid::interpolate(const Vec3& p) const {
  const Vec3 g = (p - origin) / cell;
  std::array<Index, 3> i0{};
  std::array<double, 3> f{};
  for (int a = 0; a < 3; ++a) {
    const auto au = static_cast<std::size_t>(a);
    const double c = std::clamp(g[a], 0.0, static_cast<double>(dims[au] - 1));
    i0[au] = std::min<Index>(static_cast<Index>(std::floor(c)), std::max<Index>(dims[au] - 2, 0));
    f[au] = c - i0[au];
  }
  double result = 0.0;
  for (int corner = 0; corner < 8; ++corner) {
    double weight = 1.0;
    std::array<Index, 3> idx{};
    for (int a = 0; a < 3; ++a) {
      const auto au = static_cast<std::size_t>(a);
      const int bit = (corner >> a) & 1;
      idx[au] = std::min(i0[au] + bit, dims[au] - 1);
      weight *= bit ? f[au] : 1.0 - f[au];
    }
    result += weight * value[index(idx[0], idx[1], idx[2])];
  }
  return result;
}

Result<SdfGrid> sample_sdf_grid(const SignedDistance& distance, double cell, Index pad) {
  if (!(cell > 0.0) || !std::isfinite(cell))
    return Error{fmt::format("sdf grid: cell {} m is not positive", cell)};
  const Aabb box = distance.bounds();
  SdfGrid grid;
  grid.cell = cell;
  grid.origin = box.min + Vec3::Constant(0.5 * cell) - Vec3::Constant(pad * cell);
  double total = 1.0;
  for (int a = 0; a < 3; ++a) {
    const double n = std::ceil(box.extent()[a] / cell) + 2.0 * pad;
    total *= n;
    if (total > 2147483647.0)
      return Error{fmt::format("sdf grid: cell {} m gives more than 2^31 nodes", cell)};
    grid.dims[static_cast<std::size_t>(a)] = std::max<Index>(static_cast<Index>(n), 1);
  }
  grid.value.resize(static_cast<std::size_t>(total));
  const Index slabs = grid.dims[2];
#pragma omp parallel for schedule(dynamic, 1) num_threads(solver_threads())
  for (Index k = 0; k < slabs; ++k) {
    for (Index j = 0; j < grid.dims[1]; ++j) {
      for (Index i = 0; i < grid.dims[0]; ++i) grid.value[grid.index(i, j, k)] = distance(grid.node(i, j, k));
    }
  }
  return grid;
}

}  // namespace pliant::meshless
