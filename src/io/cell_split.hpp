// Private: cells that Pliant does not simulate directly (hexahedra, prisms, pyramids, quadrilaterals,
// polygons, triangle strips), split into tetrahedra and triangles. Every reader adds such cells
// through add_cell, so the split is the same whatever format a mesh came in.
//
// Solids are split conformingly: neighbouring cells split their common quadrilateral face along the
// same diagonal, because each quadrilateral face is cut along the diagonal through its smallest node
// number (the rule of Dompierre et al. 1999, "How to subdivide pyramids, prisms and hexahedra into
// tetrahedra"), a choice that depends only on the face. The cell is then coned from its smallest
// node: that node already lies on the chosen diagonal of each face it touches, and every other face
// (split by the rule) is joined to it, giving 6 tetrahedra per hexahedron, 3 per prism and 2 per
// pyramid. The cone is a valid split whenever the cell is star-shaped from that corner (every convex
// cell is); the tetrahedra inherit the cell's orientation.
#pragma once

#include "io/parse.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace pliant::io::detail {

/// Linear cell shapes, with corners in the VTK order (hexahedron: bottom face 0-1-2-3 counter-
/// clockwise seen from the top face 4-5-6-7, with 4 above 0; pyramid: base 0-1-2-3, apex 4) except
/// the prism, whose corners follow Gmsh (triangle 0-1-2 counter-clockwise seen from triangle 3-4-5;
/// VTK's wedge lists the base the other way round, see vtk_cells.hpp).
enum class CellShape {
  line,
  triangle,
  quadrilateral,
  polygon,
  triangle_strip,
  tetrahedron,
  hexahedron,
  prism,
  pyramid
};

/// Number of corners of a shape (0 for polygons and strips, whose size varies).
int corner_count(CellShape shape);

/// Name of a shape in messages and notices ("hexahedron", ...).
const char* shape_name(CellShape shape);

/// The tetrahedra (as corner indices into `ids`) a hexahedron, prism or pyramid with node numbers
/// `ids` is split into, by the rule above. `ids` may be any numbering that is global to the mesh.
std::vector<std::array<int, 4>> split_solid(CellShape shape, const long long* ids);

/// Largest polygon a reader splits, in corners. Triangulation is O(n) ear tests
/// of local cost for the polygons meshes hold, but no polygon of a surface mesh comes near this, and
/// a bound keeps a hostile file from costing unbounded time or memory: a larger one is an error
/// naming the file and element.
inline constexpr std::size_t kMaxPolygonCorners = 1'000'000;
/// Work bound of one ear clipping (cells and corners looked at): kEarClipWorkPerCorner per corner plus
/// kEarClipWorkBase, about a second at the size limit; reaching it is an error, never a hang.
inline constexpr long long kEarClipWorkPerCorner = 400;
inline constexpr long long kEarClipWorkBase = 50'000'000;

/// Fills `triangles` (as indices into `points`) with the split of a planar or nearly planar polygon
/// with corners `points` in order (either orientation; triangles keep it). Quadrilaterals are cut
/// along the diagonal through the corner with the smallest `ids` entry unless that diagonal lies
/// outside a concave quadrilateral; larger polygons are cut by ear clipping in their best-fit plane
/// (Newell's normal), n - 2 triangles for a simple n-gon. `ids` are the node numbers (for the
/// diagonal rule). Returns "" or the problem (more than kMaxPolygonCorners corners, or the work bound
/// reached); `triangles` is then empty. `work_budget` > 0 replaces the default work bound (tests use
/// it to check that the work grows linearly with the corners, independently of timing).
std::string split_polygon(const std::vector<Vec3>& points, const long long* ids,
                          std::vector<std::array<int, 3>>& triangles, long long work_budget = 0);

/// Adds polygon `poly` (compact node indices, at least 3; a face of OBJ, OFF or PLY) to `builder` as
/// triangles remembering `element_id`: split by split_polygon (the node indices standing in for the
/// node numbers of the diagonal rule), each split recorded for the notice, as add_cell does. A
/// triangle that repeats a node (a face listing one twice) is counted as skipped instead. Returns ""
/// or the problem of split_polygon, for the caller to name the file and face; nothing is added then.
std::string add_polygon(MeshBuilder& builder, const std::vector<Index>& poly, long long element_id);

/// Adds a cell of `shape` with `count` node ids (the file's numbers) to `builder`: lines, triangles
/// and tetrahedra as they are, the others split as described above, each split recorded for the
/// notice MeshBuilder::finish adds. Triangles remember `element_id`, the file's number of the cell
/// (-1: the triangle's index), so that messages can name it. Returns "" or the problem ("references node 9,
/// which is not defined (8 nodes)", "uses node 3 twice", "has 2 points, a polygon needs at least 3"); nothing
/// is added on a problem.
std::string add_cell(MeshBuilder& builder, CellShape shape, const long long* ids, long long count,
                     long long element_id = -1);

}  // namespace pliant::io::detail
