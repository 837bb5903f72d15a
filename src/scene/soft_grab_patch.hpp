// The soft-grab patch both fem bodies (dynamic and modal) hold: which surface nodes a grab takes.
#pragma once

#include "pliant/core/topology.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/body.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace pliant::scene::detail {

/// A soft grab's default radius at surface node `sn`: twice the mean length of the surface edges at it
/// (unit: m; 0 for a node without edges), a patch of one or two rings of neighbours.
inline double default_grab_radius(std::span<const Vec3> xs, const Adjacency& adjacency, Index sn) {
  const auto a = static_cast<std::size_t>(sn);
  double sum = 0.0;
  int count = 0;
  for (Index e = adjacency.offsets[a]; e < adjacency.offsets[a + 1]; ++e, ++count)
    sum += (xs[static_cast<std::size_t>(adjacency.neighbors[static_cast<std::size_t>(e)])] - xs[a]).norm();
  return count > 0 ? 2.0 * sum / count : 0.0;
}

/// The patch a soft grab at surface point `p` (on positions `x`, unit: m) holds: first its handle, the
/// free corner of the picked triangle with the largest barycentric weight, then the free surface nodes
/// within `radius` (unit: m; < 0: default_radius(handle)) of the picked point that connect to the
/// handle over surface edges, in breadth-first order. Empty when no corner of the triangle is free.
/// `*point` receives the picked point.
template <class IsFree, class DefaultRadius>
std::vector<Index> soft_grab_patch(std::span<const Vec3> x, std::span<const Tri> triangles,
                                   const Adjacency& adjacency, const SurfacePoint& p, double radius,
                                   IsFree is_free, DefaultRadius default_radius, Vec3* point) {
  const Tri& t = triangles[static_cast<std::size_t>(p.triangle)];
  const double w[3] = {1.0 - p.u - p.v, p.u, p.v};
  int order[3] = {0, 1, 2};
  std::sort(order, order + 3, [&](int a, int b) { return w[a] > w[b]; });
  Index handle = -1;
  for (int c : order) {
    if (is_free(t[static_cast<std::size_t>(c)])) {
      handle = t[static_cast<std::size_t>(c)];
      break;
    }
  }
  if (handle < 0) return {};
  *point = point_on(x, triangles, p);
  if (radius < 0.0) radius = default_radius(handle);
  std::vector<Index> nodes = {handle};
  std::vector<char> seen(x.size(), 0);
  seen[static_cast<std::size_t>(handle)] = 1;
  for (std::size_t k = 0; k < nodes.size() && radius > 0.0; ++k) {
    const auto a = static_cast<std::size_t>(nodes[k]);
    for (Index e = adjacency.offsets[a]; e < adjacency.offsets[a + 1]; ++e) {
      const Index nb = adjacency.neighbors[static_cast<std::size_t>(e)];
      if (seen[static_cast<std::size_t>(nb)]) continue;
      seen[static_cast<std::size_t>(nb)] = 1;
      if (is_free(nb) && (x[static_cast<std::size_t>(nb)] - *point).norm() <= radius) nodes.push_back(nb);
    }
  }
  return nodes;
}

}  // namespace pliant::scene::detail
