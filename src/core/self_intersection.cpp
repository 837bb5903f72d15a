// Self-intersections: BVH broad phase, Möller (1997) interval test, in-plane test for coplanar pairs.
#include "pliant/core/self_intersection.hpp"

#include "pliant/core/aabb.hpp"
#include "pliant/core/bvh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace pliant {
namespace {

// Tolerance relative to the pair's longest edge: far above the ~1e-16 relative rounding of the
// distances (measured from a corner of the triangle), far below any gap a real mesh has on purpose.
constexpr double kRelativeTolerance = 1e-10;
// Two directions from a shared node whose angle has a sine below this are taken as the same direction.
constexpr double kParallelSine = 1e-12;
// A triangle whose doubled area is below this times its longest edge squared has no reliable plane.
constexpr double kFlatTriangle = 1e-14;

using Corners = std::array<Vec3, 3>;

double longest_edge(const Corners& t) {
  return std::max({(t[1] - t[0]).norm(), (t[2] - t[1]).norm(), (t[0] - t[2]).norm()});
}

// Unit normal, or nothing for a triangle too flat to have a plane.
std::optional<Vec3> unit_normal(const Corners& t) {
  const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
  const double length = n.norm();
  const double edge = longest_edge(t);
  if (!(length > kFlatTriangle * edge * edge)) return std::nullopt;
  return Vec3(n / length);
}

double orient2(const Vec2& a, const Vec2& b, const Vec2& c) {
  return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}

// Whether p lies in the closed 2D triangle t, within `eps` (unit: m) of its edges.
bool inside_2d(const Vec2& p, const std::array<Vec2, 3>& t, double eps) {
  const double sign = orient2(t[0], t[1], t[2]) > 0 ? 1.0 : -1.0;
  for (int k = 0; k < 3; ++k) {
    const Vec2& e0 = t[k];
    const Vec2& e1 = t[(k + 1) % 3];
    // orient2 is |e1 - e0| times p's distance from the edge's line.
    if (sign * orient2(e0, e1, p) < -eps * (e1 - e0).norm()) return false;
  }
  return true;
}

// Coplanar triangles (normal n of a): edges that cross, or a corner of one inside the other.
std::optional<Vec3> coplanar_crossing(const Corners& a, const Corners& b, const Vec3& n, double eps) {
  int drop = 0;
  n.cwiseAbs().maxCoeff(&drop);
  const int u = (drop + 1) % 3, v = (drop + 2) % 3;
  // Projected relative to a corner of a, so that the projected coordinates keep their precision.
  const auto project = [&](const Vec3& p) { return Vec2(p[u] - a[0][u], p[v] - a[0][v]); };
  std::array<Vec2, 3> pa, pb;
  for (int k = 0; k < 3; ++k) {
    pa[k] = project(a[k]);
    pb[k] = project(b[k]);
  }
  for (int i = 0; i < 3; ++i) {
    const Vec2 &p0 = pa[i], &p1 = pa[(i + 1) % 3];
    for (int j = 0; j < 3; ++j) {
      const Vec2 &q0 = pb[j], &q1 = pb[(j + 1) % 3];
      const double o1 = orient2(p0, p1, q0), o2 = orient2(p0, p1, q1);
      const double o3 = orient2(q0, q1, p0), o4 = orient2(q0, q1, p1);
      if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
        const double s = o3 / (o3 - o4);
        return Vec3(a[i] + s * (a[(i + 1) % 3] - a[i]));
      }
    }
  }
  // No proper edge crossing: they meet only if a corner of one lies in the other (touching included).
  for (int k = 0; k < 3; ++k) {
    if (inside_2d(pa[k], pb, eps)) return a[k];
  }
  for (int k = 0; k < 3; ++k) {
    if (inside_2d(pb[k], pa, eps)) return b[k];
  }
  return std::nullopt;
}

