// The VTK family beyond the basics: VTK XML PolyData, zlib-compressed data arrays (written here with
// zlib itself, in several blocks), legacy POLYDATA, XML sniffed inside .vtk, and the defences of
// each; plus the ASCII STL variants exporters write.
#include "formats.hpp"
#include "pliant/io/mesh_file.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pliant::io {
namespace {

using testing::b64;
using testing::cube_sample;
using testing::num;
using testing::put;
using testing::Sample;

using testing::parse_error;
using testing::parse_ok;

// ---- a VTK XML writer with every encoding, written from the format description ----

enum class Enc { ascii, inline_b64, appended_raw, appended_b64 };

struct Array {
  std::string name, type;
  int components = 1;
  std::string bytes;              // little-endian values
  std::vector<std::string> text;  // the same values in decimal
};

template <class T>
Array make_array(const std::string& name, const std::string& type, const std::vector<T>& values,
                 int components = 1) {
  Array a{name, type, components, {}, {}};
  for (T v : values) {
    put<T>(a.bytes, v);
    if constexpr (std::is_floating_point_v<T>) {
      a.text.push_back(num(v));
    } else {
      a.text.push_back(std::to_string(static_cast<long long>(v)));
    }
  }
  return a;
}

struct XmlOptions {
  Enc enc = Enc::ascii;
  bool zlib = false;
  bool header64 = false;
  std::size_t block = 40;  // uncompressed zlib block size (small: several blocks, a partial last one)
};

std::string header_word(std::uint64_t v, bool h64) {
  std::string h;
  h64 ? put<std::uint64_t>(h, v) : put<std::uint32_t>(h, static_cast<std::uint32_t>(v));
  return h;
}

// The header and data VTK writes for one array: [bytes] + data, or, compressed, [blocks, block size,
// last block size, compressed sizes...] + the compressed blocks.
std::pair<std::string, std::string> binary_payload(const std::string& raw, const XmlOptions& o) {
  if (!o.zlib) return {header_word(raw.size(), o.header64), raw};
  const std::size_t blocks = (raw.size() + o.block - 1) / o.block;
  std::string header = header_word(blocks, o.header64) + header_word(o.block, o.header64) +
                       header_word(raw.size() % o.block, o.header64);
  std::string data;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::string piece = raw.substr(b * o.block, o.block);
    uLongf size = compressBound(piece.size());
    std::string packed(size, '\0');
    EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(packed.data()), &size,
                        reinterpret_cast<const Bytef*>(piece.data()), piece.size(), 6),
              Z_OK);
    packed.resize(size);
    header += header_word(size, o.header64);
    data += packed;
  }
  return {header, data};
}

std::string vtk_xml(const std::string& type, const std::string& piece_attrs,
                    const std::vector<std::pair<std::string, std::vector<Array>>>& sections,
                    const XmlOptions& o) {
  std::string out = "<?xml version=\"1.0\"?>\n<VTKFile type=\"" + type +
                    "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"" +
                    (o.header64 ? "UInt64" : "UInt32") + "\"" +
                    (o.zlib ? " compressor=\"vtkZLibDataCompressor\"" : "") + ">\n<" + type + ">\n<Piece " +
                    piece_attrs + ">\n";
  std::string appended;
  for (const auto& [section, arrays] : sections) {
    out += "<" + section + ">\n";
    for (const Array& a : arrays) {
      out += "<DataArray type=\"" + a.type + "\" Name=\"" + a.name + "\" NumberOfComponents=\"" +
             std::to_string(a.components) + "\"";
      const auto [head, data] = binary_payload(a.bytes, o);
      switch (o.enc) {
        case Enc::ascii:
          out += " format=\"ascii\">\n";
          for (const auto& t : a.text) out += t + " ";
          out += "\n</DataArray>\n";
          break;
        case Enc::inline_b64:
          out += " format=\"binary\">\n  " + b64(head) + b64(data) + "\n</DataArray>\n";
          break;
        case Enc::appended_raw:
          out += " format=\"appended\" offset=\"" + std::to_string(appended.size()) + "\"/>\n";
          appended += head + data;
          break;
        case Enc::appended_b64:
          out += " format=\"appended\" offset=\"" + std::to_string(appended.size()) + "\"/>\n";
          appended += b64(head) + b64(data);
          break;
      }
    }
    out += "</" + section + ">\n";
  }
  out += "</Piece>\n</" + type + ">\n";
  if (o.enc == Enc::appended_raw || o.enc == Enc::appended_b64)
    out += "<AppendedData encoding=\"" + std::string(o.enc == Enc::appended_raw ? "raw" : "base64") +
           "\">\n_" + appended + "\n</AppendedData>\n";
  return out + "</VTKFile>\n";
}

