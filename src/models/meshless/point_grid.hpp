// PointGrid: points bucketed in a uniform grid for radius queries (internal to the meshless family).
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

namespace pliant::meshless::detail {

// Points bucketed in a uniform grid of cubic cells (a counting sort), for radius queries.
class PointGrid {
 public:
  PointGrid(std::span<const Vec3> points, double cell) : points_(points), cell_(cell) {
    for (const Vec3& p : points) box_.extend(p);
    for (int a = 0; a < 3; ++a) {
      dims_[static_cast<std::size_t>(a)] =
          std::max<Index>(1, static_cast<Index>(box_.extent()[a] / cell) + 1);
    }
    begin_.assign(static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2] + 1, 0);
    std::vector<std::size_t> of(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      of[i] = flat(coord(points[i]));
      ++begin_[of[i] + 1];
    }
    for (std::size_t c = 0; c + 1 < begin_.size(); ++c) begin_[c + 1] += begin_[c];
    items_.resize(points.size());
    std::vector<Index> fill(begin_.begin(), begin_.end() - 1);
    for (std::size_t i = 0; i < points.size(); ++i)
      items_[static_cast<std::size_t>(fill[of[i]]++)] = static_cast<Index>(i);
  }
  /// Indices j ≠ exclude with |p_j - p| < radius, ascending.
  void within(const Vec3& p, double radius, Index exclude, std::vector<Index>& out) const {
    out.clear();
    const auto lo = coord(p - Vec3::Constant(radius)), hi = coord(p + Vec3::Constant(radius));
    for (Index z = lo[2]; z <= hi[2]; ++z) {
      for (Index y = lo[1]; y <= hi[1]; ++y) {
        for (Index x = lo[0]; x <= hi[0]; ++x) {
          const std::size_t c = flat({x, y, z});
          for (Index k = begin_[c]; k < begin_[c + 1]; ++k) {
            const Index j = items_[static_cast<std::size_t>(k)];
            if (j != exclude && (points_[static_cast<std::size_t>(j)] - p).squaredNorm() < radius * radius) {
              out.push_back(j);
            }
          }
        }
      }
    }
    std::sort(out.begin(), out.end());
  }

 private:
  std::array<Index, 3> coord(const Vec3& p) const {
    std::array<Index, 3> c{};
    for (int a = 0; a < 3; ++a) {
      const auto au = static_cast<std::size_t>(a);
      c[au] = static_cast<Index>(
          std::clamp(std::floor((p[a] - box_.min[a]) / cell_), 0.0, static_cast<double>(dims_[au] - 1)));
    }
    return c;
  }
  std::size_t flat(const std::array<Index, 3>& c) const {
    return static_cast<std::size_t>(c[0]) +
           static_cast<std::size_t>(dims_[0]) * (c[1] + static_cast<std::size_t>(dims_[1]) * c[2]);
  }
  std::span<const Vec3> points_;
  double cell_;
  Aabb box_;
  std::array<Index, 3> dims_{1, 1, 1};
  std::vector<Index> begin_, items_;
};

}  // namespace pliant::meshless::detail
