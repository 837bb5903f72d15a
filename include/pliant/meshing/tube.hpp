// Thick-walled tube (pipe) of tetrahedra: the deformable pipe of the Green's-function demo (Nikitina et al.
// 2003).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

/// A tube around the z axis from z = 0 to z = length. The cross-section is an annulus between two
/// regular polygons with `segments_around` sides inscribed in the circles of the two radii, so the
/// mesh volume is exactly length · ½ n sin(2π/n) (R² − r²), converging to π (R² − r²) length.
/// Defaults: a 0.5 m pipe of 0.1 m outer radius with a 3 cm wall, whose cells are close to 1 cm cubes
/// (7872 nodes, 34560 tets): it reads as a pipe and its tets suit FEM.
struct TubeDef {
  double inner_radius = 0.07;  ///< radius of the bore (unit: m), 0 < inner_radius < outer_radius
  double outer_radius = 0.10;  ///< outer radius (unit: m)
  double length = 0.5;         ///< extent along z (unit: m), > 0
  Index segments_around = 48;  ///< polygon sides of the cross-section, ≥ 3
  Index segments_along = 40;   ///< cell layers along z, ≥ 1
  Index segments_through = 3;  ///< cell layers through the wall, ≥ 1
};

/// Builds the tube: nodes on the structured (radius, angle, z) lattice, each lattice cell (a right
/// prism over a planar trapezoid) split into six positively oriented tets that conform across cells
/// and across the angular seam. Fails, naming the field, on impossible parameters.
Result<TetMesh> tube_mesh(const TubeDef& def);

/// Exact volume of the polygonal tube `tube_mesh(def)` builds (unit: m³).
double tube_polygonal_volume(const TubeDef& def);

}  // namespace pliant::meshing
