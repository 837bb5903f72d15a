// Every reader on every variant of its format, against the same sample mesh; and the defences.
#include "formats.hpp"
#include "pliant/io/mesh_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace pliant::io {
namespace {

using testing::cube_sample;
using testing::Sample;

void expect_same(const Sample& s, const MeshFile& m, bool float32 = false) {
  ASSERT_EQ(m.positions.size(), s.positions.size());
  for (std::size_t i = 0; i < s.positions.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      const double want =
          float32 ? static_cast<double>(static_cast<float>(s.positions[i][k])) : s.positions[i][k];
      EXPECT_EQ(m.positions[i][k], want) << "node " << i;
    }
  }
  EXPECT_EQ(m.tets, s.tets);
  EXPECT_EQ(m.triangles, s.triangles);
}

using testing::parse_error;
using testing::parse_ok;

TEST(MshReader, Version22AsciiAndBinary) {
  const Sample s = cube_sample();
  for (bool binary : {false, true}) {
    const MeshFile m = parse_ok(testing::msh22(s, binary, 101), ".msh");
    expect_same(s, m);
    EXPECT_EQ(m.format, binary ? "Gmsh 2.2 binary" : "Gmsh 2.2 ASCII");
  }
}

TEST(MshReader, Version41AsciiAndBinaryWithParametricBlocks) {
  const Sample s = cube_sample();
  for (bool binary : {false, true}) {
    const MeshFile m = parse_ok(testing::msh41(s, binary), ".msh");
    expect_same(s, m);
    EXPECT_EQ(m.format, binary ? "Gmsh 4.1 binary" : "Gmsh 4.1 ASCII");
  }
}

TEST(MshReader, HexahedronIsSplitAndUnknownElementsAreNamed) {
  const std::string nodes =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n8\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 "
      "1\n7 1 1 1\n8 0 1 1\n$EndNodes\n$Elements\n1\n";
  const MeshFile m = parse_ok(nodes + "1 5 2 0 1 1 2 3 4 5 6 7 8\n$EndElements\n", ".msh");
  ASSERT_EQ(m.tets.size(), 6u);
  double volume = 0;
  for (const Tet& t : m.tets) {
    const Vec3 a = m.positions[t[0]], b = m.positions[t[1]], c = m.positions[t[2]], d = m.positions[t[3]];
    volume += (b - a).cross(c - a).dot(d - a) / 6;
  }
  EXPECT_DOUBLE_EQ(volume, 1.0);
  EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 hexahedron into 6 tetrahedra"}));
  const std::string text = nodes + "1 93 2 0 1 1 2 3 4 5 6 7 8\n$EndElements\n";
  const auto dir = std::filesystem::temp_directory_path() / "pliant_io_hex";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "unknown.msh") << text;
  const auto r = read_tet_mesh(dir / "unknown.msh");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("no tetrahedra (found 1 element of type 93)"), std::string::npos) << r.message();
}

TEST(MshReader, QuadraticTetrahedraKeepTheirCorners) {
  std::string text = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n10\n";
  for (int i = 1; i <= 10; ++i)
    text += std::to_string(i) + " " + std::to_string(i) + " " + std::to_string(i * i) + " 0.5\n";
  text += "$EndNodes\n$Elements\n1\n7 11 0 4 3 2 1 5 6 7 8 9 10\n$EndElements\n";
  const MeshFile m = parse_ok(text, ".msh");
  ASSERT_EQ(m.tets.size(), 1u);
  EXPECT_EQ(m.tets[0], (Tet{3, 2, 1, 0}));
}

