// Reading volume and surface meshes from the common exchange formats.
//
// Formats, chosen by extension (case-insensitive):
//   .msh        Gmsh 4.1 and 2.x (2, 2.0, 2.1, 2.2), ASCII and binary; format 1 ($NOD/$ELM, ASCII)
//   .node/.ele  TetGen (either file may be named; the sibling with the same stem is read too)
//   .vtk        VTK legacy unstructured grid or polydata (ASCII, binary; cell layouts of file
//               versions 3 and 5.1), or VTK XML (sniffed)
//   .vtu .vtp   VTK XML unstructured grid / polydata (ascii, base64 inline, appended base64 or raw;
//               header UInt32/UInt64; uncompressed or zlib)
//   .mesh       MEDIT ASCII (Vertices, Edges, Triangles, Quadrilaterals, Tetrahedra; refs ignored)
//   .obj        Wavefront OBJ (v, f with v/vt/vn forms and negative indices; polygons are triangulated)
//   .stl        STL, ASCII or binary (sniffed by size, not by the "solid" prefix)
//   .off        OFF ([ST][C][N]OFF; polygons are triangulated)
//   .ply        PLY, ASCII and binary little/big endian (vertex x y z, face vertex_indices)
// Tetrahedra, triangles and line segments are read; quadratic cells keep their corner nodes.
// Hexahedra, prisms and pyramids are split into tetrahedra (conformingly), quadrilaterals, polygons
// and strips into triangles (in every format, OBJ, OFF, PLY and MEDIT faces included), each split
// reported in `notices` (docs/io-vtk.md). Other cells are
// counted in `skipped` and dropped.
//
// Every defect gives a Result error of one line: "FILE:LINE: what" for text and
// "FILE: byte N: what" for binary data. Declared counts are checked against the size of the file
// before allocating, node references against the node count, coordinates for NaN and infinity.
// Bytes echoed in a message are escaped (escape_for_message). Lines end with LF, CRLF or a lone CR.
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
  /// The file's own number of each node (Gmsh node tag, TetGen index, OBJ's and MEDIT's 1-based
  /// vertex number, OFF's and PLY's 0-based one), parallel to `positions`; empty when the format has
  /// none (STL): then a node's number is its index.
  std::vector<long long> node_ids;
  /// The file's number of the element each triangle came from (Gmsh element tag, OBJ's 1-based face
  /// number, ...; the triangles of a split polygon share it), parallel to `triangles`; empty: the index.
  std::vector<long long> triangle_ids;
  /// Cells that were not read, by kind ("hexahedron", ...) with their count.
  std::vector<std::pair<std::string, std::size_t>> skipped;
  /// What the reader changed, one line each, e.g. "split 27 hexahedra into 162 tetrahedra".
  std::vector<std::string> notices;

  /// "12 hexahedra, 3 prisms" or "" when nothing was skipped.
  std::string skipped_summary() const;
};

/// Reads any supported format (see the header comment).
Result<MeshFile> read_mesh_file(const std::filesystem::path& path);

/// Reads the tetrahedra of a volume mesh (.msh .node .ele .vtk .vtu .mesh); an error when it has none.
/// Nodes are kept in file order, except nodes that belong to no tetrahedron: those carry no mass or
/// stiffness (a simulation cannot move them, a factorisation finds them singular) and are dropped, the
/// rest renumbered in order. SOFA's raptorTetra_8418.vtu has three.
Result<TetMesh> read_tet_mesh(const std::filesystem::path& path);

/// read_tet_mesh, also appending to `notices` (when not null) one line for each change made while
/// reading: cells split into tetrahedra, nodes in no tetrahedron dropped (naming up to 5 of them as
/// the file numbers them), padding ignored.
Result<TetMesh> read_tet_mesh(const std::filesystem::path& path, std::vector<std::string>* notices);

/// Reads the triangles of a surface (.obj .stl .off .ply .mesh) or the triangle patches of .msh/.vtk/.vtu; an
/// error when there are none. Nodes not used by any triangle are dropped and the rest renumbered.
Result<TriMesh> read_tri_mesh(const std::filesystem::path& path);

/// The input file's numbers of what read_tri_mesh returns, for messages that should name nodes and
/// triangles the way the user's file does (see MeshFile::node_ids, triangle_ids).
struct SurfaceNumbering {
  std::vector<long long> node;      ///< per TriMesh node: its number in the file
  std::vector<long long> triangle;  ///< per TriMesh triangle: the number of the file element it came from
};

/// read_tri_mesh, also filling `numbering` (when not null) with the file's numbers.
Result<TriMesh> read_tri_mesh(const std::filesystem::path& path, SurfaceNumbering* numbering);

/// Reads mesh data from memory; `name` is the file name used in messages and `extension` (".msh",
/// ...) picks the format. For tests and for callers with data that is not on disk.
Result<MeshFile> parse_mesh(std::string_view bytes, const std::string& name, const std::string& extension);

}  // namespace pliant::io
