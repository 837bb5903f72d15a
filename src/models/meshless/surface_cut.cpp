#include "pliant/models/meshless/surface_cut.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace pliant::meshless {
namespace {

using Crossing = SurfaceCrossings::Crossing;

std::uint64_t edge_key(Index lo, Index hi) {
  return (static_cast<std::uint64_t>(lo) << 32) | static_cast<std::uint64_t>(hi);
}

// Where the segment p → q crosses the blade, and on which side p lies: the positive side is the one
// the normals of (a0, b0, b1) and (a0, b1, a1) point to, and a point on the blade's plane counts as
// positive (within 10⁻¹² of the edge's length of it). The side is decided per end, by its signed distance or
// by the side it was given earlier in the same cut (`known_p`, `known_q`), so every vertex has one side and a
// triangle under a blade always has zero or two crossed edges, even when the blade passes exactly through
// vertices (the cut point then sits on the vertex, t = 0 or 1) or a vertex on the blade's plane moves by a
// rounding error between the steps of a blade moved through.
std::optional<Crossing> crossing(const Blade& blade, const Vec3& p, const Vec3& q,
                                 std::optional<bool> known_p, std::optional<bool> known_q) {
  const std::array<std::array<Vec3, 3>, 2> halves = {
      {{blade.a0, blade.b0, blade.b1}, {blade.a0, blade.b1, blade.a1}}};
  for (const auto& T : halves) {
    const Vec3 e0 = T[1] - T[0], e1 = T[2] - T[0], n = e0.cross(e1);
    const double nn = n.squaredNorm();
    if (!(nn > 0.0)) continue;
    const double sp = (p - T[0]).dot(n), sq = (q - T[0]).dot(n);
    // Within a rounding error of the plane (10⁻¹² of the edge) counts as on it, hence positive.
    const double on = -1e-12 * std::sqrt(nn) * (q - p).norm();
    const bool p_plus = known_p.value_or(sp >= on), q_plus = known_q.value_or(sq >= on);
    if (p_plus == q_plus) continue;
    const double t = sp == sq ? 0.0 : std::clamp(sp / (sp - sq), 0.0, 1.0);
    const Vec3 w = p + t * (q - p) - T[0] - (p + t * (q - p) - T[0]).dot(n) / nn * n;  // onto the plane
    const double u = w.cross(e1).dot(n) / nn, v = e0.cross(w).dot(n) / nn;
    constexpr double eps = 1e-12;
    if (u >= -eps && v >= -eps && u + v <= 1.0 + eps) return Crossing{t, p_plus};
  }
  return std::nullopt;
}

double orient(const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
  return (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
}

}  // namespace

std::vector<Tri> triangulate_polygon(std::span<const Vec3> p) {
  std::vector<Tri> out;
  const std::size_t n = p.size();
  if (n < 3) return out;
  Vec3 centre = Vec3::Zero();
  for (const Vec3& q : p) centre += q;
  centre /= static_cast<double>(n);
  Vec3 normal = Vec3::Zero();
  for (std::size_t i = 0; i < n; ++i) normal += (p[i] - centre).cross(p[(i + 1) % n] - centre);
  std::vector<Index> ring(n);
  for (std::size_t i = 0; i < n; ++i) ring[i] = static_cast<Index>(i);
  if (!(normal.norm() > 0.0)) {  // degenerate: a fan keeps the connectivity
    for (std::size_t i = 1; i + 1 < n; ++i)
      out.push_back({0, static_cast<Index>(i), static_cast<Index>(i + 1)});
    return out;
  }
  normal.normalize();
  const Vec3 u = normal.unitOrthogonal();
  const Vec3 v = normal.cross(u);
  std::vector<Eigen::Vector2d> q(n);
  double scale = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    q[i] = Eigen::Vector2d((p[i] - centre).dot(u), (p[i] - centre).dot(v));
    scale = std::max(scale, q[i].norm());
  }
  const double eps = 1e-12 * scale * scale;
  const auto at = [&](std::size_t k) { return q[static_cast<std::size_t>(ring[k])]; };
  while (ring.size() > 3) {
    const std::size_t m = ring.size();
    std::size_t chosen = m, best = 0;
    double best_area = -1e300;
    for (std::size_t k = 0; k < m && chosen == m; ++k) {
      const std::size_t kp = (k + m - 1) % m, kn = (k + 1) % m;
      const Eigen::Vector2d a = at(kp), b = at(k), c = at(kn);
      const double area = orient(a, b, c);
      if (area > best_area) best_area = area, best = k;
      if (!(area > eps)) continue;
      bool blocked = false;
      for (std::size_t r = 0; r < m && !blocked; ++r) {
        if (r == kp || r == k || r == kn) continue;
        const Eigen::Vector2d s = at(r);
        if ((s - a).squaredNorm() <= eps || (s - b).squaredNorm() <= eps || (s - c).squaredNorm() <= eps)
          continue;
        blocked = orient(a, b, s) >= -eps && orient(b, c, s) >= -eps && orient(c, a, s) >= -eps;
      }
      if (!blocked) chosen = k;
    }
    if (chosen == m) chosen = best;  // no clean ear (rounding): clip the most convex corner
    const std::size_t kp = (chosen + m - 1) % m, kn = (chosen + 1) % m;
    out.push_back({ring[kp], ring[chosen], ring[kn]});
    ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(chosen));
  }
  out.push_back({ring[0], ring[1], ring[2]});
  return out;
}