TEST(MshReader, RejectsLiesAndDamage) {
  const Sample s = cube_sample();
  const std::string good = testing::msh22(s, false);
  EXPECT_NE(
      parse_error("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n99999999\n1 0 0 0\n$EndNodes\n", ".msh")
          .find("test.msh:5: declares 99999999 nodes"),
      std::string::npos);
  std::string bad_ref = good;
  bad_ref.replace(bad_ref.rfind("$EndElements") - 2, 1, "9");  // last tet's last node -> 9 (undefined)
  EXPECT_NE(parse_error(bad_ref, ".msh").find("references node 9, which is not defined"), std::string::npos);
  std::string nan = good;
  const std::size_t x = nan.find("\n2 ") + 3;
  nan.replace(x, nan.find(' ', x) - x, "nan");
  EXPECT_NE(parse_error(nan, ".msh").find("not a finite number"), std::string::npos);
  EXPECT_NE(parse_error(good.substr(0, good.size() / 2), ".msh").find("unexpected end of file"),
            std::string::npos);
  const std::string bin = testing::msh41(s, true);
  EXPECT_NE(parse_error(bin.substr(0, bin.size() - 60), ".msh").find(": byte "), std::string::npos);
  EXPECT_NE(
      parse_error("$MeshFormat\n3.0 0 8\n$EndMeshFormat\n", ".msh").find("version 3.0 is not supported"),
      std::string::npos);
}

TEST(TetgenReader, ZeroAndOneBasedWithAttributesAndSiblingLookup) {
  const Sample s = cube_sample();
  const auto dir = std::filesystem::temp_directory_path() / "pliant_io_tetgen";
  std::filesystem::create_directories(dir);
  for (int base : {0, 1}) {
    std::ofstream(dir / "m.node") << testing::tetgen_node(s, base);
    std::ofstream(dir / "m.ele") << testing::tetgen_ele(s, base);
    for (const char* name : {"m.node", "m.ele"}) {
      const auto r = read_mesh_file(dir / name);
      ASSERT_TRUE(r.ok()) << r.message();
      expect_same({s.positions, s.tets, {}}, *r);
    }
  }
  // An .ele that references a node the .node file lacks (1-based ele against 0-based node).
  std::ofstream(dir / "m.node") << testing::tetgen_node(s, 0);
  std::ofstream(dir / "m.ele") << testing::tetgen_ele(s, 1);
  const auto r = read_tet_mesh(dir / "m.ele");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("m.ele:3: tetrahedron 2 references node 8, which is not defined"),
            std::string::npos)
      << r.message();
  std::filesystem::remove(dir / "m.ele");
  const auto missing = read_tet_mesh(dir / "m.node");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("need both .node and .ele"), std::string::npos) << missing.message();
}

TEST(VtkLegacyReader, AsciiAndBinaryInBothCellLayouts) {
  const Sample s = cube_sample();
  for (bool binary : {false, true}) {
    for (bool v5 : {false, true}) {
      const MeshFile m = parse_ok(testing::vtk_legacy(s, binary, v5), ".vtk");
      MeshFile first = m;  // the sample's cells come first, then the hexahedron's 6 tetrahedra
      first.tets.resize(std::min(first.tets.size(), s.tets.size()));
      expect_same(s, first);
      EXPECT_EQ(m.tets.size(), s.tets.size() + 6);
      ASSERT_EQ(m.edges.size(), 1u);
      EXPECT_EQ(m.edges[0], (Edge{0, 7}));
      EXPECT_TRUE(m.skipped.empty());
      EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 hexahedron into 6 tetrahedra"}));
    }
  }
}

TEST(VtkLegacyReader, RejectsWrongCellSizesAndShortLists) {
  const Sample s = cube_sample();
  std::string text = testing::vtk_legacy(s, false, false);
  text.replace(text.find("\n10\n"), 4, "\n5\n");  // a 4-point cell declared a triangle
  EXPECT_NE(parse_error(text, ".vtk").find("has 4 points, expected 3"), std::string::npos);
  EXPECT_NE(parse_error("# vtk DataFile Version 3.0\nx\nASCII\nDATASET STRUCTURED_POINTS\n", ".vtk")
                .find("only UNSTRUCTURED_GRID"),
            std::string::npos);
  EXPECT_NE(
      parse_error(
          "# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 1000000 float\n0 0 0\n",
          ".vtk")
          .find("declares 3000000 point coordinates"),
      std::string::npos);
}