Array points_array(const Sample& s) {
  std::vector<double> xyz;
  for (const Vec3& p : s.positions) xyz.insert(xyz.end(), {p[0], p[1], p[2]});
  return make_array("Points", "Float64", xyz, 3);
}

std::string grid(const Sample& s, const XmlOptions& o) {
  std::vector<std::int64_t> conn, offs;
  std::vector<std::uint8_t> types;
  for (const Tet& t : s.tets)
    conn.insert(conn.end(), t.begin(), t.end()), offs.push_back(conn.size()), types.push_back(10);
  for (const Tri& t : s.triangles)
    conn.insert(conn.end(), t.begin(), t.end()), offs.push_back(conn.size()), types.push_back(5);
  return vtk_xml("UnstructuredGrid",
                 "NumberOfPoints=\"" + std::to_string(s.positions.size()) + "\" NumberOfCells=\"" +
                     std::to_string(types.size()) + "\"",
                 {{"Points", {points_array(s)}},
                  {"Cells",
                   {make_array("connectivity", "Int64", conn), make_array("offsets", "Int64", offs),
                    make_array("types", "UInt8", types)}}},
                 o);
}

// PolyData over the cube's corners: the two sample triangles and the top quad as Polys, one strip of
// four points, one vertex cell and one line cell.
std::string polydata(const Sample& s, const XmlOptions& o) {
  const std::vector<std::int32_t> poly_conn = {0, 2, 1, 1, 2, 3, 4, 5, 7, 6}, poly_offs = {3, 6, 10};
  const std::vector<std::int32_t> strip_conn = {0, 1, 4, 5}, strip_offs = {4};
  const std::vector<std::int32_t> vert_conn = {3}, vert_offs = {1}, line_conn = {0, 7}, line_offs = {2};
  return vtk_xml(
      "PolyData",
      "NumberOfPoints=\"" + std::to_string(s.positions.size()) +
          "\" NumberOfVerts=\"1\" NumberOfLines=\"1\" NumberOfStrips=\"1\" NumberOfPolys=\"3\"",
      {{"Points", {points_array(s)}},
       {"Verts", {make_array("connectivity", "Int32", vert_conn), make_array("offsets", "Int32", vert_offs)}},
       {"Lines", {make_array("connectivity", "Int32", line_conn), make_array("offsets", "Int32", line_offs)}},
       {"Strips",
        {make_array("connectivity", "Int32", strip_conn), make_array("offsets", "Int32", strip_offs)}},
       {"Polys",
        {make_array("connectivity", "Int32", poly_conn), make_array("offsets", "Int32", poly_offs)}}},
      o);
}

// The triangles polydata() holds: the quad 4-5-7-6 is cut along the diagonal through its smallest
// node, 4; the strip 0-1-4-5 gives (0,1,4) and, listed the other way round, (4,1,5).
const std::vector<Tri> kPolyTriangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 7}, {4, 7, 6}, {0, 1, 4}, {4, 1, 5}};

std::vector<XmlOptions> every_encoding() {
  std::vector<XmlOptions> all;
  for (Enc e : {Enc::ascii, Enc::inline_b64, Enc::appended_raw, Enc::appended_b64}) {
    for (bool z : {false, true}) {
      if (e == Enc::ascii && z) continue;
      for (bool h64 : {false, true}) {
        for (std::size_t block : {std::size_t{40}, std::size_t{1} << 15}) {
          if (!z && block != 40) continue;
          all.push_back({e, z, h64, block});
        }
      }
    }
  }
  return all;
}

std::string describe(const XmlOptions& o) {
  return "encoding " + std::to_string(static_cast<int>(o.enc)) + (o.zlib ? " zlib" : "") +
         (o.header64 ? " UInt64" : " UInt32") + " block " + std::to_string(o.block);
}

TEST(VtkXml, GridInEveryEncodingAndCompressionGivesTheSameMesh) {
  const Sample s = cube_sample();
  for (const XmlOptions& o : every_encoding()) {
    SCOPED_TRACE(describe(o));
    const MeshFile m = parse_ok(grid(s, o), ".vtu");
    EXPECT_EQ(m.positions, s.positions);
    EXPECT_EQ(m.tets, s.tets);
    EXPECT_EQ(m.triangles, s.triangles);
    EXPECT_EQ(m.format.find("zlib") != std::string::npos, o.zlib) << m.format;
  }
}

