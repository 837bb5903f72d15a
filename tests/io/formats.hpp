// Test-side encoders: the same small mesh written in every variant of every format the readers
// accept, written here independently of the library's writers so a reader is checked against the
// format's documentation rather than against our own writer.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/io/mesh_file.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace pliant::io::testing {

struct Sample {
  std::vector<Vec3> positions;
  std::vector<Tet> tets;
  std::vector<Tri> triangles;
};

/// A unit cube cut into 5 tetrahedra (positively oriented), with two boundary triangles, and
/// coordinates that are not round in decimal so that precision loss shows.
inline Sample cube_sample() {
  Sample s;
  for (int i = 0; i < 8; ++i) {
    s.positions.emplace_back((i & 1) * 1.1 + 0.1 / 3, ((i >> 1) & 1) * 0.7, ((i >> 2) & 1) * 2.0 - 1e-7);
  }
  s.tets = {{0, 1, 2, 4}, {1, 3, 2, 7}, {1, 4, 5, 7}, {2, 4, 7, 6}, {1, 2, 4, 7}};
  s.triangles = {{0, 2, 1}, {1, 2, 3}};
  return s;
}

inline std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <class T>
void put(std::string& out, T v, bool big_endian = false) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  if (big_endian) {
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  out.append(b, sizeof(T));
}

// ---- Gmsh ----
inline std::string msh22(const Sample& s, bool binary, int id_offset = 1) {
  std::string o = "$MeshFormat\n2.2 " + std::string(binary ? "1" : "0") + " 8\n";
  if (binary) {
    put<std::int32_t>(o, 1);
    o += "\n";
  }
  o += "$EndMeshFormat\n$Nodes\n" + std::to_string(s.positions.size()) + "\n";
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    const int id = static_cast<int>(i) + id_offset;
    if (binary) {
      put<std::int32_t>(o, id);
      for (int k = 0; k < 3; ++k) put<double>(o, s.positions[i][k]);
    } else {
      o += std::to_string(id) + " " + num(s.positions[i][0]) + " " + num(s.positions[i][1]) + " " +
           num(s.positions[i][2]) + "\n";
    }
  }
  if (binary) o += "\n";
  o += "$EndNodes\n$Elements\n" + std::to_string(s.tets.size() + s.triangles.size() + 1) + "\n";
  int id = 1;
  if (binary) {
    // a point element (ignored), then a block of triangles, then a block of tets, 2 tags each
    put<std::int32_t>(o, 15), put<std::int32_t>(o, 1), put<std::int32_t>(o, 2);
    put<std::int32_t>(o, id++), put<std::int32_t>(o, 0), put<std::int32_t>(o, 0),
        put<std::int32_t>(o, id_offset);
    put<std::int32_t>(o, 2), put<std::int32_t>(o, static_cast<int>(s.triangles.size())),
        put<std::int32_t>(o, 2);
    for (const Tri& t : s.triangles) {
      put<std::int32_t>(o, id++), put<std::int32_t>(o, 1), put<std::int32_t>(o, 1);
      for (Index v : t) put<std::int32_t>(o, v + id_offset);
    }
    put<std::int32_t>(o, 4), put<std::int32_t>(o, static_cast<int>(s.tets.size())), put<std::int32_t>(o, 2);
    for (const Tet& t : s.tets) {
      put<std::int32_t>(o, id++), put<std::int32_t>(o, 1), put<std::int32_t>(o, 1);
      for (Index v : t) put<std::int32_t>(o, v + id_offset);
    }
    o += "\n";
  } else {
    o += std::to_string(id++) + " 15 2 0 0 " + std::to_string(id_offset) + "\n";
    for (const Tri& t : s.triangles) {
      o += std::to_string(id++) + " 2 2 1 1";
      for (Index v : t) o += " " + std::to_string(v + id_offset);
      o += "\n";
    }
    for (const Tet& t : s.tets) {
      o += std::to_string(id++) + " 4 2 1 1";
      for (Index v : t) o += " " + std::to_string(v + id_offset);
      o += "\n";
    }
  }
  o += "$EndElements\n";
  return o;
}

