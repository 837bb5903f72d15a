// Lawson's edge flipping towards the Delaunay triangulation of a fixed planar point set.
#pragma once

#include "pliant/core/types.hpp"

#include <vector>

namespace pliant::meshing::detail {

/// Flips interior edges of a valid, counter-clockwise planar triangulation (positions' x and y) until
/// every edge is locally Delaunay. Node and edge counts and the boundary are unchanged; the minimum
/// angle never decreases (each flip raises the smaller minimum angle of its quad). Returns the
/// number of flips. Lawson, "Software for C¹ surface interpolation" (1977).
long long make_delaunay(const std::vector<Vec3>& positions, std::vector<Tri>& triangles);

}  // namespace pliant::meshing::detail
