// Writing a mesh in the format its file extension names: the one dispatch that the CLI's `pliant
// mesh -o` and the Python module share.
//
// Volume formats (.vtu, .mesh) keep the tetrahedra; surface formats (.obj, .stl, .off, .ply) get the
// boundary surface of a volume. Extensions are matched without regard to case. Every file appears
// atomically (write then rename).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"

#include <filesystem>

namespace pliant::io {

/// Ok when the path's extension is one write_mesh knows; otherwise an error naming the extension
/// and the path and listing the known ones. Lets a caller refuse a typo before a long computation.
Status check_mesh_output(const std::filesystem::path& path);

/// True when the extension keeps tetrahedra (.vtu, .mesh); false for the surface-only formats.
bool is_volume_format(const std::filesystem::path& path);

/// Writes a surface as .vtu, .mesh, .obj, .stl (binary), .off or .ply (binary little-endian).
Status write_mesh(const std::filesystem::path& path, const TriMesh& mesh);

/// Writes a volume as .vtu or .mesh, or its boundary surface in a surface format.
Status write_mesh(const std::filesystem::path& path, const TetMesh& mesh);

}  // namespace pliant::io