inline std::string msh41(const Sample& s, bool binary) {
  std::string o = "$MeshFormat\n4.1 " + std::string(binary ? "1" : "0") + " 8\n";
  if (binary) {
    put<std::int32_t>(o, 1);
    o += "\n";
  }
  o += "$EndMeshFormat\n$Entities\n0 0 0 1\n1 0 0 0 1 1 1 0 0\n$EndEntities\n$Nodes\n";
  // Two node blocks (the first with parametric coordinates on a curve) to test block handling.
  const std::size_t n = s.positions.size(), half = n / 2;
  if (binary) {
    for (std::uint64_t v : {std::uint64_t{2}, std::uint64_t{n}, std::uint64_t{1}, std::uint64_t{n}})
      put(o, v);
    for (int b = 0; b < 2; ++b) {
      const std::size_t lo = b == 0 ? 0 : half, hi = b == 0 ? half : n;
      put<std::int32_t>(o, b == 0 ? 1 : 3), put<std::int32_t>(o, 1), put<std::int32_t>(o, b == 0 ? 1 : 0);
      put<std::uint64_t>(o, hi - lo);
      for (std::size_t i = lo; i < hi; ++i) put<std::uint64_t>(o, i + 1);
      for (std::size_t i = lo; i < hi; ++i) {
        for (int k = 0; k < 3; ++k) put<double>(o, s.positions[i][k]);
        if (b == 0) put<double>(o, 0.5);
      }
    }
    o += "\n$EndNodes\n$Elements\n";
    const std::uint64_t m = s.tets.size() + s.triangles.size();
    for (std::uint64_t v : {std::uint64_t{2}, m, std::uint64_t{1}, m}) put(o, v);
    std::uint64_t id = 1;
    put<std::int32_t>(o, 2), put<std::int32_t>(o, 1), put<std::int32_t>(o, 2),
        put<std::uint64_t>(o, s.triangles.size());
    for (const Tri& t : s.triangles) {
      put<std::uint64_t>(o, id++);
      for (Index v : t) put<std::uint64_t>(o, v + 1);
    }
    put<std::int32_t>(o, 3), put<std::int32_t>(o, 1), put<std::int32_t>(o, 4),
        put<std::uint64_t>(o, s.tets.size());
    for (const Tet& t : s.tets) {
      put<std::uint64_t>(o, id++);
      for (Index v : t) put<std::uint64_t>(o, v + 1);
    }
    o += "\n$EndElements\n";
    return o;
  }
  o += "2 " + std::to_string(n) + " 1 " + std::to_string(n) + "\n";
  for (int b = 0; b < 2; ++b) {
    const std::size_t lo = b == 0 ? 0 : half, hi = b == 0 ? half : n;
    o += std::string(b == 0 ? "1 1 1 " : "3 1 0 ") + std::to_string(hi - lo) + "\n";
    for (std::size_t i = lo; i < hi; ++i) o += std::to_string(i + 1) + "\n";
    for (std::size_t i = lo; i < hi; ++i) {
      o += num(s.positions[i][0]) + " " + num(s.positions[i][1]) + " " + num(s.positions[i][2]);
      o += b == 0 ? " 0.5\n" : "\n";
    }
  }
  const std::size_t m = s.tets.size() + s.triangles.size();
  o += "$EndNodes\n$Elements\n2 " + std::to_string(m) + " 1 " + std::to_string(m) + "\n";
  int id = 1;
  o += "2 1 2 " + std::to_string(s.triangles.size()) + "\n";
  for (const Tri& t : s.triangles) {
    o += std::to_string(id++);
    for (Index v : t) o += " " + std::to_string(v + 1);
    o += "\n";
  }
  o += "3 1 4 " + std::to_string(s.tets.size()) + "\n";
  for (const Tet& t : s.tets) {
    o += std::to_string(id++);
    for (Index v : t) o += " " + std::to_string(v + 1);
    o += "\n";
  }
  o += "$EndElements\n";
  return o;
}

// ---- TetGen ----
inline std::string tetgen_node(const Sample& s, int base) {
  std::string o = "# node file\n" + std::to_string(s.positions.size()) + " 3 1 1\n";
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    o += std::to_string(i + base) + "  " + num(s.positions[i][0]) + " " + num(s.positions[i][1]) + " " +
         num(s.positions[i][2]) + " 7.5 1  # attribute, marker\n";
  }
  return o;
}
inline std::string tetgen_ele(const Sample& s, int base) {
  std::string o = std::to_string(s.tets.size()) + " 4 1\n";
  for (std::size_t i = 0; i < s.tets.size(); ++i) {
    o += std::to_string(i + base);
    for (Index v : s.tets[i]) o += " " + std::to_string(v + base);
    o += " 2\n";
  }
  return o;
}

