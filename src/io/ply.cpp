// PLY reader and writer (the polygon file format of Turk 1994, "The PLY Polygon File Format",
// Stanford), ASCII and binary little/big endian.
//
// The header declares elements in order, each with scalar properties and list properties ("property
// list COUNT_TYPE ITEM_TYPE name"). Pliant reads the "vertex" element's x, y, z (any numeric type, in
// any order among other properties) and the "face" element's "vertex_indices" (or "vertex_index")
// list; every other element and property is read past. Polygons are triangulated. A "tristrips"
// element's "vertex_indices" list (as the Stanford and Cyberware scans write it: strips separated by
// -1) is read as triangles of alternating winding, so every triangle keeps the strip's orientation;
// the degenerate triangles strips use to turn corners are dropped. Counts are checked against the
// bytes left before anything is allocated.
#include "io/cell_split.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "io/write_util.hpp"
#include "pliant/core/escape.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/surface_writers.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace pliant::io {
namespace detail {
namespace {

enum class Type { i8, u8, i16, u16, i32, u32, f32, f64 };

// Triangle strips: in a strip a b c d e ..., triangle k is (k, k+1, k+2) for even k and (k+1, k, k+2)
// for odd k, which keeps one winding along the strip. A triangle with a repeated vertex is the strip
// turning a corner, not a face: it is dropped. -1 ends a strip. The notices say what was read, as
// for VTK's strips ("split 1 triangle strip into 130 triangles").
void add_strips(MeshBuilder& builder, const std::vector<long long>& strips) {
  std::size_t start = 0, dropped = 0;
  for (std::size_t i = 0; i < strips.size(); ++i) {
    if (strips[i] != -1) continue;
    std::size_t triangles = 0;
    for (std::size_t k = start; k + 2 < i; ++k) {
      const bool odd = (k - start) % 2 == 1;
      const Index a = static_cast<Index>(strips[odd ? k + 1 : k]);
      const Index b = static_cast<Index>(strips[odd ? k : k + 1]);
      const Index c = static_cast<Index>(strips[k + 2]);
      if (a == b || b == c || a == c) {
        ++dropped;
        continue;
      }
      builder.add_triangle({a, b, c});
      ++triangles;
    }
    if (i > start) builder.note_split("triangle strip", "triangle", triangles);
    start = i + 1;
  }
  if (dropped > 0) {
    builder.mesh().notices.push_back("dropped " + std::to_string(dropped) +
                                     (dropped == 1 ? " degenerate triangle" : " degenerate triangles") +
                                     " where triangle strips turn");
  }
}

bool parse_type(std::string_view s, Type& t) {
  static constexpr std::pair<std::string_view, Type> names[] = {
      {"char", Type::i8},   {"int8", Type::i8},     {"uchar", Type::u8},   {"uint8", Type::u8},
      {"short", Type::i16}, {"int16", Type::i16},   {"ushort", Type::u16}, {"uint16", Type::u16},
      {"int", Type::i32},   {"int32", Type::i32},   {"uint", Type::u32},   {"uint32", Type::u32},
      {"float", Type::f32}, {"float32", Type::f32}, {"double", Type::f64}, {"float64", Type::f64},
  };
  for (const auto& [n, type] : names) {
    if (s == n) {
      t = type;
      return true;
    }
  }
  return false;
}

std::size_t size_of(Type t) {
  switch (t) {
    case Type::i8:
    case Type::u8:
      return 1;
    case Type::i16:
    case Type::u16:
      return 2;
    case Type::i32:
    case Type::u32:
    case Type::f32:
      return 4;
    case Type::f64:
      return 8;
  }
  return 8;
}

bool is_integer(Type t) { return t != Type::f32 && t != Type::f64; }

struct Property {
  std::string name;
  Type type = Type::f32;
  bool list = false;
  Type count_type = Type::u8;
};

struct Element {
  std::string name;
  long long count = 0;
  std::size_t line = 0;
  std::vector<Property> properties;
};

enum class Format { ascii, little, big };

// Reads one value of type `t` from the data, as a double (exact for every PLY type).
struct Data {
  Format format;
  TextCursor* text;
  ByteCursor* bytes;

