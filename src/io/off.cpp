// OFF reader and writer (Object File Format of Geomview; the surface format of the Princeton Shape
// Benchmark, Shilane et al. 2004).
//
// "[ST][C][N]OFF" header (the letters announce texture coordinates, colours and normals after each
// vertex's x y z), then "vertices faces edges" (possibly on the header line), vertex lines and face
// lines "k v0 ... v(k-1) [colour]" with 0-based indices. Whatever follows a vertex's x y z or a face's
// indices on its line (colours, normals, texture coordinates) must be numbers and is ignored.
// Polygons are triangulated; '#' starts a comment. 4OFF, nOFF and binary OFF are rejected.
#include "io/cell_split.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "io/write_util.hpp"
#include "pliant/core/escape.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/surface_writers.hpp"

#include <string>
#include <vector>

namespace pliant::io {
namespace detail {

MeshFile read_off(std::string_view bytes, const std::string& name) {
  TextCursor in(bytes, name, '#');
  if (in.at_end()) in.fail("empty file");
  const std::string_view header = in.token("OFF");
  const bool off = header.size() >= 3 && header.substr(header.size() - 3) == "OFF";
  const std::string_view prefix = off ? header.substr(0, header.size() - 3) : header;
  if (!off || prefix.find_first_not_of("STCN") != std::string_view::npos) {
    if (prefix.find_first_of("4n") != std::string_view::npos && off) {
      in.fail("OFF variant " + quoted_for_message(header) + " is not supported (only 3D: [ST][C][N]OFF)");
    }
    in.fail("not an OFF file: expected OFF, COFF, NOFF, ... found " + quoted_for_message(header));
  }
  if (!in.at_line_end() && in.peek() == "BINARY") in.fail("binary OFF is not supported");
  const long long nv = in.integer("vertex count");
  const long long nf = in.integer("face count");
  in.integer("edge count");
  in.check_count(nv, 6, "vertices");
  in.check_count(nf, 8, "faces");
  MeshBuilder builder("OFF");
  builder.reserve_nodes(static_cast<std::size_t>(nv));
  const auto rest_of_line = [&](const char* what) {
    while (!in.at_line_end()) in.real(what);
  };
  for (long long i = 0; i < nv; ++i) {
    builder.add_node(i, in.point("vertex coordinate"));
    rest_of_line("vertex attribute (colour, normal or texture coordinate)");
  }
  std::vector<Index> poly;
  for (long long f = 0; f < nf; ++f) {
    const long long k = in.integer("face vertex count");
    if (k < 3)
      in.fail("face " + std::to_string(f) + " has " + std::to_string(k) +
              " vertices (at least 3 are needed)");
    in.check_count(k, 2, "face vertices");
    poly.clear();
    for (long long j = 0; j < k; ++j) {
      const long long v = in.integer("vertex index");
      if (v < 0 || v >= nv) {
        in.fail("face " + std::to_string(f) + " references vertex " + std::to_string(v) + ", but there are " +
                std::to_string(nv) + " vertices (numbered from 0)");
      }
      poly.push_back(static_cast<Index>(v));
    }
    rest_of_line("face colour");
    if (const std::string problem = add_polygon(builder, poly, f); !problem.empty())
      in.fail("face " + std::to_string(f) + " " + problem);
  }
  if (!in.at_end()) {
    in.token("");
    in.fail("more data than the declared " + std::to_string(nv) + " vertices and " + std::to_string(nf) +
            " faces");
  }
  return builder.finish();
}

}  // namespace detail

Status write_off(const std::filesystem::path& path, const TriMesh& mesh) {
  if (auto s = detail::check_finite(path, mesh.positions); !s) return s;
  if (auto s = detail::check_cells(path, mesh.positions, mesh.triangles, "triangle"); !s) return s;
  std::string out = "OFF\n# written by Pliant\n" + std::to_string(mesh.positions.size()) + ' ' +
                    std::to_string(mesh.triangles.size()) + " 0\n";
  out.reserve(out.size() + 60 * mesh.positions.size() + 24 * mesh.triangles.size());
  detail::append_ascii_nodes_and_triangles(out, mesh.positions, mesh.triangles);
  return write_file_atomically(path, out);
}

}  // namespace pliant::io
