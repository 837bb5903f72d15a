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

// Ear clipping in the polygon's own plane: an ear is a convex corner whose triangle holds no other
// corner. Falls back to a fan when no ear is found (self-intersecting input).
std::vector<std::array<int, 3>> ear_clip(const std::vector<Vec3>& p, const Vec3& n) {
  std::vector<int> left(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) left[i] = static_cast<int>(i);
  std::vector<std::array<int, 3>> out;
  while (left.size() > 3) {
    const std::size_t m = left.size();
    bool clipped = false;
    for (std::size_t i = 0; i < m && !clipped; ++i) {
      const int a = left[(i + m - 1) % m], b = left[i], c = left[(i + 1) % m];
      if (turn(p[a], p[b], p[c], n) <= 0) continue;  // reflex or flat corner
      bool empty = true;
      for (int v : left) {
        if (v == a || v == b || v == c) continue;
        if (turn(p[a], p[b], p[v], n) >= 0 && turn(p[b], p[c], p[v], n) >= 0 &&
            turn(p[c], p[a], p[v], n) >= 0) {
          empty = false;
          break;
        }
      }
      if (!empty) continue;
      out.push_back({a, b, c});
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
    }
    if (!clipped) {
      for (std::size_t i = 1; i + 1 < left.size(); ++i) out.push_back({left[0], left[i], left[i + 1]});
      return out;
    }
  }
  out.push_back({left[0], left[1], left[2]});
  return out;
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
  for (long long a = 0; a < count; ++a) {
    for (long long b = a + 1; b < count; ++b) {
      if (ids[a] == ids[b]) return "uses node " + std::to_string(ids[a]) + " twice";
    }
  }
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

std::vector<std::array<int, 3>> split_polygon(const std::vector<Vec3>& points, const long long* ids) {
  const std::size_t n = points.size();
  if (n == 3) return {{0, 1, 2}};
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
      return {{other[0], other[1], other[2]}, {other[0], other[2], other[3]}};
    }
    return {{tri[0][0], tri[0][1], tri[0][2]}, {tri[1][0], tri[1][1], tri[1][2]}};
  }
  return ear_clip(points, normal);
}

void add_polygon(MeshBuilder& builder, const std::vector<Index>& poly, long long element_id) {
  const std::vector<Vec3>& p = builder.mesh().positions;
  std::vector<Vec3> points;
  std::vector<long long> ids;
  points.reserve(poly.size());
  ids.reserve(poly.size());
  for (const Index v : poly) {
    points.push_back(p[static_cast<std::size_t>(v)]);
    ids.push_back(v);
  }
  std::size_t made = 0;
  for (const auto& t : split_polygon(points, ids.data())) {
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
}

std::string add_cell(MeshBuilder& builder, CellShape shape, const long long* ids, long long count,
                     long long element_id) {
  const int corners = corner_count(shape);
  if (shape == CellShape::line || shape == CellShape::triangle || shape == CellShape::tetrahedron)
    return builder.add_element(ids, corners, element_id);
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
    const auto tris = split_polygon(points, ids);
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
