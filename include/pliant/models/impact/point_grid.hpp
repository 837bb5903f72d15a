// A uniform grid over moving points: the falloff neighbourhood of the impact family's fast method
// (cells of about the falloff radius, so a dent reads a few cells instead of descending a tree).
// Points outside the grid's box are kept in the boundary cells, so every query stays exact.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/types.hpp"

#include <array>
#include <span>
#include <vector>

namespace pliant::impact {

class PointGrid {
 public:
  PointGrid() = default;
  /// Grid over `positions` (unit: m) with cubic cells of side `cell` (unit: m), grown to keep at most
  /// `max_cells` cells.
  PointGrid(const std::vector<Vec3>& positions, double cell, Index max_cells = 1 << 22);

  /// Re-files the points `moved`, now at `positions`.
  void update(const std::vector<Vec3>& positions, std::span<const Index> moved);
  double cell_size() const { return cell_; }

  std::array<int, 3> cell_of(const Vec3& p) const;
  /// Calls f(point) for every point in a cell overlapping `box` (a superset of the points in it).
  template <class F>
  void for_each_near(const Aabb& box, F&& f) const {
    if (cells_.empty() || box.empty()) return;
    const auto lo = cell_of(box.min);
    const auto hi = cell_of(box.max);
    for (int l = lo[2]; l <= hi[2]; ++l)
      for (int j = lo[1]; j <= hi[1]; ++j)
        for (int i = lo[0]; i <= hi[0]; ++i)
          for (Index n : cells_[(static_cast<std::size_t>(l) * dims_[1] + j) * dims_[0] + i]) f(n);
  }

 private:
  std::size_t flat(const std::array<int, 3>& c) const {
    return (static_cast<std::size_t>(c[2]) * dims_[1] + c[1]) * dims_[0] + c[0];
  }
  Vec3 origin_ = Vec3::Zero();
  double cell_ = 1;
  std::array<int, 3> dims_{0, 0, 0};
  std::vector<std::vector<Index>> cells_;
  std::vector<Index> point_cell_;
};

}  // namespace pliant::impact
