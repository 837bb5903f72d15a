// UV sphere: a closed triangle surface of a sphere from latitude rings and longitude segments (poles
// as single nodes). Unlike the icosphere its triangle count is chosen freely: 2·segments·(rings − 1).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

struct UvSphereDef {
  Vec3 center = Vec3::Zero();  ///< centre (unit: m)
  double radius = 0.1;         ///< radius (unit: m), > 0
  Index rings = 16;            ///< latitude bands from pole to pole, ≥ 2
  Index segments = 32;         ///< longitude segments, ≥ 3
};

/// Builds the sphere: node 0 the pole at centre − radius·z, then rings − 1 rings of `segments` nodes
/// from that pole up, then the pole at centre + radius·z; 2 + (rings − 1)·segments nodes on the
/// sphere, 2·segments·(rings − 1) outward counter-clockwise triangles, genus 0.
Result<TriMesh> uv_sphere(const UvSphereDef& def);

}  // namespace pliant::meshing
