#include "pliant/meshing/surface_check.hpp"

#include "meshing/detail.hpp"

#include "pliant/core/self_intersection.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace pliant::meshing {

namespace {

struct HalfEdge {
  Index lo, hi;    // undirected key, lo < hi
  Index triangle;  // owner
  bool forward;    // traversed lo -> hi
};

Index find_root(std::vector<Index>& parent, Index i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

Result<ClosedSurfaceInfo> check_closed_surface(const TriMesh& surface, const SurfaceNames* names) {
  const auto node_count = static_cast<long long>(surface.positions.size());
  const bool node_names = names && names->node.size() == surface.positions.size();
  const bool triangle_names = names && names->triangle.size() == surface.triangles.size();
  // The numbers the user's file gives (or the indices).
  const auto node = [&](Index v) {
    return std::to_string(node_names && v >= 0 && v < node_count ? names->node[static_cast<std::size_t>(v)]
                                                                 : v);
  };
  const auto triangle = [&](Index t) {
    return std::to_string(triangle_names ? names->triangle[static_cast<std::size_t>(t)] : t);
  };
  const auto edge_name = [&](const HalfEdge& e) { return node(e.lo) + "-" + node(e.hi); };
  if (surface.triangles.empty()) return Error{"surface has no triangles"};
  for (long long i = 0; i < node_count; ++i) {
    const Vec3& p = surface.positions[i];
    if (!p.allFinite()) {
      return Error{"surface node " + node(static_cast<Index>(i)) + " has a non-finite coordinate (" +
                   detail::num(p.x()) + ", " + detail::num(p.y()) + ", " + detail::num(p.z()) + ")"};
    }
  }
  const auto triangle_count = static_cast<Index>(surface.triangles.size());
  for (Index t = 0; t < triangle_count; ++t) {
    const Tri& tri = surface.triangles[t];
    for (Index v : tri) {
      if (v < 0 || v >= node_count) {
        return Error{"surface triangle " + triangle(t) + " references node " + std::to_string(v) +
                     ", but there are " + std::to_string(node_count) + " nodes"};
      }
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
      return Error{"surface triangle " + triangle(t) + " repeats a node (" + node(tri[0]) + ", " +
                   node(tri[1]) + ", " + node(tri[2]) + ")"};
    }
    // Degenerate when the area is negligible against the squared longest edge (a needle or a flat
    // triangle): 1e-12 leaves room for legitimately thin CAD triangles but catches collinear nodes.
    const Vec3 &a = surface.positions[tri[0]], &b = surface.positions[tri[1]], &c = surface.positions[tri[2]];
    const double longest = std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
    if (0.5 * (b - a).cross(c - a).norm() <= 1e-12 * longest) {
      return Error{"surface triangle " + triangle(t) + " is degenerate (zero area)"};
    }
  }

  std::vector<HalfEdge> half;
  half.reserve(surface.triangles.size() * 3);
  for (Index t = 0; t < triangle_count; ++t) {
    for (int k = 0; k < 3; ++k) {
      const Index u = surface.triangles[t][k], v = surface.triangles[t][(k + 1) % 3];
      half.push_back({std::min(u, v), std::max(u, v), t, u < v});
    }
  }
  std::sort(half.begin(), half.end(), [](const HalfEdge& x, const HalfEdge& y) {
    return x.lo != y.lo ? x.lo < y.lo : (x.hi != y.hi ? x.hi < y.hi : x.triangle < y.triangle);
  });
  // Count open edges first so the message can say how many there are.
  long long open = 0;
  std::size_t first_open = half.size();
  for (std::size_t i = 0; i < half.size();) {
    std::size_t j = i;
    while (j < half.size() && half[j].lo == half[i].lo && half[j].hi == half[i].hi) ++j;
    if (j - i == 1) {
      if (open++ == 0) first_open = i;
    }
    i = j;
  }
  if (open > 0) {
    const HalfEdge& e = half[first_open];
    return Error{"surface is not closed: edge " + edge_name(e) + " belongs only to triangle " +
                 triangle(e.triangle) + " (" + std::to_string(open) + " open edges)"};
  }
  std::vector<Index> parent(static_cast<std::size_t>(triangle_count));
  std::iota(parent.begin(), parent.end(), 0);
  Index edges = 0;
  for (std::size_t i = 0; i < half.size(); i += 2) {
    if (i + 2 < half.size() && half[i + 2].lo == half[i].lo && half[i + 2].hi == half[i].hi) {
      std::size_t j = i;
      std::string owners;
      while (j < half.size() && half[j].lo == half[i].lo && half[j].hi == half[i].hi) {
        owners += (owners.empty() ? "" : ", ") + triangle(half[j].triangle);
        ++j;
      }
      return Error{"surface is not manifold: edge " + edge_name(half[i]) + " is shared by " +
                   std::to_string(j - i) + " triangles (" + owners + ")"};
    }
    if (half[i].forward == half[i + 1].forward) {
      return Error{"surface is not consistently oriented: triangles " + triangle(half[i].triangle) + " and " +
                   triangle(half[i + 1].triangle) + " traverse edge " + edge_name(half[i]) +
                   " in the same direction"};
    }
    parent[find_root(parent, half[i].triangle)] = find_root(parent, half[i + 1].triangle);
    ++edges;
  }
  Index pieces = 0;
  for (Index t = 0; t < triangle_count; ++t) pieces += find_root(parent, t) == t;
  if (pieces > 1) {
    return Error{"surface has " + std::to_string(pieces) +
                 " separate closed pieces; mesh each piece on its own"};
  }

  // Enclosed volume by the divergence theorem, about the centroid to limit cancellation.
  Vec3 centroid = Vec3::Zero();
  for (const Vec3& p : surface.positions) centroid += p;
  centroid /= static_cast<double>(std::max<long long>(node_count, 1));
  double volume = 0, scale = 0;
  for (const Tri& tri : surface.triangles) {
    const Vec3 a = surface.positions[tri[0]] - centroid, b = surface.positions[tri[1]] - centroid,
               c = surface.positions[tri[2]] - centroid;
    const double v = a.dot(b.cross(c)) / 6.0;
    volume += v;
    scale += std::abs(v);
  }
  if (!(std::abs(volume) > 1e-9 * scale)) {
    return Error{"surface encloses no volume (signed volume " + detail::num(volume) + " m³)"};
  }
  // Last, as the costliest check: a closed manifold shell may still pass through itself, which no
  // tetrahedral mesher can fill.
  const SelfIntersections crossings = find_self_intersections(surface, {.max_pairs = 1});
  if (!crossings.none()) {
    const TriangleCrossing& c = crossings.pairs.front();
    const std::string more = crossings.total == 1
                                 ? std::string("the only crossing pair")
                                 : std::to_string(crossings.total) + " crossing pairs in all";
    return Error{"surface intersects itself: triangles " + triangle(c.first) + " and " + triangle(c.second) +
                 " cross near (" + detail::num(c.point.x()) + ", " + detail::num(c.point.y()) + ", " +
                 detail::num(c.point.z()) + ") m (" + more + ")"};
  }
  return ClosedSurfaceInfo{std::abs(volume), volume < 0, edges};
}

}  // namespace pliant::meshing