  double value(Type t, const char* what) {
    if (format == Format::ascii) {
      if (is_integer(t)) {
        const long long v = text->integer(what);
        check_range(t, v);
        return static_cast<double>(v);
      }
      const std::string_view tok = text->token(what);
      double v = 0;
      if (!parse_double(tok, v)) {
        text->fail(std::string("expected ") + what + " (a number), found " + quoted_for_message(tok));
      }
      return v;
    }
    switch (t) {
      case Type::i8:
        return bytes->read<std::int8_t>(what);
      case Type::u8:
        return bytes->read<std::uint8_t>(what);
      case Type::i16:
        return bytes->read<std::int16_t>(what);
      case Type::u16:
        return bytes->read<std::uint16_t>(what);
      case Type::i32:
        return bytes->read<std::int32_t>(what);
      case Type::u32:
        return bytes->read<std::uint32_t>(what);
      case Type::f32:
        return bytes->read<float>(what);
      case Type::f64:
        return bytes->read<double>(what);
    }
    return 0;
  }

  void check_range(Type t, long long v) {
    long long lo = 0, hi = 0;
    switch (t) {
      case Type::i8:
        lo = -128, hi = 127;
        break;
      case Type::u8:
        lo = 0, hi = 255;
        break;
      case Type::i16:
        lo = -32768, hi = 32767;
        break;
      case Type::u16:
        lo = 0, hi = 65535;
        break;
      case Type::i32:
        lo = -2147483648LL, hi = 2147483647LL;
        break;
      default:
        lo = 0, hi = 4294967295LL;
    }
    if (v < lo || v > hi) {
      text->fail("value " + std::to_string(v) + " does not fit its declared type (range " +
                 std::to_string(lo) + " to " + std::to_string(hi) + ")");
    }
  }

