// TetGen .node/.ele reader (file formats as in the TetGen user manual, section 5.2).
// Indices may start at 0 or 1: TetGen numbers from the first index in the .node file.
#include "io/parse.hpp"
#include "io/readers.hpp"

namespace pliant::io::detail {

MeshFile read_tetgen(std::string_view node_bytes, const std::string& node_name, std::string_view ele_bytes,
                     const std::string& ele_name) {
  MeshBuilder builder("TetGen");
  {
    TextCursor in(node_bytes, node_name, '#');
    if (in.at_end()) in.fail("empty file");
    const long long n = in.integer("node count");
    const long long dim = in.integer("dimension");
    if (dim != 3) in.fail("dimension " + std::to_string(dim) + " is not supported (must be 3)");
    const long long attributes = in.integer_in("attribute count", 0, 1000);
    const long long markers = in.integer_in("boundary marker flag", 0, 1);
    in.check_count(n, 8 + 2 * static_cast<std::size_t>(attributes + markers), "nodes");
    builder.reserve_nodes(static_cast<std::size_t>(n));
    for (long long i = 0; i < n; ++i) {
      const long long id = in.integer("node index");
      const Vec3 p = in.point("node coordinate");
      for (long long k = 0; k < attributes; ++k) in.real("node attribute");
      if (markers) in.integer("boundary marker");
      if (!in.at_line_end())
        in.fail("node " + std::to_string(id) + " has more values than the header declares");
      if (!builder.add_node(id, p)) in.fail("node " + std::to_string(id) + " is defined twice");
    }
  }
  TextCursor in(ele_bytes, ele_name, '#');
  if (in.at_end()) in.fail("empty file");
  const long long m = in.integer("tetrahedron count");
  const long long per = in.integer("nodes per tetrahedron");
  if (per != 4 && per != 10)
    in.fail("nodes per tetrahedron is " + std::to_string(per) + " (must be 4 or 10)");
  const long long attributes = in.integer_in("attribute count", 0, 1000);
  in.check_count(m, 2 * static_cast<std::size_t>(1 + per + attributes), "tetrahedra");
  builder.mesh().tets.reserve(static_cast<std::size_t>(m));
  long long ids[10];
  for (long long i = 0; i < m; ++i) {
    const long long id = in.integer("tetrahedron index");
    for (long long k = 0; k < per; ++k) ids[k] = in.integer("node index");
    for (long long k = 0; k < attributes; ++k) in.real("tetrahedron attribute");
    if (!in.at_line_end())
      in.fail("tetrahedron " + std::to_string(id) + " has more values than the header declares");
    const std::string problem = builder.add_element(ids, 4);
    if (!problem.empty()) {
      in.fail("tetrahedron " + std::to_string(id) + " " + problem + " in " + node_name);
    }
  }
  if (!in.at_end()) {
    in.token("");
    in.fail("more tetrahedra than the declared " + std::to_string(m));
  }
  return builder.finish();
}

}  // namespace pliant::io::detail
