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
// every crossed edge two triangles. Crossings accumulate over several blades (SurfaceCrossings), so a
// blade moved through the body over several steps, each step's sweep a partial cut, splits the surface
// in the step its sweeps together cross the body. Until then (a partial cut: the blade's edge ends
// inside the body, so some triangle has one crossed edge), the surface is left as it was. A vertex on
// the blade's plane counts as on its positive side, so a blade through vertices still splits cleanly
// (with cut points on those vertices and some zero-area triangles).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/meshless/cutting.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
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

/// Where blades crossed surface edges: per edge (its two vertex indices) the edge parameter from the
/// smaller to the larger index and which end lies on the blade's positive side (the side the normals of
/// its triangles (a0, b0, b1) and (a0, b1, a1) point to; a vertex on the plane counts as positive, and
/// a vertex keeps the side it was first given until the crossings are cleared).
struct SurfaceCrossings {
  struct Crossing {
    double t = 0.0;
    bool low_plus = false;
  };
  std::unordered_map<std::uint64_t, Crossing> edge;
  std::unordered_map<Index, bool> side;  ///< per vertex at a crossed edge: on the positive side
  void clear() {
    edge.clear();
    side.clear();
  }
};

/// Records the surface edges (current positions `x`, unit: m) that cross the blade's swept surface and
/// were not recorded before. Returns how many it added. Allocates.
Index add_crossings(std::span<const Vec3> x, std::span<const Tri> triangles, const Blade& blade,
                    SurfaceCrossings& crossings);

/// Splits the surface (current positions `x`, unit: m; outward triangles) along the recorded
/// crossings. Nothing when there are none or they do not form closed loops. Allocates.
std::optional<SurfaceSplit> split_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                          const SurfaceCrossings& crossings);
/// The same for one blade.
std::optional<SurfaceSplit> split_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                          const Blade& blade);

/// Triangulates a simple polygon (positions `p`, unit: m, roughly planar, in order) by ear clipping
/// in the plane of its Newell normal; returns index triples into `p` with the polygon's orientation
/// (counter-clockwise about the Newell normal). Collinear vertices are kept as corners.
std::vector<Tri> triangulate_polygon(std::span<const Vec3> p);

}  // namespace pliant::meshless
