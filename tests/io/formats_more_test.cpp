// The readers added after the first set (Gmsh format 1 and 2.0/2.1 headers, MEDIT .mesh, OFF, PLY) on
// the cube sample written independently here, their writers' round trips, and the OBJ tokenizer.
#include "formats.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/io/mesh_writers.hpp"
#include "pliant/io/surface_writers.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace pliant::io {
namespace {

using testing::cube_sample;
using testing::num;
using testing::Sample;

using testing::parse_error;
using testing::parse_ok;

#define EXPECT_ERROR(bytes, ext, part)                                            \
  do {                                                                            \
    const std::string message_ = parse_error(bytes, ext);                         \
    EXPECT_NE(message_.find(part), std::string::npos) << "message: " << message_; \
  } while (0)

void expect_positions(const Sample& s, const MeshFile& m) {
  ASSERT_EQ(m.positions.size(), s.positions.size());
  for (std::size_t i = 0; i < s.positions.size(); ++i)
    EXPECT_EQ(m.positions[i], s.positions[i]) << "node " << i;
}

std::filesystem::path temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("pliant_io_more_" + name);
  std::filesystem::create_directories(dir);
  return dir;
}

// ---- Gmsh format 1 and the 2.x version headers ----

std::string msh1(const Sample& s) {
  std::string o = "$NOD\n" + std::to_string(s.positions.size()) + "\n";
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    o += std::to_string(10 + i) + " " + num(s.positions[i][0]) + " " + num(s.positions[i][1]) + " " +
         num(s.positions[i][2]) + "\n";
  }
  o += "$ENDNOD\n$ELM\n" + std::to_string(1 + s.triangles.size() + s.tets.size()) + "\n";
  int id = 1;
  o += std::to_string(id++) + " 15 0 1 1 10\n";  // a point: ignored
  for (const Tri& t : s.triangles) {
    o += std::to_string(id++) + " 2 1 1 3";
    for (Index v : t) o += " " + std::to_string(10 + v);
    o += "\n";
  }
  for (const Tet& t : s.tets) {
    o += std::to_string(id++) + " 4 1 1 4";
    for (Index v : t) o += " " + std::to_string(10 + v);
    o += "\n";
  }
  return o + "$ENDELM\n";
}

TEST(MshFormat1, ReadsNodesElementsAndFileNumbers) {
  const Sample s = cube_sample();
  const MeshFile m = parse_ok(msh1(s), ".msh");
  expect_positions(s, m);
  EXPECT_EQ(m.tets, s.tets);
  EXPECT_EQ(m.triangles, s.triangles);
  EXPECT_EQ(m.format, "Gmsh 1 ASCII");
  ASSERT_EQ(m.node_ids.size(), s.positions.size());
  EXPECT_EQ(m.node_ids[3], 13);
  EXPECT_EQ(m.triangle_ids, (std::vector<long long>{2, 3}));
}

TEST(MshFormat1, RejectsNodeCountThatDisagreesWithType) {
  std::string text = msh1(cube_sample());
  const auto at = text.find(" 4 1 1 4 ");
  text.replace(at, 9, " 4 1 1 3 ");
  EXPECT_ERROR(text, ".msh", "has 3 nodes, expected 4");
}

TEST(MshVersions, HeadersTwoTwoZeroAndTwoOneReadAsTwoX) {
  const Sample s = cube_sample();
  for (const char* v : {"2", "2.0", "2.1"}) {
    std::string text = testing::msh22(s, false);
    text.replace(text.find("2.2 0 8"), 3, v);
    const MeshFile m = parse_ok(text, ".msh");
    expect_positions(s, m);
    EXPECT_EQ(m.tets, s.tets);
    EXPECT_EQ(m.format, std::string("Gmsh ") + (std::string(v) == "2" ? "2.0" : v) + " ASCII");
  }
  EXPECT_ERROR("$MeshFormat\n2.9 0 8\n$EndMeshFormat\n", ".msh", "version 2.9 is not supported");
}

