// Gmsh .msh reader: format 4.1 and 2.x (2, 2.0, 2.1, 2.2), ASCII and binary, and the legacy format 1
// ($NOD/$ELM, ASCII only; still the format of many meshes shipped with SOFA).
// Layout as documented in the Gmsh reference manual, section "MSH file format" (format 1 in its
// "Legacy formats" appendix).
#include "io/cell_split.hpp"
#include "io/parse.hpp"
#include "io/readers.hpp"
#include "pliant/core/escape.hpp"

#include <algorithm>
#include <string>

namespace pliant::io::detail {
namespace {

// What Pliant does with a Gmsh element type: the node count, how many leading (corner) nodes form
// the cell (-1: ignored silently, as points are: every Gmsh file has them on corners) and the shape
// they form (quadrangles, hexahedra, prisms and pyramids are split, see cell_split.hpp; Gmsh orders
// their corners as cell_split.hpp expects).
struct GmshType {
  int nodes = 0;
  int corners = 0;
  const char* kind = "";
  CellShape shape = CellShape::line;
};

GmshType gmsh_type(long long type) {
  switch (type) {
    case 1:
      return {2, 2, "line", CellShape::line};
    case 2:
      return {3, 3, "triangle", CellShape::triangle};
    case 3:
      return {4, 4, "quadrangle", CellShape::quadrilateral};
    case 4:
      return {4, 4, "tetrahedron", CellShape::tetrahedron};
    case 5:
      return {8, 8, "hexahedron", CellShape::hexahedron};
    case 6:
      return {6, 6, "prism", CellShape::prism};
    case 7:
      return {5, 5, "pyramid", CellShape::pyramid};
    case 8:
      return {3, 2, "line", CellShape::line};
    case 9:
      return {6, 3, "triangle", CellShape::triangle};
    case 10:
      return {9, 4, "quadrangle", CellShape::quadrilateral};
    case 11:
      return {10, 4, "tetrahedron", CellShape::tetrahedron};
    case 12:
      return {27, 8, "hexahedron", CellShape::hexahedron};
    case 13:
      return {18, 6, "prism", CellShape::prism};
    case 14:
      return {14, 5, "pyramid", CellShape::pyramid};
    case 15:
      return {1, -1, "point", CellShape::line};
    case 16:
      return {8, 4, "quadrangle", CellShape::quadrilateral};
    case 17:
      return {20, 8, "hexahedron", CellShape::hexahedron};
    case 18:
      return {15, 6, "prism", CellShape::prism};
    case 19:
      return {13, 5, "pyramid", CellShape::pyramid};
    case 20:
      return {9, 3, "triangle", CellShape::triangle};
    case 21:
      return {10, 3, "triangle", CellShape::triangle};
    case 26:
      return {4, 2, "line", CellShape::line};
    case 27:
      return {5, 2, "line", CellShape::line};
    case 28:
      return {6, 2, "line", CellShape::line};
    case 29:
      return {20, 4, "tetrahedron", CellShape::tetrahedron};
    default:
      return {};
  }
}

// Adds one element (node ids in `ids`, `count` of them) of Gmsh type `t`.
template <class Fail>
void add_gmsh_element(MeshBuilder& builder, const GmshType& t, const long long* ids, long long element_id,
                      Fail&& fail) {
  if (t.corners < 0) return;
  if (t.corners == 0) {
    builder.skip_element(t.kind);
    return;
  }
  const std::string problem = add_cell(builder, t.shape, ids, t.corners, element_id);
  if (!problem.empty()) fail(std::string(t.kind) + " " + std::to_string(element_id) + " " + problem);
}

// Skips an unparsed section by searching for its end marker ($EndName; $ENDNAME in format 1).
void skip_section(TextCursor& in, std::string_view section, bool v1) {
  std::string end = "$End" + std::string(section.substr(1));
  if (v1)
    std::transform(end.begin(), end.end(), end.begin(), [](unsigned char c) { return std::toupper(c); });
  const std::size_t at = in.text().find(end, in.offset());
  if (at == std::string_view::npos) {
    in.fail("section " + escape_for_message(section) + " has no " + escape_for_message(end));
  }
  in.seek(at + end.size());
}

void expect_end(TextCursor& in, std::string_view marker) {
  const std::string_view t = in.token(marker);
  if (t != marker) {
    in.fail("expected " + std::string(marker) + ", found " + quoted_for_message(t) +
            " (more entries than the declared count?)");
  }
}

// The binary payload starts after the newline that ends the count line.
std::size_t binary_start(TextCursor& in) {
  if (!in.at_line_end()) in.fail("unexpected text after the count line");
  in.skip_line();
  return in.offset();
}

struct Msh {
  TextCursor in;
  MeshBuilder builder;
  bool binary = false;
  bool big_endian = false;
  bool v4 = false;
  bool v1 = false;
  bool have_nodes = false;

