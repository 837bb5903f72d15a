// SurfaceCutter: what a meshless body's cuts do to its driven render surface, blade after blade.
//
// A blade moved through the body over several steps is a run of sweeps, each starting where the
// previous one ended (cutting.hpp's Blade); together they cover a strip. The surface edges the strip
// crosses are recorded on the surface as it was when the run began (surface_cut.hpp), each with two
// copies of its cut point, one per side of the blade, appended and fitted to the phyxels on that side
// when the edge is crossed. After every sweep the surface is re-cut from the run's start along all
// crossings so far:
// - where they form closed loops (the blade has gone through), the surface is split in pieces and
//   the cut faces closed, and the run ends;
// - where a chain of crossed edges ends inside the body (a partial cut, an incision), the surface gets
//   a slit: the chain's triangles are split over the copies, the triangle each end lies in is split
//   around the point where the strip's boundary pierces it, and the slit is closed by a cut face
//   inside the body, down to the blade's edge (the corners of the strip, fitted to the phyxels around
//   the blade's edge, joined to both sides; its inner edges between two such shared vertices split by
//   cut points of the face, one copy per side), so the surface stays closed and the slit opens as the
//   two sides move apart.
// Vertex indices mostly keep their meaning while a run goes on: copies, corners and face points are
// appended; a vertex no triangle uses any more (a piercing point the slit grew past, a face point of
// the last triangulation) is reused for the next one, and those left over are removed. When the run
// ends (the blade goes through, or the next blade does not start where the last one ended), the
// vertices no triangle uses are removed and the others renumbered.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/meshless/cutting.hpp"
#include "pliant/models/meshless/driven_surface.hpp"
#include "pliant/models/meshless/mls_body.hpp"
#include "pliant/models/meshless/surface_cut.hpp"

#include <array>
#include <map>
#include <span>
#include <vector>

namespace pliant::meshless {

class SurfaceCutter {
 public:
  /// What a sweep did to the surface.
  struct Outcome {
    bool changed = false;  ///< triangles or vertices changed (positions must be recomputed)
    /// When vertices were removed: the new index of each old one (-1 for a removed one); else empty.
    std::vector<Index> renumbered;
  };

  /// Applies a blade's sweep to `surface` after its links were cut (cut_links) at the phyxel positions
  /// `x` (unit: m), with the surface vertices at `surface_x` (unit: m, one per surface vertex):
  /// vertices whose fit reaches across the blade are refitted on their side, new crossings get their
  /// copies, and the surface is re-cut as the header says. `links_cut`: whether the sweep cut links.
  /// Allocates.
  Outcome sweep(DrivenSurface& surface, const MlsBody& body, std::span<const Vec3> x,
                std::span<const Vec3> surface_x, const Blade& blade, bool links_cut);

 private:
  // A vertex of the slits' cut faces: where the strip's boundary pierces a triangle (key {0, t, 0}), a
  // corner of the strip ({1, e, k}: the path of the blade's end e (0: a, 1: b) at the end of k sweeps),
  // or a cut point inside the face between two of those ({2, u, w}, u < w their ids: t for a piercing
  // point, -1 - (2k + e) for a corner), a pair of copies (vertex on the positive side, vertex + 1 on
  // the negative).
  using ExtraKey = std::array<Index, 3>;
  struct Extra {
    Index vertex = -1;
    Eigen::Vector2d param = Eigen::Vector2d::Zero();
    Index sweeps = 0;  // the run's length when it was placed
    bool pair = false;
  };
  std::vector<Tri> base_;  // the triangles when the run began
  Index base_vertices_ = 0;
  SurfaceCrossings crossings_;
  std::vector<Blade> run_;
  std::map<ExtraKey, Extra> extras_;
  std::vector<Index> spare_;        // single vertices no triangle uses any more, reused or removed
  std::vector<Index> spare_pairs_;  // pairs of copies no triangle uses any more (the first of each)

  std::vector<Index> end_run(DrivenSurface& surface);
  // Follows a renumbering of the surface's vertices (old → new) in the crossings' copies and extras.
  void renumber(std::span<const Index> renumbered);
};

}  // namespace pliant::meshless
