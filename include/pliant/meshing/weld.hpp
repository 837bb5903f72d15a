// Merging coincident nodes of a triangle soup (STL stores three corners per triangle).
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <vector>

namespace pliant::meshing {

/// Merges nodes with bit-identical coordinates (what STL writers produce for shared corners) and drops
/// nodes no triangle uses; triangles keep their order and winding. The first occurrence of a position
/// keeps its place in the order. Triangles that collapse (two corners merged) are kept, so that
/// check_closed_surface can name them. O(n) expected time.
/// When `first` is not null it receives, per node of the result, the index in `soup` of the node it
/// was first taken from (to name nodes in the input's numbering).
TriMesh weld_identical_nodes(const TriMesh& soup, std::vector<Index>* first = nullptr);

}  // namespace pliant::meshing
