// Splitting of hexahedra, prisms, pyramids, quadrilaterals, polygons and triangle strips (see
// cell_split.hpp for the rule and why it is conforming).
#include "io/cell_split.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::io::detail {
namespace {

// Outward faces (for a positively oriented cell) by corner index; -1 ends a triangle.
struct Face {
  int v[4];
};
constexpr Face kHexFaces[] = {{{0, 3, 2, 1}}, {{4, 5, 6, 7}}, {{0, 1, 5, 4}},
                              {{1, 2, 6, 5}}, {{2, 3, 7, 6}}, {{3, 0, 4, 7}}};
constexpr Face kPrismFaces[] = {
    {{0, 2, 1, -1}}, {{3, 4, 5, -1}}, {{0, 1, 4, 3}}, {{1, 2, 5, 4}}, {{2, 0, 3, 5}}};
constexpr Face kPyramidFaces[] = {
    {{0, 3, 2, 1}}, {{0, 1, 4, -1}}, {{1, 2, 4, -1}}, {{2, 3, 4, -1}}, {{3, 0, 4, -1}}};

// The two triangles of quadrilateral a-b-c-d cut along the diagonal through its smallest id.
void quad_triangles(const int q[4], const long long* ids, int out[2][3]) {
  int m = 0;
  for (int k = 1; k < 4; ++k) {
    if (ids[q[k]] < ids[q[m]]) m = k;
  }
  const int a = q[m], b = q[(m + 1) % 4], c = q[(m + 2) % 4], d = q[(m + 3) % 4];
  out[0][0] = a, out[0][1] = b, out[0][2] = c;
  out[1][0] = a, out[1][1] = c, out[1][2] = d;
}

// Newell's normal of a closed polygon (unnormalised; robust for non-planar input).
Vec3 newell_normal(const std::vector<Vec3>& p) {
  Vec3 n = Vec3::Zero();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3& a = p[i];
    const Vec3& b = p[(i + 1) % p.size()];
    n += Vec3((a.y() - b.y()) * (a.z() + b.z()), (a.z() - b.z()) * (a.x() + b.x()),
              (a.x() - b.x()) * (a.y() + b.y()));
  }
  return n;
}

double turn(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& n) {
  return (b - a).cross(c - a).dot(n);
}

struct P2 {
  double x, y;
};

