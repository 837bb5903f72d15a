// Area-preserving membrane tearing (J. Grimm, "Interaktive Simulation von Weichgewebe ...",
// doctoral thesis, Universität Mannheim 2005, section 3.3, algorithms 3.2-3.4; also Grimm 2005b).
//
// Fan walk (thesis figure 3.6): around the tearing node n, triangles are linked through the springs
// at n. Starting from one spring, the next triangle is the other triangle of the spring just crossed;
// the walk collects one side of the crack up to the crack spring.
//
//        e (end node)                      e
//       / .                              / | .
//      /   .        propagate           /  |  .
//   a /  c  . b      ------->        a /  c c' . b
//    /       .                        /    |    .
//   o----n----o   (edge: a...n...b)   o---n  n'--o
//
// Only topology moves; positions are untouched, so a fresh crack is closed and opens as the springs
// on both sides pull their own copy of the node away.
#include "pliant/models/springs/tearing_area.hpp"

#include "tearing_queries.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace pliant::springs {

using detail::other_triangle;
using detail::relative_length;
using detail::rest_area;
using detail::springs_at;
using detail::tri_count;
using detail::u;

double node_stress(const SpringMesh& mesh, Index node) {
  double sum = 0.0;
  for (Index s : mesh.node_springs.of(node)) {
    const double stretch = mesh.length(s) - mesh.rest_length[u(s)];
    if (stretch > 0.0) sum += 0.5 * mesh.stiffness[u(s)] * stretch;
  }
  return mesh.weight[u(node)] * sum;
}

NodeType node_type(const SpringMesh& mesh, Index node) {
  Index nbr[2] = {-1, -1};
  int edges = 0;
  for (Index s : mesh.node_springs.of(node)) {
    if (tri_count(mesh, s) != 1) continue;
    if (edges < 2) nbr[edges] = mesh.other_end(s, node);
    ++edges;
  }
  if (edges == 0) return NodeType::inner;
  if (edges == 2 && mesh.origin[u(nbr[0])] == mesh.origin[u(nbr[1])]) return NodeType::crack_seed;
  return NodeType::edge;
}

// ---------------------------------------------------------------------------------------------------
// Area-preserving tearing

void Tearing::classify(const SpringMesh& mesh) {
  const std::size_t n = u(mesh.node_count());
  stress_.assign(n, 0.0);
  edge_nbr_.assign(2 * n, -1);
  edge_count_.assign(n, 0);
  inner_count_.assign(n, 0);
  const Index springs = mesh.spring_count();
  for (Index s = 0; s < springs; ++s) {
    const Edge& e = mesh.spring_nodes[u(s)];
    const double stretch = mesh.length(s) - mesh.rest_length[u(s)];
    if (stretch > 0.0) {
      const double half = 0.5 * mesh.stiffness[u(s)] * stretch;
      stress_[u(e[0])] += half;
      stress_[u(e[1])] += half;
    }
    const int tc = tri_count(mesh, s);
    if (tc == 1) {
      for (int k = 0; k < 2; ++k) {
        const std::size_t a = u(e[u(k)]);
        if (edge_count_[a] < 2) edge_nbr_[2 * a + edge_count_[a]] = e[u(1 - k)];
        if (edge_count_[a] < 255) ++edge_count_[a];
      }
    } else if (tc == 2) {
      if (inner_count_[u(e[0])] < 255) ++inner_count_[u(e[0])];
      if (inner_count_[u(e[1])] < 255) ++inner_count_[u(e[1])];
    }
  }
  for (std::size_t i = 0; i < n; ++i) stress_[i] *= mesh.weight[i];
}

int Tearing::step(SpringMesh& mesh) {
  events_.clear();
  last_ratio_ = 0.0;
  classify(mesh);
  const Index n = mesh.node_count();
  double best = 0.0;
  Index best_node = -1;
  NodeType best_type = NodeType::inner;
  for (Index i = 0; i < n; ++i) {
    const std::size_t a = u(i);
    if (inner_count_[a] == 0) continue;  // no spring shared by two triangles: nothing can open
    if (!def_.tear_fixed_nodes && mesh.inv_mass[a] == 0.0) continue;
    NodeType type = NodeType::inner;
    double threshold = def_.inner_threshold;
    if (edge_count_[a] > 0) {
      type = NodeType::edge;
      threshold = def_.edge_threshold;
      if (edge_count_[a] == 2 && mesh.origin[u(edge_nbr_[2 * a])] == mesh.origin[u(edge_nbr_[2 * a + 1])]) {
        type = NodeType::crack_seed;
        threshold = def_.seed_threshold;
      }
    }
    threshold *= mesh.tear_factor[a];
    const double r = (stress_[a] - threshold) / threshold;
    if (r > best) {
      best = r;
      best_node = i;
      best_type = type;
    }
  }
  if (best_node < 0) return 0;
  last_ratio_ = best;
  const int torn = tear(mesh, best_node, best_type);
  if (torn > 0) ++mesh.topology_version;
  return torn;
}