TEST(VtkXml, InformationKeysNestedInDataArraysAreSkipped) {
  // VTK 9 writes the range of a points array as <InformationKey> elements after its data.
  const Sample s = cube_sample();
  for (const XmlOptions& o : {XmlOptions{Enc::ascii}, XmlOptions{Enc::inline_b64, true}}) {
    std::string text = grid(s, o);
    const std::size_t end = text.find("</DataArray>", text.find("<Points>"));
    text.insert(end,
                "<InformationKey name=\"L2_NORM_RANGE\" location=\"vtkDataArray\" length=\"2\">\n"
                "<Value index=\"0\">\n0\n</Value>\n<Value index=\"1\">\n2.5\n</Value>\n</InformationKey>\n");
    const MeshFile m = parse_ok(text, ".vtu");
    EXPECT_EQ(m.positions, s.positions);
    EXPECT_EQ(m.tets, s.tets);
  }
}

TEST(VtkXml, PolyDataInEveryEncodingReadsPolysAndStripsAndCountsTheRest) {
  const Sample s = cube_sample();
  for (const XmlOptions& o : every_encoding()) {
    SCOPED_TRACE(describe(o));
    for (const std::string ext : {".vtp", ".vtk"}) {  // a .vtk holding XML is sniffed
      const MeshFile m = parse_ok(polydata(s, o), ext);
      EXPECT_EQ(m.positions, s.positions);
      EXPECT_TRUE(m.tets.empty());
      EXPECT_EQ(m.triangles, kPolyTriangles);
      EXPECT_EQ(m.skipped_summary(), "1 vertex cell, 1 line cell");
      EXPECT_EQ(m.notices,
                (std::vector<std::string>{"split 1 quadrilateral and 1 triangle strip into 4 triangles"}));
      EXPECT_EQ(m.format.rfind("VTP ", 0), 0u) << m.format;
    }
  }
  // The type attribute decides, whatever the extension says.
  const MeshFile g = parse_ok(grid(s, {}), ".vtp");
  EXPECT_EQ(g.tets, s.tets);
}

TEST(VtkXml, ConcavePolygonsAreCutInsideTheirOutline) {
  // An L-shaped hexagon of area 3 and a dart-shaped (concave) quadrilateral of area 1 in z = 0. The
  // dart 9-6-7-8 has its reflex corner at node 7, next to its smallest node 6, so the diagonal the
  // rule picks (6-8) runs outside it and the other one (9-7) must be taken.
  const std::vector<double> xyz = {0, 0, 0, 2,   0,   0, 2, 1, 0, 1, 1, 0, 1, 2, 0, 0, 2, 0,  // L
                                   7, 0, 0, 5.5, 0.5, 0, 5, 2, 0, 5, 0, 0};                   // dart
  const std::vector<std::int32_t> conn = {0, 1, 2, 3, 4, 5, 9, 6, 7, 8}, offs = {6, 10};
  const std::string text =
      vtk_xml("PolyData", "NumberOfPoints=\"10\" NumberOfPolys=\"2\"",
              {{"Points", {make_array("Points", "Float64", xyz, 3)}},
               {"Polys", {make_array("connectivity", "Int32", conn), make_array("offsets", "Int32", offs)}}},
              {});
  const MeshFile m = parse_ok(text, ".vtp");
  ASSERT_EQ(m.triangles.size(), 6u);
  double area[2] = {0, 0};
  for (const Tri& t : m.triangles) {
    const Vec3 n = (m.positions[t[1]] - m.positions[t[0]]).cross(m.positions[t[2]] - m.positions[t[0]]);
    EXPECT_GT(n.z(), 0) << "every triangle keeps the polygon's orientation";
    area[t[0] >= 6] += 0.5 * n.z();
  }
  EXPECT_DOUBLE_EQ(area[0], 3.0);
  EXPECT_DOUBLE_EQ(area[1], 1.0);
}

