// Wavefront OBJ reader (statements as in the "Object Files (.obj)" appendix B1 of the Advanced
// Visualizer manual, Wavefront Technologies 1995), on Pliant's own tokenizer.
//
// Read: "v x y z [w]" (also the common "v x y z r g b" vertex colours) and "f" with v, v/vt, v//vn or
// v/vt/vn entries, 1-based or negative (relative: -1 is the last vertex so far). Polygons are
// triangulated by ear clipping in their own plane. Counted as skipped: "l" lines and "p" points.
// Ignored: vt, vn, vp, o, g, s, usemtl, mtllib, the display attributes, and free-form geometry
// (counted). A "\" at the end of a line continues the statement on the next. NUL bytes padding the
// end of the file are ignored with a notice. Anything else is an error naming the file and line.
#include "io/cell_split.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "pliant/core/escape.hpp"

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace pliant::io::detail {
namespace {

// One face as read: where it is, and its vertex references (1-based, or already resolved relative
// ones turned into 1-based).
struct Face {
  std::size_t line;
  std::size_t first;  // into Obj::refs
  std::size_t count;
};

bool is_one_of(std::string_view word, std::initializer_list<std::string_view> list) {
  for (std::string_view w : list) {
    if (word == w) return true;
  }
  return false;
}

struct Obj {
  TextCursor in;
  MeshBuilder builder{"OBJ"};
  std::vector<long long> refs;  // vertex references of all faces, 1-based
  std::vector<Face> faces;

  Obj(std::string_view bytes, const std::string& name) : in(bytes, name, '#') {}

  // The next token of the statement, or "" at its end; "\\" at a line end continues on the next line.
  std::string_view next() {
    while (true) {
      if (in.at_line_end()) return {};
      const std::string_view t = in.token("a value");
      if (t == "\\" && in.at_line_end()) {
        in.skip_line();
        continue;
      }
      return t;
    }
  }

  void vertex() {
    double c[7];
    int n = 0;
    for (std::string_view t = next(); !t.empty(); t = next()) {
      if (n == 7) in.fail("vertex has more than 7 values (x y z [w] or x y z r g b)");
      if (!parse_double(t, c[n])) {
        in.fail("expected a vertex coordinate (a number), found " + quoted_for_message(t));
      }
      if (!std::isfinite(c[n]))
        in.fail("vertex coordinate " + quoted_for_message(t) + " is not a finite number");
      ++n;
    }
    if (n != 3 && n != 4 && n != 6 && n != 7) {
      in.fail("vertex has " + std::to_string(n) + (n == 1 ? " value" : " values") +
              ", expected x y z, x y z w or x y z r g b");
    }
    if (builder.node_count() >= static_cast<std::size_t>(std::numeric_limits<Index>::max()))
      in.fail("too many vertices");
    builder.add_node(static_cast<long long>(builder.node_count()) + 1, Vec3(c[0], c[1], c[2]));
  }

  // Parses one reference ("12", "-1", "" for an empty slot) into `value`; false when not an integer.
  static bool parse_index(std::string_view t, long long& value) {
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    return ec == std::errc() && ptr == t.data() + t.size() && !t.empty();
  }

  // A reference's number after a form check: a non-zero integer (vt and vn references, which are
  // ignored, get only this check).
  long long checked_index(std::string_view t, const char* kind, std::string_view entry) {
    long long v = 0;
    if (!parse_index(t, v)) {
      in.fail("face entry " + quoted_for_message(entry) + ": " + kind + " index " + quoted_for_message(t) +
              " is not an integer (entries are v, v/vt, v//vn or v/vt/vn)");
    }
    if (v == 0)
      in.fail("face entry " + quoted_for_message(entry) + ": " + kind + " index 0 (OBJ counts from 1)");
    return v;
  }

  // Resolves a reference to a 1-based index: `count` elements of `kind` are defined so far.
  long long resolve(std::string_view t, long long count, const char* kind, std::string_view entry) {
    long long v = checked_index(t, kind, entry);
    if (v < 0) {
      if (-v > count) {
        in.fail("face entry " + quoted_for_message(entry) + ": relative " + kind + " index " +
                std::to_string(v) + " reaches before the first " + kind + " (" + std::to_string(count) +
                " defined so far)");
      }
      v = count + 1 + v;
    }
    return v;
  }

  void face() {
    const std::size_t line = in.line(), first = refs.size();
    const auto vertices = static_cast<long long>(builder.node_count());
    for (std::string_view t = next(); !t.empty(); t = next()) {
      const std::size_t s1 = t.find('/');
      refs.push_back(resolve(t.substr(0, s1), vertices, "vertex", t));
      if (s1 == std::string_view::npos) continue;
      const std::string_view rest = t.substr(s1 + 1);
      const std::size_t s2 = rest.find('/');
      const std::string_view vt = rest.substr(0, s2);
      if (s2 == std::string_view::npos && vt.empty()) {
        in.fail("face entry " + quoted_for_message(t) +
                " ends with '/' (entries are v, v/vt, v//vn or v/vt/vn)");
      }
      // Texture and normal references are ignored, so only their form is checked: exporters write
      // "f 1/1 2/2 3/3" without any "vt" (a mesh SOFA ships does), and that surface is still sound.
      if (!vt.empty()) checked_index(vt, "texture coordinate", t);
      if (s2 != std::string_view::npos) checked_index(rest.substr(s2 + 1), "normal", t);
    }
    const std::size_t count = refs.size() - first;
    if (count < 3) in.fail("face has " + std::to_string(count) + " vertices (at least 3 are needed)");
    faces.push_back({line, first, count});
  }

  // Skips the rest of a statement (following continuation lines).
  void skip_statement() {
    while (!next().empty()) {
    }
  }

  MeshFile run() {
    while (!in.at_end()) {
      const std::string_view key = in.token("a statement");
      if (key == "v") {
        vertex();
      } else if (key == "f" || key == "fo") {
        face();
      } else if (key == "l" || key == "p") {
        builder.skip_element(key == "l" ? "line" : "point");
        skip_statement();
      } else if (is_one_of(key, {"vt", "vn", "vp", "o", "g", "s", "mg", "usemtl", "mtllib", "bevel",
                                 "c_interp", "d_interp", "lod", "shadow_obj", "trace_obj", "maplib", "usemap",
                                 "ctech", "stech"})) {
        skip_statement();
      } else if (is_one_of(key, {"cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim",
                                 "hole", "scrv", "sp", "end", "con"})) {
        builder.skip_element("free-form statement");
        skip_statement();
      } else {
        in.fail("unknown OBJ statement " + quoted_for_message(key));
      }
    }
    // Positive references may point to vertices defined after the face; check them all now.
    MeshFile& mesh = builder.mesh();
    const auto nv = static_cast<long long>(mesh.positions.size());
    std::vector<Index> poly;
    for (std::size_t f = 0; f < faces.size(); ++f) {
      poly.clear();
      for (std::size_t k = 0; k < faces[f].count; ++k) {
        const long long v = refs[faces[f].first + k];
        if (v > nv) {
          throw_failure(in.name() + ":" + std::to_string(faces[f].line) + ": face " + std::to_string(f + 1) +
                        " references vertex " + std::to_string(v) + ", but there are " + std::to_string(nv) +
                        " vertices");
        }
        poly.push_back(static_cast<Index>(v - 1));
      }
      if (const std::string problem = add_polygon(builder, poly, static_cast<long long>(f + 1));
          !problem.empty())
        throw_failure(in.name() + ":" + std::to_string(faces[f].line) + ": face " + std::to_string(f + 1) +
                      " " + problem);
    }
    return builder.finish();
  }
};

}  // namespace

MeshFile read_obj(std::string_view bytes, const std::string& name) {
  // Some exporters pad the file with NUL bytes (SOFA's raptor ends in one): NULs after the last
  // statement, mixed with blank space only, are padding and ignored with a notice. A NUL anywhere
  // else is still an error naming its line.
  std::size_t end = bytes.size(), nuls = 0;
  while (end > 0 && (bytes[end - 1] == '\0' || bytes[end - 1] == '\n' || bytes[end - 1] == '\r' ||
                     bytes[end - 1] == ' ' || bytes[end - 1] == '\t')) {
    nuls += bytes[end - 1] == '\0';
    --end;
  }
  if (nuls > 0) bytes = bytes.substr(0, end);
  Obj obj(bytes, name);
  MeshFile mesh = obj.run();
  if (nuls > 0) {
    mesh.notices.push_back("ignored " + std::to_string(nuls) + (nuls == 1 ? " NUL byte" : " NUL bytes") +
                           " at the end of the file (padding)");
  }
  return mesh;
}

}  // namespace pliant::io::detail
