// Private: what the VTK readers (legacy .vtk and XML .vtu) do with each VTK cell type.
#pragma once

#include "io/parse.hpp"

#include <string>

namespace pliant::io::detail {

/// Adds VTK cell `cell` of type `type` with `count` point ids. Tetrahedra (10), quadratic tetrahedra
/// (24, corners kept), triangles (5, 22) and lines (3, 21) are read; vertices are ignored; other
/// types are counted as skipped. A wrong point count or a bad id calls `fail(message)`.
template <class Fail>
void add_vtk_cell(MeshBuilder& builder, long long type, const long long* ids, long long count, long long cell,
                  Fail&& fail) {
  int expected = 0;
  int corners = 0;
  const char* kind = "";
  switch (type) {
    case 1:
    case 2:
      return;  // vertices
    case 3:
      expected = 2;
      corners = 2;
      kind = "line";
      break;
    case 21:
      expected = 3;
      corners = 2;
      kind = "line";
      break;
    case 5:
      expected = 3;
      corners = 3;
      kind = "triangle";
      break;
    case 22:
      expected = 6;
      corners = 3;
      kind = "triangle";
      break;
    case 10:
      expected = 4;
      corners = 4;
      kind = "tetrahedron";
      break;
    case 24:
      expected = 10;
      corners = 4;
      kind = "tetrahedron";
      break;
    case 4:
      builder.skip_element("polyline");
      return;
    case 6:
      builder.skip_element("triangle strip");
      return;
    case 7:
      builder.skip_element("polygon");
      return;
    case 8:
    case 9:
    case 23:
      builder.skip_element("quadrilateral");
      return;
    case 11:
    case 12:
    case 25:
      builder.skip_element("hexahedron");
      return;
    case 13:
      builder.skip_element("wedge");
      return;
    case 14:
      builder.skip_element("pyramid");
      return;
    default:
      builder.skip_element("cell of VTK type " + std::to_string(type));
      return;
  }
  if (count != expected) {
    fail("cell " + std::to_string(cell) + " (" + kind + ", VTK type " + std::to_string(type) + ") has " +
         std::to_string(count) + " points, expected " + std::to_string(expected));
  }
  const std::string problem = builder.add_element(ids, corners);
  if (!problem.empty()) fail("cell " + std::to_string(cell) + " (" + kind + ") " + problem);
}

}  // namespace pliant::io::detail
