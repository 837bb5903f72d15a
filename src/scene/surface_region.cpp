#include "surface_region.hpp"

#include <algorithm>
#include <cstdint>

namespace pliant::scene::detail {

std::vector<Index> boundary_triangles_in(const TetMesh& mesh, const BoundarySurface& boundary,
                                         const Region& region) {
  std::vector<std::uint8_t> selected(mesh.node_count(), 0);
  for (Index n : select_nodes(mesh.positions, region)) selected[static_cast<std::size_t>(n)] = 1;
  const auto in_region = [&](Index c) {
    return selected[static_cast<std::size_t>(boundary.volume_node[static_cast<std::size_t>(c)])] != 0;
  };
  std::vector<Index> out;
  for (std::size_t t = 0; t < boundary.mesh.triangles.size(); ++t) {
    const Tri& tri = boundary.mesh.triangles[t];
    if (std::all_of(tri.begin(), tri.end(), in_region)) out.push_back(static_cast<Index>(t));
  }
  return out;
}

}  // namespace pliant::scene::detail
