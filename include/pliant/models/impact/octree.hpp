// The octree of Milanović's impact method: a complete octree of depth d over a triangle mesh. The
// root is the smallest cube around the mesh, centred on its bounding box (grown by a margin so that
// dents stay inside); every leaf holds the nodes inside it and the triangles that overlap it (exact
// separating-axis test, triangle_box.hpp); the 8^d leaves also form a flat 3D array, so the leaf of a
// point is found in O(1): n = floor((x - O)/S + 2^(d-1)), clamped (O the root centre, S the leaf
// size). Inner nodes are implicit (level k, cell i, j, l with size root/2^k) and keep the number of
// triangle references below them, so ray casts and box queries skip empty subtrees and visit only
// leaves near the query.
//
// Unlike the source, refresh() moves the triangles of moved nodes to the leaves they occupy now, so
// a later query sees the deformed surface exactly (a triangle leaving the root cube rebuilds the
// tree).
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/ray.hpp"
#include "pliant/core/types.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace pliant::impact {

class Octree {
 public:
  struct Options {
    int depth = 0;         ///< leaf level (1..8); 0: about 32 triangles per occupied leaf, at most 7
    double margin = 0.25;  ///< the root cube is grown by this fraction of its side (dimensionless)
  };

  Octree() = default;
  /// Builds over nodes `positions` (unit: m) and `triangles`; the tree keeps its own copy of neither.
  Octree(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles, Options options);

  int depth() const { return depth_; }
  /// Leaves per side, 2^depth.
  int side() const { return side_; }
  Index leaf_count() const { return static_cast<Index>(leaves_.size()); }
  Vec3 centre() const { return centre_; }          ///< root centre O (unit: m)
  double root_size() const { return size_; }       ///< root cube side (unit: m)
  double leaf_size() const { return leaf_size_; }  ///< leaf cube side S (unit: m)
  /// Times the tree was rebuilt because a triangle left the root cube.
  int rebuilds() const { return rebuilds_; }

  /// Cell (i, j, l) of the leaf holding p, each clamped to [0, side).
  std::array<int, 3> cell_of(const Vec3& p) const;
  /// Flat index of the leaf holding p (clamped to the boundary leaves for points outside the root).
  Index leaf_of(const Vec3& p) const;
  Index leaf_index(int i, int j, int l) const { return (static_cast<Index>(l) * side_ + j) * side_ + i; }
  /// Box of a leaf (unit: m).
  Aabb leaf_box(Index leaf) const;
  /// Nodes whose current position lies in the leaf (boundary leaves also hold clamped outside nodes).
  std::span<const Index> leaf_nodes(Index leaf) const { return leaves_[leaf].nodes; }
  /// Triangles overlapping the leaf, in no particular order.
  std::span<const Index> leaf_triangles(Index leaf) const { return leaves_[leaf].triangles; }

  /// Moves the nodes `moved` (now at `positions`) and every triangle using one of them to the leaves
  /// they occupy now. Allocation-free once leaves have grown to their working sizes.
  void refresh(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles,
               std::span<const Index> moved);

  /// Closest two-sided hit with t in [0, t_max] (Möller–Trumbore, core/ray.hpp), or nothing.
  std::optional<RayHit> raycast(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles,
                                const Ray& ray, double t_max) const;

  /// Calls f(node) for every node stored in a leaf overlapping `box` (a superset of the nodes in it).
  template <class F>
  void for_each_node_near(const Aabb& box, F&& f) const {
    if (leaves_.empty() || box.empty()) return;
    const auto lo = cell_of(box.min);
    const auto hi = cell_of(box.max);
    for (int l = lo[2]; l <= hi[2]; ++l)
      for (int j = lo[1]; j <= hi[1]; ++j)
        for (int i = lo[0]; i <= hi[0]; ++i)
          for (Index n : leaves_[leaf_index(i, j, l)].nodes) f(n);
  }

 private:
  struct Leaf {
    std::vector<Index> nodes;
    std::vector<Index> triangles;
  };
  using CellBox = std::array<std::int16_t, 6>;  // lo i, j, l, hi i, j, l of a triangle's leaf range

  void build(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles);
  bool insert_triangle(const std::vector<Vec3>& positions, const Tri& tri, Index t);
  void remove_triangle(Index t);
  void count(Index leaf, int delta);
  void raycast_node(const std::vector<Vec3>& positions, const std::vector<Tri>& triangles, const Ray& ray,
                    const Vec3& inv, int level, int i, int j, int l, std::optional<RayHit>& best,
                    double& t_max) const;

  Options options_;
  int depth_ = 0;
  int side_ = 0;
  Vec3 centre_ = Vec3::Zero();
  Vec3 origin_ = Vec3::Zero();  // root's lower corner
  double size_ = 0, leaf_size_ = 0;
  int rebuilds_ = 0;
  std::vector<Leaf> leaves_;
  std::vector<std::vector<std::int32_t>> counts_;  // per level, triangle references below each node
  std::vector<Index> node_leaf_;                   // current leaf of every node
  std::vector<CellBox> tri_cells_;                 // leaf range each triangle was inserted over
  std::vector<Index> node_tri_start_, node_tris_;  // node -> triangles (CSR)
  std::vector<std::uint32_t> stamp_;               // per triangle, dedupe in refresh
  std::uint32_t stamp_value_ = 0;
  std::vector<Index> scratch_;
};

}  // namespace pliant::impact