TEST(VtkXml, ZlibDefences) {
  const Sample s = cube_sample();
  XmlOptions raw{Enc::appended_raw, true, false, 40};
  const std::string good = grid(s, raw);
  const std::size_t data = good.find('_', good.find("<AppendedData")) + 1;
  // Points are 192 bytes: 5 blocks of 40 (the last 32), header 8 words; first compressed byte at 32.
  std::string damaged = good;
  for (std::size_t k = 0; k < 6; ++k) damaged[data + 34 + k] ^= 0x5A;
  EXPECT_NE(parse_error(damaged, ".vtu").find("cannot be decompressed"), std::string::npos);

  std::string lying = good;  // block size 40 -> 48: 5 blocks then decompress to 232 bytes, not 192
  lying[data + 4] = 48;
  EXPECT_NE(parse_error(lying, ".vtu").find("zlib header says"), std::string::npos);

  std::string bomb = good;  // a 1 GB block from a few compressed bytes
  bomb[data + 4] = 0, bomb[data + 5] = 0, bomb[data + 6] = 0, bomb[data + 7] = 0x40;
  EXPECT_NE(parse_error(bomb, ".vtu").find("more than zlib can expand"), std::string::npos);

  std::string blocks = good;  // 2^31 blocks
  blocks[data + 3] = static_cast<char>(0x80);
  EXPECT_NE(parse_error(blocks, ".vtu").find("compressed blocks"), std::string::npos);

  std::string cut = good.substr(0, data + 60);
  EXPECT_NE(parse_error(cut, ".vtu").find("truncated"), std::string::npos);

  const std::string inline_good = grid(s, {Enc::inline_b64, true, false, 40});
  const std::size_t at = inline_good.find("format=\"binary\">") + 19;
  EXPECT_NE(parse_error(inline_good.substr(0, at + 40) +
                            "\n</DataArray></Points></Piece></UnstructuredGrid></VTKFile>",
                        ".vtu")
                .find("base64 data"),
            std::string::npos);
}

TEST(VtkXml, EchoedFileContentStaysOnOneLine) {
  // parse_error checks that each message is one line; attribute values may hold newlines.
  const Sample s = cube_sample();
  std::string order = grid(s, {});
  order.replace(order.find("LittleEndian"), 12, "Little\nEndian\x07");
  EXPECT_NE(parse_error(order, ".vtu").find("unknown byte_order 'Little\\nEndian\\x07'"), std::string::npos);
  std::string type = grid(s, {});
  type.replace(type.find("type=\"Float64\""), 15, "type=\"Float\r\n64\"");
  EXPECT_NE(parse_error(type, ".vtu").find("unsupported data type 'Float\\r\\n64'"), std::string::npos);
}

TEST(VtkXml, NanCoordinatesAreNamedByArray) {
  Sample s = cube_sample();
  s.positions[3].y() = std::numeric_limits<double>::quiet_NaN();
  for (const XmlOptions& o : {XmlOptions{Enc::inline_b64, false}, XmlOptions{Enc::appended_raw, true}}) {
    const std::string e = parse_error(grid(s, o), ".vtu");
    EXPECT_NE(e.find("points: value 10 of the DataArray is NaN or infinite"), std::string::npos) << e;
  }
  const std::string a = parse_error(grid(s, {}), ".vtu");
  EXPECT_NE(a.find("not a finite number"), std::string::npos) << a;
}

// ---- legacy POLYDATA ----

std::string legacy_polydata(const Sample& s, bool binary, bool v5) {
  std::string o = std::string("# vtk DataFile Version ") + (v5 ? "5.1" : "3.0") + "\npolydata\n" +
                  (binary ? "BINARY" : "ASCII") + "\nDATASET POLYDATA\nPOINTS " +
                  std::to_string(s.positions.size()) + " float\n";
  for (const Vec3& p : s.positions) {
    for (int k = 0; k < 3; ++k)
      binary ? put<float>(o, static_cast<float>(p[k]), true) : void(o += num(static_cast<float>(p[k])) + " ");
  }
  o += "\n";
  const auto section = [&](const std::string& key, const std::vector<std::vector<int>>& cells) {
    std::size_t total = 0;
    for (const auto& c : cells) total += c.size();
    if (v5) {
      o += key + " " + std::to_string(cells.size() + 1) + " " + std::to_string(total) +
           "\nOFFSETS vtktypeint64\n";
      std::int64_t off = 0;
      binary ? put<std::int64_t>(o, 0, true) : void(o += "0 ");
      for (const auto& c : cells) {
        off += static_cast<std::int64_t>(c.size());
        binary ? put<std::int64_t>(o, off, true) : void(o += std::to_string(off) + " ");
      }
      o += "\nCONNECTIVITY vtktypeint64\n";
      for (const auto& c : cells)
        for (int v : c) binary ? put<std::int64_t>(o, v, true) : void(o += std::to_string(v) + " ");
    } else {
      o += key + " " + std::to_string(cells.size()) + " " + std::to_string(total + cells.size()) + "\n";
      for (const auto& c : cells) {
        binary ? put<std::int32_t>(o, static_cast<int>(c.size()), true) : void(o += std::to_string(c.size()));
        for (int v : c) binary ? put<std::int32_t>(o, v, true) : void(o += " " + std::to_string(v));
        if (!binary) o += "\n";
      }
    }
    o += "\n";
  };
  section("VERTICES", {{3}});
  section("LINES", {{0, 7}});
  section("POLYGONS", {{0, 2, 1}, {1, 2, 3}, {4, 5, 7, 6}});
  section("TRIANGLE_STRIPS", {{0, 1, 4, 5}});
  return o + "POINT_DATA 8\nSCALARS t float 1\nLOOKUP_TABLE default\n";
}