// Coplanar triangles sharing the node a[sa] == b[sb]: each lies in the wedge its two edges span at the
// node, so their interiors overlap exactly when the wedges' interiors do, i.e. when an edge direction of
// one points strictly into the other's wedge, or the wedges coincide. An angle test, unlike shrinking
// the triangles, stays right for the long slivers of a triangulated polygon.
std::optional<Vec3> coplanar_shared_crossing(const Corners& a, const Corners& b, int sa, int sb,
                                             const Vec3& n) {
  const Vec3& v = a[sa];
  const std::array<Vec3, 2> ua{a[(sa + 1) % 3] - v, a[(sa + 2) % 3] - v};
  const std::array<Vec3, 2> ub{b[(sb + 1) % 3] - v, b[(sb + 2) % 3] - v};
  // Signed sine of the angle from p to q about n.
  const auto sine = [&](const Vec3& p, const Vec3& q) {
    const double s = n.dot(p.cross(q)) / (p.norm() * q.norm());
    return std::abs(s) <= kParallelSine ? 0.0 : s;
  };
  const auto same_direction = [&](const Vec3& p, const Vec3& q) { return sine(p, q) == 0.0 && p.dot(q) > 0; };
  // Strictly inside the wedge (w0, w1) (its angle below 180°).
  const auto inside = [&](const Vec3& d, const std::array<Vec3, 2>& w) {
    const double turn = sine(w[0], w[1]) > 0 ? 1.0 : -1.0;
    return turn * sine(w[0], d) > 0 && turn * sine(d, w[1]) > 0;
  };
  // A point of both: along the direction that enters the other wedge, short of either far edge.
  const auto point_along = [&](const Vec3& d, const Corners& other, int so) {
    const Vec3 e0 = other[(so + 1) % 3], e1 = other[(so + 2) % 3];
    // Where v + t·d meets the line through the other triangle's far edge (in the common plane).
    const Vec3 m = n.cross(e1 - e0);
    const double denominator = m.dot(d);
    const double t = denominator != 0 ? m.dot(e0 - v) / denominator : 1.0;
    return Vec3(v + 0.5 * std::clamp(t, 0.0, 1.0) * d);
  };
  for (const Vec3& d : ub) {
    if (inside(d, ua)) return point_along(d, a, sa);
  }
  for (const Vec3& d : ua) {
    if (inside(d, ub)) return point_along(d, b, sb);
  }
  if ((same_direction(ua[0], ub[0]) && same_direction(ua[1], ub[1])) ||
      (same_direction(ua[0], ub[1]) && same_direction(ua[1], ub[0]))) {
    return point_along(ua[0].norm() < ub[0].norm() ? ua[0] : ub[0], a, sa);
  }
  return std::nullopt;
}

// Signed distances of t's corners from the plane through `origin` with unit normal n, those within
// eps snapped to exactly 0. False when all three are strictly on one side (t misses the plane).
bool plane_distances(const Corners& t, const Vec3& n, const Vec3& origin, double eps,
                     std::array<double, 3>& d) {
  int positive = 0, negative = 0;
  for (int k = 0; k < 3; ++k) {
    d[k] = n.dot(t[k] - origin);
    if (std::abs(d[k]) <= eps) d[k] = 0.0;
    positive += d[k] > 0;
    negative += d[k] < 0;
  }
  return positive < 3 && negative < 3;
}

// Where t (distances d from the other plane, not all zero and not all on one side) meets that plane:
// one point (a corner touching it) or the two ends of a segment.
int plane_cut(const Corners& t, const std::array<double, 3>& d, std::array<Vec3, 2>& out) {
  int n = 0;
  for (int k = 0; k < 3 && n < 2; ++k) {
    if (d[k] == 0.0) out[n++] = t[k];
  }
  for (int k = 0; k < 3 && n < 2; ++k) {
    const int j = (k + 1) % 3;
    if ((d[k] < 0 && d[j] > 0) || (d[k] > 0 && d[j] < 0))
      out[n++] = t[k] + (d[k] / (d[k] - d[j])) * (t[j] - t[k]);
  }
  return n;
}

// A triangle prepared once for all its pair tests: corners, unit normal, longest edge.
struct Facet {
  Corners x;
  Vec3 normal = Vec3::Zero();
  double edge = 0.0;
  bool usable = false;  // valid nodes, finite, not degenerate
};

Facet prepare(const TriMesh& mesh, const Tri& t) {
  Facet f;
  const auto n = static_cast<Index>(mesh.positions.size());
  for (int k = 0; k < 3; ++k) {
    if (t[k] < 0 || t[k] >= n) return f;
    f.x[k] = mesh.positions[static_cast<std::size_t>(t[k])];
    if (!f.x[k].allFinite()) return f;
  }
  if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) return f;
  const std::optional<Vec3> normal = unit_normal(f.x);
  if (!normal) return f;
  f.normal = *normal;
  f.edge = longest_edge(f.x);
  f.usable = true;
  return f;
}