  Msh(std::string_view bytes, const std::string& name) : in(bytes, name), builder("Gmsh") {}

  void fail_node(long long id) { in.fail("node " + std::to_string(id) + " is defined twice"); }

  // ---- format 1: "$NOD n / id x y z / $ENDNOD", "$ELM m / id type physical elementary count nodes /
  // $ENDELM" ----
  void nodes_v1() {
    const long long n = in.integer("node count");
    in.check_count(n, 8, "nodes");
    builder.reserve_nodes(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) {
      const long long id = in.integer("node id");
      const Vec3 p = in.point("node coordinate");
      if (!builder.add_node(id, p)) fail_node(id);
    }
    expect_end(in, "$ENDNOD");
  }

  void elements_v1() {
    const long long m = in.integer("element count");
    in.check_count(m, 10, "elements");
    long long ids[64];
    for (long long i = 0; i < m; ++i) {
      const long long id = in.integer("element id");
      const long long type = in.integer("element type");
      in.integer("physical region");
      in.integer("elementary region");
      const long long count = in.integer_in("element node count", 1, 64);
      const GmshType t = gmsh_type(type);
      if (t.nodes == 0) {
        builder.skip_element("element of type " + std::to_string(type));
        for (long long k = 0; k < count; ++k) in.integer("node id");
        continue;
      }
      if (count != t.nodes) {
        in.fail("element " + std::to_string(id) + " of type " + std::to_string(type) + " (" + t.kind +
                ") has " + std::to_string(count) + " nodes, expected " + std::to_string(t.nodes));
      }
      for (int k = 0; k < t.nodes; ++k) ids[k] = in.integer("node id");
      if (!in.at_line_end()) in.fail("element " + std::to_string(id) + " has more nodes than declared");
      add_gmsh_element(builder, t, ids, id, [&](const std::string& msg) { in.fail(msg); });
    }
    expect_end(in, "$ENDELM");
  }

  // ---- format 2.x ----
  void nodes_v2() {
    const long long n = in.integer("node count");
    // The count is checked on its text line before anything is allocated: at least 8 bytes per ASCII
    // node ("1 0 0 0\n"), 28 per binary node (int32 id and three doubles).
    in.check_count(n, binary ? 28 : 8, "nodes");
    if (!binary) {
      builder.reserve_nodes(static_cast<std::size_t>(n));
      for (long long i = 0; i < n; ++i) {
        const long long id = in.integer("node id");
        const Vec3 p = in.point("node coordinate");
        if (!builder.add_node(id, p)) fail_node(id);
      }
    } else {
      ByteCursor b(in.text(), in.name(), binary_start(in), big_endian);
      b.check_count(static_cast<std::uint64_t>(n), 28, "nodes");
      builder.reserve_nodes(static_cast<std::size_t>(n));
      for (long long i = 0; i < n; ++i) {
        const auto id = b.read<std::int32_t>("node id");
        Vec3 p;
        for (int k = 0; k < 3; ++k) p[k] = b.read<double>("node coordinate");
        if (!finite(p)) b.fail("node " + std::to_string(id) + " has a coordinate that is NaN or infinite");
        if (!builder.add_node(id, p)) b.fail("node " + std::to_string(id) + " is defined twice");
      }
      in.seek(b.offset());
    }
    expect_end(in, "$EndNodes");
  }

