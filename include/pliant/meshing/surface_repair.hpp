// Surface repair before tetrahedral meshing: the defects that real surfaces (scans, game assets,
// simulator data sets) carry and that a mesher refuses, fixed where a local change is enough.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <string>
#include <vector>

namespace pliant::meshing {

struct RepairOptions {
  /// Nodes closer than this fraction of the bounding-box diagonal are welded into one (unitless;
  /// 0 welds only bit-identical positions).
  double weld_tolerance = 1e-9;
  /// Boundary loops with at most this many edges are filled (unitless; 0 fills none). Larger
  /// openings are real openings of the shape and are left for check_closed_surface to report.
  Index max_hole_edges = 64;
  /// Keep every closed piece instead of only the one enclosing the largest volume.
  bool keep_all_pieces = false;
  /// Cut out triangles that cross others, with their neighbours, and fill the holes left behind.
  bool fix_self_intersections = true;
};

struct RepairReport {
  Index welded_nodes = 0;                    ///< nodes merged into another within the weld tolerance
  Index degenerate_triangles = 0;            ///< triangles with a repeated node or zero area, removed
  Index duplicate_triangles = 0;             ///< triangles on the same three nodes as an earlier one, removed
  Index non_manifold_edges = 0;              ///< edges shared by more than two triangles
  Index non_manifold_triangles_removed = 0;  ///< triangles cut out around them (holes refilled)
  Index pieces = 1;                          ///< edge-connected pieces found
  Index pieces_dropped = 0;                  ///< pieces removed (all but the largest)
  double dropped_volume = 0.0;               ///< volume enclosed by the removed pieces (unit: m³)
  Index holes_filled = 0;                    ///< boundary loops filled
  Index hole_triangles = 0;                  ///< triangles added to fill them
  Index crossing_triangles_removed = 0;      ///< triangles cut out around self-intersections
  Index crossings_before = 0;                ///< crossing triangle pairs before the repair
  Index crossings_after = 0;                 ///< crossing triangle pairs left after it

  /// One line per repair done, for the CLI to print ("removed 12 duplicate triangles").
  std::vector<std::string> notices() const;
};

/// Repairs `surface` in this order: weld close nodes, remove degenerate then duplicate triangles,
/// cut out the triangles around edges shared by more than two triangles, keep the largest piece
/// (unless keep_all_pieces), fill small holes (a fan around each loop's centroid, wound like its
/// neighbours), cut out self-intersecting triangles and refill. Triangles keep their
/// winding; the result may still fail check_closed_surface, whose error then names what is left.
/// Errors only for input that is not a surface (indices out of range, non-finite coordinates).
Result<TriMesh> repair_surface(const TriMesh& surface, const RepairOptions& options = {},
                               RepairReport* report = nullptr);

}  // namespace pliant::meshing
