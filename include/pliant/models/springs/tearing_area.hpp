// Area-preserving membrane tearing on a SpringMesh (Grimm 2005, section 3.3).
//
// Area-preserving tearing never deletes a triangle: it separates two triangles by duplicating a node
// (and the crack spring) and moving one side of the node's triangle fan to the copy, so the total rest
// area of the membrane is constant. Where and when it tears is decided by node stress:
//
//   S(n_i) = t_i Σ_j ½ S(s_ij)      over the STRETCHED springs s_ij of n_i, S(s) = k (l − l0) for l > l0
//   r(n_i) = (S(n_i) − T(n_i)) / T(n_i)
//
// with three thresholds T by node type: crack seeds (the tip of a crack: an edge node whose two edge
// neighbours are copies of one node) lowest, other edge nodes medium (branching / new cracks from a
// border), inner nodes highest (holes). Per step only the node with the largest r > 0 tears. The
// crack runs along the node's non-edge spring with the smallest relative length l/l0 (the spring
// least stretched is the one most nearly perpendicular to the pull).
//
// Operations (fan of node n = its triangles, linked through its springs):
//   hole          n inner: duplicate n and its two crack springs; one arc of the closed fan between
//                 the crack springs moves to the copy -> a lens-shaped slit with two tips.
//   propagate     n a crack seed: duplicate n and the crack spring; the arc of the open fan from one
//   / branch      edge spring to the crack spring moves to the copy (the thesis' triangle-fan walk).
//   tear_through  if the crack's end node was already an edge node its fan is now two pieces joined
//                 at one node (rule 5 broken): duplicate it and give one piece to the copy.
// Duplicates copy rest position, position, velocity and attributes; the node's lumped mass is split
// between original and copy in proportion to the rest area of their triangles, so mass is conserved.
// Rule 5 ("two triangles that share a node share an edge") is read as: the triangles around every
// node form ONE fan connected through shared springs (the literal reading would forbid any interior
// node of degree > 3). consistency.hpp checks it.
//
// Tearing reports what it did as an event array (tear_event.hpp), valid until the next step. A step
// allocates only while its scratch arrays and the mesh grow (warm-up); Tearing::step never throws.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/tear_event.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::springs {

/// Node types of area-preserving tearing (Grimm 2005, definitions 3.2, 3.3, 3.8).
enum class NodeType : std::uint8_t { inner, edge, crack_seed };

/// Plain settings of area-preserving tearing (C++20 aggregate). Thresholds are node stresses, so
/// they carry the unit of spring stress k (l − l0) (unit: N). Each is multiplied by the node's
/// tear_factor. Usually seed < edge < inner.
struct TearingDef {
  double seed_threshold = 0.5;    ///< T for crack seeds: propagation (unit: N), > 0
  double edge_threshold = 1.0;    ///< T for other edge nodes: branching and border cracks (unit: N), > 0
  double inner_threshold = 2.0;   ///< T for inner nodes: holes (unit: N), > 0
  bool tear_fixed_nodes = false;  ///< whether fixed nodes (inv_mass 0) may tear
};

/// Node stress S(n) = weight[n] · Σ ½ k (l − l0) over the stretched springs of n (unit: N).
double node_stress(const SpringMesh& mesh, Index node);

/// Type of node n, computed from the topology (O(degree)). Nodes without triangles count as inner.
NodeType node_type(const SpringMesh& mesh, Index node);

/// Area-preserving tearing with reusable scratch arrays.
class Tearing {
 public:
  explicit Tearing(TearingDef def = {}) : def_(def) {}
  const TearingDef& def() const { return def_; }
  void set_def(const TearingDef& def) { def_ = def; }

  /// Algorithm 3.4: computes all node stresses, tears the node with the largest r > 0 (if any) and
  /// repairs its crack end (tear-through). Returns the number of events (0 when nothing tore).
  /// Cost O(#springs + #nodes) for the stresses plus O(degree²) for the tear.
  int step(SpringMesh& mesh);

  /// Tears node n now, whatever its stress: a hole if it is inner, else propagation / branching
  /// (to start a crack by hand: a puncture, a cut flap). Returns the number of events (0 if n has no
  /// spring shared by two triangles, so nothing can open).
  int tear_node(SpringMesh& mesh, Index node);

  /// Events of the last step / tear_node call.
  std::span<const TearEvent> events() const { return events_; }
  /// Relative overshoot r of the node that tore in the last step (0 if none).
  double last_ratio() const { return last_ratio_; }

 private:
  void classify(const SpringMesh& mesh);
  int tear(SpringMesh& mesh, Index node, NodeType type);
  Index crack_spring(const SpringMesh& mesh, Index node, Index exclude) const;
  Index duplicate_spring(SpringMesh& mesh, Index spring, Index old_end, Index new_end);
  void move_triangle(SpringMesh& mesh, Index tri, Index from, Index to);
  void move_spring(SpringMesh& mesh, Index spring, Index from, Index to);
  void split_mass(SpringMesh& mesh, Index a, Index b);
  int separate_fans(SpringMesh& mesh, Index node);
  bool walk_fan(const SpringMesh& mesh, Index node, Index first_spring, Index first_tri);

  TearingDef def_;
  std::vector<TearEvent> events_;
  double last_ratio_ = 0.0;
  // per-node scratch, sized to the mesh each step
  std::vector<double> stress_;
  std::vector<Index> edge_nbr_;  // two edge neighbours per node (-1 unused)
  std::vector<std::uint8_t> edge_count_, inner_count_;
  std::vector<Index> fan_tris_, fan_label_, stack_, moved_springs_;
  std::vector<Index> walk_springs_, walk_tris_;  // fan walk: spring, triangle, spring, ...
};

}  // namespace pliant::springs