  [[noreturn]] void fail(const std::string& what) {
    if (format == Format::ascii) text->fail(what);
    bytes->fail(what);
  }
  // Names the place (line or byte) for a failure found after reading.
  void check_count(long long count, std::size_t min_bytes_each, const std::string& what) {
    if (format == Format::ascii) {
      text->check_count(count, min_bytes_each, what);
    } else {
      bytes->check_count(static_cast<std::uint64_t>(count), min_bytes_each, what);
    }
  }
};

}  // namespace

MeshFile read_ply(std::string_view file_bytes, const std::string& name) {
  TextCursor head(file_bytes, name);
  if (head.rest_of_line() != "ply") head.fail("not a PLY file: the first line must be 'ply'");
  Format format = Format::ascii;
  bool have_format = false;
  std::vector<Element> elements;
  while (true) {
    if (head.remaining() == 0) head.fail("unexpected end of file in the header (no end_header)");
    const std::string_view line = head.rest_of_line();
    TextCursor words(line, name);
    const std::size_t line_number = head.line();
    const auto fail = [&](const std::string& what) {
      throw_failure(name + ":" + std::to_string(line_number) + ": " + what);
    };
    if (words.at_end()) continue;
    const std::string_view key = words.token("keyword");
    const auto word = [&](const char* what) {
      if (words.at_end()) fail(std::string("missing ") + what);
      return words.token(what);
    };
    if (key == "end_header") break;
    if (key == "comment" || key == "obj_info") continue;
    if (key == "format") {
      const std::string_view f = word("format");
      if (f == "ascii") {
        format = Format::ascii;
      } else if (f == "binary_little_endian") {
        format = Format::little;
      } else if (f == "binary_big_endian") {
        format = Format::big;
      } else {
        fail("unknown PLY format " + quoted_for_message(f) +
             " (ascii, binary_little_endian, binary_big_endian)");
      }
      const std::string_view version = word("version");
      if (version != "1.0") fail("PLY version " + quoted_for_message(version) + " is not supported (1.0)");
      have_format = true;
    } else if (key == "element") {
      Element e;
      e.name = std::string(word("element name"));
      const std::string_view count = word("element count");
      const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), e.count);
      if (ec != std::errc() || ptr != count.data() + count.size()) {
        fail("element count " + quoted_for_message(count) + " is not an integer");
      }
      if (e.count < 0)
        fail("element " + escape_for_message(e.name) + " count " + std::to_string(e.count) + " is negative");
      e.line = line_number;
      elements.push_back(std::move(e));
    } else if (key == "property") {
      if (elements.empty()) fail("property before any element");
      Property p;
      std::string_view type = word("property type");
      if (type == "list") {
        p.list = true;
        const std::string_view ct = word("list count type");
        if (!parse_type(ct, p.count_type) || !is_integer(p.count_type)) {
          fail("list count type " + quoted_for_message(ct) + " is not an integer type");
        }
        type = word("list item type");
      }
      if (!parse_type(type, p.type)) fail("unknown property type " + quoted_for_message(type));
      p.name = std::string(word("property name"));
      elements.back().properties.push_back(std::move(p));
    } else {
      fail("unknown header keyword " + quoted_for_message(key));
    }
    if (!words.at_end()) fail("unexpected text after '" + escape_for_message(key) + "' line");
  }
  if (!have_format) head.fail("the header has no format line");

  // Where x, y, z and the face indices are.
  MeshBuilder builder(format == Format::ascii    ? "PLY ASCII"
                      : format == Format::little ? "PLY binary little endian"
                                                 : "PLY binary big endian");
  TextCursor text(file_bytes, name);
  text.seek(head.offset());
  ByteCursor bytes(file_bytes, name, head.offset(), format == Format::big);
  Data data{format, &text, &bytes};
  const Element* vertex = nullptr;
  for (const Element& e : elements) {
    if (e.name == "vertex") {
      if (vertex) throw_failure(name + ":" + std::to_string(e.line) + ": second vertex element");
      vertex = &e;
    }
  }
  if (!vertex) throw_failure(name + ": the header declares no vertex element");
  int xyz[3] = {-1, -1, -1};
  for (std::size_t k = 0; k < vertex->properties.size(); ++k) {
    const Property& p = vertex->properties[k];
    for (int c = 0; c < 3; ++c) {
      if (p.name == std::string(1, static_cast<char>('x' + c))) {
        if (p.list)
          throw_failure(name + ":" + std::to_string(vertex->line) + ": vertex property " + p.name +
                        " is a list");
        xyz[c] = static_cast<int>(k);
      }
    }
  }
  for (int c = 0; c < 3; ++c) {
    if (xyz[c] < 0) {
      throw_failure(name + ":" + std::to_string(vertex->line) + ": the vertex element has no property " +
                    std::string(1, static_cast<char>('x' + c)));
    }
  }
  const long long nv = vertex->count;
  std::vector<long long> refs;  // polygon vertex indices, flat
  std::vector<std::size_t> sizes;
  std::vector<std::size_t> where;  // line or byte offset of each face, for messages
  std::vector<long long> strips;   // triangle-strip indices, flat, strips separated by -1
  for (const Element& e : elements) {
    // Each instance takes at least 1 byte per value in binary, 2 in ASCII ("0 ").
    std::size_t min_each = 0;
    for (const Property& p : e.properties)
      min_each += format == Format::ascii ? 2 : size_of(p.list ? p.count_type : p.type);
    data.check_count(e.count, std::max<std::size_t>(min_each, 1), e.name + " elements");
    if (&e == vertex) builder.reserve_nodes(static_cast<std::size_t>(e.count));
    const bool face = e.name == "face";
    for (long long i = 0; i < e.count; ++i) {
      Vec3 p = Vec3::Zero();
      for (std::size_t k = 0; k < e.properties.size(); ++k) {
        const Property& prop = e.properties[k];
        if (!prop.list) {
          const double v = data.value(prop.type, "property value");
          for (int c = 0; c < 3; ++c) {
            if (&e == vertex && static_cast<int>(k) == xyz[c]) {
              if (!std::isfinite(v)) {
                data.fail("vertex " + std::to_string(i) + " coordinate " + prop.name +
                          " is not a finite number");
              }
              p[c] = v;
            }
          }
          continue;
        }
        const double n = data.value(prop.count_type, "list length");
        if (n < 0) data.fail("negative list length " + std::to_string(static_cast<long long>(n)));
        const auto len = static_cast<long long>(n);
        data.check_count(len, format == Format::ascii ? 2 : size_of(prop.type), "list entries");
        const bool indices = face && (prop.name == "vertex_indices" || prop.name == "vertex_index");
        const bool strip =
            e.name == "tristrips" && (prop.name == "vertex_indices" || prop.name == "vertex_index");
        if (strip && !is_integer(prop.type)) data.fail("triangle strip vertex indices of type float");
        if (indices) {
          if (!is_integer(prop.type)) data.fail("face vertex indices of type float");
          if (len < 3)
            data.fail("face " + std::to_string(i) + " has " + std::to_string(len) +
                      " vertices (at least 3 are needed)");
          where.push_back(format == Format::ascii ? text.line() : bytes.offset());
          sizes.push_back(static_cast<std::size_t>(len));
        }
        for (long long j = 0; j < len; ++j) {
          const double v = data.value(prop.type, indices ? "vertex index" : "list entry");
          if (indices) {
            if (v < 0 || v >= static_cast<double>(nv)) {
              data.fail("face " + std::to_string(i) + " references vertex " +
                        std::to_string(static_cast<long long>(v)) + ", but there are " + std::to_string(nv) +
                        " vertices (numbered from 0)");
            }
            refs.push_back(static_cast<long long>(v));
          } else if (strip) {
            if (v < -1 || v >= static_cast<double>(nv)) {
              data.fail("triangle strip " + std::to_string(i) + " references vertex " +
                        std::to_string(static_cast<long long>(v)) + ", but there are " + std::to_string(nv) +
                        " vertices (numbered from 0; -1 ends a strip)");
            }
            strips.push_back(static_cast<long long>(v));
          }
        }
      }
      if (&e == vertex) builder.add_node(i, p);
      if (e.name == "tristrips") {
        strips.push_back(-1);  // one element's list ends its last strip
      }
      if (format == Format::ascii && !text.at_line_end()) {
        text.token("");
        text.fail(e.name + " " + std::to_string(i) + " has more values than its properties");
      }
    }
  }
  if (format == Format::ascii ? !text.at_end() : bytes.remaining() != 0) {
    if (format == Format::ascii) {
      text.token("");
      text.fail("more data than the header declares");
    }
    bytes.fail("more data than the header declares (" + std::to_string(bytes.remaining()) + " bytes left)");
  }
  std::vector<Index> poly;
  for (std::size_t f = 0, at = 0; f < sizes.size(); at += sizes[f], ++f) {
    poly.assign(refs.begin() + static_cast<std::ptrdiff_t>(at),
                refs.begin() + static_cast<std::ptrdiff_t>(at + sizes[f]));
    if (const std::string problem = add_polygon(builder, poly, static_cast<long long>(f)); !problem.empty())
      throw_failure(name + ": face " + std::to_string(f) + " " + problem);
  }
  add_strips(builder, strips);
  return builder.finish();
}

}  // namespace detail

