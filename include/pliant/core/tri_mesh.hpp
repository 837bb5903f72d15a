// TriMesh: a triangle surface or membrane mesh.
#pragma once

#include "pliant/core/types.hpp"

#include <cstddef>
#include <vector>

namespace pliant {

/// A triangle mesh: a closed surface, a boundary of a TetMesh, or an open membrane.
struct TriMesh {
  std::vector<Vec3> positions;  ///< #nodes positions (unit: m)
  std::vector<Tri> triangles;   ///< #triangles node triples, counter-clockwise about the normal

  std::size_t node_count() const { return positions.size(); }
  std::size_t triangle_count() const { return triangles.size(); }
};

}  // namespace pliant
