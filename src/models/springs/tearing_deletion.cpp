// Tearing by deleting over-stretched springs (J. Grimm, "Interaktive Simulation von Weichgewebe ...",
// doctoral thesis, Universität Mannheim 2005, section 3.2, algorithm 3.1).
//
// Springs and triangles are removed by swap-remove (the last element moves into the hole and its
// references are renamed), so a tear costs O(degree) and the arrays stay dense, as in the thesis'
// array layout (table 4.2). Only when a node loses its last triangle are the node arrays compacted
// (O(mesh size)), since the incidence lists cannot drop a node's list in place.
#include "pliant/models/springs/tearing_deletion.hpp"

#include "tearing_queries.hpp"

#include <algorithm>
#include <array>

namespace pliant::springs {

using detail::u;

namespace {
void drop_triangle_slot(std::array<Index, 2>& st, Index t) {
  if (st[0] == t) {
    st[0] = st[1];
    st[1] = -1;
  } else if (st[1] == t) {
    st[1] = -1;
  }
}
}  // namespace

void DeletionTearing::remove_triangle(SpringMesh& mesh, Index t) {
  const Tri tn = mesh.tri_nodes[u(t)];
  const auto ts = mesh.tri_springs[u(t)];
  for (Index s : ts) {
    auto& st = mesh.spring_triangles[u(s)];
    drop_triangle_slot(st, t);
    if (st[0] < 0) drop_.push_back(s);  // rule 4: a spring without a triangle goes too
  }
  for (Index x : tn) {
    mesh.node_triangles.remove(x, t);
    if (mesh.node_triangles.of(x).empty()) orphans_.push_back(x);  // rule 1
  }
  const Index last = mesh.triangle_count() - 1;
  if (t != last) {
    for (Index x : mesh.tri_nodes[u(last)]) mesh.node_triangles.rename(x, last, t);
    for (Index s : mesh.tri_springs[u(last)]) {
      auto& st = mesh.spring_triangles[u(s)];
      for (auto& slot : st)
        if (slot == last) slot = t;
    }
  }
  mesh.move_last_triangle_into(t);
}

void DeletionTearing::remove_spring(SpringMesh& mesh, Index s) {
  const Edge e = mesh.spring_nodes[u(s)];
  mesh.node_springs.remove(e[0], s);
  mesh.node_springs.remove(e[1], s);
  const Index last = mesh.spring_count() - 1;
  if (s != last) {
    for (Index x : mesh.spring_nodes[u(last)]) mesh.node_springs.rename(x, last, s);
    for (Index t : mesh.spring_triangles[u(last)]) {
      if (t < 0) continue;
      for (auto& x : mesh.tri_springs[u(t)])
        if (x == last) x = s;
    }
    for (auto& d : drop_)
      if (d == last) d = s;
  }
  mesh.move_last_spring_into(s);
}

int DeletionTearing::step(SpringMesh& mesh) {
  events_.clear();
  node_map_.clear();
  orphans_.clear();
  // Downwards: the spring swapped into a freed slot comes from the end, which was already checked.
  for (Index s = mesh.spring_count() - 1; s >= 0; --s) {
    if (s >= mesh.spring_count()) continue;
    if (!(mesh.length(s) > mesh.max_length[u(s)])) continue;
    const Edge e = mesh.spring_nodes[u(s)];
    events_.push_back(
        {e[0], -1, -1, TearKind::deletion, 0.5 * (mesh.position[u(e[0])] + mesh.position[u(e[1])])});
    drop_.clear();
    while (mesh.spring_triangles[u(s)][0] >= 0) remove_triangle(mesh, mesh.spring_triangles[u(s)][0]);
    drop_.erase(std::remove(drop_.begin(), drop_.end(), s), drop_.end());
    remove_spring(mesh, s);
    while (!drop_.empty()) {
      const Index d = drop_.back();
      drop_.pop_back();
      remove_spring(mesh, d);
    }
  }
  if (events_.empty()) return 0;
  ++mesh.topology_version;

  // Nodes left without a triangle (rule 1) go with their remaining (free) springs: compact.
  bool any = false;
  for (Index x : orphans_) any = any || mesh.node_triangles.of(x).empty();
  if (!any) return static_cast<int>(events_.size());
  const Index nodes = mesh.node_count(), springs = mesh.spring_count();
  node_map_.assign(u(nodes), 0);
  for (Index x : orphans_)
    if (mesh.node_triangles.of(x).empty()) node_map_[u(x)] = -1;
  Index new_nodes = 0;
  for (Index n = 0; n < nodes; ++n) node_map_[u(n)] = node_map_[u(n)] < 0 ? -1 : new_nodes++;
  spring_map_.assign(u(springs), -1);
  Index new_springs = 0;
  for (Index s = 0; s < springs; ++s) {
    const Edge& e = mesh.spring_nodes[u(s)];
    if (node_map_[u(e[0])] >= 0 && node_map_[u(e[1])] >= 0) spring_map_[u(s)] = new_springs++;
  }
  for (auto& ev : events_) ev.node = node_map_[u(ev.node)];
  mesh.compact(node_map_, new_nodes, spring_map_, new_springs);
  return static_cast<int>(events_.size());
}

}  // namespace pliant::springs
