// Splitting a closed triangle surface along a blade's swept surface and closing the cut faces.
//
// Every surface edge that crosses the swept surface (cutting.hpp's two triangles) gets a cut point,
// duplicated: one copy for each side of the blade. A triangle with two crossed edges is split into
// the triangle on its lone vertex's side and two triangles on the other side, each using its side's
// copies; a triangle with no crossed edge keeps its vertices. The cut points, chained along the split
// triangles, form the intersection loops of the surface with the swept surface; each loop is
// triangulated by ear clipping in the plane of its Newell normal (no interior points) and emitted
// twice with opposite orientations, once per side over that side's copies, so each piece is closed and
// outward facing again. Vertex indices already in use keep their meaning; new vertices are appended.
//
// Only cuts that leave closed loops are split: every triangle must have zero or two crossed edges and
// every crossed edge two triangles. A partial cut (the blade's edge ends inside the body, so some
// triangle has one crossed edge) or a cut grazing a vertex gives nothing, and the surface is left as it
// was.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/meshless/cutting.hpp"

#include <optional>
#include <span>
#include <vector>

namespace pliant::meshless {

/// A vertex the cut adds, at (1 - t)·a + t·b on the surface edge (a, b), on the side of vertex `side`
/// (a or b).
struct CutPoint {
  Index a = -1, b = -1;
  double t = 0.0;  ///< edge parameter in [0, 1] (dimensionless)
  Index side = -1;
};

struct SurfaceSplit {
  std::vector<Tri> triangles;    ///< the new triangle list: the old ones with split ones replaced, then the
                                 ///< pieces of split triangles, then the cut faces
  std::vector<CutPoint> points;  ///< new vertices, numbered from the old vertex count on
  Index split_triangles = 0;     ///< triangles split
  Index cap_triangles = 0;       ///< triangles of the cut faces (both sides)
  Index loops = 0;               ///< intersection loops closed
};

/// Splits the surface (current positions `x`, unit: m; outward triangles) along the blade's swept
/// surface. Nothing when no edge crosses it or the crossings do not form closed loops. Allocates.
std::optional<SurfaceSplit> split_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                          const Blade& blade);

/// Triangulates a simple polygon (positions `p`, unit: m, roughly planar, in order) by ear clipping
/// in the plane of its Newell normal; returns index triples into `p` with the polygon's orientation
/// (counter-clockwise about the Newell normal). Collinear vertices are kept as corners.
std::vector<Tri> triangulate_polygon(std::span<const Vec3> p);

}  // namespace pliant::meshless
