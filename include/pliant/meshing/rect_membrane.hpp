// Rectangular triangle membrane in the z = 0 plane.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

struct RectMembraneDef {
  Vec2 origin = Vec2::Zero();  ///< minimum corner in the z = 0 plane (unit: m)
  Vec2 size = Vec2(0.1, 0.1);  ///< extent along x and y (unit: m), each > 0
  Index cells_x = 20;          ///< cells along x, ≥ 1
  Index cells_y = 20;          ///< cells along y, ≥ 1
  /// Alternate the diagonal of neighbouring cells (a "union jack" pattern) so the membrane has no
  /// preferred shear direction; false puts every diagonal from (i, j) to (i+1, j+1).
  bool alternate_diagonals = true;
};

/// Builds the membrane: (nx+1)(ny+1) nodes numbered x fastest, 2·nx·ny triangles counter-clockwise
/// seen from +z (normals +z).
Result<TriMesh> rect_membrane(const RectMembraneDef& def);

}  // namespace pliant::meshing