TEST(VtkLegacyPolyData, AsciiAndBinaryInBothLayouts) {
  const Sample s = cube_sample();
  for (bool binary : {false, true}) {
    for (bool v5 : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "binary " << binary << " v5 " << v5);
      const MeshFile m = parse_ok(legacy_polydata(s, binary, v5), ".vtk");
      ASSERT_EQ(m.positions.size(), s.positions.size());
      for (std::size_t i = 0; i < s.positions.size(); ++i)
        for (int k = 0; k < 3; ++k)
          EXPECT_EQ(m.positions[i][k], static_cast<double>(static_cast<float>(s.positions[i][k])));
      EXPECT_EQ(m.triangles, kPolyTriangles);
      EXPECT_EQ(m.skipped_summary(), "1 vertex cell, 1 line cell");
      EXPECT_EQ(m.format, std::string("VTK legacy polydata ") + (binary ? "binary" : "ASCII"));
    }
  }
}

TEST(VtkLegacyPolyData, RejectsBadPolygonsAndLyingCounts) {
  const Sample s = cube_sample();
  std::string text = legacy_polydata(s, false, false);
  text.replace(text.find("4 4 5 7 6"), 9, "4 4 5 7 9");
  EXPECT_NE(parse_error(text, ".vtk").find("POLYGONS cell 2 (polygon) references node 9"), std::string::npos);
  std::string twice = legacy_polydata(s, false, false);
  twice.replace(twice.find("4 4 5 7 6"), 9, "4 4 5 4 6");
  EXPECT_NE(parse_error(twice, ".vtk").find("uses node 4 twice"), std::string::npos);
  std::string huge = legacy_polydata(s, false, false);
  huge.replace(huge.find("POLYGONS 3 13"), 13, "POLYGONS 3 900000000");
  EXPECT_NE(parse_error(huge, ".vtk").find("declares 900000000 cell list entries"), std::string::npos);
  std::string negative = legacy_polydata(s, false, false);
  negative.replace(negative.find("POLYGONS 3 13"), 13, "POLYGONS -3 13");
  EXPECT_NE(parse_error(negative, ".vtk").find("count -3 is negative"), std::string::npos);
  const std::string bin = legacy_polydata(s, true, true);
  EXPECT_NE(parse_error(bin.substr(0, bin.find("CONNECTIVITY") + 30), ".vtk").find("declares"),
            std::string::npos);
  std::string nan = legacy_polydata(s, true, false);
  const std::size_t p = nan.find("float\n") + 6 + 4;  // second coordinate of node 0
  const float q = std::numeric_limits<float>::quiet_NaN();
  std::string qb;
  put<float>(qb, q, true);
  nan.replace(p, 4, qb);
  EXPECT_NE(parse_error(nan, ".vtk").find("NaN or infinite"), std::string::npos);
}

