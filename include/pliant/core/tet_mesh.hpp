// TetMesh: a tetrahedral volume mesh (rest positions and connectivity).
#pragma once

#include "pliant/core/types.hpp"

#include <cstddef>
#include <vector>

namespace pliant {

/// A tetrahedral mesh. Plain data: builders and readers fill it, validate() checks it.
struct TetMesh {
  std::vector<Vec3> positions;  ///< #nodes rest positions (unit: m)
  std::vector<Tet> tets;        ///< #tets node quadruples, positively oriented once validated

  std::size_t node_count() const { return positions.size(); }
  std::size_t tet_count() const { return tets.size(); }
};

}  // namespace pliant