// ---- counts: negative, or more than the rest of the file could hold ----

TEST(Counts, NegativeBinaryGmshNodeCountIsAnErrorWithItsLine) {
  std::string text = testing::msh22(cube_sample(), true);
  const auto at = text.find("$Nodes\n8\n");
  text.replace(at, 9, "$Nodes\n-8\n");
  EXPECT_ERROR(text, ".msh", "test.msh:6: nodes count -8 is negative");
  // and a huge one, before any allocation
  text.replace(text.find("$Nodes\n-8\n"), 10, "$Nodes\n900000000\n");
  EXPECT_ERROR(text, ".msh", "test.msh:6: declares 900000000 nodes");
}

TEST(Counts, NegativeBinaryGmshElementCount) {
  std::string text = testing::msh22(cube_sample(), true);
  const auto at = text.find("$Elements\n8\n");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "$Elements\n-1\n");
  EXPECT_ERROR(text, ".msh", "elements count -1 is negative");
}

TEST(Counts, EveryNewFormatRejectsLyingCounts) {
  EXPECT_ERROR("$NOD\n-3\n$ENDNOD\n", ".msh", "test.msh:2: nodes count -3 is negative");
  EXPECT_ERROR("$NOD\n1\n1 0 0 0\n$ENDNOD\n$ELM\n99999999\n$ENDELM\n", ".msh",
               "test.msh:6: declares 99999999 elements");
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 3\nVertices\n-1\nEnd\n", ".mesh",
               "test.mesh:4: vertices count -1");
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 0 0\nTetrahedra\n123456789\nEnd\n",
               ".mesh", "test.mesh:7: declares 123456789 tetrahedra");
  EXPECT_ERROR("OFF\n-4 1 0\n", ".off", "test.off:2: vertices count -4 is negative");
  EXPECT_ERROR("OFF\n3 7777777 0\n0 0 0\n1 0 0\n0 1 0\n", ".off", "declares 7777777 faces");
  EXPECT_ERROR("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n999999 0 1 2\n", ".off", "declares 999999 face vertices");
  EXPECT_ERROR("ply\nformat ascii 1.0\nelement vertex -3\nproperty float x\nend_header\n", ".ply",
               "test.ply:3: element vertex count -3 is negative");
  EXPECT_ERROR(
      "ply\nformat binary_little_endian 1.0\nelement vertex 500000000\nproperty float x\nproperty float y\n"
      "property float z\nend_header\n\x01\x02",
      ".ply", "declares 500000000 vertex elements");
  EXPECT_ERROR("v 0 0 0\nf 1 -5 1\n", ".obj", "relative vertex index -5 reaches before the first vertex");
}

// ---- OBJ on Pliant's tokenizer ----

TEST(ObjTokenizer, RejectsBadNumbersWithFileAndLine) {
  EXPECT_ERROR("v 0 0 0\nv nan 5 5\n", ".obj", "test.obj:2: vertex coordinate 'nan' is not a finite number");
  EXPECT_ERROR("v 0 0 0\nv inf 5 5\n", ".obj", "test.obj:2: vertex coordinate 'inf' is not a finite number");
  EXPECT_ERROR("v 0 0 0\nv 1 -inf 5\n", ".obj", "test.obj:2: vertex coordinate '-inf'");
  EXPECT_ERROR("v abc 0 0\n", ".obj", "test.obj:1: expected a vertex coordinate (a number), found 'abc'");
  EXPECT_ERROR("# c\nv 1x 0 0\n", ".obj", "test.obj:2: expected a vertex coordinate (a number), found '1x'");
  EXPECT_ERROR("v 1 5\n", ".obj", "test.obj:1: vertex has 2 values");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3.7\n", ".obj", "test.obj:4: face entry '3.7'");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", ".obj", "vertex index 0 (OBJ counts from 1)");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", ".obj", "test.obj:4: face has 2 vertices");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/a 2/1 3/1\n", ".obj",
               "test.obj:4: face entry '1/a': texture coordinate index 'a' is not an integer");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//0 2 3\n", ".obj", "face entry '1//0': normal index 0");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/ 2 3\n", ".obj", "ends with '/'");
  EXPECT_ERROR("v 0 0 0\nvv 1 0 0\n", ".obj", "test.obj:2: unknown OBJ statement 'vv'");
  EXPECT_ERROR("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\nf 1 2 7\n", ".obj",
               "test.obj:6: face 2 references vertex 7, but there are 3 vertices");
}