Index add_crossings(std::span<const Vec3> x, std::span<const Tri> triangles, const Blade& blade,
                    SurfaceCrossings& crossings) {
  Index added = 0;
  Vec3 lo = blade.a0, hi = blade.a0;
  for (const Vec3& p : {blade.b0, blade.a1, blade.b1}) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  for (const Tri& tri : triangles) {
    for (int c = 0; c < 3; ++c) {
      const Index i = tri[static_cast<std::size_t>(c)], j = tri[static_cast<std::size_t>((c + 1) % 3)];
      if (i > j) continue;  // each edge once, from the triangle that has it in increasing order
      const Vec3& p = x[static_cast<std::size_t>(i)];
      const Vec3& q = x[static_cast<std::size_t>(j)];
      if ((p.cwiseMax(q).array() < lo.array()).any() || (p.cwiseMin(q).array() > hi.array()).any()) continue;
      if (crossings.edge.contains(edge_key(i, j))) continue;
      const auto known = [&](Index v) -> std::optional<bool> {
        const auto it = crossings.side.find(v);
        return it == crossings.side.end() ? std::nullopt : std::optional<bool>(it->second);
      };
      const auto hit = crossing(blade, p, q, known(i), known(j));
      if (!hit) continue;
      crossings.edge.emplace(edge_key(i, j), *hit);
      crossings.side.emplace(i, hit->low_plus);
      crossings.side.emplace(j, !hit->low_plus);
      ++added;
    }
  }
  return added;
}

std::optional<SurfaceSplit> split_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                          const Blade& blade) {
  SurfaceCrossings crossings;
  add_crossings(x, triangles, blade, crossings);
  return split_surface(x, triangles, crossings);
}