  void elements_v2() {
    const long long m = in.integer("element count");
    // At least 8 bytes per element in either encoding (ASCII "1 15 0 1\n"; binary id and one node).
    in.check_count(m, 8, "elements");
    if (!binary) {
      long long ids[64];
      for (long long i = 0; i < m; ++i) {
        const long long id = in.integer("element id");
        const long long type = in.integer("element type");
        const long long tags = in.integer_in("tag count", 0, 64);
        for (long long k = 0; k < tags; ++k) in.integer("element tag");
        const GmshType t = gmsh_type(type);
        if (t.nodes == 0) {
          // Unknown type: ASCII elements are one per line, so it can still be skipped.
          builder.skip_element("element of type " + std::to_string(type));
          in.skip_line();
          continue;
        }
        for (int k = 0; k < t.nodes; ++k) ids[k] = in.integer("node id");
        if (!in.at_line_end()) in.fail("element " + std::to_string(id) + " has more nodes than its type has");
        add_gmsh_element(builder, t, ids, id, [&](const std::string& m) { in.fail(m); });
      }
    } else {
      ByteCursor b(in.text(), in.name(), binary_start(in), big_endian);
      b.check_count(static_cast<std::uint64_t>(m), 8, "elements");
      long long done = 0;
      long long ids[64];
      while (done < m) {
        const auto type = b.read<std::int32_t>("element type");
        const auto follow = b.read<std::int32_t>("element count");
        const auto tags = b.read<std::int32_t>("tag count");
        const GmshType t = gmsh_type(type);
        if (t.nodes == 0) b.fail("unsupported Gmsh element type " + std::to_string(type));
        if (follow <= 0 || follow > m - done) b.fail("bad element block size " + std::to_string(follow));
        if (tags < 0 || tags > 64) b.fail("bad tag count " + std::to_string(tags));
        b.check_count(static_cast<std::uint64_t>(follow), 4u * (1 + tags + t.nodes), "elements");
        for (int e = 0; e < follow; ++e) {
          const auto id = b.read<std::int32_t>("element id");
          b.skip(4u * static_cast<std::size_t>(tags), "element tags");
          for (int k = 0; k < t.nodes; ++k) ids[k] = b.read<std::int32_t>("node id");
          add_gmsh_element(builder, t, ids, id, [&](const std::string& msg) { b.fail(msg); });
        }
        done += follow;
      }
      in.seek(b.offset());
    }
    expect_end(in, "$EndElements");
  }

