#include "meshing/delaunay_flip.hpp"

#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace pliant::meshing::detail {

namespace {

std::uint64_t directed(Index u, Index v) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(u)) << 32) | static_cast<std::uint32_t>(v);
}

// > 0 when d lies strictly inside the circumcircle of the counter-clockwise triangle (a, b, c), with a
// relative tolerance so that co-circular quads (common on the rings) are left alone and the flipping
// cannot cycle on rounding noise.
bool in_circumcircle(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double ax = a.x() - d.x(), ay = a.y() - d.y(), bx = b.x() - d.x(), by = b.y() - d.y();
  const double cx = c.x() - d.x(), cy = c.y() - d.y();
  const double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
  const double det = ax * (by * c2 - b2 * cy) - ay * (bx * c2 - b2 * cx) + a2 * (bx * cy - by * cx);
  const double scale =
      (std::abs(ax) + std::abs(ay)) * (std::abs(bx) + std::abs(by)) * (std::abs(cx) + std::abs(cy)) *
      (std::abs(ax) + std::abs(ay) + std::abs(bx) + std::abs(by) + std::abs(cx) + std::abs(cy));
  return det > 1e-10 * scale;
}

}  // namespace

long long make_delaunay(const std::vector<Vec3>& positions, std::vector<Tri>& triangles) {
  std::unordered_map<std::uint64_t, Index> owner;
  owner.reserve(triangles.size() * 3);
  std::vector<std::pair<Index, Index>> stack;
  stack.reserve(triangles.size() * 3);
  for (Index t = 0; t < static_cast<Index>(triangles.size()); ++t) {
    for (int e = 0; e < 3; ++e) {
      const Index u = triangles[t][e], v = triangles[t][(e + 1) % 3];
      owner[directed(u, v)] = t;
      if (u < v) stack.emplace_back(u, v);
    }
  }
  const auto third = [&](Index t, Index u, Index v) {
    for (Index w : triangles[t]) {
      if (w != u && w != v) return w;
    }
    return Index{-1};
  };
  long long flips = 0;
  while (!stack.empty()) {
    auto [u, v] = stack.back();
    stack.pop_back();
    auto i1 = owner.find(directed(u, v));
    auto i2 = owner.find(directed(v, u));
    if (i1 == owner.end() || i2 == owner.end()) continue;  // boundary edge, or flipped away meanwhile
    const Index t1 = i1->second, t2 = i2->second;          // t1 = (u, v, w), t2 = (v, u, x)
    const Index w = third(t1, u, v), x = third(t2, u, v);
    if (!in_circumcircle(positions[u], positions[v], positions[w], positions[x])) continue;
    // The quad u, x, v, w is convex (x is inside the circumcircle of u v w): replace diagonal u-v by w-x.
    owner.erase(i1);
    owner.erase(directed(v, u));
    triangles[t1] = {u, x, w};
    triangles[t2] = {x, v, w};
    owner[directed(u, x)] = t1;
    owner[directed(x, w)] = t1;
    owner[directed(w, u)] = t1;
    owner[directed(x, v)] = t2;
    owner[directed(v, w)] = t2;
    owner[directed(w, x)] = t2;
    stack.emplace_back(u, x);
    stack.emplace_back(x, v);
    stack.emplace_back(v, w);
    stack.emplace_back(w, u);
    ++flips;
  }
  return flips;
}

}  // namespace pliant::meshing::detail
