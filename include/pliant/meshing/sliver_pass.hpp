// Sliver removal after tetrahedral meshing: flat tets (all four nodes near one plane) whose smallest
// dihedral angle is under a threshold. Three local operations, none of which ever inverts a tet:
// - interior nodes of a sliver are moved (smoothing by local hill climbing on the smallest dihedral
//   angle of the tets around the node, in the spirit of Freitag & Ollivier-Gooch 1997);
// - a sliver lying on the surface with two or three of its faces on the boundary is peeled off (the
//   surface loses the sliver's volume, which is reported): no node move can fix it, since all four
//   of its nodes are on the surface, and the surface near it is locally flat.
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
};

struct SliverReport {
  Index slivers_before = 0;          ///< tets under the threshold before the pass
  Index slivers_after = 0;           ///< tets under the threshold after it
  Index nodes_moved = 0;             ///< interior node moves accepted
  Index flips = 0;                   ///< 2-3 and 3-2 flips done
  Index splits = 0;                  ///< interior edges split to give a surface sliver a node to move
  Index tets_peeled = 0;             ///< surface slivers removed
  Index nodes_dropped = 0;           ///< nodes left in no tet by peeling, removed
  double peeled_volume = 0.0;        ///< volume of the removed slivers (unit: m³)
  double min_dihedral_before = 0.0;  ///< smallest dihedral angle before (unit: degrees)
  double min_dihedral_after = 0.0;   ///< smallest dihedral angle after (unit: degrees)
  Index worst_tet = -1;              ///< tet with the smallest dihedral angle after the pass
  Vec3 worst_center = Vec3::Zero();  ///< its centroid (unit: m)
  int worst_boundary_nodes = 0;      ///< how many of its nodes lie on the surface (0..4)
};

/// Improves positively oriented tets in place; node positions on the boundary never move. Nodes
/// that peeling leaves in no tet are removed (indices compacted); split nodes are appended.
SliverReport remove_slivers(TetMesh& mesh, const SliverOptions& options = {});

}  // namespace pliant::meshing
