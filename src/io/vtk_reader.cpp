// VTK legacy (.vtk) reader for UNSTRUCTURED_GRID and POLYDATA datasets, ASCII and BINARY (big-endian),
// with both cell layouts: "CELLS n size" with counted id lists (file versions up to 4.2) and
// "CELLS n+1 m" followed by OFFSETS and CONNECTIVITY arrays (version 5.1); the same for the POLYGONS,
// TRIANGLE_STRIPS, VERTICES and LINES of polydata. Layout as in "VTK File Formats" (VTK User's Guide).
// Polygons and strips become triangles, hexahedra and other solids tetrahedra (cell_split.hpp).
#include "io/cell_split.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "io/vtk_cells.hpp"
#include "pliant/core/escape.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace pliant::io::detail {
namespace {

// Byte size of a legacy data type name, 0 when unknown; `real` says whether it is floating point.
std::size_t type_size(const std::string& type, bool& real) {
  real = false;
  if (type == "float") return real = true, 4;
  if (type == "double") return real = true, 8;
  if (type == "char" || type == "unsigned_char") return 1;
  if (type == "short" || type == "unsigned_short") return 2;
  if (type == "int" || type == "unsigned_int") return 4;
  if (type == "long" || type == "unsigned_long" || type == "vtktypeint64" || type == "vtktypeuint64")
    return 8;
  return 0;
}

struct Vtk {
  TextCursor in;
  bool binary = false;
  MeshBuilder builder;

  Vtk(std::string_view bytes, const std::string& name) : in(bytes, name), builder("VTK legacy") {}

  // Reads `count` values of `type` (already checked to fit); integers for ids, doubles for points.
  template <class T>
  void values(long long count, const std::string& type, std::vector<T>& out, std::string_view what) {
    bool real = false;
    const std::size_t size = type_size(type, real);
    if (size == 0) in.fail("unsupported data type '" + type + "'");
    out.resize(static_cast<std::size_t>(count));
    if (!binary) {
      for (auto& v : out) {
        if constexpr (std::is_floating_point_v<T>) {
          v = in.real(what);
        } else {
          v = in.integer(what);
        }
      }
      return;
    }
    if (!in.at_line_end()) in.fail("unexpected text before binary data");
    in.skip_line();
    ByteCursor b(in.text(), in.name(), in.offset(), true);
    b.check_count(static_cast<std::uint64_t>(count), size, what);
    for (auto& v : out) {
      double d = 0;
      long long i = 0;
      const bool sgn = type.rfind("unsigned", 0) != 0 && type != "vtktypeuint64";
      switch (size) {
        case 1:
          i = sgn ? static_cast<long long>(b.read<std::int8_t>(what)) : b.read<std::uint8_t>(what);
          break;
        case 2:
          i = sgn ? static_cast<long long>(b.read<std::int16_t>(what)) : b.read<std::uint16_t>(what);
          break;
        case 4:
          if (real)
            d = b.read<float>(what);
          else
            i = sgn ? static_cast<long long>(b.read<std::int32_t>(what)) : b.read<std::uint32_t>(what);
          break;
        default:
          if (real)
            d = b.read<double>(what);
          else
            i = sgn ? b.read<std::int64_t>(what) : static_cast<long long>(b.read<std::uint64_t>(what));
          break;
      }
      if constexpr (std::is_floating_point_v<T>) {
        v = real ? d : static_cast<double>(i);
        if (!std::isfinite(v)) b.fail(std::string(what) + " is NaN or infinite");
      } else {
        if (real) b.fail(std::string(what) + " must be integers, the file has " + type);
        v = i;
      }
    }
    in.seek(b.offset());
  }

  // Declared count against the bytes left: ASCII values take at least 2 bytes each.
  void check(long long count, const std::string& type, std::string_view what) {
    bool real = false;
    const std::size_t size = binary ? type_size(type, real) : 2;
    in.check_count(count, std::max<std::size_t>(size, 1), what);
  }

