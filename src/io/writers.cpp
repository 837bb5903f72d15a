// Writers: VTU (base64 inline binary), PVD, OBJ, STL. All go through write_file_atomically.
#include "io/base64.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/pvd.hpp"
#include "pliant/io/surface_writers.hpp"
#include "pliant/io/vtu.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::io {
namespace {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);
constexpr const char* kByteOrder = std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";

// Shortest decimal that reads back to the same double.
void append_number(std::string& out, double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Text that is safe inside an XML attribute (names and file paths given by users).
std::string xml_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// One inline binary DataArray body: base64(UInt64 byte count) followed by base64(bytes), the two
// encoded separately as VTK itself writes them.
template <class T>
void append_binary(std::string& out, const T* data, std::size_t count) {
  const std::uint64_t bytes = count * sizeof(T);
  detail::base64_encode(std::string_view(reinterpret_cast<const char*>(&bytes), sizeof bytes), out);
  detail::base64_encode(std::string_view(reinterpret_cast<const char*>(data), bytes), out);
}

template <class T>
void append_array(std::string& out, const char* type, const std::string& name, int components, const T* data,
                  std::size_t count) {
  out += "        <DataArray type=\"";
  out += type;
  out += '"';
  if (!name.empty()) out += " Name=\"" + xml_escape(name) + "\"";
  if (components > 0) out += " NumberOfComponents=\"" + std::to_string(components) + "\"";
  out += " format=\"binary\">\n          ";
  append_binary(out, data, count);
  out += "\n        </DataArray>\n";
}

Status check_fields(const std::filesystem::path& path, const std::vector<Field>& fields, std::size_t count,
                    const char* where) {
  for (const Field& f : fields) {
    if (f.name.empty()) return Error{path.string() + ": " + where + " field without a name"};
    if (f.components < 1) {
      return Error{path.string() + ": " + where + " field '" + f.name + "' has " +
                   std::to_string(f.components) + " components"};
    }
    const std::size_t expected = count * static_cast<std::size_t>(f.components);
    if (f.values.size() != expected) {
      return Error{path.string() + ": " + where + " field '" + f.name + "' has " +
                   std::to_string(f.values.size()) + " values, expected " + std::to_string(count) + " × " +
                   std::to_string(f.components) + " = " + std::to_string(expected)};
    }
  }
  return {};
}

void append_fields(std::string& out, const char* section, const std::vector<Field>& fields) {
  if (fields.empty()) return;
  out += "      <";
  out += section;
  for (const Field& f : fields) {
    if (f.components == 1) {
      out += " Scalars=\"" + xml_escape(f.name) + "\"";
      break;
    }
  }
  for (const Field& f : fields) {
    if (f.components == 3) {
      out += " Vectors=\"" + xml_escape(f.name) + "\"";
      break;
    }
  }
  out += ">\n";
  for (const Field& f : fields)
    append_array(out, "Float64", f.name, f.components, f.values.data(), f.values.size());
  out += "      </";
  out += section;
  out += ">\n";
}

template <std::size_t N>
Status write_grid(const std::filesystem::path& path, const std::vector<Vec3>& positions,
                  const std::vector<std::array<Index, N>>& cells, std::uint8_t vtk_type,
                  const std::vector<Field>& point_data, const std::vector<Field>& cell_data) {
  if (auto s = check_fields(path, point_data, positions.size(), "point"); !s) return s;
  if (auto s = check_fields(path, cell_data, cells.size(), "cell"); !s) return s;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    for (const Index v : cells[c]) {
      if (v < 0 || static_cast<std::size_t>(v) >= positions.size()) {
        return Error{path.string() + ": cannot write: cell " + std::to_string(c) + " references node " +
                     std::to_string(v) + ", but there are " + std::to_string(positions.size()) + " nodes"};
      }
    }
  }
  std::string out;
  out.reserve(64 * positions.size() + 64 * cells.size() + 1024);
  out += "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"";
  out += kByteOrder;
  out += "\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n    <Piece NumberOfPoints=\"" +
         std::to_string(positions.size()) + "\" NumberOfCells=\"" + std::to_string(cells.size()) + "\">\n";
  append_fields(out, "PointData", point_data);
  append_fields(out, "CellData", cell_data);
  out += "      <Points>\n";
  append_array(out, "Float64", "", 3, positions.empty() ? nullptr : positions.front().data(),
               3 * positions.size());
  out += "      </Points>\n      <Cells>\n";
  std::vector<std::int64_t> conn;
  conn.reserve(N * cells.size());
  std::vector<std::int64_t> offsets(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    for (const Index v : cells[c]) conn.push_back(v);
    offsets[c] = static_cast<std::int64_t>(N * (c + 1));
  }
  const std::vector<std::uint8_t> types(cells.size(), vtk_type);
  append_array(out, "Int64", "connectivity", 0, conn.data(), conn.size());
  append_array(out, "Int64", "offsets", 0, offsets.data(), offsets.size());
  append_array(out, "UInt8", "types", 0, types.data(), types.size());
  out += "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  return write_file_atomically(path, out);
}

