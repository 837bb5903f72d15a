// A small icosphere for the rendering tests, from the meshing module.
#pragma once

#include "pliant/meshing/icosphere.hpp"

namespace pliant::render::test {

inline TriMesh make_sphere(double radius, int levels, const Vec3& centre = Vec3::Zero()) {
  return *meshing::icosphere({.center = centre, .radius = radius, .subdivisions = levels});
}

}  // namespace pliant::render::test