int Tearing::tear_node(SpringMesh& mesh, Index node) {
  events_.clear();
  last_ratio_ = 0.0;
  if (node < 0 || node >= mesh.node_count()) return 0;
  const int torn = tear(mesh, node, node_type(mesh, node));
  if (torn > 0) ++mesh.topology_version;
  return torn;
}

Index Tearing::crack_spring(const SpringMesh& mesh, Index node, Index exclude) const {
  Index best = -1;
  double best_lr = std::numeric_limits<double>::infinity();
  for (Index s : mesh.node_springs.of(node)) {
    if (s == exclude || tri_count(mesh, s) != 2) continue;
    const double lr = relative_length(mesh, s);
    if (lr < best_lr) {
      best_lr = lr;
      best = s;
    }
  }
  return best;
}

bool Tearing::walk_fan(const SpringMesh& mesh, Index node, Index first_spring, Index first_tri) {
  // Records spring, triangle, spring, triangle, ... around `node`, starting across first_spring
  // into first_tri. Returns true if the fan closed (came back to first_tri).
  walk_springs_.clear();
  walk_tris_.clear();
  Index s = first_spring;
  Index t = first_tri;
  const std::size_t limit = mesh.node_triangles.of(node).size() + 1;
  while (t >= 0) {
    if (walk_tris_.size() > limit) return false;  // inconsistent mesh: do not loop forever
    walk_springs_.push_back(s);
    walk_tris_.push_back(t);
    Index s_out, s_in;
    springs_at(mesh, t, node, s_out, s_in);
    s = (s_out == s) ? s_in : s_out;
    t = other_triangle(mesh, s, t);
    if (t == first_tri) return true;
  }
  walk_springs_.push_back(s);  // the last (edge) spring of an open fan
  return false;
}

Index Tearing::duplicate_spring(SpringMesh& mesh, Index spring, Index old_end, Index new_end) {
  Edge e = mesh.spring_nodes[u(spring)];
  if (e[0] == old_end)
    e[0] = new_end;
  else
    e[1] = new_end;
  return mesh.duplicate_spring(spring, e);
}

void Tearing::move_triangle(SpringMesh& mesh, Index tri, Index from, Index to) {
  Tri& tn = mesh.tri_nodes[u(tri)];
  for (auto& x : tn)
    if (x == from) x = to;
  mesh.node_triangles.remove(from, tri);
  mesh.node_triangles.add(to, tri);
}

void Tearing::move_spring(SpringMesh& mesh, Index spring, Index from, Index to) {
  Edge& e = mesh.spring_nodes[u(spring)];
  if (e[0] == from)
    e[0] = to;
  else if (e[1] == from)
    e[1] = to;
  else
    return;
  mesh.node_springs.remove(from, spring);
  mesh.node_springs.add(to, spring);
}

void Tearing::split_mass(SpringMesh& mesh, Index a, Index b) {
  double area_a = 0.0, area_b = 0.0;
  for (Index t : mesh.node_triangles.of(a)) area_a += rest_area(mesh, t);
  for (Index t : mesh.node_triangles.of(b)) area_b += rest_area(mesh, t);
  const double total = mesh.mass[u(a)];
  if (!(area_a > 0.0 && area_b > 0.0)) return;
  mesh.mass[u(a)] = total * area_a / (area_a + area_b);
  mesh.mass[u(b)] = total - mesh.mass[u(a)];
  for (Index x : {a, b})
    if (mesh.inv_mass[u(x)] != 0.0) mesh.inv_mass[u(x)] = 1.0 / mesh.mass[u(x)];
}

// Replaces spring `from` by `to` in triangle t's edge list and moves t between the two springs'
// triangle slots.
static void reassign_edge(SpringMesh& mesh, Index t, Index from, Index to) {
  for (auto& s : mesh.tri_springs[u(t)])
    if (s == from) s = to;
  auto& sf = mesh.spring_triangles[u(from)];
  if (sf[0] == t) {
    sf[0] = sf[1];
    sf[1] = -1;
  } else if (sf[1] == t) {
    sf[1] = -1;
  }
  auto& st = mesh.spring_triangles[u(to)];
  (st[0] < 0 ? st[0] : st[1]) = t;
}