  // A cell list: counted lists ("POLYGONS n size", the classic layout) or, from file version 5.1,
  // "POLYGONS n+1 m" with OFFSETS and CONNECTIVITY arrays; both become offsets (cells + 1 entries)
  // into a flat connectivity.
  struct CellLists {
    std::vector<long long> offsets{0};
    std::vector<long long> connectivity;
    long long count() const { return static_cast<long long>(offsets.size()) - 1; }
  };

  CellLists cell_lists(const std::string& key) {
    CellLists out;
    const long long a = in.integer(key + " count");
    const long long b = in.integer(key + " list size");
    if (in.peek() == "OFFSETS") {
      in.token("OFFSETS");
      const std::string otype = ascii_lower(in.token("offset data type"));
      check(a, otype, "cell offsets");
      values(a, otype, out.offsets, "cell offset");
      in.expect("CONNECTIVITY");
      const std::string ctype = ascii_lower(in.token("connectivity data type"));
      check(b, ctype, "cell connectivity entries");
      values(b, ctype, out.connectivity, "cell connectivity");
      if (out.offsets.empty()) out.offsets.push_back(0);
      for (long long c = 0; c < out.count(); ++c) {
        const long long begin = out.offsets[c], end = out.offsets[c + 1];
        if (begin < 0 || end < begin || end > static_cast<long long>(out.connectivity.size())) {
          in.fail(key + " cell " + std::to_string(c) + " has bad offsets " + std::to_string(begin) + ".." +
                  std::to_string(end));
        }
      }
      return out;
    }
    check(b, "int", "cell list entries");
    if (a < 0) in.fail(key + " count " + std::to_string(a) + " is negative");
    if (a > b)
      in.fail("declares " + std::to_string(a) + " cells in a list of " + std::to_string(b) + " numbers");
    std::vector<long long> cells;
    values(b, "int", cells, "cell list entry");
    out.offsets.reserve(static_cast<std::size_t>(a) + 1);
    out.connectivity.reserve(cells.size() - static_cast<std::size_t>(a));
    std::size_t at = 0;
    for (long long c = 0; c < a; ++c) {
      if (at >= cells.size()) in.fail("cell list is shorter than its " + std::to_string(a) + " cells");
      const long long k = cells[at++];
      if (k < 0 || k > static_cast<long long>(cells.size() - at)) {
        in.fail("cell " + std::to_string(c) + " declares " + std::to_string(k) +
                " points, beyond the cell list");
      }
      out.connectivity.insert(out.connectivity.end(), cells.begin() + static_cast<std::ptrdiff_t>(at),
                              cells.begin() + static_cast<std::ptrdiff_t>(at + k));
      out.offsets.push_back(static_cast<long long>(out.connectivity.size()));
      at += static_cast<std::size_t>(k);
    }
    if (at != cells.size())
      in.fail("cell list has " + std::to_string(cells.size() - at) + " numbers after the last cell");
    return out;
  }

