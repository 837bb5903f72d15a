// ClusterTree: a binary geometric cluster tree over points, the row/column index structure of a
// hierarchical matrix (Hackbusch 1999; Bebendorf 2008, ch. 1).
//
// Points are split recursively at the median along the longest side of their bounding box until a
// cluster holds at most `leaf_size` points. Each cluster is a contiguous range of the permuted
// order, so a block of the matrix is a pair of ranges. Several unknowns per point (3 displacement
// components per surface node) stay together: the tree is over points, not unknowns.
#pragma once

#include "pliant/core/types.hpp"

#include <span>
#include <vector>

namespace pliant::linalg {

/// One cluster: points order[begin, end) of the tree's permuted order.
struct Cluster {
  Index begin = 0;            ///< first position in the permuted order
  Index end = 0;              ///< one past the last position
  Index child[2] = {-1, -1};  ///< children (cluster indices), -1 for a leaf
  bool leaf() const { return child[0] < 0; }
  Index size() const { return end - begin; }
};

class ClusterTree {
 public:
  /// Builds the tree over `points` (unit: m, any length unit works); cluster 0 is the root.
  static ClusterTree build(std::span<const Vec3> points, Index leaf_size = 32);
  /// A tree from its stored parts (no geometry: admissibility cannot be evaluated on it).
  static ClusterTree from_parts(std::vector<Index> order, std::vector<Cluster> clusters);

  Index point_count() const { return static_cast<Index>(order_.size()); }
  /// order()[k] = the original index of the point at permuted position k.
  const std::vector<Index>& order() const { return order_; }
  /// position()[p] = the permuted position of original point p.
  const std::vector<Index>& position() const { return position_; }
  const std::vector<Cluster>& clusters() const { return clusters_; }
  /// Axis-aligned bounding box of cluster c's points (only for built trees).
  const Vec3& box_min(Index c) const { return lo_[static_cast<std::size_t>(c)]; }
  const Vec3& box_max(Index c) const { return hi_[static_cast<std::size_t>(c)]; }
  bool has_geometry() const { return !lo_.empty(); }

  /// Standard admissibility (Hackbusch; Bebendorf 2008): clusters t, s may be approximated by a
  /// low-rank block when eta · dist(box t, box s) ≥ min(diam t, diam s).
  bool admissible(Index t, Index s, double eta) const;

 private:
  std::vector<Index> order_;
  std::vector<Index> position_;
  std::vector<Cluster> clusters_;
  std::vector<Vec3> lo_, hi_;
};

}  // namespace pliant::linalg
