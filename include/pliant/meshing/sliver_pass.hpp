// Sliver removal after tetrahedral meshing: flat tets (all four nodes near one plane) whose smallest
// dihedral angle is under a threshold. Three local operations, none of which ever inverts a tet:
// - interior nodes of a sliver are moved (smoothing by local hill climbing on the smallest dihedral
//   angle of the tets around the node, in the spirit of Freitag & Ollivier-Gooch 1997);
// - a sliver lying on the surface with two or three of its faces on the boundary is peeled off (the
//   surface loses the sliver's volume, which is reported): no node move can fix it, since all four
//   of its nodes are on the surface, and the surface near it is locally flat;
// - optionally (SliverOptions::surface_slide_deg > 0), surface nodes of a sliver where the surface is
//   nearly flat slide along it: each stays on the input surface (projected onto the input triangles
//   around its starting position), and a move is kept only while the moved boundary stays within a
//   stated distance of the input surface (reported).
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

struct SliverOptions {
  /// Tets whose smallest dihedral angle is below this are slivers to remove (unit: degrees, in (0, 60)).
  double min_dihedral_deg = 10.0;
  /// Peel slivers off the surface (changes the boundary by the slivers' volume); off keeps the
  /// boundary triangles exactly.
  bool peel_boundary = true;
  /// Flip and split around slivers (off: only node moves and peeling, for comparisons and tests).
  bool flip_and_split = true;
  /// Smoothing and peeling rounds; each costs one pass over the tets (unitless).
  int max_rounds = 12;
  /// Surface nodes of a sliver slide along the surface where every boundary triangle around them has
  /// its normal within this angle of their mean normal (unit: degrees, in [0, 90); 0: surface nodes
  /// never move). A slid node stays on the input triangles around its starting position.
  double surface_slide_deg = 0.0;
  /// A slide is kept only while the boundary triangles around the node stay within this distance of
  /// the input surface, and the input triangles around it within this distance of the new boundary
  /// (sampled at corners, edge midpoints and centroids), as a fraction of the mean boundary edge
  /// length (unitless, > 0).
  double surface_tolerance = 0.05;
};

struct SliverReport {
  Index slivers_before = 0;        ///< tets under the threshold before the pass
  Index slivers_after = 0;         ///< tets under the threshold after it
  Index nodes_moved = 0;           ///< interior node moves accepted
  Index flips = 0;                 ///< 2-3 and 3-2 flips done
  Index splits = 0;                ///< interior edges split to give a surface sliver a node to move
  Index tets_peeled = 0;           ///< surface slivers removed
  Index nodes_dropped = 0;         ///< nodes left in no tet by peeling, removed
  double peeled_volume = 0.0;      ///< volume of the removed slivers (unit: m³)
  Index surface_moves = 0;         ///< surface node slides accepted
  Index surface_nodes_moved = 0;   ///< distinct surface nodes that slid
  double surface_deviation = 0.0;  ///< largest sampled distance of the slid boundary from the input (unit: m)
  double surface_tolerance = 0.0;  ///< the bound it was held to (unit: m; 0 when sliding was off)
  double volume_before = 0.0;      ///< total tet volume before the pass (unit: m³)
  double volume_after = 0.0;       ///< total tet volume after it (unit: m³)
  double min_dihedral_before = 0.0;  ///< smallest dihedral angle before (unit: degrees)
  double min_dihedral_after = 0.0;   ///< smallest dihedral angle after (unit: degrees)
  Index worst_tet = -1;              ///< tet with the smallest dihedral angle after the pass
  Vec3 worst_center = Vec3::Zero();  ///< its centroid (unit: m)
  int worst_boundary_nodes = 0;      ///< how many of its nodes lie on the surface (0..4)
};

/// Improves positively oriented tets in place; node positions on the boundary move only by sliding
/// (SliverOptions::surface_slide_deg > 0; never by default). Nodes
/// that peeling leaves in no tet are removed (indices compacted); split nodes are appended.
SliverReport remove_slivers(TetMesh& mesh, const SliverOptions& options = {});

}  // namespace pliant::meshing
