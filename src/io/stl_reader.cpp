// STL reader. Binary STL is an 80-byte header, a uint32 triangle count n and n records of 50 bytes;
// its header may begin with "solid" too, so the format is decided by size: a file of exactly
// 84 + 50n bytes is binary, otherwise one starting with "solid" is ASCII. Vertices with bit-identical
// coordinates are merged into one node (STL stores each triangle's corners separately).
#include "io/parse.hpp"
#include "io/readers.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

namespace pliant::io::detail {
namespace {

struct Vec3Hash {
  std::size_t operator()(const Vec3& p) const {
    std::size_t h = 0;
    for (int k = 0; k < 3; ++k) {
      std::uint64_t bits;
      const double v = p[k] == 0.0 ? 0.0 : p[k];  // -0 and +0 are the same point
      std::memcpy(&bits, &v, 8);
      h = h * 1000003u ^ std::hash<std::uint64_t>{}(bits);
    }
    return h;
  }
};

struct Merger {
  MeshBuilder builder;
  std::unordered_map<Vec3, Index, Vec3Hash> index;
  explicit Merger(std::string format) : builder(std::move(format)) {}

  Index node(const Vec3& p) {
    const Vec3 key(p[0] == 0.0 ? 0.0 : p[0], p[1] == 0.0 ? 0.0 : p[1], p[2] == 0.0 ? 0.0 : p[2]);
    const auto [it, inserted] = index.emplace(key, static_cast<Index>(builder.mesh().positions.size()));
    if (inserted) builder.mesh().positions.push_back(key);
    return it->second;
  }
  void triangle(const Vec3 (&v)[3]) {
    const Tri t{node(v[0]), node(v[1]), node(v[2])};
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
      builder.skip_element("degenerate triangle (repeated vertex)");
      return;
    }
    builder.mesh().triangles.push_back(t);
  }
};

MeshFile read_binary(std::string_view bytes, const std::string& name) {
  ByteCursor b(bytes, name, 80);
  const auto n = b.read<std::uint32_t>("triangle count");
  Merger m("STL binary");
  m.builder.mesh().triangles.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    b.skip(12, "normal");
    Vec3 v[3];
    for (auto& p : v) {
      for (int k = 0; k < 3; ++k) p[k] = b.read<float>("vertex coordinate");
      if (!finite(p)) b.fail("triangle " + std::to_string(i) + " has a coordinate that is NaN or infinite");
    }
    b.skip(2, "attribute byte count");
    m.triangle(v);
  }
  return m.builder.finish();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The next keyword in lower case, with "end loop"/"end facet"/"end solid" (written by some
// exporters) joined into one word.
std::string keyword(TextCursor& in, std::string_view what) {
  std::string k = lower(in.token(what));
  if (k == "end") k += lower(in.token(what));
  return k;
}

void expect_keyword(TextCursor& in, std::string_view word) {
  const std::string k = keyword(in, word);
  if (k != word) in.fail("expected '" + std::string(word) + "', found '" + printable(k, 30) + "'");
}

// Keywords in any case, any spacing, "end solid", several solids in one file, facet normals that are
// NaN (written for degenerate facets; normals are not used) and loops of more than 3 vertices (fanned).
MeshFile read_ascii(std::string_view bytes, const std::string& name) {
  TextCursor in(bytes, name);
  expect_keyword(in, "solid");
  in.rest_of_line();
  Merger m("STL ASCII");
  std::vector<Vec3> loop;
  while (true) {
    const std::string t = keyword(in, "'facet' or 'endsolid'");
    if (t == "endsolid") {
      in.rest_of_line();  // the solid's name
      if (in.at_end()) break;
      expect_keyword(in, "solid");  // another solid follows
      in.rest_of_line();
      continue;
    }
    if (t != "facet") in.fail("expected 'facet' or 'endsolid', found '" + printable(t, 30) + "'");
    if (lower(in.peek()) == "normal") {
      in.token("normal");
      for (int k = 0; k < 3; ++k) {
        const std::string v(in.token("normal component"));
        char* end = nullptr;
        std::strtod(v.c_str(), &end);
        if (end != v.c_str() + v.size())
          in.fail("normal component '" + printable(v, 30) + "' is not a number");
      }
    }
    expect_keyword(in, "outer");
    expect_keyword(in, "loop");
    loop.clear();
    while (true) {
      const std::string k = keyword(in, "'vertex' or 'endloop'");
      if (k == "endloop") break;
      if (k != "vertex") in.fail("expected 'vertex', found '" + printable(k, 30) + "'");
      loop.push_back(in.point("vertex coordinate"));
    }
    if (loop.size() < 3) in.fail("facet has " + std::to_string(loop.size()) + " vertices, expected 3");
    expect_keyword(in, "endfacet");
    for (std::size_t i = 1; i + 1 < loop.size(); ++i) {
      const Vec3 v[3] = {loop[0], loop[i], loop[i + 1]};
      m.triangle(v);
    }
  }
  return m.builder.finish();
}

}  // namespace

MeshFile read_stl(std::string_view bytes, const std::string& name) {
  if (bytes.empty()) throw_failure(name + ": empty file");
  if (bytes.size() >= 84) {
    std::uint32_t n = 0;
    std::memcpy(&n, bytes.data() + 80, 4);
    if (84 + 50 * static_cast<std::uint64_t>(n) == bytes.size()) return read_binary(bytes, name);
  }
  std::size_t i = 0;
  while (i < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[i]))) ++i;
  // A binary file with a wrong count can begin with "solid" too; text has no NUL bytes.
  const bool text = bytes.find('\0') == std::string_view::npos;
  if (bytes.size() - i >= 5 && lower(bytes.substr(i, 5)) == "solid" && text) return read_ascii(bytes, name);
  if (bytes.size() < 84) {
    throw_failure(
        name + ": not an STL file: " + std::to_string(bytes.size()) +
        " bytes is too short for a binary STL (84 bytes at least) and it does not start with 'solid'");
  }
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 80, 4);
  throw_failure(name + ": byte 80: binary STL declares " + std::to_string(n) + " triangles (" +
                std::to_string(84 + 50 * static_cast<std::uint64_t>(n)) + " bytes), but the file has " +
                std::to_string(bytes.size()) + " bytes");
}

}  // namespace pliant::io::detail