  // ---- format 4.1 ----
  void nodes_v4() {
    if (!binary) {
      const long long blocks = in.integer("entity block count");
      const long long n = in.integer("node count");
      in.integer("minimum node tag");
      in.integer("maximum node tag");
      in.check_count(blocks, 8, "node blocks");
      in.check_count(n, 8, "nodes");
      builder.reserve_nodes(static_cast<std::size_t>(n));
      std::vector<long long> tags;
      for (long long bi = 0; bi < blocks; ++bi) {
        const long long dim = in.integer_in("entity dimension", 0, 3);
        in.integer("entity tag");
        const long long parametric = in.integer_in("parametric flag", 0, 1);
        const long long count = in.integer("block node count");
        in.check_count(count, 8, "nodes");
        if (static_cast<long long>(builder.node_count()) + count > n) in.fail("more nodes than declared");
        tags.resize(static_cast<std::size_t>(count));
        for (auto& t : tags) t = in.integer("node tag");
        for (const long long id : tags) {
          const Vec3 p = in.point("node coordinate");
          for (long long k = 0; k < parametric * dim; ++k) in.real("parametric coordinate");
          if (!builder.add_node(id, p)) fail_node(id);
        }
      }
      if (static_cast<long long>(builder.node_count()) != n) {
        in.fail("declares " + std::to_string(n) + " nodes, but the blocks hold " +
                std::to_string(builder.node_count()));
      }
    } else {
      ByteCursor b(in.text(), in.name(), binary_start(in), big_endian);
      const auto blocks = b.read<std::uint64_t>("entity block count");
      const auto n = b.read<std::uint64_t>("node count");
      b.read<std::uint64_t>("minimum node tag");
      b.read<std::uint64_t>("maximum node tag");
      b.check_count(blocks, 20, "node blocks");
      b.check_count(n, 32, "nodes");
      builder.reserve_nodes(n);
      std::vector<long long> tags;
      for (std::uint64_t bi = 0; bi < blocks; ++bi) {
        const auto dim = b.read<std::int32_t>("entity dimension");
        b.read<std::int32_t>("entity tag");
        const auto parametric = b.read<std::int32_t>("parametric flag");
        const auto count = b.read<std::uint64_t>("block node count");
        if (dim < 0 || dim > 3 || parametric < 0 || parametric > 1) b.fail("bad node block header");
        const std::size_t per = 8 + 8 * (3 + static_cast<std::size_t>(parametric * dim));
        b.check_count(count, per, "nodes");
        if (builder.node_count() + count > n) b.fail("more nodes than declared");
        tags.resize(count);
        for (auto& t : tags) t = static_cast<long long>(b.read<std::uint64_t>("node tag"));
        for (const long long id : tags) {
          Vec3 p;
          for (int k = 0; k < 3; ++k) p[k] = b.read<double>("node coordinate");
          b.skip(8u * static_cast<std::size_t>(parametric * dim), "parametric coordinates");
          if (!finite(p)) b.fail("node " + std::to_string(id) + " has a coordinate that is NaN or infinite");
          if (!builder.add_node(id, p)) b.fail("node " + std::to_string(id) + " is defined twice");
        }
      }
      if (builder.node_count() != n) {
        b.fail("declares " + std::to_string(n) + " nodes, but the blocks hold " +
               std::to_string(builder.node_count()));
      }
      in.seek(b.offset());
    }
    expect_end(in, "$EndNodes");
  }

  void elements_v4() {
    long long ids[64];
    if (!binary) {
      const long long blocks = in.integer("entity block count");
      const long long m = in.integer("element count");
      in.integer("minimum element tag");
      in.integer("maximum element tag");
      in.check_count(blocks, 8, "element blocks");
      in.check_count(m, 4, "elements");
      long long done = 0;
      for (long long bi = 0; bi < blocks; ++bi) {
        in.integer_in("entity dimension", 0, 3);
        in.integer("entity tag");
        const long long type = in.integer("element type");
        const long long count = in.integer("block element count");
        in.check_count(count, 4, "elements");
        if (done + count > m) in.fail("more elements than declared");
        const GmshType t = gmsh_type(type);
        for (long long e = 0; e < count; ++e) {
          const long long id = in.integer("element tag");
          if (t.nodes == 0) {
            builder.skip_element("element of type " + std::to_string(type));
            in.skip_line();
            continue;
          }
          for (int k = 0; k < t.nodes; ++k) ids[k] = in.integer("node tag");
          if (!in.at_line_end())
            in.fail("element " + std::to_string(id) + " has more nodes than its type has");
          add_gmsh_element(builder, t, ids, id, [&](const std::string& msg) { in.fail(msg); });
        }
        done += count;
      }
      if (done != m)
        in.fail("declares " + std::to_string(m) + " elements, but the blocks hold " + std::to_string(done));
    } else {
      ByteCursor b(in.text(), in.name(), binary_start(in), big_endian);
      const auto blocks = b.read<std::uint64_t>("entity block count");
      const auto m = b.read<std::uint64_t>("element count");
      b.read<std::uint64_t>("minimum element tag");
      b.read<std::uint64_t>("maximum element tag");
      b.check_count(blocks, 20, "element blocks");
      b.check_count(m, 16, "elements");
      std::uint64_t done = 0;
      for (std::uint64_t bi = 0; bi < blocks; ++bi) {
        b.read<std::int32_t>("entity dimension");
        b.read<std::int32_t>("entity tag");
        const auto type = b.read<std::int32_t>("element type");
        const auto count = b.read<std::uint64_t>("block element count");
        const GmshType t = gmsh_type(type);
        if (t.nodes == 0) b.fail("unsupported Gmsh element type " + std::to_string(type));
        b.check_count(count, 8u * (1 + static_cast<std::size_t>(t.nodes)), "elements");
        if (done + count > m) b.fail("more elements than declared");
        for (std::uint64_t e = 0; e < count; ++e) {
          const auto id = static_cast<long long>(b.read<std::uint64_t>("element tag"));
          for (int k = 0; k < t.nodes; ++k)
            ids[k] = static_cast<long long>(b.read<std::uint64_t>("node tag"));
          add_gmsh_element(builder, t, ids, id, [&](const std::string& msg) { b.fail(msg); });
        }
        done += count;
      }
      if (done != m)
        b.fail("declares " + std::to_string(m) + " elements, but the blocks hold " + std::to_string(done));
      in.seek(b.offset());
    }
    expect_end(in, "$EndElements");
  }