TEST(VtuReader, EveryEncodingAndHeaderType) {
  using testing::VtuMode;
  const Sample s = cube_sample();
  for (VtuMode mode : {VtuMode::ascii, VtuMode::inline_separate, VtuMode::inline_joint, VtuMode::appended_raw,
                       VtuMode::appended_base64}) {
    for (bool header64 : {false, true}) {
      for (bool float32 : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "mode " << static_cast<int>(mode) << " header64 " << header64);
        const MeshFile m = parse_ok(testing::vtu(s, mode, header64, float32), ".vtu");
        expect_same(s, m, float32);
      }
    }
  }
}

TEST(VtuReader, RejectsUnknownCompressionBadBase64AndLyingHeaders) {
  using testing::VtuMode;
  const Sample s = cube_sample();
  std::string z = testing::vtu(s, VtuMode::inline_separate, false);
  z.replace(z.find("header_type"), 0, "compressor=\"vtkLZMADataCompressor\" ");
  EXPECT_NE(parse_error(z, ".vtu").find("compressor vtkLZMADataCompressor is not supported"),
            std::string::npos);
  std::string b = testing::vtu(s, VtuMode::inline_separate, false);
  b[b.find("format=\"binary\">") + 30] = '!';
  EXPECT_NE(parse_error(b, ".vtu").find("bad base64"), std::string::npos);
  std::string r = testing::vtu(s, VtuMode::appended_raw, true);
  EXPECT_NE(parse_error(r.substr(0, r.size() - 40), ".vtu").find("bytes"), std::string::npos);
  std::string n = testing::vtu(s, VtuMode::ascii, false);
  n.replace(n.find("NumberOfPoints=\"8\""), 18, "NumberOfPoints=\"80000000\"");
  EXPECT_NE(parse_error(n, ".vtu").find("needs 240000000 numbers"), std::string::npos);
}

TEST(ObjReader, TriangulatesConvexAndConcavePolygons) {
  // An L-shaped hexagon (concave at (1,1)) of area 3 in the plane z = 2, and a quad of area 1.
  const std::string text =
      "# L\nv 0 0 2\nv 2 0 2\nv 2 1 2\nv 1 1 2\nv 1 2 2\nv 0 2 2\nv 5 0 0\nv 6 0 0\nv 6 1 0\nv 5 1 0\n"
      "f 1 2 3 4 5 6\nf -4 -3 -2 -1\n";
  const MeshFile m = parse_ok(text, ".obj");
  ASSERT_EQ(m.triangles.size(), 6u);
  double area = 0;
  for (const Tri& t : m.triangles) {
    const Vec3 n = (m.positions[t[1]] - m.positions[t[0]]).cross(m.positions[t[2]] - m.positions[t[0]]);
    EXPECT_GT(n.z(), 0) << "every triangle keeps the polygon's counter-clockwise orientation";
    area += 0.5 * n.norm();
  }
  EXPECT_NEAR(area, 4.0, 1e-12);
  EXPECT_EQ(m.notices, (std::vector<std::string>{"split 1 polygon and 1 quadrilateral into 6 triangles"}));
}

TEST(ObjReader, RejectsOutOfRangeFaceWithItsLine) {
  EXPECT_NE(parse_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\nf 1 2 7\n", ".obj")
                .find("test.obj:6: face 2 references vertex 7, but there are 3 vertices"),
            std::string::npos);
}

TEST(StlReader, BinaryWhoseHeaderSaysSolidIsStillBinary) {
  std::string bin = "solid looks like ascii";
  bin.resize(80, ' ');
  testing::put<std::uint32_t>(bin, 2);
  const float tris[2][9] = {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {1, 0, 0, 1, 1, 0, 0, 1, 0}};
  for (const auto& t : tris) {
    for (int k = 0; k < 3; ++k) testing::put<float>(bin, 0);
    for (float v : t) testing::put<float>(bin, v);
    bin.append(2, '\0');
  }
  const MeshFile m = parse_ok(bin, ".stl");
  EXPECT_EQ(m.format, "STL binary");
  EXPECT_EQ(m.positions.size(), 4u) << "shared corners are merged";
  EXPECT_EQ(m.triangles.size(), 2u);
  const std::string lying = bin.substr(0, bin.size() - 10);
  EXPECT_NE(parse_error(lying, ".stl")
                .find("binary STL declares 2 triangles (184 bytes), but the file has 174 bytes"),
            std::string::npos);
}

