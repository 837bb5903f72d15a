// Small meshes for the impact tests, from the meshing module: a square plate and a UV sphere.
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/uv_sphere.hpp"

namespace pliant::impact::testing {

/// Plate [0, size]² at z = 0 with n × n cells, each split along the same diagonal.
inline TriMesh plate(int n, double size) {
  return meshing::rect_membrane(
             {.size = Vec2(size, size), .cells_x = n, .cells_y = n, .alternate_diagonals = false})
      .value();
}

/// UV sphere of `radius` around the origin, `rings` latitude bands and `segments` longitudes.
inline TriMesh sphere(double radius, int rings, int segments) {
  return meshing::uv_sphere({.radius = radius, .rings = rings, .segments = segments}).value();
}

}  // namespace pliant::impact::testing
