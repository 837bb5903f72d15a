// Hostile and unusual bytes through every text reader: line endings (LF, CRLF, lone CR) must give
// the same mesh and the same line numbers, and bytes echoed in a message must never break it into
// several lines.
#include "formats.hpp"
#include "pliant/io/mesh_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

namespace pliant::io {
namespace {

std::string with_line_ends(std::string text, const std::string& eol) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') {
      out += eol;
    } else {
      out += c;
    }
  }
  return out;
}

struct TextCase {
  const char* ext;
  std::string good;      // a valid file (LF)
  std::string bad;       // a file with a defect on a known line (LF)
  std::string bad_line;  // "test.EXT:N:" expected in the message
};

std::vector<TextCase> cases() {
  const auto s = testing::cube_sample();
  return {
      {".msh", testing::msh22(s, false),
       "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2\n1 0 0 0\n\n2 0 x 0\n$EndNodes\n", "test.msh:8:"},
      {".msh", "$NOD\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$ENDNOD\n$ELM\n1\n1 2 0 0 3 1 2 3\n$ENDELM\n",
       "$NOD\n3\n1 0 0 0\n2 1 0 0\n\n3 0 1 nan\n$ENDNOD\n", "test.msh:6:"},
      {".obj", "# c\nv 0 0 0\nv 1 0 0\nv 0 1 0\ng x\nf 1 2 3\n", "v 0 0 0\n# x\n\nv 1 0 abc\n",
       "test.obj:4:"},
      {".stl",
       "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 "
       "0\nendloop\nendfacet\nendsolid a\n",
       "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\n\nvertex 1 0 0\nvertx 0 1 0\n", "test.stl:7:"},
      {".off", "OFF\n# c\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
       "OFF\n3 1 0\n0 0 0\n\n1 0 0\n0 1 0\n3 0 1 5\n", "test.off:7:"},
      {".ply",
       "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
       "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
       "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
       "end_header\n0 0 0\n1 0 0\n0 1 z\n",
       "test.ply:10:"},
      {".mesh",
       "MeshVersionFormatted 2\nDimension 3\nVertices\n3\n0 0 0 0\n1 0 0 0\n0 1 0 0\nTriangles\n1\n1 2 3 "
       "0\nEnd\n",
       "MeshVersionFormatted 2\nDimension 3\nVertices\n3\n0 0 0 0\n1 0 0 0\n\n0 1 x 0\nEnd\n",
       "test.mesh:8:"},
  };
}

TEST(LineEndings, LfCrlfAndLoneCrReadTheSameAndNumberLinesTheSame) {
  for (const TextCase& c : cases()) {
    SCOPED_TRACE(std::string(c.ext) + ": " + c.good.substr(0, 20));
    const auto reference = parse_mesh(c.good, std::string("test") + c.ext, c.ext);
    ASSERT_TRUE(reference.ok()) << reference.message();
    ASSERT_FALSE(reference->triangles.empty() && reference->tets.empty());
    for (const std::string eol : {"\n", "\r\n", "\r"}) {
      SCOPED_TRACE(eol == "\n" ? "LF" : eol == "\r" ? "CR" : "CRLF");
      const auto m = parse_mesh(with_line_ends(c.good, eol), std::string("test") + c.ext, c.ext);
      ASSERT_TRUE(m.ok()) << m.message();
      EXPECT_EQ(m->positions, reference->positions);
      EXPECT_EQ(m->triangles, reference->triangles);
      EXPECT_EQ(m->tets, reference->tets);
      const auto bad = parse_mesh(with_line_ends(c.bad, eol), std::string("test") + c.ext, c.ext);
      ASSERT_FALSE(bad.ok());
      EXPECT_EQ(bad.message().rfind(c.bad_line, 0), 0u) << bad.message();
    }
  }
}

TEST(LineEndings, TetGenWithLoneCr) {
  const auto dir = std::filesystem::temp_directory_path() / "pliant_io_cr_tetgen";
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "m.node", std::ios::binary) << "4 3 0 0\r# c\r1 0 0 0\r2 1 0 0\r3 0 1 0\r4 0 0 1\r";
    std::ofstream(dir / "m.ele", std::ios::binary) << "1 4 0\r\r1 1 2 3 4\r";
  }
  const auto m = read_mesh_file(dir / "m.node");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->tets.size(), 1u);
  std::ofstream(dir / "m.ele", std::ios::binary) << "1 4 0\r\r1 1 2 3 9\r";
  const auto bad = read_mesh_file(dir / "m.ele");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("m.ele:3: tetrahedron 1 references node 9"), std::string::npos)
      << bad.message();
}

TEST(HostileBytes, EchoedBytesAreEscapedAndCutSoTheMessageIsOneLine) {
  const std::string bell = std::string("v 0 0 \x07\x01") + '\0' + "\x9b\xff" + "\n";
  for (const auto& [bytes, ext, want] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {bell, ".obj", "found '\\x07\\x01\\0\\x9B\\xFF'"},
           {"v 0 0 0\n\x1b[2J\n", ".obj", "unknown OBJ statement '\\x1B[2J'"},
           {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 \xe2\x80\xa8\n", ".msh",
            "found '\\u2028'"},
           {"OFF\n1 0 0\n0 0 caf\xc3\xa9\n", ".off", "found 'caf\xc3\xa9'"},  // valid UTF-8 is kept
           {"MeshVersionFormatted 2\n" + std::string(300, 'A') + "\n", ".mesh",
            std::string(40, 'A') + "...'"},
           {"ply\nformat ascii 1.0\ncomment ok\nbogus\x7f\x1b\n", ".ply",
            "test.ply:4: unknown header keyword 'bogus\\x7F\\x1B'"},
       }) {
    const auto r = parse_mesh(bytes, "test" + ext, ext);
    ASSERT_FALSE(r.ok()) << bytes;
    const std::string& m = r.message();
    EXPECT_NE(m.find(want), std::string::npos) << m;
    EXPECT_LT(m.size(), 300u) << m;
    for (const char c : m) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u != 0x7f) << "control byte " << int(u) << " in: " << m;
    }
  }
}

}  // namespace
}  // namespace pliant::io
