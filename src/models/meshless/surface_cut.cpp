#include "pliant/models/meshless/surface_cut.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
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
//
// The crossing's strip parameter (s, τ): s runs from a to b, τ from the sweep's start (tau0) to its end
// (tau0 + 1); (a0, b0, b1) is the half s ≥ τ - tau0, (a0, b1, a1) the other.
std::optional<Crossing> crossing(const Blade& blade, const Vec3& p, const Vec3& q,
                                 std::optional<bool> known_p, std::optional<bool> known_q, double tau0) {
  const std::array<std::array<Vec3, 3>, 2> halves = {
      {{blade.a0, blade.b0, blade.b1}, {blade.a0, blade.b1, blade.a1}}};
  for (std::size_t h = 0; h < 2; ++h) {
    const auto& T = halves[h];
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
    if (u >= -eps && v >= -eps && u + v <= 1.0 + eps) {
      const Eigen::Vector2d param =
          h == 0 ? Eigen::Vector2d(u + v, tau0 + v) : Eigen::Vector2d(u, tau0 + u + v);
      return Crossing{t, p_plus,
                      param.cwiseMax(Eigen::Vector2d(0.0, tau0)).cwiseMin(Eigen::Vector2d(1.0, tau0 + 1.0))};
    }
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
                    SurfaceCrossings& crossings, double tau0) {
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
      const auto hit = crossing(blade, p, q, known(i), known(j), tau0);
      if (!hit) continue;
      crossings.edge.emplace(edge_key(i, j), *hit);
      crossings.order.push_back(edge_key(i, j));
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
  // Copies numbered from the vertex count on, two per crossing in the order recorded.
  SurfaceCrossings numbered = recorded;
  const auto n0 = static_cast<Index>(x.size());
  for (std::size_t k = 0; k < numbered.order.size(); ++k)
    numbered.edge.at(numbered.order[k]).vertex = n0 + 2 * static_cast<Index>(k);
  auto cut = cut_surface(x, triangles, numbered, nullptr);
  if (!cut) return std::nullopt;
  SurfaceSplit out;
  out.triangles = std::move(cut->triangles);
  out.split_triangles = cut->split_triangles;
  out.cap_triangles = cut->cap_triangles;
  out.loops = cut->loops;
  for (const std::uint64_t key : numbered.order) {
    const Crossing& c = numbered.edge.at(key);
    const auto lo = static_cast<Index>(key >> 32), hi = static_cast<Index>(key & 0xffffffffu);
    out.points.push_back({lo, hi, c.t, c.low_plus ? lo : hi});
    out.points.push_back({lo, hi, c.t, c.low_plus ? hi : lo});
  }
  return out;
}

namespace {

// Where a point of the strip's boundary lies along it, counter-clockwise from (0, 0): corner c of
// SlitStrip at c (the bottom from 0 to 1, the right side from 1 to 1 + K, the top to 2 + K, the left
// side to 2K + 2). A point off the boundary is taken to its nearest side.
double strip_perimeter_position(const Eigen::Vector2d& param, Index sweeps) {
  const double s = std::clamp(param.x(), 0.0, 1.0),
               tau = std::clamp(param.y(), 0.0, static_cast<double>(sweeps));
  const auto K = static_cast<double>(sweeps);
  // The nearest side: bottom (τ = 0, s rising), right (s = 1, τ rising), top (τ = K, s falling), left.
  const double d[4] = {tau, 1.0 - s, K - tau, s};
  const int side = static_cast<int>(std::min_element(d, d + 4) - d);
  switch (side) {
    case 0:
      return s;
    case 1:
      return 1.0 + tau;
    case 2:
      return 1.0 + K + (1.0 - s);
    default:
      return 2.0 + K + (K - tau);
  }
}

}  // namespace

Eigen::Vector2d strip_corner(Index c, Index sweeps) {
  if (c == 0) return {0.0, 0.0};
  if (c <= 1 + sweeps) return {1.0, static_cast<double>(c - 1)};
  return {0.0, static_cast<double>(2 * sweeps + 2 - c)};
}

std::optional<SurfaceCut> cut_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                      const SurfaceCrossings& recorded, const SlitStrip* strip) {
  const std::size_t n = recorded.order.size();
  if (n == 0 || n != recorded.edge.size()) return std::nullopt;
  std::unordered_map<std::uint64_t, Index> id;  // crossed edge → its number in the order recorded
  id.reserve(n);
  std::vector<Crossing> crossing(n);
  std::vector<std::array<Index, 2>> ends(n);  // the edge's vertices, smaller first
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t key = recorded.order[k];
    id.emplace(key, static_cast<Index>(k));
    crossing[k] = recorded.edge.at(key);
    ends[k] = {static_cast<Index>(key >> 32), static_cast<Index>(key & 0xffffffffu)};
  }
  const auto plus_end = [&](Index e) {
    const auto eu = static_cast<std::size_t>(e);
    return crossing[eu].low_plus ? ends[eu][0] : ends[eu][1];
  };
  // Copy on the positive side: the crossing's vertex; on the negative side: the next one.
  const auto copy = [&](Index e, bool plus) {
    return crossing[static_cast<std::size_t>(e)].vertex + (plus ? 0 : 1);
  };
  const auto point_x = [&](Index e) {
    const auto eu = static_cast<std::size_t>(e);
    const double t = crossing[eu].t;
    return Vec3((1.0 - t) * x[static_cast<std::size_t>(ends[eu][0])] +
                t * x[static_cast<std::size_t>(ends[eu][1])]);
  };

  std::vector<std::array<Index, 3>> crossed(triangles.size());
  std::vector<int> count(triangles.size(), 0);
  std::vector<Index> uses(n, 0);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (int c = 0; c < 3; ++c) {
      const Index i = triangles[t][static_cast<std::size_t>(c)],
                  j = triangles[t][static_cast<std::size_t>((c + 1) % 3)];
      const auto it = id.find(edge_key(std::min(i, j), std::max(i, j)));
      const Index e = it == id.end() ? -1 : it->second;
      crossed[t][static_cast<std::size_t>(c)] = e;
      if (e >= 0) {
        ++count[t];
        ++uses[static_cast<std::size_t>(e)];
      }
    }
    // Three crossed edges: a twisted blade; one: a chain ends here, which only a slit can close.
    if (count[t] == 3 || (count[t] == 1 && strip == nullptr)) return std::nullopt;
  }
  for (Index u : uses) {
    if (u != 2) return std::nullopt;  // an open surface or a non-manifold edge
  }

  SurfaceCut out;
  out.triangles.assign(triangles.begin(), triangles.end());
  // Along the positive side's boundary: edge → edge through a split triangle; a chain's first edge
  // has the triangle it starts in (before), its last the triangle it ends in (after).
  std::vector<Index> next(n, -1), prev(n, -1), before(n, -1), after(n, -1);
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Tri& tri = triangles[t];
    if (count[t] == 1) {
      int c = 0;
      while (crossed[t][static_cast<std::size_t>(c)] < 0) ++c;
      const Index e = crossed[t][static_cast<std::size_t>(c)];
      // The triangle runs u → w over the edge: with u on the positive side it follows the edge (as a
      // split triangle whose lone vertex is positive follows the edge leaving that vertex).
      auto& slot = plus_end(e) == tri[static_cast<std::size_t>(c)] ? after : before;
      if (slot[static_cast<std::size_t>(e)] >= 0) return std::nullopt;
      slot[static_cast<std::size_t>(e)] = static_cast<Index>(t);
      continue;
    }
    if (count[t] != 2) continue;
    int k = 0;
    while (crossed[t][static_cast<std::size_t>(k)] >= 0) ++k;
    // Edge k = (n, p) is whole; c = the vertex opposite it; e1 = (c, n), e2 = (p, c).
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
    if (next[static_cast<std::size_t>(from)] >= 0 || prev[static_cast<std::size_t>(to)] >= 0)
      return std::nullopt;
    next[static_cast<std::size_t>(from)] = to;
    prev[static_cast<std::size_t>(to)] = from;
    ++out.split_triangles;
  }
  for (std::size_t e = 0; e < n; ++e) {
    if ((next[e] >= 0) == (after[e] >= 0) || (prev[e] >= 0) == (before[e] >= 0)) return std::nullopt;
  }

  // Open chains, each from the triangle it starts in to the one it ends in, with the shared vertex
  // where the blade's boundary pierces those triangles.
  struct Chain {
    std::vector<Index> edges;
    Index first_vertex = -1, last_vertex = -1;
    Eigen::Vector2d first_param = Eigen::Vector2d::Zero(), last_param = Eigen::Vector2d::Zero();
    double first_pos = 0.0, last_pos = 0.0;
  };
  std::vector<Chain> chains;
  std::vector<std::uint8_t> seen(n, 0);
  for (std::size_t start = 0; start < n; ++start) {
    if (before[start] < 0) continue;
    Chain ch;
    for (auto e = static_cast<Index>(start);; e = next[static_cast<std::size_t>(e)]) {
      if (seen[static_cast<std::size_t>(e)]) return std::nullopt;
      seen[static_cast<std::size_t>(e)] = 1;
      ch.edges.push_back(e);
      if (after[static_cast<std::size_t>(e)] >= 0) break;
    }
    chains.push_back(std::move(ch));
  }
  // Each end triangle (u, w, o) over its crossed edge becomes four around the piercing point P:
  // (u, u's copy, P), (w's copy, w, P), (w, o, P), (o, u, P).
  const auto split_end = [&](Index t, Index e, Index P) {
    const Tri tri = triangles[static_cast<std::size_t>(t)];
    int c = 0;
    while (crossed[static_cast<std::size_t>(t)][static_cast<std::size_t>(c)] != e) ++c;
    const Index u = tri[static_cast<std::size_t>(c)], w = tri[static_cast<std::size_t>((c + 1) % 3)],
                o = tri[static_cast<std::size_t>((c + 2) % 3)];
    out.triangles[static_cast<std::size_t>(t)] = {u, copy(e, plus_end(e) == u), P};
    out.triangles.push_back({copy(e, plus_end(e) == w), w, P});
    out.triangles.push_back({w, o, P});
    out.triangles.push_back({o, u, P});
  };
  for (Chain& ch : chains) {
    const Index first = ch.edges.front(), last = ch.edges.back();
    ch.first_vertex = strip->pierce(before[static_cast<std::size_t>(first)], ch.first_param);
    ch.last_vertex = strip->pierce(after[static_cast<std::size_t>(last)], ch.last_param);
    ch.first_pos = strip_perimeter_position(ch.first_param, strip->sweeps);
    ch.last_pos = strip_perimeter_position(ch.last_param, strip->sweeps);
    split_end(before[static_cast<std::size_t>(first)], first, ch.first_vertex);
    split_end(after[static_cast<std::size_t>(last)], last, ch.last_vertex);
  }

  // A cut face: a polygon of cut points (one copy per side) and shared vertices, triangulated once and
  // emitted per side: the negative side's copy with the polygon's orientation, the positive side's
  // reversed (a slit's inner edges between shared vertices are split first, below).
  struct Corner {
    Index minus, plus;
  };
  std::vector<Corner> corner;
  std::vector<Vec3> polygon;
  const auto emit = [&](std::span<const Tri> faces) {
    for (const Tri& f : faces) {
      const auto& a = corner[static_cast<std::size_t>(f[0])];
      const auto& b = corner[static_cast<std::size_t>(f[1])];
      const auto& c = corner[static_cast<std::size_t>(f[2])];
      out.triangles.push_back({a.minus, b.minus, c.minus});
      out.triangles.push_back({c.plus, b.plus, a.plus});
      out.cap_triangles += 2;
    }
  };

  // Slits: the cut face of an open chain lies in the strip, inside the body, which is on the chain's
  // left in (s, τ) (the positive side's boundary runs along the chain with the body's outside on its
  // right). Its boundary runs along the chain, then counter-clockwise along the strip's boundary
  // (through its corners) to the start of the next chain met, and so on until back.
  if (!chains.empty()) {
    const double perimeter = 2.0 * static_cast<double>(strip->sweeps) + 2.0;
    const auto ahead = [&](double from, double to) {  // counter-clockwise distance along the boundary
      double d = std::fmod(to - from, perimeter);
      return d < 0.0 ? d + perimeter : d;
    };
    std::vector<std::uint8_t> closed(chains.size(), 0);
    for (std::size_t c0 = 0; c0 < chains.size(); ++c0) {
      if (closed[c0]) continue;
      corner.clear();
      polygon.clear();
      for (std::size_t c = c0;;) {
        if (closed[c]) return std::nullopt;
        closed[c] = 1;
        const Chain& ch = chains[c];
        corner.push_back({ch.first_vertex, ch.first_vertex});
        polygon.emplace_back(ch.first_param.x(), ch.first_param.y(), 0.0);
        for (Index e : ch.edges) {
          corner.push_back({copy(e, false), copy(e, true)});
          const Eigen::Vector2d& q = crossing[static_cast<std::size_t>(e)].param;
          polygon.emplace_back(q.x(), q.y(), 0.0);
        }
        corner.push_back({ch.last_vertex, ch.last_vertex});
        polygon.emplace_back(ch.last_param.x(), ch.last_param.y(), 0.0);
        // The next chain's start counter-clockwise, with no chain's end between.
        std::size_t to = chains.size();
        double best = 2.0 * perimeter;
        for (std::size_t d = 0; d < chains.size(); ++d) {
          double gap = ahead(ch.last_pos, chains[d].first_pos);
          if (d == c && gap == 0.0) gap = perimeter;
          if (gap < best) best = gap, to = d;
        }
        for (std::size_t d = 0; d < chains.size(); ++d) {
          const double gap = ahead(ch.last_pos, chains[d].last_pos);
          if (d != c && gap > 0.0 && gap < best) return std::nullopt;
        }
        for (double k = std::floor(ch.last_pos) + 1.0; k - ch.last_pos < best; k += 1.0) {
          const auto at = static_cast<Index>(std::fmod(k, perimeter));
          const Index v = strip->corner(at);
          corner.push_back({v, v});
          const Eigen::Vector2d q = strip_corner(at, strip->sweeps);
          polygon.emplace_back(q.x(), q.y(), 0.0);
        }
        if (to == c0) break;
        c = to;
      }
      // The polygon runs counter-clockwise in (s, τ) when the chains and strip agree.
      double area2 = 0.0;
      for (std::size_t i = 0; i < polygon.size(); ++i) {
        const Vec3& p = polygon[i];
        const Vec3& q = polygon[(i + 1) % polygon.size()];
        area2 += p.x() * q.y() - q.x() * p.y();
      }
      if (!(area2 > 0.0)) return std::nullopt;
      // An inner edge between two shared vertices would join the two sides' faces along it (an edge
      // of four triangles, or a triangle over shared vertices only on both faces): each is split at
      // its midpoint by a cut point of the face's own (strip.interior, one copy per side).
      std::vector<Tri> faces = triangulate_polygon(polygon);
      const auto shared = [&](Index k) {
        const Corner& q = corner[static_cast<std::size_t>(k)];
        return q.minus == q.plus;
      };
      // Splitting an edge changes no other edge's triangles, so the edges to split are found once.
      std::map<std::pair<Index, Index>, int> uses;
      for (const Tri& f : faces) {
        for (int k = 0; k < 3; ++k) {
          const Index u = f[static_cast<std::size_t>(k)], w = f[static_cast<std::size_t>((k + 1) % 3)];
          ++uses[{std::min(u, w), std::max(u, w)}];
        }
      }
      for (const auto& [e, count] : uses) {
        if (count != 2 || !shared(e.first) || !shared(e.second)) continue;
        const auto m = static_cast<Index>(corner.size());
        const Vec3 mid =
            0.5 * (polygon[static_cast<std::size_t>(e.first)] + polygon[static_cast<std::size_t>(e.second)]);
        const Index v = strip->interior(corner[static_cast<std::size_t>(e.first)].plus,
                                        corner[static_cast<std::size_t>(e.second)].plus,
                                        Eigen::Vector2d(mid.x(), mid.y()));
        corner.push_back({v + 1, v});
        polygon.push_back(mid);
        const std::size_t count_before = faces.size();
        for (std::size_t t = 0; t < count_before; ++t) {
          Tri& f = faces[t];
          for (int k = 0; k < 3; ++k) {
            const Index u = f[static_cast<std::size_t>(k)], w = f[static_cast<std::size_t>((k + 1) % 3)],
                        o = f[static_cast<std::size_t>((k + 2) % 3)];
            if (std::min(u, w) != e.first || std::max(u, w) != e.second) continue;
            f = {u, m, o};
            faces.push_back({m, w, o});
            break;
          }
        }
      }
      emit(faces);
      ++out.chains;
    }
  }

  // Closed loops: the positive side's boundary runs along them; its cut face runs the other way.
  std::vector<Index> loop;
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    loop.clear();
    corner.clear();
    polygon.clear();
    for (auto e = static_cast<Index>(start); !seen[static_cast<std::size_t>(e)];
         e = next[static_cast<std::size_t>(e)]) {
      if (e < 0) return std::nullopt;
      seen[static_cast<std::size_t>(e)] = 1;
      loop.push_back(e);
      corner.push_back({copy(e, false), copy(e, true)});
      polygon.push_back(point_x(e));
      if (next[static_cast<std::size_t>(e)] < 0) return std::nullopt;
    }
    if (next[static_cast<std::size_t>(loop.back())] != loop.front()) return std::nullopt;
    emit(triangulate_polygon(polygon));
    ++out.loops;
  }
  return out;
}

}  // namespace pliant::meshless