  void header() {
    if (in.peek() == "$NOD") {  // format 1 has no header: the file starts with its nodes
      v1 = true;
      builder.mesh().format = "Gmsh 1 ASCII";
      return;
    }
    const std::string_view first = in.token("$MeshFormat");
    if (first != "$MeshFormat") in.fail("not a Gmsh file: expected $MeshFormat or $NOD");
    const std::string_view version = in.token("format version");
    std::string shown_version = "4.1";
    if (version == "4.1") {
      v4 = true;
    } else if (version == "2" || version == "2.0" || version == "2.1" || version == "2.2") {
      v4 = false;
      shown_version = version.size() == 1 ? "2.0" : std::string(version);
    } else {
      in.fail("Gmsh format version " + escape_for_message(version, 20) +
              " is not supported (formats 1, 2.0, 2.1, 2.2 and 4.1 are)");
    }
    const long long file_type = in.integer_in("file type", 0, 1);
    const long long data_size = in.integer("data size");
    if (data_size != 8) in.fail("data size " + std::to_string(data_size) + " is not supported (must be 8)");
    binary = file_type == 1;
    if (binary) {
      ByteCursor b(in.text(), in.name(), binary_start(in));
      const auto one = b.read<std::int32_t>("endianness marker");
      if (one == 0x01000000) {
        big_endian = true;
      } else if (one != 1) {
        b.fail("bad endianness marker " + std::to_string(one) + " (expected 1)");
      }
      in.seek(b.offset());
    }
    expect_end(in, "$EndMeshFormat");
    builder.mesh().format = "Gmsh " + shown_version + (binary ? " binary" : " ASCII");
  }

  MeshFile run() {
    header();
    bool have_elements = false;
    while (!in.at_end()) {
      const std::string_view section = in.token("section");
      if (section.empty() || section.front() != '$') {
        in.fail("expected a section ($Nodes, $Elements, ...), found " + quoted_for_message(section));
      }
      if (v1 && section == "$NOD") {
        if (have_nodes) in.fail("second $NOD section");
        have_nodes = true;
        nodes_v1();
      } else if (v1 && section == "$ELM") {
        if (!have_nodes) in.fail("$ELM before $NOD");
        if (have_elements) in.fail("second $ELM section");
        have_elements = true;
        elements_v1();
      } else if (v1) {
        skip_section(in, section, true);
      } else if (section == "$Nodes") {
        if (have_nodes) in.fail("second $Nodes section");
        have_nodes = true;
        v4 ? nodes_v4() : nodes_v2();
      } else if (section == "$Elements") {
        if (!have_nodes) in.fail("$Elements before $Nodes");
        if (have_elements) in.fail("second $Elements section");
        have_elements = true;
        v4 ? elements_v4() : elements_v2();
      } else {
        skip_section(in, section, false);
      }
    }
    if (!have_nodes) in.fail(v1 ? "no $NOD section" : "no $Nodes section");
    return builder.finish();
  }
};

}  // namespace

MeshFile read_msh(std::string_view bytes, const std::string& name) {
  Msh msh(bytes, name);
  return msh.run();
}

}  // namespace pliant::io::detail
