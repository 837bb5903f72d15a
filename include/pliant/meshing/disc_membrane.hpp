// Planar disc membrane with prescribed node and boundary-node counts.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::meshing {

/// A triangulated disc in the z = 0 plane with exactly `nodes` nodes, `boundary_nodes` of them on the
/// rim. Any simply connected planar triangulation with V nodes, B on its boundary, has
/// E = 3V − 3 − B edges and F = 2V − 2 − B triangles; so the Grimm (2005) membranes are
/// {1403 nodes, B = 140} → 4066 springs, 2664 triangles and {630, B = 88} → 1799, 1170.
struct DiscMembraneDef {
  Vec3 center = Vec3::Zero();  ///< centre; the disc lies in the plane z = center.z (unit: m)
  double radius = 0.05;        ///< rim radius (unit: m), > 0
  Index nodes = 1403;          ///< total nodes V, > boundary_nodes
  Index boundary_nodes = 140;  ///< nodes on the rim B, ≥ 6
};

/// Builds the disc: node 0 at the centre, then concentric rings whose node counts grow with their
/// radius (so the spacing is nearly uniform), the last B nodes on the rim. Neighbouring rings are
/// zipped into triangles, which Lawson edge flips then make Delaunay (the triangulation of these
/// nodes with the largest minimum angle). Fails when the interior and rim densities differ so much
/// that no good triangulation exists (the message gives the admissible node range).
Result<TriMesh> disc_membrane(const DiscMembraneDef& def);

/// Convenience overload: disc_membrane({.radius = radius, .nodes = nodes, .boundary_nodes = ...}).
Result<TriMesh> disc_membrane(double radius, Index nodes, Index boundary_nodes);

/// Admissible range of total nodes for a disc with `boundary_nodes` rim nodes: [first, second].
std::pair<Index, Index> disc_membrane_node_range(Index boundary_nodes);

}  // namespace pliant::meshing
