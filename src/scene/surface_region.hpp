// Surface triangles picked by a region (scene-internal): the loads of the green and fem families.
#pragma once

#include "pliant/core/region.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/topology.hpp"

#include <vector>

namespace pliant::scene::detail {

/// Indices into boundary.mesh.triangles of the triangles whose three corners (as volume nodes of
/// `mesh`) the region selects.
std::vector<Index> boundary_triangles_in(const TetMesh& mesh, const BoundarySurface& boundary,
                                         const Region& region);

}  // namespace pliant::scene::detail