TEST(ObjTokenizer, ReadsFaceFormsNegativeIndicesPolygonsAndIgnoredStatements) {
  const std::string text =
      "mtllib a.mtl\no thing\ng group\ns 1\nusemtl red\n"
      "v 0 0 0\nv 1 0 0 1.0\nv 1 1 0 0.5 0.5 0.5\nv 0 1 0\n"
      "vt 0 0\nvt 1 0\nvt 1 1\nvn 0 0 1\n"
      "f 1/1/1 2/2/1 3/3/1\n"  // v/vt/vn
      "f 1//1 3//1 4//1\n"     // v//vn
      "f -4/-3 -2/-1 -1/-1\n"  // relative, v/vt: 1 3 4
      "l 1 2\np 1\n"
      "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0.5 0.5 \\\n 1\nv 0 1 1\n"  // a continued line
      "f 5 6 7 8 9\n";                                          // pentagon with a reflex corner
  const MeshFile m = parse_ok(text, ".obj");
  ASSERT_EQ(m.positions.size(), 9u);
  EXPECT_EQ(m.positions[7], Vec3(0.5, 0.5, 1));
  ASSERT_EQ(m.triangles.size(), 3u + 3u);
  EXPECT_EQ(m.triangles[0], (Tri{0, 1, 2}));
  EXPECT_EQ(m.triangles[1], (Tri{0, 2, 3}));
  EXPECT_EQ(m.triangles[2], (Tri{0, 2, 3}));
  EXPECT_EQ(m.skipped_summary(), "1 line, 1 point");
  // The pentagon's triangles cover its area (1 - 1/4 for the notch) and keep its winding (+z).
  double area = 0;
  for (std::size_t t = 3; t < 6; ++t) {
    const Tri& tri = m.triangles[t];
    const Vec3 n =
        (m.positions[tri[1]] - m.positions[tri[0]]).cross(m.positions[tri[2]] - m.positions[tri[0]]);
    EXPECT_GT(n.z(), 0);
    area += 0.5 * n.norm();
  }
  EXPECT_NEAR(area, 0.75, 1e-12);
  EXPECT_EQ(m.triangle_ids, (std::vector<long long>{1, 2, 3, 4, 4, 4}));
  EXPECT_EQ(m.node_ids.front(), 1);
  EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 polygon into 3 triangles"}));
}

TEST(ObjTokenizer, ForwardReferencesAreResolvedAgainstTheWholeFile) {
  const MeshFile m = parse_ok("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n", ".obj");
  ASSERT_EQ(m.triangles.size(), 1u);
  EXPECT_TRUE(m.notices.empty()) << "a triangle is not split";
}

TEST(ObjTokenizer, IgnoredTextureAndNormalReferencesNeedNoDefinitions) {
  // As some exporters write (one of SOFA's meshes): texture indices without any "vt".
  const MeshFile m = parse_ok("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/2 3/3\nf 1//7 3//7 2//7\n", ".obj");
  EXPECT_EQ(m.triangles, (std::vector<Tri>{{0, 1, 2}, {0, 2, 1}}));
}