Vec3 triangle_normal(const TriMesh& mesh, const Tri& t) {
  const Vec3 n =
      (mesh.positions[t[1]] - mesh.positions[t[0]]).cross(mesh.positions[t[2]] - mesh.positions[t[0]]);
  const double len = n.norm();
  return len > 0 && std::isfinite(len) ? Vec3(n / len) : Vec3::Zero();
}

Status check_triangles(const std::filesystem::path& path, const TriMesh& mesh) {
  for (std::size_t c = 0; c < mesh.triangles.size(); ++c) {
    for (const Index v : mesh.triangles[c]) {
      if (v < 0 || static_cast<std::size_t>(v) >= mesh.positions.size()) {
        return Error{path.string() + ": cannot write: triangle " + std::to_string(c) + " references node " +
                     std::to_string(v) + ", but there are " + std::to_string(mesh.positions.size()) +
                     " nodes"};
      }
    }
  }
  return {};
}

}  // namespace

Status write_vtu(const std::filesystem::path& path, const TetMesh& mesh, const std::vector<Field>& point_data,
                 const std::vector<Field>& cell_data) {
  return write_grid(path, mesh.positions, mesh.tets, 10, point_data, cell_data);
}

Status write_vtu(const std::filesystem::path& path, const TriMesh& mesh, const std::vector<Field>& point_data,
                 const std::vector<Field>& cell_data) {
  return write_grid(path, mesh.positions, mesh.triangles, 5, point_data, cell_data);
}

Status write_vtu(const std::filesystem::path& path, const PointSet& points,
                 const std::vector<Field>& point_data) {
  std::vector<std::array<Index, 1>> cells(points.size());
  for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = {static_cast<Index>(i)};
  return write_grid(path, points.positions, cells, 1, point_data, {});
}

Status write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries) {
  std::string out = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"";
  out += kByteOrder;
  out += "\">\n  <Collection>\n";
  for (const PvdEntry& e : entries) {
    if (!std::isfinite(e.time))
      return Error{path.string() + ": cannot write: frame " + e.file + " has a non-finite time"};
    out += "    <DataSet timestep=\"";
    append_number(out, e.time);
    out += "\" group=\"\" part=\"0\" file=\"" + xml_escape(e.file) + "\"/>\n";
  }
  out += "  </Collection>\n</VTKFile>\n";
  return write_file_atomically(path, out);
}

Status write_obj(const std::filesystem::path& path, const TriMesh& mesh) {
  if (auto s = check_triangles(path, mesh); !s) return s;
  std::string out = "# written by Pliant\n";
  out.reserve(out.size() + 60 * mesh.positions.size() + 30 * mesh.triangles.size());
  for (const Vec3& p : mesh.positions) {
    out += 'v';
    for (int k = 0; k < 3; ++k) {
      out += ' ';
      append_number(out, p[k]);
    }
    out += '\n';
  }
  for (const Tri& t : mesh.triangles) {
    out += "f " + std::to_string(t[0] + 1) + ' ' + std::to_string(t[1] + 1) + ' ' + std::to_string(t[2] + 1) +
           '\n';
  }
  return write_file_atomically(path, out);
}

Status write_stl(const std::filesystem::path& path, const TriMesh& mesh, StlEncoding encoding) {
  if (auto s = check_triangles(path, mesh); !s) return s;
  std::string out;
  if (encoding == StlEncoding::ascii) {
    out = "solid pliant\n";
    for (const Tri& t : mesh.triangles) {
      const Vec3 n = triangle_normal(mesh, t);
      out += "  facet normal";
      for (int k = 0; k < 3; ++k) {
        out += ' ';
        append_number(out, n[k]);
      }
      out += "\n    outer loop\n";
      for (const Index v : t) {
        out += "      vertex";
        for (int k = 0; k < 3; ++k) {
          out += ' ';
          append_number(out, mesh.positions[v][k]);
        }
        out += '\n';
      }
      out += "    endloop\n  endfacet\n";
    }
    out += "endsolid pliant\n";
    return write_file_atomically(path, out);
  }
  if (mesh.triangles.size() > 0xffffffffu)
    return Error{path.string() + ": cannot write: too many triangles for STL"};
  static_assert(std::endian::native == std::endian::little, "binary STL writer assumes a little-endian host");
  out.assign(80, ' ');
  constexpr std::string_view header = "Pliant binary STL";
  out.replace(0, header.size(), header);
  const auto count = static_cast<std::uint32_t>(mesh.triangles.size());
  out.append(reinterpret_cast<const char*>(&count), 4);
  out.reserve(84 + 50 * mesh.triangles.size());
  for (const Tri& t : mesh.triangles) {
    float rec[12];
    const Vec3 n = triangle_normal(mesh, t);
    for (int k = 0; k < 3; ++k) rec[k] = static_cast<float>(n[k]);
    for (int c = 0; c < 3; ++c) {
      for (int k = 0; k < 3; ++k) rec[3 + 3 * c + k] = static_cast<float>(mesh.positions[t[c]][k]);
    }
    out.append(reinterpret_cast<const char*>(rec), sizeof rec);
    out.append(2, '\0');
  }
  return write_file_atomically(path, out);
}

}  // namespace pliant::io
