#include "pliant/models/impact/point_grid.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::impact {

PointGrid::PointGrid(const std::vector<Vec3>& positions, double cell, Index max_cells) {
  const Aabb box = bounding_box(positions);
  if (box.empty()) return;
  const Vec3 extent = box.extent();
  cell_ = std::max(cell, 1e-9 * std::max(1.0, extent.maxCoeff()));
  auto dims_for = [&](double c) {
    std::array<int, 3> d{};
    for (int k = 0; k < 3; ++k) d[k] = std::max(1, static_cast<int>(std::ceil(extent[k] / c)));
    return d;
  };
  dims_ = dims_for(cell_);
  while (static_cast<double>(dims_[0]) * dims_[1] * dims_[2] > max_cells) {
    cell_ *= 1.25;
    dims_ = dims_for(cell_);
  }
  origin_ = box.min;
  cells_.assign(static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2], {});
  point_cell_.resize(positions.size());
  for (std::size_t n = 0; n < positions.size(); ++n) {
    point_cell_[n] = static_cast<Index>(flat(cell_of(positions[n])));
    cells_[point_cell_[n]].push_back(static_cast<Index>(n));
  }
}

std::array<int, 3> PointGrid::cell_of(const Vec3& p) const {
  std::array<int, 3> c{0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    const double x = std::floor((p[k] - origin_[k]) / cell_);
    c[k] = std::isfinite(x) ? static_cast<int>(std::clamp(x, 0.0, static_cast<double>(dims_[k] - 1))) : 0;
  }
  return c;
}

void PointGrid::update(const std::vector<Vec3>& positions, std::span<const Index> moved) {
  if (cells_.empty()) return;
  for (Index n : moved) {
    const auto c = static_cast<Index>(flat(cell_of(positions[n])));
    if (c == point_cell_[n]) continue;
    auto& v = cells_[point_cell_[n]];
    const auto it = std::find(v.begin(), v.end(), n);
    if (it != v.end()) {
      *it = v.back();
      v.pop_back();
    }
    cells_[c].push_back(n);
    point_cell_[n] = c;
  }
}

}  // namespace pliant::impact