// A square and a pentagon with a reflex corner, as faces of OBJ, OFF and PLY and as polygons of legacy
// VTK: every reader splits them into the same triangles and says so in the same notice, as it does for
// solid cells.
TEST(PolygonFaces, EveryFormatSplitsAndNoticesThemAlike) {
  const std::vector<Vec3> p = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0},     {0, 1, 0}, {0, 0, 1},
                               {1, 0, 1}, {1, 1, 1}, {0.5, 0.5, 1}, {0, 1, 1}};
  std::string points;
  for (const Vec3& v : p) points += num(v[0]) + " " + num(v[1]) + " " + num(v[2]) + "\n";
  std::string obj;
  for (const Vec3& v : p) obj += "v " + num(v[0]) + " " + num(v[1]) + " " + num(v[2]) + "\n";
  obj += "f 1 2 3 4\nf 5 6 7 8 9\n";
  const std::string off = "OFF\n9 2 0\n" + points + "4 0 1 2 3\n5 4 5 6 7 8\n";
  const std::string ply =
      "ply\nformat ascii 1.0\nelement vertex 9\nproperty double x\nproperty double y\nproperty double z\n"
      "element face 2\nproperty list uchar int vertex_indices\nend_header\n" +
      points + "4 0 1 2 3\n5 4 5 6 7 8\n";
  const std::string vtk = "# vtk DataFile Version 3.0\npolygons\nASCII\nDATASET POLYDATA\nPOINTS 9 double\n" +
                          points + "POLYGONS 2 11\n4 0 1 2 3\n5 4 5 6 7 8\n";
  const MeshFile reference = parse_ok(vtk, ".vtk");
  ASSERT_EQ(reference.triangles.size(), 5u);
  EXPECT_EQ(reference.notices,
            (std::vector<std::string>{"split 1 quadrilateral and 1 polygon into 5 triangles"}));
  for (const auto& [bytes, ext] : {std::pair{obj, std::string(".obj")}, std::pair{off, std::string(".off")},
                                   std::pair{ply, std::string(".ply")}}) {
    SCOPED_TRACE(ext);
    const MeshFile m = parse_ok(bytes, ext);
    EXPECT_EQ(m.triangles, reference.triangles);
    EXPECT_EQ(m.notices, reference.notices);
  }
}

// ---- MEDIT ----

std::string medit(const Sample& s) {
  std::string o = "MeshVersionFormatted 1\n# a comment\nDimension\n3\nVertices\n" +
                  std::to_string(s.positions.size()) + "\n";
  for (const Vec3& p : s.positions) o += num(p[0]) + " " + num(p[1]) + " " + num(p[2]) + " 7\n";
  o += "Edges\n1\n1 2 3\nCorners\n2\n1\n2\n";
  o += "Triangles\n" + std::to_string(s.triangles.size()) + "\n";
  for (const Tri& t : s.triangles)
    o += std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " + std::to_string(t[2] + 1) + " 2\n";
  o += "Quadrilaterals\n1\n5 6 8 7 4\nNormals\n1\n0 0 1\n";
  o += "Tetrahedra\n" + std::to_string(s.tets.size()) + "\n";
  for (const Tet& t : s.tets) {
    for (Index v : t) o += std::to_string(v + 1) + " ";
    o += "1\n";
  }
  return o + "Hexahedra\n1\n1 2 4 3 5 6 8 7 0\nEnd\n";
}

TEST(MeditReader, ReadsVerticesTrianglesSplitQuadsTetrahedraAndSkipsTheRest) {
  const Sample s = cube_sample();
  const MeshFile m = parse_ok(medit(s), ".mesh");
  expect_positions(s, m);
  EXPECT_EQ(m.tets, s.tets);
  std::vector<Tri> tris = s.triangles;
  tris.push_back({4, 5, 7});
  tris.push_back({4, 7, 6});
  EXPECT_EQ(m.triangles, tris);
  EXPECT_EQ(m.edges, (std::vector<Edge>{{0, 1}}));
  EXPECT_EQ(m.skipped_summary(), "1 hexahedron");
  EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 quadrilateral into 2 triangles"}));
  EXPECT_EQ(m.format, "MEDIT ASCII");
}