// The pair test proper. `shared_a` / `shared_b`: the corner the two triangles share (same node), or -1.
std::optional<Vec3> crossing(const Facet& fa, const Facet& fb, int shared_a, int shared_b) {
  const Corners &a = fa.x, &b = fb.x;
  const double eps = kRelativeTolerance * std::max(fa.edge, fb.edge);
  const Vec3 &na = fa.normal, &nb = fb.normal;
  const bool shared = shared_a >= 0;

  std::array<double, 3> da{}, db{};
  if (!plane_distances(a, nb, b[0], eps, da)) return std::nullopt;
  if (!plane_distances(b, na, a[0], eps, db)) return std::nullopt;
  if (shared) {  // the shared node lies on both planes, whatever rounding says
    da[shared_a] = 0.0;
    db[shared_b] = 0.0;
  }
  const auto all_zero = [](const std::array<double, 3>& d) { return d[0] == 0 && d[1] == 0 && d[2] == 0; };
  Vec3 direction = na.cross(nb);
  if (all_zero(da) || all_zero(db) || direction.norm() < 1e-12) {
    if (shared) return coplanar_shared_crossing(a, b, shared_a, shared_b, na);
    return coplanar_crossing(a, b, na, eps);
  }
  direction.normalize();

  // Both cuts lie on the line where the planes meet; compare them as intervals along it.
  std::array<Vec3, 2> cut_a, cut_b;
  const int count_a = plane_cut(a, da, cut_a);
  const int count_b = plane_cut(b, db, cut_b);
  if (count_a == 0 || count_b == 0) return std::nullopt;  // not reached: the sign tests above exclude it
  if (count_a == 1) cut_a[1] = cut_a[0];
  if (count_b == 1) cut_b[1] = cut_b[0];
  const auto along = [&](const Vec3& p) { return direction.dot(p - a[0]); };
  double a0 = along(cut_a[0]), a1 = along(cut_a[1]);
  if (a0 > a1) {
    std::swap(a0, a1);
    std::swap(cut_a[0], cut_a[1]);
  }
  const double b0 = std::min(along(cut_b[0]), along(cut_b[1]));
  const double b1 = std::max(along(cut_b[0]), along(cut_b[1]));
  const double lo = std::max(a0, b0), hi = std::min(a1, b1);
  // Sharing a node, both cuts start there: they must overlap over more than the tolerance.
  if (shared ? !(hi - lo > eps) : !(hi - lo >= -eps)) return std::nullopt;
  const double middle = 0.5 * (lo + hi);
  const double s = a1 > a0 ? std::clamp((middle - a0) / (a1 - a0), 0.0, 1.0) : 0.0;
  return Vec3(cut_a[0] + s * (cut_a[1] - cut_a[0]));
}

// Sharing rules, then the test: nothing for pairs with an edge in common.
std::optional<Vec3> pair_crossing(const Tri& ta, const Facet& fa, const Tri& tb, const Facet& fb) {
  if (!fa.usable || !fb.usable) return std::nullopt;
  int shared = 0, shared_a = -1, shared_b = -1;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (ta[i] == tb[j] || fa.x[i] == fb.x[j]) {
        ++shared;
        shared_a = i;
        shared_b = j;
      }
    }
  }
  if (shared >= 2) return std::nullopt;  // an edge (or more) in common: they meet there by construction
  return crossing(fa, fb, shared_a, shared_b);
}

}  // namespace

std::optional<Vec3> triangle_pair_crossing(const TriMesh& mesh, Index a, Index b) {
  const auto count = static_cast<Index>(mesh.triangles.size());
  if (a == b || a < 0 || b < 0 || a >= count || b >= count) return std::nullopt;
  const Tri& ta = mesh.triangles[static_cast<std::size_t>(a)];
  const Tri& tb = mesh.triangles[static_cast<std::size_t>(b)];
  return pair_crossing(ta, prepare(mesh, ta), tb, prepare(mesh, tb));
}

SelfIntersections find_self_intersections(const TriMesh& mesh, const SelfIntersectionOptions& options) {
  SelfIntersections result;
  const TriangleBvh bvh(mesh);
  if (bvh.empty()) return result;
  const auto count = static_cast<Index>(mesh.triangles.size());
  std::vector<Facet> facets(mesh.triangles.size());
  for (std::size_t i = 0; i < facets.size(); ++i) facets[i] = prepare(mesh, mesh.triangles[i]);
  // Boxes grow by the pair tolerance's bound, so touching within tolerance reaches the narrow phase.
  const double margin = kRelativeTolerance * bvh.bounds().diagonal();
  for (Index i = 0; i < count; ++i) {
    const Facet& fi = facets[static_cast<std::size_t>(i)];
    if (!fi.usable) continue;
    Aabb box;
    for (const Vec3& p : fi.x) box.extend(p);
    for (const Index j : bvh.overlapping(box.inflated(margin))) {
      if (j <= i) continue;
      const std::optional<Vec3> point =
          pair_crossing(mesh.triangles[static_cast<std::size_t>(i)], fi,
                        mesh.triangles[static_cast<std::size_t>(j)], facets[static_cast<std::size_t>(j)]);
      if (!point) continue;
      ++result.total;
      if (static_cast<Index>(result.pairs.size()) < options.max_pairs) result.pairs.push_back({i, j, *point});
    }
  }
  return result;
}

}  // namespace pliant
