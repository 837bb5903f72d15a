// Consistency rules 1-5 of a torn membrane (Grimm 2005, sections 3.2.1 and 3.3).
#include "pliant/models/springs/consistency.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace pliant::springs {
namespace {

inline std::size_t u(Index i) { return static_cast<std::size_t>(i); }

Status fail(std::string message) { return Error{std::move(message)}; }

}  // namespace

Status check_consistency(const SpringMesh& mesh, const ConsistencyOptions& options) {
  if (auto base = check_spring_mesh(mesh); !base) return base;
  const Index nodes = mesh.node_count(), springs = mesh.spring_count(), tris = mesh.triangle_count();

  // Rule 1: every node in a triangle.
  for (Index n = 0; n < nodes; ++n) {
    if (!mesh.node_triangles.of(n).empty()) continue;
    if (options.allow_free_springs && !mesh.node_springs.of(n).empty()) continue;
    return fail("rule 1: node " + std::to_string(n) + " belongs to no triangle");
  }

  // Rule 2: no two triangles on the same three nodes.
  std::vector<std::array<Index, 4>> keys(u(tris));
  for (Index t = 0; t < tris; ++t) {
    Tri k = mesh.tri_nodes[u(t)];
    std::sort(k.begin(), k.end());
    keys[u(t)] = {k[0], k[1], k[2], t};
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 1; i < keys.size(); ++i)
    if (keys[i][0] == keys[i - 1][0] && keys[i][1] == keys[i - 1][1] && keys[i][2] == keys[i - 1][2])
      return fail("rule 2: triangles " + std::to_string(keys[i - 1][3]) + " and " +
                  std::to_string(keys[i][3]) + " join the same three nodes");

  // Rule 3: exactly one spring along every triangle edge (the edge's spring joins its two nodes,
  // lists the triangle, and no second spring joins the same pair).
  std::vector<std::array<Index, 3>> pairs(u(springs));
  for (Index s = 0; s < springs; ++s) {
    const Edge& e = mesh.spring_nodes[u(s)];
    pairs[u(s)] = {std::min(e[0], e[1]), std::max(e[0], e[1]), s};
  }
  std::sort(pairs.begin(), pairs.end());
  for (std::size_t i = 1; i < pairs.size(); ++i)
    if (pairs[i][0] == pairs[i - 1][0] && pairs[i][1] == pairs[i - 1][1])
      return fail("rule 3: springs " + std::to_string(pairs[i - 1][2]) + " and " +
                  std::to_string(pairs[i][2]) + " both join nodes " + std::to_string(pairs[i][0]) + " and " +
                  std::to_string(pairs[i][1]));
  for (Index t = 0; t < tris; ++t) {
    const Tri& tn = mesh.tri_nodes[u(t)];
    for (int k = 0; k < 3; ++k) {
      const Index s = mesh.tri_springs[u(t)][u(k)];
      const Index a = tn[u(k)], b = tn[u((k + 1) % 3)];
      if (s < 0 || s >= springs)
        return fail("rule 3: triangle " + std::to_string(t) + " edge " + std::to_string(k) +
                    " has no spring");
      const Edge& e = mesh.spring_nodes[u(s)];
      if (!((e[0] == a && e[1] == b) || (e[0] == b && e[1] == a)))
        return fail("rule 3: triangle " + std::to_string(t) + " edge " + std::to_string(a) + "-" +
                    std::to_string(b) + " names spring " + std::to_string(s) + " which joins " +
                    std::to_string(e[0]) + "-" + std::to_string(e[1]));
      const auto& st = mesh.spring_triangles[u(s)];
      if (st[0] != t && st[1] != t)
        return fail("rule 3: spring " + std::to_string(s) + " does not list triangle " + std::to_string(t));
    }
  }

  // Rule 4: every spring along one or two triangle edges.
  for (Index s = 0; s < springs; ++s) {
    const auto& st = mesh.spring_triangles[u(s)];
    int count = 0;
    for (Index t : st) {
      if (t < 0) continue;
      ++count;
      const auto& ts = mesh.tri_springs[u(t)];
      if (ts[0] != s && ts[1] != s && ts[2] != s)
        return fail("rule 4: spring " + std::to_string(s) + " lists triangle " + std::to_string(t) +
                    " which does not have it as an edge");
    }
    if (count == 2 && st[0] == st[1])
      return fail("rule 4: spring " + std::to_string(s) + " lists triangle " + std::to_string(st[0]) +
                  " twice");
    if (count == 0 && !options.allow_free_springs)
      return fail("rule 4: spring " + std::to_string(s) + " runs along no triangle edge");
  }

  // Rule 5: the triangles of every node form one fan linked through the springs at the node.
  if (options.rule5) {
    std::vector<Index> fan, label, stack;
    for (Index n = 0; n < nodes; ++n) {
      const auto tl = mesh.node_triangles.of(n);
      fan.assign(tl.begin(), tl.end());
      if (fan.size() < 2) continue;
      label.assign(fan.size(), 0);
      label[0] = 1;
      stack.assign(1, fan[0]);
      std::size_t reached = 1;
      while (!stack.empty()) {
        const Index t = stack.back();
        stack.pop_back();
        for (Index s : mesh.tri_springs[u(t)]) {
          const Edge& e = mesh.spring_nodes[u(s)];
          if (e[0] != n && e[1] != n) continue;
          for (Index o : mesh.spring_triangles[u(s)]) {
            if (o < 0 || o == t) continue;
            const auto it = std::find(fan.begin(), fan.end(), o);
            if (it == fan.end()) continue;
            auto& l = label[u(static_cast<Index>(it - fan.begin()))];
            if (l) continue;
            l = 1;
            ++reached;
            stack.push_back(o);
          }
        }
      }
      if (reached != fan.size()) {
        Index lone = -1;
        for (std::size_t i = 0; i < fan.size(); ++i)
          if (!label[i]) lone = fan[i];
        return fail("rule 5: at node " + std::to_string(n) + ", triangles " + std::to_string(fan[0]) +
                    " and " + std::to_string(lone) +
                    " share the node but are not connected through a shared edge");
      }
    }
  }
  return {};
}

}  // namespace pliant::springs
