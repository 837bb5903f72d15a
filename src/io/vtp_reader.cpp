// VTK XML polygonal data (<VTKFile type="PolyData">, usually .vtp): Points, Polys (split into
// triangles) and Strips (unrolled into triangles); Verts and Lines are counted as not read. The
// DataArrays are decoded by the shared VTK XML container (vtk_xml.hpp).
#include "io/cell_split.hpp"
#include "io/vtk_xml.hpp"

#include <limits>
#include <string>
#include <vector>

namespace pliant::io::detail {

MeshFile read_xml_polydata(const VtkXmlFile& file) {
  const XmlTag& piece = file.piece();
  const auto count = [&](const char* key) {
    if (!piece.attrs.count(key)) return std::size_t{0};
    return static_cast<std::size_t>(file.int_attr(piece, key, 0, std::numeric_limits<Index>::max()));
  };
  const std::size_t n_points = count("NumberOfPoints");
  if (!piece.attrs.count("NumberOfPoints")) file.fail_at(piece.begin, "<Piece> has no NumberOfPoints");
  const XmlArray* points = file.array("Points");
  MeshBuilder builder("VTP " + (points ? file.encoding(*points) : std::string("ascii")));
  read_xml_points(file, n_points, builder);
  struct Section {
    const char* name;
    const char* key;
    CellShape shape;
  };
  for (const Section s : {Section{"Polys", "NumberOfPolys", CellShape::polygon},
                          Section{"Strips", "NumberOfStrips", CellShape::triangle_strip}}) {
    const std::size_t n = count(s.key);
    if (n == 0) continue;
    std::vector<long long> offsets, connectivity;
    read_xml_cells(file, s.name, n, offsets, connectivity);
    const XmlArray* conn = file.array(s.name, "connectivity");
    long long begin = 0;
    for (std::size_t c = 0; c < n; ++c) {
      const std::string problem = add_cell(builder, s.shape, connectivity.data() + begin, offsets[c] - begin);
      if (!problem.empty()) {
        file.fail_at(conn->tag.begin, std::string(s.name) + " cell " + std::to_string(c) + " (" +
                                          shape_name(s.shape) + ") " + problem);
      }
      begin = offsets[c];
    }
  }
  if (const std::size_t n = count("NumberOfVerts")) builder.skip_element("vertex cell", n);
  if (const std::size_t n = count("NumberOfLines")) builder.skip_element("line cell", n);
  return builder.finish();
}

}  // namespace pliant::io::detail