  MeshFile run() {
    const std::string_view magic = in.rest_of_line();
    if (magic.rfind("# vtk DataFile Version", 0) != 0)
      in.fail("not a VTK legacy file: expected '# vtk DataFile Version'");
    in.rest_of_line();  // title
    const std::string mode = ascii_lower(in.token("ASCII or BINARY"));
    if (mode == "binary") {
      binary = true;
    } else if (mode != "ascii") {
      in.fail("expected ASCII or BINARY, found " + quoted_for_message(mode));
    }
    in.expect("DATASET");
    const std::string dataset(in.token("dataset type"));
    const bool poly = dataset == "POLYDATA";
    if (dataset != "UNSTRUCTURED_GRID" && !poly) {
      in.fail("dataset " + escape_for_message(dataset, 30) +
              " is not supported (only UNSTRUCTURED_GRID and POLYDATA)");
    }
    builder.mesh().format =
        std::string("VTK legacy ") + (poly ? "polydata " : "") + (binary ? "binary" : "ASCII");
    std::vector<double> coords;
    std::vector<long long> types;
    CellLists cells;
    std::vector<std::pair<std::string, CellLists>> poly_cells;
    bool have_points = false, have_cells = false, have_types = false;
    std::size_t cells_line = 0;
    while (!in.at_end()) {
      const std::string key(in.token("keyword"));
      if (key == "POINTS") {
        const long long n = in.integer("point count");
        const std::string type = ascii_lower(in.token("point data type"));
        if (n < 0 || n > std::numeric_limits<Index>::max() / 3)
          in.fail("bad point count " + std::to_string(n));
        check(3 * n, type, "point coordinates");
        values(3 * n, type, coords, "point coordinate");
        have_points = true;
      } else if (key == "METADATA") {
        // Optional block (VTK 8+): runs to the next empty line.
        in.skip_line();
        while (in.remaining() > 0 && !in.rest_of_line().empty()) {
        }
      } else if (key == "CELLS" && !poly) {
        cells_line = in.line();
        cells = cell_lists("CELLS");
        have_cells = true;
      } else if (key == "CELL_TYPES" && !poly) {
        const long long n = in.integer("cell type count");
        check(n, "int", "cell types");
        values(n, "int", types, "cell type");
        have_types = true;
      } else if (poly &&
                 (key == "POLYGONS" || key == "TRIANGLE_STRIPS" || key == "VERTICES" || key == "LINES")) {
        const std::size_t line = in.line();
        poly_cells.emplace_back(key + ":" + std::to_string(line), cell_lists(key));
      } else if (key == "POINT_DATA" || key == "CELL_DATA" || key == "FIELD") {
        break;  // attributes are not read
      } else {
        in.fail("unexpected keyword " + quoted_for_message(key) + " in a " + escape_for_message(dataset) +
                " dataset");
      }
    }
    if (!have_points) in.fail("no POINTS section");
    const long long n = static_cast<long long>(coords.size() / 3);
    builder.reserve_nodes(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i)
      builder.add_node(i, Vec3(coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]));
    if (poly) {
      for (const auto& [tagged, lists] : poly_cells) {
        const std::string key = tagged.substr(0, tagged.find(':'));
        const std::string line = tagged.substr(tagged.find(':') + 1);
        if (key == "VERTICES" || key == "LINES") {
          if (lists.count() > 0)
            builder.skip_element(key == "VERTICES" ? "vertex cell" : "line cell",
                                 static_cast<std::size_t>(lists.count()));
          continue;
        }
        const CellShape shape = key == "POLYGONS" ? CellShape::polygon : CellShape::triangle_strip;
        for (long long c = 0; c < lists.count(); ++c) {
          const long long begin = lists.offsets[c];
          const std::string problem =
              add_cell(builder, shape, lists.connectivity.data() + begin, lists.offsets[c + 1] - begin);
          if (!problem.empty()) {
            throw_failure(in.name() + ":" + line + ": " + key + " cell " + std::to_string(c) + " (" +
                          shape_name(shape) + ") " + problem);
          }
        }
      }
      return builder.finish();
    }
    if (!have_cells) return builder.finish();
    if (!have_types) in.fail("CELLS without CELL_TYPES");
    if (static_cast<long long>(types.size()) != cells.count()) {
      in.fail("CELL_TYPES has " + std::to_string(types.size()) + " entries for " +
              std::to_string(cells.count()) + " cells");
    }
    auto fail = [&](const std::string& m) {
      throw_failure(in.name() + ":" + std::to_string(cells_line) + ": " + m);
    };
    for (long long c = 0; c < cells.count(); ++c) {
      const long long begin = cells.offsets[c];
      add_vtk_cell(builder, types[c], cells.connectivity.data() + begin, cells.offsets[c + 1] - begin, c,
                   fail);
    }
    return builder.finish();
  }
};

}  // namespace

MeshFile read_vtk(std::string_view bytes, const std::string& name) {
  // Some tools name VTK XML files .vtk: markup at the start means XML, whose type attribute decides.
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos &&
      (bytes[first] == '<' || bytes.compare(first, 3, "\xEF\xBB\xBF") == 0))
    return read_vtk_xml(bytes, name);
  Vtk vtk(bytes, name);
  return vtk.run();
}

}  // namespace pliant::io::detail
