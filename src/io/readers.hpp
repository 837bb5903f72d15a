// Private: one reader per format. Each parses bytes already in memory and throws ParseFailure.
#pragma once

#include "pliant/io/mesh_file.hpp"

#include <string>
#include <string_view>

namespace pliant::io::detail {

MeshFile read_msh(std::string_view bytes, const std::string& name);
MeshFile read_tetgen(std::string_view node_bytes, const std::string& node_name, std::string_view ele_bytes,
                     const std::string& ele_name);
MeshFile read_vtk(std::string_view bytes, const std::string& name);
/// VTK XML of either kind (UnstructuredGrid or PolyData, by the file's type attribute).
MeshFile read_vtk_xml(std::string_view bytes, const std::string& name);
MeshFile read_obj(std::string_view bytes, const std::string& name);
MeshFile read_stl(std::string_view bytes, const std::string& name);
MeshFile read_medit(std::string_view bytes, const std::string& name);
MeshFile read_off(std::string_view bytes, const std::string& name);
MeshFile read_ply(std::string_view bytes, const std::string& name);

}  // namespace pliant::io::detail