TEST(StlReader, Ascii) {
  const std::string text =
      "solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n "
      "endloop\nendfacet\n"
      "facet normal 0 0 1\n outer loop\n  vertex 1 0 0\n  vertex 1 1 0\n  vertex 0 1 0\n "
      "endloop\nendfacet\nendsolid t\n";
  const MeshFile m = parse_ok(text, ".stl");
  EXPECT_EQ(m.format, "STL ASCII");
  EXPECT_EQ(m.positions.size(), 4u);
  EXPECT_EQ(m.triangles, (std::vector<Tri>{{0, 1, 2}, {1, 3, 2}}));
  EXPECT_NE(parse_error(text.substr(0, 70), ".stl").find("unexpected end of file"), std::string::npos);
}

TEST(Dispatch, EmptyUnknownAndMissing) {
  EXPECT_EQ(parse_error("", ".msh"), "test.msh: empty file");
  const auto r = read_mesh_file("/nonexistent/x.vtu");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "/nonexistent/x.vtu: cannot open: no such file");
  const auto u = read_mesh_file("mesh.xyz");
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.message().find("unknown mesh format '.xyz'"), std::string::npos);
}

TEST(Dispatch, TriMeshFromVolumeFileKeepsOnlyTriangleNodes) {
  const Sample s = cube_sample();
  const auto dir = std::filesystem::temp_directory_path() / "pliant_io_tri";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "c.msh", std::ios::binary) << testing::msh22(s, false);
  const auto r = read_tri_mesh(dir / "c.msh");
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->positions.size(), 4u);  // triangles use nodes 0..3
  for (std::size_t t = 0; t < s.triangles.size(); ++t) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(r->positions[r->triangles[t][c]], s.positions[s.triangles[t][c]]);
  }
}