int Tearing::tear(SpringMesh& mesh, Index node, NodeType type) {
  const Index c1 = crack_spring(mesh, node, -1);
  if (c1 < 0) return 0;
  if (type == NodeType::inner) {
    // Hole: walk the closed fan from c1, choose the second crack spring away from c1.
    if (!walk_fan(mesh, node, c1, mesh.spring_triangles[u(c1)][0])) return 0;
    const std::size_t m = walk_springs_.size();
    if (m < 3) return 0;
    std::size_t j = 0;
    double best_lr = std::numeric_limits<double>::infinity();
    for (std::size_t i = 2; i + 2 <= m; ++i) {  // fan distance >= 2 on both sides
      const double lr = relative_length(mesh, walk_springs_[i]);
      if (lr < best_lr) {
        best_lr = lr;
        j = i;
      }
    }
    if (j == 0) j = m / 2;  // a fan of 3: the split is one triangle against two
    const Index c2 = walk_springs_[j];
    const Index e1 = mesh.other_end(c1, node), e2 = mesh.other_end(c2, node);
    const Index copy = mesh.duplicate_node(node);
    const Index c1b = duplicate_spring(mesh, c1, node, copy);
    const Index c2b = duplicate_spring(mesh, c2, node, copy);
    // Triangles walk_tris_[0..j-1] and springs walk_springs_[1..j-1] move to the copy.
    for (std::size_t i = 1; i < j; ++i) move_spring(mesh, walk_springs_[i], node, copy);
    for (std::size_t i = 0; i < j; ++i) move_triangle(mesh, walk_tris_[i], node, copy);
    reassign_edge(mesh, walk_tris_[0], c1, c1b);
    reassign_edge(mesh, walk_tris_[j - 1], c2, c2b);
    split_mass(mesh, node, copy);
    events_.push_back({node, copy, c1, TearKind::hole, mesh.position[u(node)]});
    separate_fans(mesh, e1);
    separate_fans(mesh, e2);
    return static_cast<int>(events_.size());
  }
  // Propagation / branching: walk the open fan from an edge spring to the crack spring.
  Index start = -1;
  for (Index s : mesh.node_springs.of(node))
    if (tri_count(mesh, s) == 1) {
      start = s;
      break;
    }
  if (start < 0) return 0;
  const auto& st0 = mesh.spring_triangles[u(start)];
  walk_fan(mesh, node, start, st0[0] >= 0 ? st0[0] : st0[1]);
  std::size_t j = 0;
  for (std::size_t i = 1; i < walk_springs_.size(); ++i)
    if (walk_springs_[i] == c1) {
      j = i;
      break;
    }
  if (j == 0 || j >= walk_tris_.size()) return 0;  // crack spring not on this fan (rule 5 broken)
  const Index end = mesh.other_end(c1, node);
  const Index copy = mesh.duplicate_node(node);
  const Index c1b = duplicate_spring(mesh, c1, node, copy);
  for (std::size_t i = 0; i < j; ++i) move_spring(mesh, walk_springs_[i], node, copy);
  for (std::size_t i = 0; i < j; ++i) move_triangle(mesh, walk_tris_[i], node, copy);
  reassign_edge(mesh, walk_tris_[j - 1], c1, c1b);
  split_mass(mesh, node, copy);
  events_.push_back({node, copy, c1, type == NodeType::crack_seed ? TearKind::propagate : TearKind::branch,
                     mesh.position[u(node)]});
  separate_fans(mesh, end);
  return static_cast<int>(events_.size());
}

int Tearing::separate_fans(SpringMesh& mesh, Index node) {
  // Components of the node's triangles linked through the springs at the node (rule 5 asks for one).
  const auto tris = mesh.node_triangles.of(node);
  fan_tris_.assign(tris.begin(), tris.end());
  const std::size_t m = fan_tris_.size();
  fan_label_.assign(m, -1);
  Index labels = 0;
  auto local = [&](Index t) -> std::size_t {
    for (std::size_t i = 0; i < m; ++i)
      if (fan_tris_[i] == t) return i;
    return m;
  };
  for (std::size_t seed = 0; seed < m; ++seed) {
    if (fan_label_[seed] >= 0) continue;
    fan_label_[seed] = labels;
    stack_.assign(1, static_cast<Index>(seed));
    while (!stack_.empty()) {
      const Index cur = stack_.back();
      stack_.pop_back();
      Index sa, sb;
      springs_at(mesh, fan_tris_[u(cur)], node, sa, sb);
      for (Index s : {sa, sb}) {
        const Index other = other_triangle(mesh, s, fan_tris_[u(cur)]);
        if (other < 0) continue;
        const std::size_t k = local(other);
        if (k < m && fan_label_[k] < 0) {
          fan_label_[k] = labels;
          stack_.push_back(static_cast<Index>(k));
        }
      }
    }
    ++labels;
  }
  int made = 0;
  for (Index label = 1; label < labels; ++label) {
    const Index copy = mesh.duplicate_node(node);
    moved_springs_.clear();
    for (std::size_t i = 0; i < m; ++i) {
      if (fan_label_[i] != label) continue;
      Index sa, sb;
      springs_at(mesh, fan_tris_[i], node, sa, sb);
      moved_springs_.push_back(sa);
      moved_springs_.push_back(sb);
    }
    for (Index s : moved_springs_) move_spring(mesh, s, node, copy);  // no-op when already moved
    for (std::size_t i = 0; i < m; ++i)
      if (fan_label_[i] == label) move_triangle(mesh, fan_tris_[i], node, copy);
    split_mass(mesh, node, copy);
    events_.push_back({node, copy, -1, TearKind::tear_through, mesh.position[u(node)]});
    ++made;
  }
  return made;
}

}  // namespace pliant::springs
