// Wavefront OBJ reader: tinyobjloader parses, Pliant checks the indices and triangulates polygons
// itself (ear clipping in the polygon's own plane), so that no index is used before it is checked.
#include "io/parse.hpp"
#include "io/readers.hpp"

#include <tiny_obj_loader.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace pliant::io::detail {
namespace {

// Line number (1-based) of the face with index `face` (0-based), counting "f" statements.
std::size_t face_line(std::string_view text, std::size_t face) {
  std::size_t line = 1, seen = 0;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (line_start) {
      std::size_t j = i;
      while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
      if (j + 1 < text.size() && text[j] == 'f' && (text[j + 1] == ' ' || text[j + 1] == '\t')) {
        if (seen++ == face) return line;
      }
    }
    line_start = text[i] == '\n';
    line += line_start;
  }
  return line;
}

// Ear clipping of a simple polygon (Meisters 1975, "Polygons have ears"), projected onto the plane
// of its Newell normal. Falls back to a fan when no ear is found (self-intersecting input).
void triangulate(const std::vector<Vec3>& p, const std::vector<Index>& poly, std::vector<Tri>& out) {
  const std::size_t n = poly.size();
  if (n == 3) {
    out.push_back({poly[0], poly[1], poly[2]});
    return;
  }
  Vec3 normal = Vec3::Zero();
  for (std::size_t i = 0; i < n; ++i) normal += p[poly[i]].cross(p[poly[(i + 1) % n]]);
  Vec3 u = normal.unitOrthogonal();
  Vec3 v = normal.normalized().cross(u);
  if (!normal.allFinite() || normal.norm() == 0) {
    u = Vec3::UnitX();
    v = Vec3::UnitY();
  }
  std::vector<Vec2> q(n);
  for (std::size_t i = 0; i < n; ++i) q[i] = Vec2(p[poly[i]].dot(u), p[poly[i]].dot(v));
  const auto cross = [](const Vec2& a, const Vec2& b, const Vec2& c) {
    return (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
  };
  std::vector<std::size_t> left(n);
  for (std::size_t i = 0; i < n; ++i) left[i] = i;
  while (left.size() > 3) {
    bool clipped = false;
    for (std::size_t k = 0; k < left.size() && !clipped; ++k) {
      const std::size_t a = left[(k + left.size() - 1) % left.size()], b = left[k],
                        c = left[(k + 1) % left.size()];
      if (cross(q[a], q[b], q[c]) <= 0) continue;  // reflex or flat corner
      bool empty = true;
      for (const std::size_t o : left) {
        if (o == a || o == b || o == c) continue;
        if (cross(q[a], q[b], q[o]) >= 0 && cross(q[b], q[c], q[o]) >= 0 && cross(q[c], q[a], q[o]) >= 0) {
          empty = false;
          break;
        }
      }
      if (!empty) continue;
      out.push_back({poly[a], poly[b], poly[c]});
      left.erase(left.begin() + static_cast<std::ptrdiff_t>(k));
      clipped = true;
    }
    if (!clipped) break;
  }
  for (std::size_t k = 1; k + 1 < left.size(); ++k)
    out.push_back({poly[left[0]], poly[left[k]], poly[left[k + 1]]});
}

}  // namespace

MeshFile read_obj(std::string_view bytes, const std::string& name) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  std::istringstream stream{std::string(bytes)};
  tinyobj::MaterialReader* no_materials = nullptr;
  const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &stream, no_materials, false);
  if (!ok) {
    std::string first = err.substr(0, err.find('\n'));
    throw_failure(name + ": " + (first.empty() ? std::string("not a readable OBJ file") : first));
  }
  MeshBuilder builder("OBJ");
  const std::size_t nv = attrib.vertices.size() / 3;
  if (nv > static_cast<std::size_t>(std::numeric_limits<Index>::max()))
    throw_failure(name + ": too many vertices");
  builder.reserve_nodes(nv);
  MeshFile& mesh = builder.mesh();
  for (std::size_t i = 0; i < nv; ++i) {
    const Vec3 p(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]);
    if (!finite(p))
      throw_failure(name + ": vertex " + std::to_string(i + 1) + " has a coordinate that is NaN or infinite");
    mesh.positions.push_back(p);
  }
  std::size_t face = 0;
  std::vector<Index> poly;
  for (const auto& shape : shapes) {
    std::size_t at = 0;
    for (const unsigned count : shape.mesh.num_face_vertices) {
      if (at + count > shape.mesh.indices.size()) throw_failure(name + ": inconsistent face data");
      poly.clear();
      for (unsigned k = 0; k < count; ++k) {
        const int idx = shape.mesh.indices[at + k].vertex_index;
        if (idx < 0 || static_cast<std::size_t>(idx) >= nv) {
          throw_failure(name + ":" + std::to_string(face_line(bytes, face)) + ": face " +
                        std::to_string(face + 1) + " references vertex " + std::to_string(idx + 1) +
                        ", but there are " + std::to_string(nv) + " vertices");
        }
        poly.push_back(static_cast<Index>(idx));
      }
      at += count;
      if (count >= 3) {
        triangulate(mesh.positions, poly, mesh.triangles);
      } else {
        builder.skip_element("face with fewer than 3 vertices");
      }
      ++face;
    }
    if (!shape.lines.indices.empty()) builder.skip_element("line", shape.lines.num_line_vertices.size());
  }
  return builder.finish();
}

}  // namespace pliant::io::detail