// ---- VTK legacy ----
inline std::string vtk_legacy(const Sample& s, bool binary, bool v5) {
  std::string o = std::string("# vtk DataFile Version ") + (v5 ? "5.1" : "3.0") + "\ntest\n" +
                  (binary ? "BINARY" : "ASCII") + "\nDATASET UNSTRUCTURED_GRID\nPOINTS " +
                  std::to_string(s.positions.size()) + " double\n";
  for (const Vec3& p : s.positions) {
    for (int k = 0; k < 3; ++k) binary ? put<double>(o, p[k], true) : void(o += num(p[k]) + " ");
    if (!binary) o += "\n";
  }
  if (binary) o += "\n";
  std::vector<std::vector<Index>> cells;
  std::vector<int> types;
  for (const Tri& t : s.triangles) cells.push_back({t[0], t[1], t[2]}), types.push_back(5);
  for (const Tet& t : s.tets) cells.push_back({t[0], t[1], t[2], t[3]}), types.push_back(10);
  cells.push_back({0, 7}), types.push_back(3);
  cells.push_back({0, 1, 3, 2, 4, 5, 7, 6}), types.push_back(12);  // a hexahedron: skipped
  cells.push_back({5}), types.push_back(1);                        // a vertex: ignored
  std::size_t total = 0;
  for (const auto& c : cells) total += c.size();
  if (v5) {
    o += "CELLS " + std::to_string(cells.size() + 1) + " " + std::to_string(total) +
         "\nOFFSETS vtktypeint64\n";
    std::int64_t off = 0;
    binary ? put<std::int64_t>(o, 0, true) : void(o += "0 ");
    for (const auto& c : cells) {
      off += static_cast<std::int64_t>(c.size());
      binary ? put<std::int64_t>(o, off, true) : void(o += std::to_string(off) + " ");
    }
    o += "\nCONNECTIVITY vtktypeint64\n";
    for (const auto& c : cells) {
      for (Index v : c) binary ? put<std::int64_t>(o, v, true) : void(o += std::to_string(v) + " ");
    }
  } else {
    o += "CELLS " + std::to_string(cells.size()) + " " + std::to_string(total + cells.size()) + "\n";
    for (const auto& c : cells) {
      binary ? put<std::int32_t>(o, static_cast<int>(c.size()), true) : void(o += std::to_string(c.size()));
      for (Index v : c) binary ? put<std::int32_t>(o, v, true) : void(o += " " + std::to_string(v));
      if (!binary) o += "\n";
    }
  }
  o += "\nCELL_TYPES " + std::to_string(cells.size()) + "\n";
  for (int t : types) binary ? put<std::int32_t>(o, t, true) : void(o += std::to_string(t) + "\n");
  o += "\nCELL_DATA " + std::to_string(cells.size()) + "\nSCALARS id int 1\nLOOKUP_TABLE default\n";
  return o;
}

// ---- VTU ----
enum class VtuMode { ascii, inline_separate, inline_joint, appended_raw, appended_base64 };

inline std::string b64(const std::string& bytes) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string o;
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = std::uint32_t(std::uint8_t(bytes[i])) << 16 |
                            std::uint32_t(std::uint8_t(bytes[i + 1])) << 8 | std::uint8_t(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) o += a[(v >> (6 * k)) & 63];
  }
  if (bytes.size() - i == 1) {
    const std::uint32_t v = std::uint32_t(std::uint8_t(bytes[i])) << 16;
    o += a[v >> 18], o += a[(v >> 12) & 63], o += "==";
  } else if (bytes.size() - i == 2) {
    const std::uint32_t v =
        std::uint32_t(std::uint8_t(bytes[i])) << 16 | std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
    o += a[v >> 18], o += a[(v >> 12) & 63], o += a[(v >> 6) & 63], o += "=";
  }
  return o;
}

