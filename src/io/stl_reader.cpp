// STL reader. Binary STL is an 80-byte header, a uint32 triangle count n and n records of 50 bytes;
// its header may begin with "solid" too, so the format is decided by size: a file of exactly
// 84 + 50n bytes is binary, otherwise one starting with "solid" is ASCII. Vertices with bit-identical
// coordinates are merged into one node (STL stores each triangle's corners separately).
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "pliant/core/escape.hpp"

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

MeshFile read_ascii(std::string_view bytes, const std::string& name) {
  TextCursor in(bytes, name);
  in.expect("solid");
  in.rest_of_line();
  Merger m("STL ASCII");
  while (true) {
    const std::string_view t = in.token("'facet' or 'endsolid'");
    if (t == "endsolid") break;
    if (t != "facet") in.fail("expected 'facet' or 'endsolid', found " + quoted_for_message(t));
    in.expect("normal");
    in.point("normal component");
    in.expect("outer");
    in.expect("loop");
    Vec3 v[3];
    for (auto& p : v) {
      in.expect("vertex");
      p = in.point("vertex coordinate");
    }
    in.expect("endloop");
    in.expect("endfacet");
    m.triangle(v);
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
  if (bytes.compare(i, 5, "solid") == 0 && text) return read_ascii(bytes, name);
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
