// Self-intersections of a triangle surface: the pairs of triangles that pass through (or touch) each
// other although the mesh does not connect them, each with a point where they meet. A mesher cannot
// fill such a surface with tetrahedra, and a collision or volume computation on it is wrong, so the
// user needs to be told which triangles and where.
//
// Broad phase: a TriangleBvh box query per triangle, O(n log n) for a surface whose triangles are
// not piled up in one place. Narrow phase: the interval test of T. Möller, "A fast triangle-triangle
// intersection test", Journal of Graphics Tools 2(2), 1997: each triangle is cut by the other's plane,
// and the two cuts, both on the line where the planes meet, overlap exactly when the triangles
// intersect. Coplanar pairs are tested in the plane (edge crossings and contained corners).
//
// Which pairs are tested:
//  - Triangles sharing an edge (two nodes) are never reported: they meet along that edge by
//    construction, and a fold where they lie on each other is a degenerate dihedral, not a crossing.
//  - Triangles sharing one node meet at that node by construction; they are reported only when they
//    also meet away from it (their cuts overlap over more than the tolerance; coplanar ones when their
//    interiors overlap, i.e. when the wedges their edges span at the shared node overlap).
//  - Nodes count as shared when they are the same index or sit at exactly the same position, so an
//    unwelded surface (STL: three own nodes per triangle) is judged like its welded form.
//  - Other pairs are reported when the closed triangles meet, touching included, within a tolerance
//    of 1e-10 times the larger triangle's longest edge (distances are measured from a corner of the
//    triangle itself, so a mesh far from the origin keeps its precision).
//  - Degenerate triangles (repeated nodes, zero area), triangles naming nodes outside the mesh and
//    triangles with non-finite corners are skipped: validate() reports those.
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <optional>
#include <vector>

namespace pliant {

/// Two triangles of one surface that meet where the surface does not connect them.
struct TriangleCrossing {
  Index first = -1;           ///< the lower triangle index
  Index second = -1;          ///< the higher triangle index
  Vec3 point = Vec3::Zero();  ///< a point where they meet (unit: m), on the first triangle
};

struct SelfIntersections {
  /// The first max_pairs crossings, ordered by first then second triangle.
  std::vector<TriangleCrossing> pairs;
  /// Crossing pairs in all (uncapped).
  Index total = 0;

  bool none() const { return total == 0; }
};

struct SelfIntersectionOptions {
  /// Crossings stored with their point; the rest are only counted.
  Index max_pairs = 100;
};

/// Every pair of triangles of `mesh` that intersects away from the nodes they share (see above).
SelfIntersections find_self_intersections(const TriMesh& mesh, const SelfIntersectionOptions& options = {});

/// The narrow-phase test for one pair of triangles of `mesh` with the same sharing rules: a point where
/// they meet (unit: m), or nothing (also for a pair sharing an edge, a degenerate triangle, or a == b).
std::optional<Vec3> triangle_pair_crossing(const TriMesh& mesh, Index a, Index b);

}  // namespace pliant