TEST(MeditReader, Defects) {
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 2\n", ".mesh", "test.mesh:2: dimension 2 is not supported");
  EXPECT_ERROR("Vertices\n", ".mesh", "not a MEDIT mesh");
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 nan 0 0\nEnd\n", ".mesh",
               "test.mesh:5: vertex coordinate is nan");
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 0 0\n", ".mesh", "missing End");
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 0 0\nTriangles\n1\n1 1 1 0\nEnd\n",
               ".mesh", "test.mesh:8: triangle 1 uses node 1 twice");
  EXPECT_ERROR("MeshVersionFormatted 2\nDimension 3\nVertices\n1\n0 0 0 0\nBananas\n1\nEnd\n", ".mesh",
               "test.mesh:6: unknown MEDIT keyword 'Bananas'");
}

// ---- OFF ----

TEST(OffReader, ReadsColoursCommentsPolygonsAndCountsOnTheHeaderLine) {
  const std::string text =
      "COFF 5 2 0 # header with counts\n"
      "0 0 0 255 0 0 255\n1 0 0 255 0 0 255\n1 1 0 0 255 0 255\n0 1 0 0 0 255 255\n0.5 0.5 1 1 1 1 1\n"
      "# faces\n4 0 1 2 3 0.5 0.5 0.5\n3 0 1 4\n";
  const MeshFile m = parse_ok(text, ".off");
  ASSERT_EQ(m.positions.size(), 5u);
  EXPECT_EQ(m.positions[4], Vec3(0.5, 0.5, 1));
  EXPECT_EQ(m.triangles.size(), 3u);
  EXPECT_EQ(m.triangles[2], (Tri{0, 1, 4}));
  EXPECT_EQ(m.triangle_ids, (std::vector<long long>{0, 0, 1}));
  EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 quadrilateral into 2 triangles"}));
}

TEST(OffReader, Defects) {
  EXPECT_ERROR("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", ".off",
               "test.off:6: face 0 references vertex 3");
  EXPECT_ERROR("OFF\n3 1 0\n0 0 0\n1 inf 0\n0 1 0\n3 0 1 2\n", ".off",
               "test.off:4: vertex coordinate is inf");
  EXPECT_ERROR("4OFF\n", ".off", "OFF variant '4OFF' is not supported");
  EXPECT_ERROR("PLY\n", ".off", "not an OFF file");
  EXPECT_ERROR("OFF BINARY\n", ".off", "binary OFF is not supported");
  EXPECT_ERROR("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 1 2\n", ".off", "more data than the declared");
}

// ---- PLY ----

// The cube sample's surface (two triangles and a quad) in any encoding, with extra properties before,
// between and after x, y, z and an extra element, to test property handling.
std::string ply(const Sample& s, const std::string& format) {
  const bool big = format == "binary_big_endian", ascii = format == "ascii";
  std::string o =
      "ply\r\nformat " + format + " 1.0\ncomment test\nobj_info x\nelement vertex " +
      std::to_string(s.positions.size()) +
      "\nproperty uchar red\nproperty double z\nproperty float confidence\nproperty double x\n"
      "property double y\nelement face 3\nproperty uchar flags\nproperty list uchar uint vertex_indices\n"
      "property list int short extra\nelement material 1\nproperty int id\nend_header\n";
  using testing::put;
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    const Vec3& p = s.positions[i];
    if (ascii) {
      o += std::to_string(200 + i % 50) + " " + num(p[2]) + " 0.25 " + num(p[0]) + " " + num(p[1]) + "\n";
    } else {
      put<std::uint8_t>(o, static_cast<std::uint8_t>(i), big), put<double>(o, p[2], big),
          put<float>(o, 0.25f, big), put<double>(o, p[0], big), put<double>(o, p[1], big);
    }
  }
  const std::vector<std::vector<std::uint32_t>> faces = {{0, 2, 1}, {1, 2, 3}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    if (ascii) {
      o += "1 " + std::to_string(f.size());
      for (auto v : f) o += " " + std::to_string(v);
      o += " 2 -7 8\n";
    } else {
      put<std::uint8_t>(o, 1, big), put<std::uint8_t>(o, static_cast<std::uint8_t>(f.size()), big);
      for (auto v : f) put<std::uint32_t>(o, v, big);
      put<std::int32_t>(o, 2, big), put<std::int16_t>(o, -7, big), put<std::int16_t>(o, 8, big);
    }
  }
  if (ascii) {
    o += "42\n";
  } else {
    put<std::int32_t>(o, 42, big);
  }
  return o;
}

