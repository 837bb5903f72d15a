// VTK XML unstructured grid (<VTKFile type="UnstructuredGrid">, usually .vtu): Points and the
// connectivity/offsets/types arrays of Cells, decoded by the shared VTK XML container (vtk_xml.hpp).
#include "io/vtk_cells.hpp"
#include "io/vtk_xml.hpp"

#include <limits>
#include <string>
#include <vector>

namespace pliant::io::detail {

// Reads the points of the piece (`count` of them) into `builder`.
void read_xml_points(const VtkXmlFile& file, std::size_t count, MeshBuilder& builder) {
  const XmlArray* points = file.array("Points");
  if (!points) file.fail_at(file.piece().begin, "no <Points> DataArray");
  if (file.int_attr(points->tag, "NumberOfComponents", 1, 1000) != 3)
    file.fail_at(points->tag.begin, "points must have 3 components");
  std::vector<double> coords;
  file.read_reals(*points, 3 * count, coords, "points");
  builder.reserve_nodes(count);
  for (std::size_t i = 0; i < count; ++i)
    builder.add_node(static_cast<long long>(i), Vec3(coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]));
}

// Reads the offsets (`count` cell ends) and the connectivity they index of `section`.
void read_xml_cells(const VtkXmlFile& file, const std::string& section, std::size_t count,
                    std::vector<long long>& offsets, std::vector<long long>& connectivity) {
  const XmlArray* conn = file.array(section, "connectivity");
  const XmlArray* offs = file.array(section, "offsets");
  if (!conn || !offs)
    file.fail_at(file.piece().begin, "<" + section + "> needs DataArrays named connectivity and offsets");
  const std::string lower = section == "Cells" ? "cell" : section;
  file.read_ints(*offs, count, offsets, lower + " offsets");
  const long long total = count == 0 ? 0 : offsets.back();
  if (total < 0 || total > std::numeric_limits<Index>::max()) {
    file.fail_at(offs->tag.begin,
                 "last offset " + std::to_string(total) + " of <" + section + "> is impossible");
  }
  file.read_ints(*conn, static_cast<std::size_t>(total), connectivity, lower + " connectivity");
  long long begin = 0;
  for (std::size_t c = 0; c < count; ++c) {
    if (offsets[c] < begin || offsets[c] > total) {
      file.fail_at(offs->tag.begin,
                   section + " " + std::to_string(c) + " has offset " + std::to_string(offsets[c]) +
                       " (offsets must be ascending and at most " + std::to_string(total) + ")");
    }
    begin = offsets[c];
  }
}

MeshFile read_xml_grid(const VtkXmlFile& file) {
  const XmlTag& piece = file.piece();
  const auto n_points =
      static_cast<std::size_t>(file.int_attr(piece, "NumberOfPoints", 0, std::numeric_limits<Index>::max()));
  const auto n_cells =
      static_cast<std::size_t>(file.int_attr(piece, "NumberOfCells", 0, std::numeric_limits<Index>::max()));
  const XmlArray* points = file.array("Points");
  MeshBuilder builder("VTU " + (points ? file.encoding(*points) : std::string("ascii")));
  read_xml_points(file, n_points, builder);
  if (n_cells == 0) return builder.finish();
  const XmlArray* types = file.array("Cells", "types");
  if (!types || !file.array("Cells", "connectivity") || !file.array("Cells", "offsets"))
    file.fail_at(piece.begin, "<Cells> needs DataArrays named connectivity, offsets and types");
  std::vector<long long> offsets, type_ids, connectivity;
  read_xml_cells(file, "Cells", n_cells, offsets, connectivity);
  file.read_ints(*types, n_cells, type_ids, "cell types");
  const XmlArray* conn = file.array("Cells", "connectivity");
  auto fail = [&](const std::string& m) { file.fail_at(conn->tag.begin, m); };
  long long begin = 0;
  for (std::size_t c = 0; c < n_cells; ++c) {
    add_vtk_cell(builder, type_ids[c], connectivity.data() + begin, offsets[c] - begin,
                 static_cast<long long>(c), fail);
    begin = offsets[c];
  }
  return builder.finish();
}

}  // namespace pliant::io::detail