double orient(const P2& a, const P2& b, const P2& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// The corners not yet clipped that were not convex (reflex or flat) at the start, in a balanced 2D
// tree (median splits, alternating axes, stored implicitly in one array) whose nodes keep their
// bounding box and how many of their corners are still in the polygon. Only such a corner can lie in
// a candidate ear of a simple polygon (the corner of an ear's triangle farthest from its diagonal is
// reflex, and clipping never makes a convex corner reflex), so an ear test visits the subtrees that
// meet the ear's bounding box and still hold a corner, about O(log n) each: a convex polygon has
// none, and the long triangles of a fan (the spine of a comb) cross only emptied subtrees.
class ReflexTree {
 public:
  ReflexTree(const std::vector<P2>& p, std::vector<int> reflex) : p_(p), items_(std::move(reflex)) {
    nodes_.resize(2 * items_.size() + 1);
    slot_.assign(p.size(), -1);
    if (!items_.empty()) build(0, 0, static_cast<int>(items_.size()), 0);
    for (std::size_t k = 0; k < items_.size(); ++k)
      slot_[static_cast<std::size_t>(items_[k])] = static_cast<int>(k);
  }

  /// Removes corner v (clipped); nothing if it was not in the tree.
  void remove(int v) {
    const int k = slot_[static_cast<std::size_t>(v)];
    if (k < 0) return;
    slot_[static_cast<std::size_t>(v)] = -1;
    int node = 0, lo = 0, hi = static_cast<int>(items_.size());
    while (true) {
      --nodes_[static_cast<std::size_t>(node)].alive;
      const int mid = (lo + hi) / 2;
      if (k == mid) return;
      if (k < mid)
        node = 2 * node + 1, hi = mid;
      else
        node = 2 * node + 2, lo = mid + 1;
    }
  }

  /// Calls visit(v) for the corners still present whose point lies in the box [a, b] until it returns
  /// true; returns whether it did. `work` counts the nodes looked at.
  template <class Visit>
  bool any_in(const P2& a, const P2& b, long long& work, const Visit& visit) const {
    return !items_.empty() && query(0, 0, static_cast<int>(items_.size()), a, b, work, visit);
  }

 private:
  struct Node {
    P2 lo{0, 0}, hi{0, 0};
    int alive = 0;
  };

  void build(int node, int lo, int hi, int axis) {
    Node& n = nodes_[static_cast<std::size_t>(node)];
    n.alive = hi - lo;
    const int mid = (lo + hi) / 2;
    const auto key = [&](int v) {
      const P2& q = p_[static_cast<std::size_t>(v)];
      return axis == 0 ? q.x : q.y;
    };
    std::nth_element(items_.begin() + lo, items_.begin() + mid, items_.begin() + hi,
                     [&](int u, int v) { return key(u) < key(v); });
    n.lo = n.hi = p_[static_cast<std::size_t>(items_[static_cast<std::size_t>(mid)])];
    for (int k = lo; k < hi; ++k) {
      const P2& q = p_[static_cast<std::size_t>(items_[static_cast<std::size_t>(k)])];
      n.lo.x = std::min(n.lo.x, q.x), n.lo.y = std::min(n.lo.y, q.y);
      n.hi.x = std::max(n.hi.x, q.x), n.hi.y = std::max(n.hi.y, q.y);
    }
    if (lo < mid) build(2 * node + 1, lo, mid, 1 - axis);
    if (mid + 1 < hi) build(2 * node + 2, mid + 1, hi, 1 - axis);
  }

  template <class Visit>
  bool query(int node, int lo, int hi, const P2& a, const P2& b, long long& work, const Visit& visit) const {
    if (lo >= hi) return false;
    const Node& n = nodes_[static_cast<std::size_t>(node)];
    ++work;
    if (n.alive == 0 || n.hi.x < a.x || n.lo.x > b.x || n.hi.y < a.y || n.lo.y > b.y) return false;
    const int mid = (lo + hi) / 2;
    const int v = items_[static_cast<std::size_t>(mid)];
    if (slot_[static_cast<std::size_t>(v)] >= 0) {
      const P2& q = p_[static_cast<std::size_t>(v)];
      if (q.x >= a.x && q.x <= b.x && q.y >= a.y && q.y <= b.y && visit(v)) return true;
    }
    return query(2 * node + 1, lo, mid, a, b, work, visit) ||
           query(2 * node + 2, mid + 1, hi, a, b, work, visit);
  }

  const std::vector<P2>& p_;
  std::vector<int> items_;  // corner numbers in tree order
  std::vector<int> slot_;   // by corner: its place in items_, -1 when absent or removed
  std::vector<Node> nodes_;
};

// Ear clipping (Meisters 1975) in the polygon's own plane over a doubly linked list of corners: an
// ear is a convex corner whose triangle holds no other corner (closed test, so a corner on the
// diagonal blocks it). After a clip the walk goes on from the next corner instead of restarting, and
// ear tests look only at reflex corners near the ear (ReflexTree; Mapbox's earcut uses a z-order
// index to the same end), so a convex n-gon takes O(n) and a comb O(n) ear tests of local cost. Falls back to
// a fan of what is left when a whole round finds no ear (self-intersecting input). Returns false when the
// work exceeds `budget` (a pathological polygon whose ears all cover most reflex corners): a bound
// on time, never reached by a simple polygon of the size limit in practice.
bool ear_clip(const std::vector<Vec3>& p3, const Vec3& n, long long budget,
              std::vector<std::array<int, 3>>& out) {
  const std::size_t count = p3.size();
  // An orthonormal basis (u, v) of the plane with u x v along n, so that 2D orientation in (u, v)
  // equals the 3D turn about n.
  const Vec3 nn = n.norm() > 0 ? Vec3(n.normalized()) : Vec3(0, 0, 1);
  const Vec3 u = (std::abs(nn.x()) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 1, 0)).cross(nn).normalized();
  const Vec3 v = nn.cross(u);
  std::vector<P2> p(count);
  for (std::size_t i = 0; i < count; ++i) p[i] = {p3[i].dot(u), p3[i].dot(v)};
  std::vector<int> prev(count), next(count), reflex;
  for (std::size_t i = 0; i < count; ++i) {
    prev[i] = static_cast<int>((i + count - 1) % count);
    next[i] = static_cast<int>((i + 1) % count);
    if (orient(p[static_cast<std::size_t>(prev[i])], p[i], p[static_cast<std::size_t>(next[i])]) <= 0)
      reflex.push_back(static_cast<int>(i));
  }
  ReflexTree tree(p, std::move(reflex));
  out.reserve(out.size() + count - 2);
  long long work = 0;
  std::size_t left = count;
  int ear = 0, stop = 0;
  while (left > 3) {
    const int a = prev[static_cast<std::size_t>(ear)], c = next[static_cast<std::size_t>(ear)];
    const P2 &pa = p[static_cast<std::size_t>(a)], &pb = p[static_cast<std::size_t>(ear)],
             &pc = p[static_cast<std::size_t>(c)];
    bool is_ear = orient(pa, pb, pc) > 0;
    ++work;
    if (is_ear) {
      const P2 lo{std::min({pa.x, pb.x, pc.x}), std::min({pa.y, pb.y, pc.y})};
      const P2 hi{std::max({pa.x, pb.x, pc.x}), std::max({pa.y, pb.y, pc.y})};
      is_ear = !tree.any_in(lo, hi, work, [&](int w) {
        if (w == a || w == ear || w == c) return false;
        const P2& q = p[static_cast<std::size_t>(w)];
        return orient(pa, pb, q) >= 0 && orient(pb, pc, q) >= 0 && orient(pc, pa, q) >= 0;
      });
    }
    if (work > budget) return false;
    if (is_ear) {
      out.push_back({a, ear, c});
      tree.remove(ear);
      next[static_cast<std::size_t>(a)] = c;
      prev[static_cast<std::size_t>(c)] = a;
      --left;
      ear = stop = c;
      continue;
    }
    ear = c;
    if (ear == stop) {
      // A whole round without an ear: fan what is left.
      const int first = ear;
      for (int b = next[static_cast<std::size_t>(first)]; next[static_cast<std::size_t>(b)] != first;
           b = next[static_cast<std::size_t>(b)])
        out.push_back({first, b, next[static_cast<std::size_t>(b)]});
      return true;
    }
  }
  out.push_back({prev[static_cast<std::size_t>(ear)], ear, next[static_cast<std::size_t>(ear)]});
  return true;
}