std::optional<SurfaceSplit> split_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                          const SurfaceCrossings& recorded) {
  if (recorded.edge.empty()) return std::nullopt;
  const auto n0 = static_cast<Index>(x.size());
  // Crossed edges, numbered in the order met; -1 for an edge that does not cross.
  std::unordered_map<std::uint64_t, Index> edge_id;
  std::vector<Crossing> crossings;
  std::vector<Index> uses;
  std::vector<CutPoint> edge_point;
  std::vector<std::array<Index, 3>> crossed(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    int count = 0;
    for (int c = 0; c < 3; ++c) {
      const Index i = triangles[t][static_cast<std::size_t>(c)],
                  j = triangles[t][static_cast<std::size_t>((c + 1) % 3)];
      const Index lo = std::min(i, j), hi = std::max(i, j);
      auto [it, fresh] = edge_id.try_emplace(edge_key(lo, hi), -1);
      if (fresh) {
        const auto hit = recorded.edge.find(edge_key(lo, hi));
        if (hit != recorded.edge.end()) {
          it->second = static_cast<Index>(crossings.size());
          crossings.push_back(hit->second);
          uses.push_back(0);
          edge_point.push_back({lo, hi, hit->second.t, -1});
        }
      }
      crossed[t][static_cast<std::size_t>(c)] = it->second;
      if (it->second >= 0) {
        ++count;
        ++uses[static_cast<std::size_t>(it->second)];
      }
    }
    if (count != 0 && count != 2) return std::nullopt;  // a partial cut or a twisted blade
  }
  if (crossings.empty()) return std::nullopt;
  for (Index u : uses) {
    if (u != 2) return std::nullopt;  // an open surface or a non-manifold edge
  }
  const auto plus_end = [&](Index e) {
    const CutPoint& p = edge_point[static_cast<std::size_t>(e)];
    return crossings[static_cast<std::size_t>(e)].low_plus ? p.a : p.b;
  };
  // Copy on the positive side: n0 + 2e; on the negative side: n0 + 2e + 1.
  const auto copy = [n0](Index e, bool plus) { return n0 + 2 * e + (plus ? 0 : 1); };
  const auto point_x = [&](Index e) {
    const CutPoint& p = edge_point[static_cast<std::size_t>(e)];
    return Vec3((1.0 - p.t) * x[static_cast<std::size_t>(p.a)] + p.t * x[static_cast<std::size_t>(p.b)]);
  };

  SurfaceSplit out;
  out.triangles.assign(triangles.begin(), triangles.end());
  std::vector<Index> next(crossings.size(), -1);  // along the positive side's boundary, edge → edge
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    int k = 0;
    while (k < 3 && crossed[t][static_cast<std::size_t>(k)] >= 0) ++k;
    if (k == 3 || crossed[t][static_cast<std::size_t>((k + 1) % 3)] < 0) continue;  // not crossed
    // Edge k = (n, p) is whole; c = the vertex opposite it; e1 = (c, n), e2 = (p, c).
    const Tri& tri = triangles[t];
    const Index c = tri[static_cast<std::size_t>((k + 2) % 3)], vn = tri[static_cast<std::size_t>(k)],
                vp = tri[static_cast<std::size_t>((k + 1) % 3)];
    const Index e1 = crossed[t][static_cast<std::size_t>((k + 2) % 3)],
                e2 = crossed[t][static_cast<std::size_t>((k + 1) % 3)];
    const bool c_plus = plus_end(e1) == c;
    if (c_plus != (plus_end(e2) == c)) return std::nullopt;
    const Index m1c = copy(e1, c_plus), m2c = copy(e2, c_plus), m1o = copy(e1, !c_plus),
                m2o = copy(e2, !c_plus);
    out.triangles[t] = {c, m1c, m2c};
    if ((x[static_cast<std::size_t>(vp)] - point_x(e1)).squaredNorm() <=
        (x[static_cast<std::size_t>(vn)] - point_x(e2)).squaredNorm()) {
      out.triangles.push_back({m1o, vn, vp});
      out.triangles.push_back({m1o, vp, m2o});
    } else {
      out.triangles.push_back({m1o, vn, m2o});
      out.triangles.push_back({vn, vp, m2o});
    }
    const Index from = c_plus ? e1 : e2, to = c_plus ? e2 : e1;
    if (next[static_cast<std::size_t>(from)] >= 0) return std::nullopt;
    next[static_cast<std::size_t>(from)] = to;
    ++out.split_triangles;
  }
  // The loops: the positive side's boundary runs along them; its cut face runs the other way.
  std::vector<std::uint8_t> seen(crossings.size(), 0);
  std::vector<Index> loop;
  std::vector<Vec3> polygon;
  for (std::size_t start = 0; start < crossings.size(); ++start) {
    if (seen[start]) continue;
    loop.clear();
    polygon.clear();
    for (auto e = static_cast<Index>(start); !seen[static_cast<std::size_t>(e)];
         e = next[static_cast<std::size_t>(e)]) {
      if (e < 0) return std::nullopt;
      seen[static_cast<std::size_t>(e)] = 1;
      loop.push_back(e);
      polygon.push_back(point_x(e));
      if (next[static_cast<std::size_t>(e)] < 0) return std::nullopt;
    }
    if (next[static_cast<std::size_t>(loop.back())] != loop.front()) return std::nullopt;
    for (const Tri& f : triangulate_polygon(polygon)) {
      const auto L = [&](int c) { return loop[static_cast<std::size_t>(f[static_cast<std::size_t>(c)])]; };
      out.triangles.push_back({copy(L(0), false), copy(L(1), false), copy(L(2), false)});
      out.triangles.push_back({copy(L(2), true), copy(L(1), true), copy(L(0), true)});
      out.cap_triangles += 2;
    }
    ++out.loops;
  }
  out.points.reserve(2 * edge_point.size());
  for (std::size_t e = 0; e < edge_point.size(); ++e) {
    const CutPoint& p = edge_point[e];
    const Index plus = plus_end(static_cast<Index>(e));
    out.points.push_back({p.a, p.b, p.t, plus});
    out.points.push_back({p.a, p.b, p.t, plus == p.a ? p.b : p.a});
  }
  return out;
}

}  // namespace pliant::meshless
