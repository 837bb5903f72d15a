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

/// The triangles (as indices into `points`) of a planar or nearly planar polygon with corners
/// `points` in order (either orientation; triangles keep it). Quadrilaterals are cut along the
/// diagonal through the corner with the smallest `ids` entry unless that diagonal lies outside a
/// concave quadrilateral; larger polygons are cut by ear clipping in their best-fit plane (Newell's
/// normal). `ids` are the node numbers (for the diagonal rule).
std::vector<std::array<int, 3>> split_polygon(const std::vector<Vec3>& points, const long long* ids);

/// Adds polygon `poly` (compact node indices, at least 3; a face of OBJ, OFF or PLY) to `builder` as
/// triangles remembering `element_id`: split by split_polygon (the node indices standing in for the
/// node numbers of the diagonal rule), each split recorded for the notice, as add_cell does. A
/// triangle that repeats a node (a face listing one twice) is counted as skipped instead.
void add_polygon(MeshBuilder& builder, const std::vector<Index>& poly, long long element_id);

/// Adds a cell of `shape` with `count` node ids (the file's numbers) to `builder`: lines, triangles
/// and tetrahedra as they are, the others split as described above, each split recorded for the
/// notice MeshBuilder::finish adds. Triangles remember `element_id`, the file's number of the cell
/// (-1: the triangle's index), so that messages can name it. Returns "" or the problem ("references node 9,
/// which is not defined (8 nodes)", "uses node 3 twice", "has 2 points, a polygon needs at least 3"); nothing
/// is added on a problem.
std::string add_cell(MeshBuilder& builder, CellShape shape, const long long* ids, long long count,
                     long long element_id = -1);

}  // namespace pliant::io::detail