namespace strips_and_padding {

// A PLY of two strips (Turk's triangle strips: -1 between strips, alternating winding), as the
// Stanford and common-3D scans write them. The 2 × 1 grid of squares below, one strip per row of two
// squares, must come out as the 4 triangles a face list would give, each wound counter-clockwise seen
// from +z like the strip's first triangle; the strip's repeated vertex (a turn) makes no triangle.
//   3---4---5
//   | \ | \ |       y
//   0---1---2       +-- x
TEST(PlyReader, TriangleStripsAlternateWindingAndDropTurns) {
  const std::string ply =
      "ply\nformat ascii 1.0\nelement vertex 6\nproperty float x\nproperty float y\nproperty float z\n"
      "element tristrips 1\nproperty list int int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n2 0 0\n0 1 0\n1 1 0\n2 1 0\n"
      // strip 1: 0 1 3 4 4 -> (0,1,3), (3,1,4) (odd: first two swapped), (3,4,4) a turn, dropped;
      // strip 2: 1 2 4 5
      "10 0 1 3 4 4 -1 1 2 4 5\n";
  const MeshFile m = parse_ok(ply, ".ply");
  ASSERT_EQ(m.positions.size(), 6u);
  ASSERT_EQ(m.triangles.size(), 4u);
  const std::vector<Tri> want = {{0, 1, 3}, {3, 1, 4}, {1, 2, 4}, {4, 2, 5}};
  for (std::size_t t = 0; t < want.size(); ++t) {
    // The same triangle up to rotation of its corners (orientation is what matters).
    const Tri& got = m.triangles[t];
    bool same = false;
    for (int r = 0; r < 3; ++r)
      same =
          same || (got[0] == want[t][r] && got[1] == want[t][(r + 1) % 3] && got[2] == want[t][(r + 2) % 3]);
    EXPECT_TRUE(same) << "triangle " << t << ": " << got[0] << " " << got[1] << " " << got[2];
  }
  // Every triangle faces +z: the alternation kept the winding.
  for (const Tri& t : m.triangles) {
    const Vec3 n = (m.positions[t[1]] - m.positions[t[0]]).cross(m.positions[t[2]] - m.positions[t[0]]);
    EXPECT_GT(n.z(), 0);
  }
  EXPECT_NE(std::find(m.notices.begin(), m.notices.end(), "split 2 triangle strips into 4 triangles"),
            m.notices.end());
  EXPECT_NE(std::find(m.notices.begin(), m.notices.end(),
                      "dropped 1 degenerate triangle where triangle strips turn"),
            m.notices.end());
  EXPECT_NE(parse_error("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                        "property float z\nelement tristrips 1\nproperty list int int vertex_indices\n"
                        "end_header\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2 7\n",
                        ".ply")
                .find("triangle strip 0 references vertex 7, but there are 3 vertices"),
            std::string::npos);
}

TEST(ObjReader, TrailingNulBytesAreIgnoredWithANotice) {
  const std::string obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  const MeshFile plain = parse_ok(obj, ".obj");
  EXPECT_TRUE(plain.notices.empty());
  for (const std::string& padding : {std::string(1, '\0'), std::string("\n") + '\0' + '\0' + "\n"}) {
    const MeshFile m = parse_ok(obj + padding, ".obj");
    EXPECT_EQ(m.positions, plain.positions);
    EXPECT_EQ(m.triangles, plain.triangles);
    const std::size_t n = static_cast<std::size_t>(std::count(padding.begin(), padding.end(), '\0'));
    ASSERT_EQ(m.notices.size(), 1u);
    EXPECT_EQ(m.notices[0], "ignored " + std::to_string(n) + (n == 1 ? " NUL byte" : " NUL bytes") +
                                " at the end of the file (padding)");
  }
  // A NUL before the last statement is no padding: still an error naming its line.
  EXPECT_NE(parse_error(std::string("v 0 0 0\n") + '\0' + "\nv 1 0 0\n", ".obj").find(":2:"),
            std::string::npos);
}

TEST(Dispatch, TetMeshDropsNodesInNoTetrahedronWithANotice) {
  Sample s = cube_sample();
  // Three stray nodes: before, between and after the used ones, as in SOFA's raptorTetra_8418.vtu.
  s.positions.insert(s.positions.begin(), Vec3(9, 9, 9));
  for (Tet& t : s.tets)
    for (Index& v : t) ++v;
  for (Tri& t : s.triangles)
    for (Index& v : t) ++v;
  s.positions.insert(s.positions.begin() + 4, Vec3(8, 8, 8));
  for (Tet& t : s.tets)
    for (Index& v : t) v += v >= 4;
  for (Tri& t : s.triangles)
    for (Index& v : t) v += v >= 4;
  s.positions.push_back(Vec3(7, 7, 7));
  s.triangles.clear();  // a volume-only file: the stray nodes are in no element at all
  const auto dir = std::filesystem::temp_directory_path() / "pliant_io_stray";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "c.msh", std::ios::binary) << testing::msh22(s, false);
  std::vector<std::string> notices;
  const auto r = read_tet_mesh(dir / "c.msh", &notices);
  ASSERT_TRUE(r.ok()) << r.message();
  const Sample cube = cube_sample();
  EXPECT_EQ(r->positions, cube.positions);
  EXPECT_EQ(r->tets, cube.tets);
  ASSERT_EQ(notices.size(), 1u);
  // msh22 numbers nodes from 1: the stray ones are 1, 5 and 11 in the file.
  EXPECT_EQ(notices[0],
            "dropped 3 nodes that belong to no tetrahedron (1, 5, 11 as the file numbers them); the other "
            "nodes are renumbered in order");
  std::filesystem::remove_all(dir);
}

}  // namespace strips_and_padding

}  // namespace
}  // namespace pliant::io