std::string check_ids(MeshBuilder& builder, const long long* ids, long long count, std::vector<Index>& idx) {
  idx.resize(static_cast<std::size_t>(count));
  for (long long k = 0; k < count; ++k) {
    idx[k] = builder.find(ids[k]);
    if (idx[k] < 0) {
      return "references node " + std::to_string(ids[k]) + ", which is not defined (" +
             std::to_string(builder.node_count()) + " nodes)";
    }
  }
  return {};
}

std::string check_distinct(const long long* ids, long long count) {
  if (count <= 32) {
    for (long long a = 0; a < count; ++a) {
      for (long long b = a + 1; b < count; ++b) {
        if (ids[a] == ids[b]) return "uses node " + std::to_string(ids[a]) + " twice";
      }
    }
    return {};
  }
  // Large polygons: sort a copy (O(n log n)) instead of comparing every pair.
  std::vector<long long> sorted(ids, ids + count);
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end()) return "uses node " + std::to_string(*twice) + " twice";
  return {};
}

}  // namespace

int corner_count(CellShape shape) {
  switch (shape) {
    case CellShape::line:
      return 2;
    case CellShape::triangle:
      return 3;
    case CellShape::quadrilateral:
    case CellShape::tetrahedron:
      return 4;
    case CellShape::hexahedron:
      return 8;
    case CellShape::prism:
      return 6;
    case CellShape::pyramid:
      return 5;
    default:
      return 0;
  }
}

