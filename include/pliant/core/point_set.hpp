// PointSet: unconnected points (meshless phyxels, sample clouds).
#pragma once

#include "pliant/core/types.hpp"

#include <cstddef>
#include <vector>

namespace pliant {

struct PointSet {
  std::vector<Vec3> positions;  ///< #points positions (unit: m)

  std::size_t size() const { return positions.size(); }
};

}  // namespace pliant
