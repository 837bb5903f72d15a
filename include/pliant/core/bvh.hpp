// TriangleBvh: a bounding volume hierarchy over the triangles of a (deforming) surface, for ray
// picking (the viewer's grab ray), projectile impacts, box overlap and nearest-point queries.
//
// Build once per topology with a binned surface-area heuristic (I. Wald, "On fast construction of
// SAH-based bounding volume hierarchies", IEEE Symposium on Interactive Ray Tracing 2007), then
// refit() every frame as the surface deforms: the tree keeps its shape and only the boxes are
// recomputed bottom-up, O(#triangles) with no allocation. Refitting is exact (boxes always bound
// their triangles) but queries slow down if the surface deforms far from the shape it was built on;
// rebuild then (after a tear, or every few hundred frames of large motion).
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/ray.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace pliant {

/// Closest point of a surface to a query point.
struct NearestHit {
  Index triangle = -1;          ///< triangle index in the mesh
  Vec3 point = Vec3::Zero();    ///< closest surface point (unit: m)
  double distance_squared = 0;  ///< |point - query|² (unit: m²)
  double u = 0;                 ///< barycentric weight of the triangle's second node
  double v = 0;                 ///< barycentric weight of the triangle's third node
};

/// Queries are const and touch no shared mutable state: any number of threads may query one tree
/// while no thread refits it.
class TriangleBvh {
 public:
  /// Node of the flat tree. Leaves hold triangles [first, first + count) of the leaf order; inner
  /// nodes (count == 0) have their two children at first and first + 1, so children always come after
  /// their parent and a reverse sweep refits bottom-up.
  struct Node {
    Aabb box;
    Index first = 0;
    Index count = 0;
  };

  TriangleBvh() = default;
  /// Builds over the triangles of `mesh`. Triangles naming nodes outside the mesh are left out
  /// (validate() reports them); non-finite positions give boxes no query reaches through them.
  explicit TriangleBvh(const TriMesh& mesh) { build(mesh.positions, mesh.triangles); }
  void build(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles);

  /// Recomputes every box for new positions of the same nodes (same count and triangles as built
  /// with). No allocation once built. A different node count means another mesh: it rebuilds.
  void refit(const std::vector<Vec3>& positions);

  /// Refits only the boxes above the triangles that use one of the nodes `moved` (now at
  /// `positions`; the other nodes must not have moved): the same boxes as refit() at O(#moved ·
  /// depth) instead of O(#triangles), for local edits such as a dent. The first call builds a node
  /// to leaf map (allocates); later calls allocate only if more boxes change than before.
  void refit_nodes(const std::vector<Vec3>& positions, std::span<const Index> moved);

  /// The closest hit with t in [0, t_max] over all triangles (two-sided, see intersect_ray_triangle).
  std::optional<RayHit> raycast(const Ray& ray, double t_max = std::numeric_limits<double>::infinity()) const;
  /// A triangle (mesh index) the ray meets with t in [0, t_max], the first one found, or -1: an
  /// occlusion query, -1 exactly when raycast(ray, t_max) finds nothing, but it stops at a first hit.
  Index any_hit(const Ray& ray, double t_max = std::numeric_limits<double>::infinity()) const;

  /// Triangles whose bounding box overlaps `box`, ascending (a conservative candidate list: exact
  /// triangle–box tests are left to the caller).
  std::vector<Index> overlapping(const Aabb& box) const;

  /// The closest surface point to `query` within sqrt(max_distance_squared), or nothing.
  std::optional<NearestHit> nearest(
      const Vec3& query, double max_distance_squared = std::numeric_limits<double>::infinity()) const;

  bool empty() const { return nodes_.empty(); }
  /// Triangles in the tree (those whose nodes exist).
  std::size_t triangle_count() const { return triangles_.size(); }
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Bounding box of the whole surface as last built or refitted (unit: m).
  Aabb bounds() const { return nodes_.empty() ? Aabb{} : nodes_.front().box; }
  /// Depth of the deepest leaf (the root has depth 0).
  int depth() const { return depth_; }

  /// Maximal tree depth; splits below depth 48 switch to median splits, so 48 + log2(2^31) levels
  /// bound any tree and the traversal stack is a fixed array.
  static constexpr int kMaxDepth = 80;

 private:
  std::vector<Node> nodes_;
  std::vector<Tri> triangles_;      // in leaf order
  std::vector<Index> triangle_id_;  // leaf order -> mesh triangle index
  std::vector<Vec3> positions_;     // node positions as last built or refitted
  int depth_ = 0;
  // refit_nodes: parent of every tree node, mesh node -> leaves (CSR), dirty marks and scratch.
  std::vector<Index> parent_, node_leaf_start_, node_leaves_, dirty_list_;
  std::vector<std::uint8_t> dirty_;
};

}  // namespace pliant