const char* shape_name(CellShape shape) {
  switch (shape) {
    case CellShape::line:
      return "line";
    case CellShape::triangle:
      return "triangle";
    case CellShape::quadrilateral:
      return "quadrilateral";
    case CellShape::polygon:
      return "polygon";
    case CellShape::triangle_strip:
      return "triangle strip";
    case CellShape::tetrahedron:
      return "tetrahedron";
    case CellShape::hexahedron:
      return "hexahedron";
    case CellShape::prism:
      return "prism";
    case CellShape::pyramid:
      return "pyramid";
  }
  return "cell";
}

std::vector<std::array<int, 4>> split_solid(CellShape shape, const long long* ids) {
  const Face* faces = kHexFaces;
  int face_count = 6, corners = 8;
  if (shape == CellShape::prism) faces = kPrismFaces, face_count = 5, corners = 6;
  if (shape == CellShape::pyramid) faces = kPyramidFaces, face_count = 5, corners = 5;
  int apex = 0;
  for (int k = 1; k < corners; ++k) {
    if (ids[k] < ids[apex]) apex = k;
  }
  std::vector<std::array<int, 4>> tets;
  for (int f = 0; f < face_count; ++f) {
    const int* v = faces[f].v;
    const int n = v[3] < 0 ? 3 : 4;
    if (std::find(v, v + n, apex) != v + n) continue;
    if (n == 3) {
      tets.push_back({apex, v[0], v[1], v[2]});
      continue;
    }
    int tri[2][3];
    quad_triangles(v, ids, tri);
    for (const auto& t : tri) tets.push_back({apex, t[0], t[1], t[2]});
  }
  return tets;
}

std::string split_polygon(const std::vector<Vec3>& points, const long long* ids,
                          std::vector<std::array<int, 3>>& triangles, long long work_budget) {
  triangles.clear();
  const std::size_t n = points.size();
  if (n > kMaxPolygonCorners) {
    return "has " + std::to_string(n) + " corners, more than the " + std::to_string(kMaxPolygonCorners) +
           " a polygon may have";
  }
  if (n < 3) return "has " + std::to_string(n) + " points, a polygon needs at least 3";
  if (n == 3) {
    triangles.push_back({0, 1, 2});
    return {};
  }
  const Vec3 normal = newell_normal(points);
  if (n == 4) {
    const int q[4] = {0, 1, 2, 3};
    int tri[2][3];
    quad_triangles(q, ids, tri);
    const bool valid = turn(points[tri[0][0]], points[tri[0][1]], points[tri[0][2]], normal) > 0 &&
                       turn(points[tri[1][0]], points[tri[1][1]], points[tri[1][2]], normal) > 0;
    if (!valid) {
      // The rule's diagonal runs outside a concave quadrilateral: take the other one.
      const int other[4] = {tri[0][1], tri[0][2], tri[1][2], tri[0][0]};
      triangles = {{other[0], other[1], other[2]}, {other[0], other[2], other[3]}};
    } else {
      triangles = {{tri[0][0], tri[0][1], tri[0][2]}, {tri[1][0], tri[1][1], tri[1][2]}};
    }
    return {};
  }
  const long long budget =
      work_budget > 0 ? work_budget : kEarClipWorkPerCorner * static_cast<long long>(n) + kEarClipWorkBase;
  if (!ear_clip(points, normal, budget, triangles)) {
    triangles.clear();
    return "(" + std::to_string(n) + " corners) could not be triangulated within the work bound of " +
           std::to_string(budget) + " steps: its ears overlap most of its reflex corners";
  }
  return {};
}

