// Cutting a tetrahedral mesh along a blade's swept surface: a pure geometric operation on the rest
// mesh and the current positions that returns the change (appended nodes with their parents, removed
// and new tets, the cut faces); apply_tet_cut() then edits a mesh and its state arrays.
//
// Geometry. The blade's edge a0-b0 swept to a1-b1 spans a quadrilateral; the cut is taken as the plane
// through its four corners' mean with the normal (b1 - a0) × (a1 - b0) (the bilinear patch's mean
// normal), bounded by the quadrilateral's outline (the two triangles a0 b0 b1 and a0 b1 a1 projected on
// that plane). A blade that translates or turns in its own plane sweeps exactly this; a twisting blade
// is cut along the mean plane. Every node gets a signed distance φ to the plane in current positions x;
// an edge is crossed when φ changes sign along it (φ = 0 counts as positive) and its crossing point lies
// inside the outline. The crossing's edge parameter t is transferred to the rest shape, so rest
// positions and state of a new node are the same interpolation of its parents.
//
// Snapping (against slivers). A crossing within `snap`·(edge length) of an end puts that end on the cut
// instead (it is duplicated rather than the edge split), unless the node is frozen or belongs to a tet
// outside the mask; there the edge is split where it is crossed, and a sliver can appear.
//
// Snapping nodes onto the cut follows Nienhuys & van der Stappen 2001; splitting a crossed tet by its
// pattern of cut edges follows Bielser, Maiwald & Gross 1999.
//
// Split mode. A tet is *split* when it is cuttable, has nodes on
// both sides, every sign-changing edge of it is crossed (its cross-section lies inside the outline), and
// every tet around those edges is cuttable. Each side of a split tet (a convex piece: the 1|3 and 2|2
// cases, and the cases with nodes on the cut) is emitted as one tet if it has four corners, else coned
// from its off-cut corner with the smallest index over the face triangles not through it (every face
// through that corner is fanned from it, so no new node is needed: a prism gives three tets; Dompierre,
// Labbé, Vallet & Camarero 1999). A crossing point is duplicated (one copy per side) when
// every tet around its edge is split; a node on the cut is duplicated (the original stays on the
// positive side, the copy goes to the negative side) when it is not frozen, every tet around it is
// split or lies on one side, and both sides have tets at it. So a complete cut separates the sides; where the
// cut ends inside the body the points stay shared and the crack is pinned along its front. Tets only partly
// crossed (the blade's edge inside them, or a crossing outside the outline) are left unseparated: the cut
// ends at their faces. Those that touch a used crossing point are re-tetrahedralised from their centroid
// without separation so that the mesh stays conforming (every face shared by two tets is the same triangle on
// both sides). Faces are triangulated canonically (a quadrilateral face piece is fanned from its original
// node with the smaller index), which is what makes neighbours agree. Rest volume is conserved to round-off.
// Near the front, a split tet is left unseparated (re-tetrahedralised) where the two sides would
// otherwise touch along an edge of the cut whose ends both stay shared (with a split tet or the body's
// surface across it), so the boundary stays edge-manifold: every boundary edge in exactly two faces.
// (Vertices on the front can still be shared by the two sides.)
//
// A blade moved through the body over several steps: pass the sweep accumulated since the blade
// entered (a planar quadrilateral again while the blade moves in its own plane). Parts an earlier cut
// separated are left as they are (their nodes on the cut have tets on one side only), and the crack
// front an earlier partial cut pinned opens when the accumulated sweep crosses the tets around it.
// Passing only the step's own sweep leaves the earlier front pinned.
//
// Remove mode. Every cuttable tet with a crossed edge (no snapping) is deleted; nodes are kept.
//
// Tets outside the mask and frozen nodes never change. The result is deterministic (no hashing order,
// no threads). The operation allocates working arrays sized by the mesh and the cut region: call it
// when a blade moves, not per solver iteration.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace pliant::fem {