namespace {
template <class T>
void put(std::string& out, T v, bool big) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  if (big != (std::endian::native == std::endian::big)) {
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  out.append(b, sizeof(T));
}
}  // namespace

Status write_ply(const std::filesystem::path& path, const TriMesh& mesh, PlyEncoding encoding) {
  if (auto s = detail::check_finite(path, mesh.positions); !s) return s;
  if (auto s = detail::check_cells(path, mesh.positions, mesh.triangles, "triangle"); !s) return s;
  if (mesh.positions.size() > 0x7fffffffu)
    return Error{path.string() + ": cannot write: too many nodes for PLY int indices"};
  const char* format = encoding == PlyEncoding::ascii                  ? "ascii"
                       : encoding == PlyEncoding::binary_little_endian ? "binary_little_endian"
                                                                       : "binary_big_endian";
  std::string out =
      std::string("ply\nformat ") + format + " 1.0\ncomment written by Pliant\nelement vertex " +
      std::to_string(mesh.positions.size()) +
      "\nproperty double x\nproperty double y\nproperty double z\nelement face " +
      std::to_string(mesh.triangles.size()) + "\nproperty list uchar int vertex_indices\nend_header\n";
  out.reserve(out.size() + 60 * mesh.positions.size() + 24 * mesh.triangles.size());
  if (encoding == PlyEncoding::ascii) {
    detail::append_ascii_nodes_and_triangles(out, mesh.positions, mesh.triangles);
  } else {
    const bool big = encoding == PlyEncoding::binary_big_endian;
    for (const Vec3& p : mesh.positions) {
      for (int k = 0; k < 3; ++k) put<double>(out, p[k], big);
    }
    for (const Tri& t : mesh.triangles) {
      put<std::uint8_t>(out, 3, big);
      for (const Index v : t) put<std::int32_t>(out, static_cast<std::int32_t>(v), big);
    }
  }
  return write_file_atomically(path, out);
}

}  // namespace pliant::io
