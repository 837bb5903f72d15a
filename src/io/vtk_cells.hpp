// Private: what the VTK readers (legacy .vtk, XML .vtu and .vtp) do with each VTK cell type.
#pragma once

#include "io/cell_split.hpp"
#include "io/parse.hpp"

#include <string>

namespace pliant::io::detail {

/// Adds VTK cell `cell` of type `type` with `count` point ids. Lines (3, 21), triangles (5, 22),
/// tetrahedra (10, 24) are read as they are; quadrilaterals (8 pixel, 9, 23, 28), polygons (7) and
/// triangle strips (6) become triangles; hexahedra (11 voxel, 12, 25, 29), wedges (13, 26, 32) and
/// pyramids (14, 27) become tetrahedra (cell_split.hpp). Quadratic cells keep their corner nodes.
/// Vertices (1, 2) are ignored; other types are counted as skipped. A wrong point count or a bad id
/// calls `fail(message)`.
template <class Fail>
void add_vtk_cell(MeshBuilder& builder, long long type, const long long* ids, long long count, long long cell,
                  Fail&& fail) {
  int expected = 0;  // points the type has (0: any number)
  CellShape shape = CellShape::triangle;
  const char* kind = "";
  // Corner order of VTK types whose corners are not in the order cell_split.hpp expects.
  static constexpr int kPixel[] = {0, 1, 3, 2};
  static constexpr int kVoxel[] = {0, 1, 3, 2, 4, 5, 7, 6};
  static constexpr int kWedge[] = {0, 2, 1, 3, 5, 4};  // VTK's base normal points away from the top
  const int* order = nullptr;
  switch (type) {
    case 1:
    case 2:
      return;  // vertices
    case 3:
      expected = 2, shape = CellShape::line, kind = "line";
      break;
    case 21:
      expected = 3, shape = CellShape::line, kind = "line";
      break;
    case 5:
      expected = 3, shape = CellShape::triangle, kind = "triangle";
      break;
    case 22:
      expected = 6, shape = CellShape::triangle, kind = "triangle";
      break;
    case 10:
      expected = 4, shape = CellShape::tetrahedron, kind = "tetrahedron";
      break;
    case 24:
      expected = 10, shape = CellShape::tetrahedron, kind = "tetrahedron";
      break;
    case 4:
      builder.skip_element("polyline");
      return;
    case 6:
      expected = 0, shape = CellShape::triangle_strip, kind = "triangle strip";
      break;
    case 7:
      expected = 0, shape = CellShape::polygon, kind = "polygon";
      break;
    case 8:
      expected = 4, shape = CellShape::quadrilateral, kind = "pixel", order = kPixel;
      break;
    case 9:
      expected = 4, shape = CellShape::quadrilateral, kind = "quadrilateral";
      break;
    case 23:
      expected = 8, shape = CellShape::quadrilateral, kind = "quadrilateral";
      break;
    case 28:
      expected = 9, shape = CellShape::quadrilateral, kind = "quadrilateral";
      break;
    case 11:
      expected = 8, shape = CellShape::hexahedron, kind = "voxel", order = kVoxel;
      break;
    case 12:
      expected = 8, shape = CellShape::hexahedron, kind = "hexahedron";
      break;
    case 25:
      expected = 20, shape = CellShape::hexahedron, kind = "hexahedron";
      break;
    case 29:
      expected = 27, shape = CellShape::hexahedron, kind = "hexahedron";
      break;
    case 13:
      expected = 6, shape = CellShape::prism, kind = "wedge", order = kWedge;
      break;
    case 26:
      expected = 15, shape = CellShape::prism, kind = "wedge", order = kWedge;
      break;
    case 32:
      expected = 18, shape = CellShape::prism, kind = "wedge", order = kWedge;
      break;
    case 14:
      expected = 5, shape = CellShape::pyramid, kind = "pyramid";
      break;
    case 27:
      expected = 13, shape = CellShape::pyramid, kind = "pyramid";
      break;
    default:
      builder.skip_element("cell of VTK type " + std::to_string(type));
      return;
  }
  if (expected != 0 && count != expected) {
    fail("cell " + std::to_string(cell) + " (" + kind + ", VTK type " + std::to_string(type) + ") has " +
         std::to_string(count) + " points, expected " + std::to_string(expected));
  }
  long long corners[8];
  const int n = corner_count(shape);
  if (order) {
    for (int k = 0; k < n; ++k) corners[k] = ids[order[k]];
    ids = corners;
  }
  const std::string problem = add_cell(builder, shape, ids, n > 0 ? n : count);
  if (!problem.empty()) fail("cell " + std::to_string(cell) + " (" + kind + ") " + problem);
}

}  // namespace pliant::io::detail