/// A blade's cutting edge over one step, as the scene's BladeSweep: the segment (a0, b0) at the
/// step's start swept to (a1, b1) at its end, in world (current) coordinates (unit: m).
struct TetCutBlade {
  Vec3 a0 = Vec3::Zero(), b0 = Vec3::Zero();
  Vec3 a1 = Vec3::Zero(), b1 = Vec3::Zero();
};

enum class TetCutMode {
  split,   ///< crossed tets are split along the cut and the sides separated
  remove,  ///< crossed tets are deleted
};

struct TetCutDef {
  TetCutMode mode = TetCutMode::split;
  /// A crossing closer than snap·(edge length) to an edge's end is snapped to that end, in [0, 0.2]
  /// (dimensionless). 0 disables snapping (and allows slivers). Larger fractions bend the cut so much
  /// that one side can come to touch itself along an edge, so they are refused.
  double snap = 0.1;
};

/// A node the cut appends: a combination of (at most four) existing nodes, weights summing to 1.
/// Rest position, current position and velocity are the same combination of the parents'.
struct TetCutNode {
  std::array<Index, 4> parent = {-1, -1, -1, -1};       ///< existing node indices, -1 for unused slots
  std::array<double, 4> weight = {0.0, 0.0, 0.0, 0.0};  ///< (dimensionless)
};

/// The change a cut makes to a mesh of N nodes and T tets.
struct TetCutResult {
  Index first_new_node = 0;           ///< N: new_nodes[i] becomes node N + i
  std::vector<TetCutNode> new_nodes;  ///< appended nodes, in creation order
  std::vector<Index> removed_tets;    ///< old tet indices that go away, ascending
  std::vector<Tet> new_tets;          ///< replacement tets (node indices over N + #new_nodes),
                                      ///< positively oriented in the rest shape
  std::vector<Index> new_tet_parent;  ///< per new tet: the old tet it replaces a part of
  std::vector<Tri> cut_faces;         ///< faces of the new tets lying on the cut, outward for their tet
  Index tets_split = 0;               ///< tets separated along the cut
  Index tets_refined = 0;             ///< partly crossed tets re-tetrahedralised without separation
  Index tets_relinked = 0;            ///< tets on one side that switched to a duplicated node
  Index tets_removed = 0;             ///< remove mode: tets deleted
  Index nodes_added = 0;              ///< = new_nodes.size()
  bool empty() const { return removed_tets.empty() && new_nodes.empty(); }
};

/// Cuts `rest` (rest positions and tets) whose nodes are currently at `x` (#nodes, unit: m) with the
/// blade. `cuttable` is per tet (#tets, nonzero = may change; empty = all tets), `frozen` per node
/// (#nodes, nonzero = never duplicated; empty = none). Fails with a one-line message on mismatched
/// sizes, node indices out of range, a non-finite blade or position, a sweep of (near) zero area, or
/// a snap outside [0, 0.2]. A blade that misses the body gives an empty result.
Result<TetCutResult> cut_tets(const TetMesh& rest, std::span<const Vec3> x,
                              std::span<const std::uint8_t> cuttable, std::span<const std::uint8_t> frozen,
                              const TetCutBlade& blade, const TetCutDef& def = {});

/// Appends the new nodes to a per-node array (any unit), each the weighted sum of its parents.
void interpolate_new_nodes(const TetCutResult& cut, std::vector<Vec3>& values);

/// Applies a cut to the mesh it was computed on and to its state: appends the new nodes (rest
/// positions in `mesh`, `x` (unit: m) and `v` (unit: m/s) interpolated; pass empty vectors for state
/// not kept), drops the removed tets keeping the others' order, then appends the new tets. Returns
/// the old-to-new tet index map (#old tets, -1 for removed tets).
std::vector<Index> apply_tet_cut(const TetCutResult& cut, TetMesh& mesh, std::vector<Vec3>& x,
                                 std::vector<Vec3>& v);

}  // namespace pliant::fem