TEST(VtkLegacyGrid, VoxelsPixelsQuadsPolygonsAndStripsBecomeTetrahedraAndTriangles) {
  // Unit cube corners in VTK voxel order (x fastest): a voxel (11) is the cube, a pixel (8) its
  // bottom face, a quad (9) its top face, a polygon (7) its front face, a strip (6) its back face.
  std::string text = "# vtk DataFile Version 3.0\ncells\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 8 double\n";
  for (int i = 0; i < 8; ++i)
    text += std::to_string(i & 1) + " " + std::to_string(i >> 1 & 1) + " " + std::to_string(i >> 2) + "\n";
  text += "CELLS 5 29\n8 0 1 2 3 4 5 6 7\n4 0 1 2 3\n4 4 5 7 6\n4 0 1 5 4\n4 2 6 3 7\n";
  text += "CELL_TYPES 5\n11\n8\n9\n7\n6\n";
  const MeshFile m = parse_ok(text, ".vtk");
  ASSERT_EQ(m.tets.size(), 6u);
  double volume = 0;
  for (const Tet& t : m.tets) {
    const double v = (m.positions[t[1]] - m.positions[t[0]])
                         .cross(m.positions[t[2]] - m.positions[t[0]])
                         .dot(m.positions[t[3]] - m.positions[t[0]]) /
                     6;
    EXPECT_GT(v, 0);
    volume += v;
  }
  EXPECT_DOUBLE_EQ(volume, 1.0);
  ASSERT_EQ(m.triangles.size(), 8u);
  // Area vectors per face: the pixel and quad keep their winding (+z for both as listed), the
  // polygon -y, the strip (2,6,3), (3,6,7)... +y.
  const Vec3 expected[4] = {Vec3(0, 0, 1), Vec3(0, 0, 1), Vec3(0, -1, 0), Vec3(0, 1, 0)};
  for (int f = 0; f < 4; ++f) {
    Vec3 area = Vec3::Zero();
    for (int k = 0; k < 2; ++k) {
      const Tri& t = m.triangles[2 * f + k];
      area += 0.5 * (m.positions[t[1]] - m.positions[t[0]]).cross(m.positions[t[2]] - m.positions[t[0]]);
    }
    EXPECT_TRUE(area.isApprox(expected[f])) << "face " << f << ": " << area.transpose();
  }
  EXPECT_EQ(m.notices,
            (std::vector<std::string>{"split 1 hexahedron into 6 tetrahedra",
                                      "split 3 quadrilaterals and 1 triangle strip into 8 triangles"}));
}

// ---- STL ----

TEST(StlVariants, KeywordCaseSpacingEndSolidSeveralSolidsAndNanNormals) {
  const std::string facet1 =
      "facet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n vertex 0 1 0\n endloop\nendfacet\n";
  const std::vector<std::string> variants = {
      "solid a\n" + facet1 + "endsolid a\n",
      "solid\n" + facet1 + "end solid\n",
      "SOLID CAD\nFACET NORMAL 0 0 1\nOUTER LOOP\nVERTEX 0 0 0\nVERTEX 1 0 0\nVERTEX 0 1 "
      "0\nENDLOOP\nENDFACET\nENDSOLID CAD\n",
      "solid x\n\tfacet   normal\t0  0\t 1\n\t\touter  loop\n\t\t\tvertex\t0 0 0\n\t\t\tvertex 1 0 "
      "0\n\t\t\tvertex 0 1 "
      "0\n\t\tend loop\n\tend facet\nendsolid x\n\n\n",
      "solid d\nfacet normal nan nan nan\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 "
      "0\nendloop\nendfacet\n"
      "endsolid d\n",
      "  solid a\n" + facet1 + "endsolid a\nsolid b\nendsolid b\n",
  };
  for (const std::string& v : variants) {
    SCOPED_TRACE(v);
    const MeshFile m = parse_ok(v, ".stl");
    ASSERT_EQ(m.triangles.size(), 1u);
    EXPECT_EQ(m.positions.size(), 3u);
    EXPECT_EQ(m.positions[m.triangles[0][1]], Vec3(1, 0, 0));
  }
  // Two solids, the second with a quadrilateral loop (fanned into 2 triangles sharing the first's
  // vertices).
  const MeshFile two =
      parse_ok("solid a\n" + facet1 +
                   "endsolid a\nsolid b\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 "
                   "0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid b\n",
               ".stl");
  EXPECT_EQ(two.triangles.size(), 3u);
  EXPECT_EQ(two.positions.size(), 4u);
  EXPECT_NE(parse_error("solid a\n" + facet1 + "endsolid a\ngarbage\n", ".stl")
                .find("expected 'solid', found 'garbage'"),
            std::string::npos);
  EXPECT_NE(parse_error("solid a\nfacet normal 0 0 x\n", ".stl").find("normal component 'x' is not a number"),
            std::string::npos);
}

TEST(StlVariants, BinaryWithSolidHeaderAndUpperCase) {
  std::string bin = "SOLID exported by a CAD tool that writes binary";
  bin.resize(80, ' ');
  put<std::uint32_t>(bin, 1);
  for (float f : {0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) put<float>(bin, f);
  bin += std::string(2, '\0');
  const MeshFile m = parse_ok(bin, ".stl");
  EXPECT_EQ(m.format, "STL binary");
  EXPECT_EQ(m.triangles.size(), 1u);
}

}  // namespace
}  // namespace pliant::io