TEST(PlyReader, AsciiAndBothBinaryEndiannessesWithAnyPropertyOrder) {
  const Sample s = cube_sample();
  for (const char* f : {"ascii", "binary_little_endian", "binary_big_endian"}) {
    SCOPED_TRACE(f);
    const MeshFile m = parse_ok(ply(s, f), ".ply");
    expect_positions(s, m);
    ASSERT_EQ(m.triangles.size(), 4u);
    EXPECT_EQ(m.triangles[0], (Tri{0, 2, 1}));
    EXPECT_EQ(m.triangles[1], (Tri{1, 2, 3}));
    // The quad (4, 5, 7, 6) becomes two triangles over its corners that cover its area (1.1 x 0.7)
    // and keep its winding (+z).
    double area = 0;
    for (std::size_t t = 2; t < 4; ++t) {
      const Tri& tri = m.triangles[t];
      for (const Index v : tri) EXPECT_TRUE(v >= 4 && v <= 7) << v;
      const Vec3 n =
          (m.positions[tri[1]] - m.positions[tri[0]]).cross(m.positions[tri[2]] - m.positions[tri[0]]);
      EXPECT_GT(n.z(), 0);
      area += 0.5 * n.norm();
    }
    EXPECT_NEAR(area, 1.1 * 0.7, 1e-12);
    EXPECT_EQ(m.triangle_ids, (std::vector<long long>{0, 1, 2, 2}));
    EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 quadrilateral into 2 triangles"}));
  }
}

TEST(PlyReader, Defects) {
  const Sample s = cube_sample();
  std::string bin = ply(s, "binary_little_endian");
  EXPECT_ERROR(bin.substr(0, bin.size() - 3), ".ply",
               "declares 1 material elements (4 bytes), but only 1 bytes");
  EXPECT_ERROR(bin.substr(0, bin.size() - 7), ".ply",
               "declares 2 list entries (4 bytes), but only 1 bytes follow");
  EXPECT_ERROR(bin.substr(0, bin.size() - 12), ".ply", "truncated: list length needs 4 bytes, 0 remain");
  EXPECT_ERROR(bin + "x", ".ply", "more data than the header declares");
  std::string text = ply(s, "ascii");
  text.replace(text.find(" 4 4 5 7 6 "), 11, " 4 4 5 9 6 ");
  EXPECT_ERROR(text, ".ply", "face 2 references vertex 9, but there are 8 vertices");
  text = ply(s, "ascii");
  text.replace(text.find(" 0.25 "), 6, " 0.25 7 ");
  EXPECT_ERROR(text, ".ply", "test.ply:18: vertex 0 has more values than its properties");
  text = ply(s, "ascii");
  const auto line = text.find("\n", text.find("end_header")) + 1;
  text.replace(line, text.find(" ", line) - line, "300");  // uchar red = 300
  EXPECT_ERROR(text, ".ply", "value 300 does not fit its declared type");
  EXPECT_ERROR(
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n",
      ".ply", "test.ply:3: the vertex element has no property z");
  EXPECT_ERROR(
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
      "end_header\n0 inf 0\n",
      ".ply", "vertex 0 coordinate y is not a finite number");
  EXPECT_ERROR("ply\nformat ascii 2.0\n", ".ply", "test.ply:2: PLY version '2.0' is not supported");
  EXPECT_ERROR("ply\nformat ascii 1.0\nelement vertex 1\nproperty quaternion x\n", ".ply",
               "test.ply:4: unknown property type 'quaternion'");
  EXPECT_ERROR("ply\nformat ascii 1.0\n", ".ply", "no end_header");
}