std::string add_polygon(MeshBuilder& builder, const std::vector<Index>& poly, long long element_id) {
  if (poly.size() > kMaxPolygonCorners) {
    return "has " + std::to_string(poly.size()) + " corners, more than the " +
           std::to_string(kMaxPolygonCorners) + " a polygon may have";
  }
  const std::vector<Vec3>& p = builder.mesh().positions;
  std::vector<Vec3> points;
  std::vector<long long> ids;
  points.reserve(poly.size());
  ids.reserve(poly.size());
  for (const Index v : poly) {
    points.push_back(p[static_cast<std::size_t>(v)]);
    ids.push_back(v);
  }
  std::vector<std::array<int, 3>> tris;
  if (std::string problem = split_polygon(points, ids.data(), tris); !problem.empty()) return problem;
  std::size_t made = 0;
  for (const auto& t : tris) {
    const Tri tri{poly[t[0]], poly[t[1]], poly[t[2]]};
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
      builder.skip_element("degenerate triangle (repeated vertex)");
    } else {
      builder.add_triangle(tri, element_id);
      ++made;
    }
  }
  if (poly.size() > 3 && made > 0)
    builder.note_split(poly.size() == 4 ? "quadrilateral" : "polygon", "triangle", made);
  return {};
}

std::string add_cell(MeshBuilder& builder, CellShape shape, const long long* ids, long long count,
                     long long element_id) {
  const int corners = corner_count(shape);
  if (shape == CellShape::line || shape == CellShape::triangle || shape == CellShape::tetrahedron)
    return builder.add_element(ids, corners, element_id);
  if (shape == CellShape::polygon && static_cast<unsigned long long>(count) > kMaxPolygonCorners) {
    return "has " + std::to_string(count) + " corners, more than the " + std::to_string(kMaxPolygonCorners) +
           " a polygon may have";
  }
  std::vector<Index> idx;
  if (std::string p = check_ids(builder, ids, count, idx); !p.empty()) return p;
  const std::vector<Vec3>& pos = builder.mesh().positions;
  if (shape == CellShape::triangle_strip) {
    if (count < 3) return "has " + std::to_string(count) + " points, a triangle strip needs at least 3";
    std::size_t made = 0;
    for (long long i = 0; i + 2 < count; ++i) {
      // Every other triangle is listed clockwise; degenerate triangles join strips and are dropped.
      Tri t = i % 2 == 0 ? Tri{idx[i], idx[i + 1], idx[i + 2]} : Tri{idx[i + 1], idx[i], idx[i + 2]};
      if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
      builder.add_triangle(t, element_id);
      ++made;
    }
    builder.note_split(shape_name(shape), "triangle", made);
    return {};
  }
  // Some writers close a polygon by repeating its first corner.
  if (shape == CellShape::polygon && count > 3 && ids[count - 1] == ids[0]) --count;
  if (std::string p = check_distinct(ids, count); !p.empty()) return p;
  if (shape == CellShape::quadrilateral || shape == CellShape::polygon) {
    if (count < 3) return "has " + std::to_string(count) + " points, a polygon needs at least 3";
    if (count == 3) {
      builder.add_triangle({idx[0], idx[1], idx[2]}, element_id);
      return {};
    }
    std::vector<Vec3> points(static_cast<std::size_t>(count));
    for (long long k = 0; k < count; ++k) points[k] = pos[idx[k]];
    std::vector<std::array<int, 3>> tris;
    if (std::string p = split_polygon(points, ids, tris); !p.empty()) return p;
    for (const auto& t : tris) builder.add_triangle({idx[t[0]], idx[t[1]], idx[t[2]]}, element_id);
    builder.note_split(count == 4 ? "quadrilateral" : "polygon", "triangle", tris.size());
    return {};
  }
  const auto tets = split_solid(shape, ids);
  for (const auto& t : tets) builder.mesh().tets.push_back({idx[t[0]], idx[t[1]], idx[t[2]], idx[t[3]]});
  builder.note_split(shape_name(shape), "tetrahedron", tets.size());
  return {};
}

}  // namespace pliant::io::detail
