// Dragnet (Grimm, Wagner, Männer 2004; Grimm 2005, chapter 2.3): a displacement-based correction that
// pulls over-long "strings" back to their maximum length, starting at the interaction nodes and
// proceeding in order of largest violation first; each string is corrected at most once per pass.
//
// Every spring of a SpringMesh is a string with max_length. A string whose current length exceeds it
// is queued with the node that pulls (interaction node) and the node that follows (reaction node).
// The damping factor f in ]0, 1] is read as a partial correction P_ra += f (P_target - P_ra): f = 1
// restores the maximum length in one pass, f → 0 does nothing (the printed formula, taken literally,
// contradicts the thesis text; see reference/membranes-dragnet-tearing.md). A popped string is
// re-checked, since its ends may have moved since it was queued. Visited marks are timestamps (one
// counter per pass) so a pass never clears an array. Cost: Ω(1) when nothing is violated,
// O(#strings log #strings) worst case; no equilibrium guarantee after one pass.
#pragma once

#include "pliant/models/springs/spring_mesh.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::springs {

/// Plain Dragnet settings.
struct DragnetDef {
  double factor = 1.0;  ///< damping factor f in ]0, 1] (dimensionless); 1 = full correction
  /// Only nodes not yet moved in this pass are pulled (the thesis text: the string is shortened by
  /// moving "the node that was not moved"). A corrected node then only pulls others, which makes a
  /// pass a wavefront from the interaction nodes and the next pass a no-op when nothing at the
  /// interaction nodes is violated. false: nodes may be pulled again by later strings.
  bool move_nodes_once = false;
};

/// What the last pass did.
struct DragnetStats {
  Index queued = 0;     ///< strings inserted into the heap (each at most once)
  Index corrected = 0;  ///< strings whose reaction node was moved
};

/// Dragnet with its reusable heap and timestamps (no allocation after the first pass on a mesh).
class Dragnet {
 public:
  explicit Dragnet(DragnetDef def = {}) : def_(def) {}
  const DragnetDef& def() const { return def_; }
  void set_def(const DragnetDef& def) { def_ = def; }

  /// One pass from the given interaction nodes (which, like fixed nodes, are never moved). Indices
  /// outside the mesh are ignored.
  /// `corrections`, when not empty (spring_count() entries), is incremented per corrected string:
  /// a test hook for "each string at most once per pass".
  DragnetStats pass(SpringMesh& mesh, std::span<const Index> interaction_nodes,
                    std::span<int> corrections = {});

 private:
  struct Item {
    double violation;  // current length minus max length when queued (unit: m)
    Index spring;
    Index pulling;  // the interaction node of this string
    bool operator<(const Item& o) const { return violation < o.violation; }
  };
  void queue_strings_of(const SpringMesh& mesh, Index node);

  DragnetDef def_;
  std::vector<Item> heap_;
  std::vector<std::uint32_t> string_stamp_, node_stamp_;
  std::uint32_t pass_ = 0;
  Index queued_ = 0;
};

}  // namespace pliant::springs
