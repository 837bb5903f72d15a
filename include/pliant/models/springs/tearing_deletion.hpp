// The reference method of membrane tearing on a SpringMesh: tearing by deleting over-stretched
// springs (Grimm 2005, section 3.2).
//
// Deletion tearing removes every spring longer than its max_length, its triangles, springs left with
// no triangle (rule 4) and nodes left with no triangle (rule 1). Springs and triangles are swap-removed
// (indices change); when a node goes, node arrays are compacted and node_map() tells where each old
// node went.
//
// It reports what it did as an event array (tear_event.hpp), valid until the next step.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/tear_event.hpp"

#include <span>
#include <vector>

namespace pliant::springs {

/// Deletion tearing (Grimm 2005, algorithm 3.1) with reusable scratch arrays. Springs and triangles are
/// swap-removed (the last one takes the freed index), so spring and triangle indices change.
class DeletionTearing {
 public:
  /// Removes every spring with length > max_length, the triangles along it, springs left with no
  /// triangle and nodes left with no triangle. Returns the number of springs torn (events). Cost
  /// O(#springs) for the length check plus O(degree) per removal; O(mesh size) when a node goes.
  int step(SpringMesh& mesh);
  std::span<const TearEvent> events() const { return events_; }
  /// Old node index -> new node index (-1: removed), for the last step that removed anything; empty
  /// when the last step removed nothing (indices unchanged).
  std::span<const Index> node_map() const { return node_map_; }

 private:
  void remove_triangle(SpringMesh& mesh, Index tri);
  void remove_spring(SpringMesh& mesh, Index spring);

  std::vector<TearEvent> events_;
  std::vector<Index> node_map_, spring_map_;
  std::vector<Index> drop_, orphans_;
};

}  // namespace pliant::springs
