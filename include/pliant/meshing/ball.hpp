// Tetrahedral ball: a structured cube grid mapped onto the ball.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

/// A solid ball. The cube [-1, 1]³ with `resolution` cells per axis is mapped radially onto the ball:
/// each cube shell ‖p‖∞ = s goes to a surface blended from a scaled cube (near the centre) to the
/// sphere of radius s·radius (at the boundary), so the centre stays a regular grid and the boundary
/// nodes lie exactly on the sphere. The mesh is the inscribed polyhedron: its volume is slightly
/// below 4/3 π r³ and converges to it as the resolution grows.
struct BallDef {
  Vec3 center = Vec3::Zero();  ///< centre (unit: m)
  double radius = 0.1;         ///< radius (unit: m), > 0
  Index resolution = 8;        ///< cells across the diameter, even, ≥ 2
};

/// Builds the ball. Cells are split into six tets around the diagonal that points away from the
/// centre, mirrored per octant (conforming across the octant planes), so no tet has all four nodes on
/// the curved boundary. Every tet is positively oriented.
Result<TetMesh> ball_mesh(const BallDef& def);

}  // namespace pliant::meshing