inline std::string vtu(const Sample& s, VtuMode mode, bool header64, bool float32 = false) {
  std::vector<std::int32_t> conn, offs;
  std::vector<std::uint8_t> types;
  for (const Tet& t : s.tets) {
    for (Index v : t) conn.push_back(v);
    offs.push_back(static_cast<std::int32_t>(conn.size())), types.push_back(10);
  }
  for (const Tri& t : s.triangles) {
    for (Index v : t) conn.push_back(v);
    offs.push_back(static_cast<std::int32_t>(conn.size())), types.push_back(5);
  }
  std::string pts;
  for (const Vec3& p : s.positions) {
    for (int k = 0; k < 3; ++k) float32 ? put<float>(pts, static_cast<float>(p[k])) : put<double>(pts, p[k]);
  }
  const auto raw = [](const auto& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
  };
  const std::string arrays[4] = {pts, raw(conn), raw(offs), raw(types)};
  const char* type_names[4] = {float32 ? "Float32" : "Float64", "Int32", "Int32", "UInt8"};
  const char* names[4] = {"", "connectivity", "offsets", "types"};
  const auto header = [&](std::size_t n) {
    std::string h;
    header64 ? put<std::uint64_t>(h, n) : put<std::uint32_t>(h, static_cast<std::uint32_t>(n));
    return h;
  };
  std::string appended;
  std::string o =
      "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
      "byte_order=\"LittleEndian\" header_type=\"" +
      std::string(header64 ? "UInt64" : "UInt32") + "\">\n<UnstructuredGrid>\n<Piece NumberOfPoints=\"" +
      std::to_string(s.positions.size()) + "\" NumberOfCells=\"" + std::to_string(types.size()) +
      "\">\n<PointData>\n"
      "<DataArray type=\"Float64\" Name=\"ignored\" format=\"ascii\">1 2 3</DataArray>\n</PointData>\n";
  for (int a = 0; a < 4; ++a) {
    if (a == 0) o += "<Points>\n";
    if (a == 1) o += "<Cells>\n";
    o += "<DataArray type=\"" + std::string(type_names[a]) + "\"";
    if (a == 0) o += " NumberOfComponents=\"3\"";
    if (*names[a]) o += " Name=\"" + std::string(names[a]) + "\"";
    switch (mode) {
      case VtuMode::ascii: {
        o += " format=\"ascii\">\n";
        if (a == 0) {
          for (const Vec3& p : s.positions) {
            for (int k = 0; k < 3; ++k)
              o += num(float32 ? static_cast<double>(static_cast<float>(p[k])) : p[k]) + " ";
          }
        } else {
          const auto emit = [&](const auto& v) {
            for (auto x : v) o += std::to_string(static_cast<long long>(x)) + " ";
          };
          a == 1 ? emit(conn) : a == 2 ? emit(offs) : emit(types);
        }
        o += "\n</DataArray>\n";
        break;
      }
      case VtuMode::inline_separate:
        o += " format=\"binary\">\n  " + b64(header(arrays[a].size())) + b64(arrays[a]) + "\n</DataArray>\n";
        break;
      case VtuMode::inline_joint:
        o += " format=\"binary\">" + b64(header(arrays[a].size()) + arrays[a]) + "</DataArray>\n";
        break;
      case VtuMode::appended_raw:
        o += " format=\"appended\" offset=\"" + std::to_string(appended.size()) + "\"/>\n";
        appended += header(arrays[a].size()) + arrays[a];
        break;
      case VtuMode::appended_base64:
        o += " format=\"appended\" offset=\"" + std::to_string(appended.size()) + "\"/>\n";
        appended += b64(header(arrays[a].size())) + b64(arrays[a]);
        break;
    }
    if (a == 0) o += "</Points>\n";
  }
  o += "</Cells>\n</Piece>\n</UnstructuredGrid>\n";
  if (mode == VtuMode::appended_raw || mode == VtuMode::appended_base64) {
    o += "<AppendedData encoding=\"" + std::string(mode == VtuMode::appended_raw ? "raw" : "base64") +
         "\">\n_" + appended + "\n</AppendedData>\n";
  }
  o += "</VTKFile>\n";
  return o;
}

/// Parses `bytes` as a file of extension `ext`, expecting success (a test failure otherwise).
inline MeshFile parse_ok(const std::string& bytes, const std::string& ext) {
  auto r = parse_mesh(bytes, "test" + ext, ext);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? std::move(r).value() : MeshFile{};
}

/// Parses `bytes` as a file of extension `ext`, expecting a one-line error; returns the message.
inline std::string parse_error(const std::string& bytes, const std::string& ext) {
  auto r = parse_mesh(bytes, "test" + ext, ext);
  EXPECT_FALSE(r.ok()) << "accepted: " << bytes.substr(0, 200);
  if (r.ok()) return "";
  EXPECT_EQ(r.message().find('\n'), std::string::npos) << "message must be one line: " << r.message();
  EXPECT_EQ(r.message().find('\r'), std::string::npos) << "message must be one line: " << r.message();
  return r.message();
}

}  // namespace pliant::io::testing
