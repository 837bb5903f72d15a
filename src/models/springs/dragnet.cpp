// Dragnet (J. Grimm, M. Wagner, R. Männer, 2004; J. Grimm, doctoral thesis, Mannheim 2005, ch. 3).
// Max-heap of violated strings keyed by their violation, timestamps instead of visited flags.
#include "pliant/models/springs/dragnet.hpp"

#include <algorithm>

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

void Dragnet::queue_strings_of(const SpringMesh& mesh, Index node) {
  for (Index s : mesh.node_springs.of(node)) {
    if (string_stamp_[at(s)] == pass_) continue;
    const double excess = mesh.length(s) - mesh.max_length[at(s)];
    if (!(excess > 0.0)) continue;
    string_stamp_[at(s)] = pass_;
    heap_.push_back({excess, s, node});
    ++queued_;
    std::push_heap(heap_.begin(), heap_.end());
  }
}

DragnetStats Dragnet::pass(SpringMesh& mesh, std::span<const Index> interaction_nodes,
                           std::span<int> corrections) {
  const std::size_t springs = mesh.spring_nodes.size(), nodes = mesh.position.size();
  if (string_stamp_.size() != springs || node_stamp_.size() != nodes || pass_ == UINT32_MAX) {
    string_stamp_.assign(springs, 0);
    node_stamp_.assign(nodes, 0);
    heap_.reserve(springs);
    pass_ = 0;
  }
  ++pass_;
  heap_.clear();
  queued_ = 0;
  DragnetStats stats;
  // A node index outside the mesh (a stale handle after tearing renumbered nodes) is ignored rather
  // than read out of bounds.
  const auto valid = [nodes](Index n) { return n >= 0 && at(n) < nodes; };
  for (Index n : interaction_nodes)
    if (valid(n)) node_stamp_[at(n)] = pass_;
  for (Index n : interaction_nodes)
    if (valid(n)) queue_strings_of(mesh, n);
  const double f = def_.factor;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end());
    const Item item = heap_.back();
    heap_.pop_back();
    const Index ia = item.pulling;
    const Index ra = mesh.other_end(item.spring, ia);
    // The reaction node must be one that has not moved in this pass ("der Knoten, der nicht bewegt
    // wurde", Grimm 2005 §2.3.1): interaction nodes and already corrected nodes stay put.
    if (mesh.fixed(ra) || node_stamp_[at(ra)] == pass_) continue;
    const Vec3& p_ia = mesh.position[at(ia)];
    Vec3& p_ra = mesh.position[at(ra)];
    const Vec3 d = p_ra - p_ia;
    const double l = d.norm();
    const double max_l = mesh.max_length[at(item.spring)];
    if (!(l > max_l)) continue;  // re-check: the ends may have moved since queued
    if (l - max_l < item.violation * (1.0 - 1e-9)) {
      // Stale key: the violation shrank since queued. Re-queue with its current value so the pass
      // keeps processing the largest current violation first (the string stays stamped: still once).
      heap_.push_back({l - max_l, item.spring, ia});
      std::push_heap(heap_.begin(), heap_.end());
      continue;
    }
    const Vec3 target = p_ia + d * (max_l / l);
    p_ra += f * (target - p_ra);
    if (def_.move_nodes_once) node_stamp_[at(ra)] = pass_;
    ++stats.corrected;
    if (!corrections.empty()) ++corrections[at(item.spring)];
    queue_strings_of(mesh, ra);
  }
  stats.queued = queued_;
  return stats;
}

}  // namespace pliant::springs
