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
// split_surface splits only cuts that leave closed loops: every triangle must have zero or two crossed
// edges and every crossed edge two triangles. Crossings accumulate over several blades
// (SurfaceCrossings), so a blade moved through the body over several steps, each step's sweep a
// partial cut, closes its loops in the step its sweeps together cross the body. cut_surface also
// closes open chains (a partial cut: the blade's edge ends inside the body, so the chain ends in a
// triangle with one crossed edge) as slits, given the strip the blades swept (SlitStrip;
// surface_cutter.hpp drives both for a body). A vertex on the blade's plane counts as on its positive
// side, so a blade through vertices still splits cleanly (with cut points on those vertices and some
// zero-area triangles).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/meshless/cutting.hpp"

#include <cstdint>
#include <functional>
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
    /// Where on the blades' strip the edge crossed (s, τ) (dimensionless): s from the edge's a end (0)
    /// to its b end (1), τ counts the sweeps (tau0 to tau0 + 1 over the sweep given to add_crossings).
    Eigen::Vector2d param = Eigen::Vector2d::Zero();
    /// The vertex of the cut point's copy on the positive side (the negative side's is vertex + 1),
    /// given by whoever splits the surface (cut_surface); -1 until then.
    Index vertex = -1;
  };
  std::unordered_map<std::uint64_t, Crossing> edge;
  std::vector<std::uint64_t> order;      ///< the crossed edges' keys in the order recorded
  std::unordered_map<Index, bool> side;  ///< per vertex at a crossed edge: on the positive side
  void clear() {
    edge.clear();
    order.clear();
    side.clear();
  }
};

/// Records the surface edges (current positions `x`, unit: m) that cross the blade's swept surface and
/// were not recorded before. Returns how many it added. Allocates.
/// `tau0` is the sweep's number in its run of sweeps (the strip parameter τ of its start).
Index add_crossings(std::span<const Vec3> x, std::span<const Tri> triangles, const Blade& blade,
                    SurfaceCrossings& crossings, double tau0 = 0.0);

/// The strip a run of sweeps covers, for cut faces of open chains (slits): (s, τ) ∈ [0, 1] × [0, K]
/// for K sweeps, each sweep k covering τ ∈ [k, k + 1] (s from the blade's a end to its b end). Its
/// corners, numbered counter-clockwise from (0, 0): c = 0 at (0, 0), 1 + k at (1, k) for k = 0..K (the
/// b end's path), then 2 + K + j at (0, K - j) for j = 0..K - 1 (the a end's path back).
struct SlitStrip {
  Index sweeps = 0;
  /// The vertex where the strip's boundary pierces triangle `t` (a chain of crossed edges ends in it),
  /// writing the strip parameter of that point on the strip's boundary to `param`.
  std::function<Index(Index t, Eigen::Vector2d& param)> pierce;
  /// The vertex at the strip's corner c.
  std::function<Index(Index c)> corner;
  /// A cut point inside the cut face, at strip parameter `param` between the shared vertices u and w
  /// (pierce or corner vertices): its copy on the positive side (the negative side's is the next).
  std::function<Index(Index u, Index w, const Eigen::Vector2d& param)> interior;
};

/// The strip parameter (s, τ) of corner c of a strip of `sweeps` sweeps, numbered as SlitStrip says.
Eigen::Vector2d strip_corner(Index c, Index sweeps);

/// A surface cut along recorded crossings.
struct SurfaceCut {
  std::vector<Tri> triangles;  ///< the old ones with split ones replaced, then pieces and cut faces
  Index split_triangles = 0;   ///< triangles split along a chain or loop
  Index cap_triangles = 0;     ///< triangles of the cut faces (both sides)
  Index loops = 0;             ///< closed intersection loops (through-cuts)
  Index chains = 0;            ///< cut faces of open chains (slits)
};

/// Cuts the surface (current positions `x`, unit: m; outward triangles) along the recorded crossings,
/// whose `vertex` (the copies) the caller has set. Closed loops are split as split_surface does. With a
/// strip, open chains (a partial cut: the blade's edge ends inside the body) become slits: the chain's
/// crossed edges get their copies, each triangle it ends in is split around the point the strip's
/// boundary pierces it (strip.pierce, shared by both sides), and the slit is closed by a cut face
/// inside the body: the part of the strip bounded by the chains and the strip's boundary between
/// them (with its corners, strip.corner), triangulated in (s, τ) and emitted once per side over that
/// side's copies, so the surface stays closed and outward oriented, the two sides joined where the
/// blade's edge ran; an inner edge of the face between two shared vertices is split by a cut point of
/// the face (strip.interior), so the sides' faces meet only along the strip's boundary. Nothing when
/// the crossings do not form such chains and loops. Allocates.
std::optional<SurfaceCut> cut_surface(std::span<const Vec3> x, std::span<const Tri> triangles,
                                      const SurfaceCrossings& crossings, const SlitStrip* strip);

/// Splits the surface (current positions `x`, unit: m; outward triangles) along the recorded
/// crossings, numbering the copies from x.size() on, two per crossing in the order recorded. Nothing when
/// there are none or they do not form closed loops. Allocates.
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
