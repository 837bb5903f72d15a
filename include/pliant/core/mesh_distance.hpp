// MeshDistance: signed distance to a rigid triangle mesh through core's TriangleBvh, signed by the
// angle-weighted pseudonormal of the closest feature (Bærentzen & Aanæs 2005, "Signed distance
// computation using the angle weighted pseudonormal"): the face normal inside a triangle, the sum of
// the two face normals on an edge, the angle-weighted vertex normal at a corner. For a closed,
// consistently oriented mesh the sign is exact (negative inside). For an open mesh the same rule makes
// it one-sided: a point behind the surface (against its triangles' normals) is inside; beyond a
// boundary edge the sign follows the triangles at that edge.
#pragma once

#include "pliant/core/bvh.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/shape_distance.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace pliant {

class MeshDistance {
 public:
  /// Builds the tree and pseudonormals of `mesh` (unit: m). Fails, one line, on an empty mesh, a
  /// triangle naming a node outside it, a non-finite position or a triangle of zero area.
  static Result<MeshDistance> build(TriMesh mesh);

  /// The signed distance from p to the surface (unit: m), or nothing when no triangle is within
  /// sqrt(max_distance_squared) (unit: m²).
  /// `closest`, when given, receives the closest triangle and its barycentric point.
  std::optional<SurfaceDistance> query(const Vec3& p,
                                       double max_distance_squared = std::numeric_limits<double>::infinity(),
                                       NearestHit* closest = nullptr) const;

  /// Moves the mesh's nodes to `positions` (same count, same triangles; unit: m) for a deforming
  /// surface (a body's, for body–body contact): the tree is refitted, not rebuilt, and the
  /// pseudonormals recomputed, O(#triangles log #triangles) with no allocation. A triangle that has
  /// collapsed to zero area gives no normal (its neighbours sign the distance). A different count
  /// changes nothing and returns false.
  bool update_positions(std::span<const Vec3> positions);
  /// The unit normal of triangle k at the current positions (zero for a collapsed triangle).
  const Vec3& face_normal(Index k) const { return face_normal_[static_cast<std::size_t>(k)]; }

  const TriMesh& mesh() const { return mesh_; }
  /// Bounding box of the mesh (unit: m).
  Aabb bounds() const { return bvh_.bounds(); }
  /// Whether every edge has exactly two triangles (a closed surface).
  bool closed() const { return closed_; }

 private:
  TriMesh mesh_;
  TriangleBvh bvh_;
  std::vector<Vec3> face_normal_;                            // unit, per triangle
  std::vector<Vec3> vertex_normal_;                          // angle-weighted, per node
  std::vector<std::pair<std::uint64_t, Vec3>> edge_normal_;  // sorted by edge key
  bool closed_ = false;
  Vec3 edge_normal(Index a, Index b) const;
};

}  // namespace pliant
