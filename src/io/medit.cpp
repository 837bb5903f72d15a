// MEDIT .mesh ASCII reader and writer (Frey 2001, "MEDIT: an interactive mesh visualization
// software", INRIA RT-0253; the keyword set of the GMF/libMeshb "mesh" format of the same authors).
//
// A file is a sequence of keywords: "MeshVersionFormatted v" (1 to 4), "Dimension 3", then sections
// "Keyword count" followed by count entries, each ending with its integer reference, until "End".
// Vertices, Triangles, Quadrilaterals (split into two triangles along the 1-3 diagonal, with a
// notice), Tetrahedra and Edges are read; Hexahedra, Prisms and Pyramids are counted as skipped; the
// other standard sections (Corners, Ridges, Required*, Normals, Tangents, ...) are read past. Keywords
// are matched without regard to case, '#' starts a comment.
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "io/write_util.hpp"
#include "pliant/core/escape.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/mesh_writers.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace pliant::io {
namespace detail {
namespace {

bool same_word(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Sections read past: integers and reals per entry.
struct Skipped {
  const char* keyword;
  int integers;
  int reals;
};
constexpr Skipped kSkipped[] = {
    {"Corners", 1, 0},
    {"Ridges", 1, 0},
    {"RequiredVertices", 1, 0},
    {"RequiredEdges", 1, 0},
    {"RequiredTriangles", 1, 0},
    {"RequiredQuadrilaterals", 1, 0},
    {"RequiredTetrahedra", 1, 0},
    {"Normals", 0, 3},
    {"Tangents", 0, 3},
    {"NormalAtVertices", 2, 0},
    {"NormalAtTriangleVertices", 3, 0},
    {"TangentAtEdges", 3, 0},
    {"TangentAtVertices", 2, 0},
};

// Cells counted as skipped: node count and the kind reported.
struct Unsupported {
  const char* keyword;
  int nodes;
  const char* kind;
};
constexpr Unsupported kUnsupported[] = {
    {"Hexahedra", 8, "hexahedron"},
    {"Prisms", 6, "prism"},
    {"Pyramids", 5, "pyramid"},
};

}  // namespace

MeshFile read_medit(std::string_view bytes, const std::string& name) {
  TextCursor in(bytes, name, '#');
  MeshBuilder builder("MEDIT ASCII");
  const auto cell = [&](int nodes, const char* kind, long long number) {
    long long ids[4];
    for (int k = 0; k < nodes; ++k) ids[k] = in.integer("node index");
    in.integer("reference");
    const std::string problem = builder.add_element(ids, nodes, number);
    if (!problem.empty()) in.fail(std::string(kind) + " " + std::to_string(number) + " " + problem);
  };
  const auto count = [&](std::size_t tokens_each, const char* what) {
    const long long n = in.integer(std::string(what) + " count");
    in.check_count(n, 2 * tokens_each, what);
    return n;
  };
  if (in.at_end()) in.fail("empty file");
  std::string_view key = in.token("MeshVersionFormatted");
  if (!same_word(key, "MeshVersionFormatted")) {
    in.fail("not a MEDIT mesh: expected MeshVersionFormatted, found " + quoted_for_message(key));
  }
  in.integer_in("MeshVersionFormatted", 1, 4);
  bool have_dimension = false, have_vertices = false, ended = false;
  while (!in.at_end()) {
    key = in.token("a keyword");
    if (same_word(key, "End")) {
      ended = true;
      break;
    }
    if (same_word(key, "Dimension")) {
      const long long d = in.integer("dimension");
      if (d != 3) in.fail("dimension " + std::to_string(d) + " is not supported (must be 3)");
      have_dimension = true;
    } else if (same_word(key, "Vertices")) {
      if (!have_dimension) in.fail("Vertices before Dimension");
      if (have_vertices) in.fail("second Vertices section");
      have_vertices = true;
      const long long n = count(4, "vertices");
      builder.reserve_nodes(static_cast<std::size_t>(n));
      for (long long i = 1; i <= n; ++i) {
        builder.add_node(i, in.point("vertex coordinate"));
        in.integer("reference");
      }
    } else if (same_word(key, "Edges") || same_word(key, "Triangles") || same_word(key, "Quadrilaterals") ||
               same_word(key, "Tetrahedra")) {
      if (!have_vertices) in.fail(escape_for_message(key) + " before Vertices");
      const bool quads = same_word(key, "Quadrilaterals");
      const int nodes = same_word(key, "Edges") ? 2 : same_word(key, "Tetrahedra") ? 4 : quads ? 4 : 3;
      const char* kind = nodes == 2   ? "edge"
                         : quads      ? "quadrilateral"
                         : nodes == 4 ? "tetrahedron"
                                      : "triangle";
      const char* kinds = nodes == 2   ? "edges"
                          : quads      ? "quadrilaterals"
                          : nodes == 4 ? "tetrahedra"
                                       : "triangles";
      const long long m = count(static_cast<std::size_t>(nodes + 1), kinds);
      for (long long e = 1; e <= m; ++e) {
        if (!quads) {
          cell(nodes, kind, e);
          continue;
        }
        long long q[4];
        for (long long& v : q) v = in.integer("node index");
        in.integer("reference");
        const long long a[3] = {q[0], q[1], q[2]}, b[3] = {q[0], q[2], q[3]};
        for (const long long* t : {a, b}) {
          const std::string problem = builder.add_element(t, 3, e);
          if (!problem.empty()) in.fail("quadrilateral " + std::to_string(e) + " " + problem);
        }
        builder.note_split("quadrilateral", "triangle", 2);
      }
    } else {
      bool known = false;
      for (const Unsupported& u : kUnsupported) {
        if (!same_word(key, u.keyword)) continue;
        known = true;
        const long long m = count(static_cast<std::size_t>(u.nodes + 1), u.keyword);
        for (long long e = 0; e < m * (u.nodes + 1); ++e) in.integer("node index");
        builder.skip_element(u.kind, static_cast<std::size_t>(m));
      }
      for (const Skipped& s : kSkipped) {
        if (!same_word(key, s.keyword)) continue;
        known = true;
        const long long m = count(static_cast<std::size_t>(s.integers + s.reals), s.keyword);
        for (long long e = 0; e < m; ++e) {
          for (int k = 0; k < s.integers; ++k) in.integer("index");
          for (int k = 0; k < s.reals; ++k) in.real("value");
        }
      }
      if (!known) in.fail("unknown MEDIT keyword " + quoted_for_message(key));
    }
  }
  if (!ended) in.fail("missing End");
  if (!in.at_end()) {
    in.token("");
    in.fail("text after End");
  }
  if (!have_vertices) in.fail("no Vertices section");
  return builder.finish();
}

}  // namespace detail

namespace {

template <class Cell>
void append_section(std::string& out, const char* keyword, const std::vector<Cell>& cells) {
  if (cells.empty()) return;
  out += keyword;
  out += '\n' + std::to_string(cells.size()) + '\n';
  for (const Cell& c : cells) {
    for (const Index v : c) out += std::to_string(v + 1) + ' ';
    out += "0\n";
  }
}

Status write_medit_file(const std::filesystem::path& path, const std::vector<Vec3>& positions,
                        const std::vector<Tri>& triangles, const std::vector<Tet>& tets) {
  if (auto s = detail::check_finite(path, positions); !s) return s;
  if (auto s = detail::check_cells(path, positions, triangles, "triangle"); !s) return s;
  if (auto s = detail::check_cells(path, positions, tets, "tetrahedron"); !s) return s;
  std::string out =
      "MeshVersionFormatted 2\n\nDimension 3\n\nVertices\n" + std::to_string(positions.size()) + '\n';
  out.reserve(out.size() + 64 * positions.size() + 32 * triangles.size() + 40 * tets.size());
  for (const Vec3& p : positions) {
    for (int k = 0; k < 3; ++k) {
      detail::append_shortest(out, p[k]);
      out += ' ';
    }
    out += "0\n";
  }
  append_section(out, "\nTriangles", triangles);
  append_section(out, "\nTetrahedra", tets);
  out += "\nEnd\n";
  return write_file_atomically(path, out);
}

}  // namespace

Status write_medit(const std::filesystem::path& path, const TetMesh& mesh,
                   const std::vector<Tri>& triangles) {
  return write_medit_file(path, mesh.positions, triangles, mesh.tets);
}

Status write_medit(const std::filesystem::path& path, const TriMesh& mesh) {
  return write_medit_file(path, mesh.positions, mesh.triangles, {});
}

}  // namespace pliant::io