// ---- writers: write, read back, compare bit for bit ----

TEST(NewWriters, OffPlyAndMeditRoundTripExactly) {
  auto s = cube_sample();
  s.positions[3] = Vec3(1e-310, -123456.789012345678, 3.0e200);
  const TriMesh surface{s.positions, {{0, 1, 3}, {0, 3, 2}, {4, 5, 6}}};
  const auto dir = temp_dir("writers");
  const auto check = [&](const std::filesystem::path& path, const std::vector<Vec3>& positions,
                         const std::vector<Tri>& tris, const std::vector<Tet>& tets) {
    SCOPED_TRACE(path.string());
    const auto back = read_mesh_file(path);
    ASSERT_TRUE(back.ok()) << back.message();
    EXPECT_EQ(back->positions, positions);
    EXPECT_EQ(back->triangles, tris);
    EXPECT_EQ(back->tets, tets);
  };
  ASSERT_TRUE(write_off(dir / "s.off", surface).ok());
  check(dir / "s.off", surface.positions, surface.triangles, {});
  for (const auto e :
       {PlyEncoding::ascii, PlyEncoding::binary_little_endian, PlyEncoding::binary_big_endian}) {
    const auto path = dir / ("s" + std::to_string(static_cast<int>(e)) + ".ply");
    ASSERT_TRUE(write_ply(path, surface, e).ok());
    check(path, surface.positions, surface.triangles, {});
  }
  ASSERT_TRUE(write_medit(dir / "s.mesh", surface).ok());
  check(dir / "s.mesh", surface.positions, surface.triangles, {});
  const TetMesh volume{s.positions, s.tets};
  ASSERT_TRUE(write_medit(dir / "v.mesh", volume, s.triangles).ok());
  check(dir / "v.mesh", s.positions, s.triangles, s.tets);
  // The OBJ writer now round-trips exactly too (Pliant's reader rounds correctly).
  ASSERT_TRUE(write_obj(dir / "s.obj", surface).ok());
  check(dir / "s.obj", surface.positions, surface.triangles, {});
}

TEST(NewWriters, RefuseBadInputAndLeaveNoFile) {
  const auto dir = temp_dir("refuse");
  std::filesystem::remove(dir / "bad.ply");
  TriMesh bad{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 3}}};
  const auto r = write_ply(dir / "bad.ply", bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("triangle 0 references node 3"), std::string::npos) << r.message();
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.ply"));
  bad.triangles = {{0, 1, 2}};
  bad.positions[1].x() = std::nan("");
  const auto n = write_off(dir / "bad.off", bad);
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.message().find("node 1 has a coordinate that is NaN"), std::string::npos) << n.message();
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.off"));
}

TEST(Dispatch, ReadMeshFileAcceptsTheNewExtensionsAndListsThem) {
  const auto dir = temp_dir("dispatch");
  std::ofstream(dir / "a.xyz") << "1 2 3\n";
  const auto r = read_mesh_file(dir / "a.xyz");
  ASSERT_FALSE(r.ok());
  for (const char* ext :
       {".msh", ".node", ".ele", ".vtk", ".vtu", ".vtp", ".mesh", ".obj", ".stl", ".off", ".ply"})
    EXPECT_NE(r.message().find(std::string(" ") + ext), std::string::npos) << ext << ": " << r.message();
}

}  // namespace
}  // namespace pliant::io
