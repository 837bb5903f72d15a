// Checks that a triangle surface bounds a solid: what a tetrahedral mesher needs from its input.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <vector>

namespace pliant::meshing {

/// What check_closed_surface learned about a valid surface.
struct ClosedSurfaceInfo {
  double volume = 0.0;  ///< enclosed volume, positive whatever the orientation (unit: m³)
  bool inward = false;  ///< triangles wind clockwise seen from outside (normals point inward)
  Index edges = 0;      ///< undirected edges (each shared by exactly two triangles)
};

/// How messages number nodes and triangles: by default their indices in the TriMesh; a caller that
/// read the surface from a file passes the file's numbers (io::SurfaceNumbering) so that the user
/// can find what is named in the input. A vector that does not match the mesh's size is ignored.
struct SurfaceNames {
  std::vector<long long> node;      ///< per node: the number to print
  std::vector<long long> triangle;  ///< per triangle: the number to print
};

/// Checks that `surface` is one closed, manifold, consistently oriented shell enclosing a volume: finite
/// coordinates, node indices in range, no degenerate triangles, every edge shared by exactly two
/// triangles that traverse it in opposite directions, a single connected piece, no two triangles
/// crossing each other (find_self_intersections). The error is one line naming the first offending
/// triangle, edge or node ("surface is not closed: edge 4-9 belongs only to triangle 7 (12 open
/// edges)"; "surface intersects itself: triangles 12 and 845 cross near (0.1, 0.02, 0.3) m (7 crossing
/// pairs in all)"). Cost O(F log F).
Result<ClosedSurfaceInfo> check_closed_surface(const TriMesh& surface, const SurfaceNames* names = nullptr);

}  // namespace pliant::meshing
