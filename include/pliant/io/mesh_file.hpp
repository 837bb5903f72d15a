// Reading volume and surface meshes from the common exchange formats.
//
// Formats, chosen by extension (case-insensitive):
//   .msh        Gmsh 2.2 (ASCII, binary) and 4.1 (ASCII, binary)
//   .node/.ele  TetGen (either file may be named; the sibling with the same stem is read too)
//   .vtk        VTK legacy unstructured grid or polydata (ASCII, binary; cell layouts of file
//               versions 3 and 5.1), or VTK XML (sniffed)
//   .vtu .vtp   VTK XML unstructured grid / polydata (ascii, base64 inline, appended base64 or raw;
//               header UInt32/UInt64; uncompressed or zlib)
//   .obj        Wavefront OBJ (tinyobjloader; polygons are triangulated)
//   .stl        STL, ASCII or binary (sniffed by size, not by the "solid" prefix)
// Tetrahedra, triangles and line segments are read; quadratic cells keep their corner nodes.
// Hexahedra, prisms and pyramids are split into tetrahedra (conformingly), quadrilaterals, polygons
// and strips into triangles, each split reported in `notices` (docs/io-vtk.md). Other cells are
// counted in `skipped` and dropped.
//
// Every defect gives a Result error of one line: "FILE:LINE: what" for text and
// "FILE: byte N: what" for binary data. Declared counts are checked against the size of the file
// before allocating, node references against the node count, coordinates for NaN and infinity.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace pliant::io {

/// Everything a mesh file held, before deciding whether it is a volume or a surface.
struct MeshFile {
  std::string format;           ///< human description, e.g. "Gmsh 4.1 binary", "STL binary"
  std::vector<Vec3> positions;  ///< #nodes, in file order (unit: m, as stored)
  std::vector<Tet> tets;        ///< tetrahedra, as stored (orientation not corrected)
  std::vector<Tri> triangles;   ///< triangles (surface patches of a volume file, or a surface)
  std::vector<Edge> edges;      ///< line segments, as stored
  /// Cells that were not read, by kind ("hexahedron", ...) with their count.
  std::vector<std::pair<std::string, std::size_t>> skipped;
  /// What the reader changed, one line each, e.g. "split 27 hexahedra into 162 tetrahedra".
  std::vector<std::string> notices;

  /// "12 hexahedra, 3 prisms" or "" when nothing was skipped.
  std::string skipped_summary() const;
};

/// Reads any supported format (see the header comment).
Result<MeshFile> read_mesh_file(const std::filesystem::path& path);

/// Reads the tetrahedra of a volume mesh (.msh .node .ele .vtk .vtu); an error when it has none.
/// Nodes are kept in file order, including any not used by a tetrahedron.
Result<TetMesh> read_tet_mesh(const std::filesystem::path& path);

/// Reads the triangles of a surface (.obj .stl) or the triangle patches of .msh/.vtk/.vtu; an error
/// when there are none. Nodes not used by any triangle are dropped and the rest renumbered.
Result<TriMesh> read_tri_mesh(const std::filesystem::path& path);

/// Reads mesh data from memory; `name` is the file name used in messages and `extension` (".msh",
/// ...) picks the format. For tests and for callers with data that is not on disk.
Result<MeshFile> parse_mesh(std::string_view bytes, const std::string& name, const std::string& extension);

}  // namespace pliant::io
