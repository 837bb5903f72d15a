// Icosphere: a closed triangle surface of a sphere from a subdivided icosahedron.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

/// The finest subdivision level: 20·4^9 ≈ 5.2 million triangles (level 10, 21 million, would pass
/// the meshers' element limit kMaxElements). The CLI and scene files use it too.
inline constexpr Index kMaxIcosphereSubdivisions = 9;

struct IcosphereDef {
  Vec3 center = Vec3::Zero();  ///< centre (unit: m)
  double radius = 0.1;         ///< radius (unit: m), > 0
  Index subdivisions = 3;      ///< times each triangle is split into four, 0..kMaxIcosphereSubdivisions
};

/// Builds the icosphere: 10·4^s + 2 nodes, 20·4^s triangles, all nodes on the sphere, outward
/// counter-clockwise triangles, genus 0 (V − E + F = 2).
Result<TriMesh> icosphere(const IcosphereDef& def);

}  // namespace pliant::meshing
