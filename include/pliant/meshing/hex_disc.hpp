// Regular hexagonal disc of equilateral triangles: the tearing meshes of Grimm (2005).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

/// A regular hexagon cut from the triangular lattice, `rings` rings of triangles around the centre
/// node: 3n(n+1)+1 nodes, 9n²+3n edges (springs), 6n² triangles. n = 9, 33, 53 give the Grimm (2005)
/// tearing meshes 271/756/486, 3367/9900/6534 and 8587/25440/16854.
struct HexDiscDef {
  Vec3 center = Vec3::Zero();  ///< centre; the disc lies in the plane z = center.z (unit: m)
  double radius = 0.05;        ///< centre-to-corner distance (unit: m), > 0; edge length = radius / rings
  Index rings = 9;             ///< rings n, ≥ 1
};

/// Builds the hexagonal disc: node 0 at the centre, then ring by ring; triangles counter-clockwise
/// seen from +z.
Result<TriMesh> hex_disc(const HexDiscDef& def);

}  // namespace pliant::meshing
