// Building and checking SpringMesh state from membranes and tetrahedral bodies.
#include "pliant/models/springs/spring_mesh.hpp"

#include "pliant/core/geometry.hpp"
#include "pliant/core/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace pliant::springs {
namespace {

std::size_t at(Index i) { return static_cast<std::size_t>(i); }

Status check_def(const SpringMeshDef& d) {
  if (!(d.stiffness > 0.0) || !std::isfinite(d.stiffness))
    return Error{fmt::format("spring mesh: stiffness must be finite and > 0 N/m, got {}", d.stiffness)};
  if (!(d.damping >= 0.0) || !std::isfinite(d.damping))
    return Error{fmt::format("spring mesh: damping must be finite and >= 0 N·s/m, got {}", d.damping)};
  if (!(d.max_stretch >= 1.0) || !std::isfinite(d.max_stretch))
    return Error{fmt::format("spring mesh: max_stretch must be finite and >= 1, got {}", d.max_stretch)};
  if (!(d.node_mass >= 0.0) || !std::isfinite(d.node_mass))
    return Error{fmt::format("spring mesh: node_mass must be finite and >= 0 kg, got {}", d.node_mass)};
  if (d.node_mass == 0.0 && (!(d.mass_density > 0.0) || !std::isfinite(d.mass_density)))
    return Error{fmt::format("spring mesh: mass_density must be finite and > 0, got {}", d.mass_density)};
  return {};
}

Status add_springs(SpringMesh& m, const std::vector<Edge>& edges, const SpringMeshDef& d) {
  for (std::size_t s = 0; s < edges.size(); ++s) {
    const double l = (m.rest_position[at(edges[s][1])] - m.rest_position[at(edges[s][0])]).norm();
    if (!(l > 0.0))
      return Error{fmt::format("spring mesh: edge {} joins nodes {} and {} at the same position", s,
                               edges[s][0], edges[s][1])};
    m.append_spring(edges[s], l, d.stiffness, d.damping, d.max_stretch * l);
  }
  return {};
}

// Attaches triangles to their edge springs; fails on an edge with more than two triangles.
Status add_triangles(SpringMesh& m, const std::vector<Tri>& tris) {
  std::map<Edge, Index> spring_of;
  for (Index s = 0; s < m.spring_count(); ++s) spring_of[m.spring_nodes[at(s)]] = s;
  m.tri_nodes = tris;
  m.tri_springs.resize(tris.size());
  for (std::size_t t = 0; t < tris.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const Index a = tris[t][at(k)], b = tris[t][at((k + 1) % 3)];
      const Edge key{std::min(a, b), std::max(a, b)};
      const auto it = spring_of.find(key);
      if (it == spring_of.end())
        return Error{fmt::format("spring mesh: triangle {} edge ({}, {}) has no spring", t, a, b)};
      const Index s = it->second;
      m.tri_springs[t][at(k)] = s;
      auto& st = m.spring_triangles[at(s)];
      if (st[0] < 0) {
        st[0] = static_cast<Index>(t);
      } else if (st[1] < 0) {
        st[1] = static_cast<Index>(t);
      } else {
        return Error{
            fmt::format("spring mesh: edge ({}, {}) is shared by more than two triangles ({}, {}, {})", a, b,
                        st[0], st[1], t)};
      }
      m.node_triangles.add(tris[t][at(k)], static_cast<Index>(t));
    }
  }
  return {};
}

void finish_masses(SpringMesh& m, const SpringMeshDef& d) {
  for (std::size_t i = 0; i < m.mass.size(); ++i) {
    if (d.node_mass > 0.0) m.mass[i] = d.node_mass;
    // A node in no element (isolated) still needs a positive mass for (N2): give it the mean.
    m.inv_mass[i] = m.mass[i] > 0.0 ? 1.0 / m.mass[i] : 0.0;
  }
  double sum = 0.0;
  std::size_t count = 0;
  for (double v : m.mass)
    if (v > 0.0) sum += v, ++count;
  const double fallback = count > 0 ? sum / static_cast<double>(count) : 1.0;
  for (std::size_t i = 0; i < m.mass.size(); ++i)
    if (!(m.mass[i] > 0.0)) m.mass[i] = fallback, m.inv_mass[i] = 1.0 / fallback;
}

}  // namespace

// ---- SpringMesh's appenders and compaction: the one place that writes every array of a group ----

namespace {
// Copies element i of v to its end (a copy first: push_back may reallocate).
template <class V>
void append_copy(V& v, std::size_t i) {
  const typename V::value_type value = v[i];
  v.push_back(value);
}

// Moves each kept entry v[i] to v[map[i]] (map ascending over the kept ones) and shrinks v.
template <class V>
void compact_array(V& v, std::span<const Index> map, Index new_size) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (map[i] >= 0 && at(map[i]) != i) v[at(map[i])] = v[i];
  v.resize(at(new_size));
}

template <class V>
void move_last_into(V& v, Index slot) {
  if (at(slot) + 1 != v.size()) v[at(slot)] = v.back();
  v.pop_back();
}
}  // namespace

Index SpringMesh::append_nodes(std::span<const Vec3> rest) {
  const Index first = node_count();
  for (std::size_t k = 0; k < rest.size(); ++k) {
    rest_position.push_back(rest[k]);
    position.push_back(rest[k]);
    velocity.push_back(Vec3::Zero());
    mass.push_back(0.0);
    inv_mass.push_back(0.0);
    stiffness_factor.push_back(1.0);
    tear_factor.push_back(1.0);
    weight.push_back(1.0);
    origin.push_back(first + static_cast<Index>(k));
    node_springs.add_node();
    node_triangles.add_node();
  }
  return first;
}

Index SpringMesh::duplicate_node(Index n) {
  for_each_node_array([&](auto& v) { append_copy(v, at(n)); });
  node_springs.add_node();
  return node_triangles.add_node();
}

Index SpringMesh::append_spring(const Edge& nodes, double l0, double k, double c, double lmax) {
  const Index s = spring_count();
  spring_nodes.push_back(nodes);
  rest_length.push_back(l0);
  stiffness.push_back(k);
  damping.push_back(c);
  max_length.push_back(lmax);
  spring_factor.push_back(1.0);
  spring_triangles.push_back({-1, -1});
  node_springs.add(nodes[0], s);
  node_springs.add(nodes[1], s);
  return s;
}

Index SpringMesh::duplicate_spring(Index s, const Edge& nodes) {
  const Index copy = spring_count();
  for_each_spring_array([&](auto& v) { append_copy(v, at(s)); });
  spring_nodes.back() = nodes;
  spring_triangles.back() = {-1, -1};
  node_springs.add(nodes[0], copy);
  node_springs.add(nodes[1], copy);
  return copy;
}

void SpringMesh::move_last_spring_into(Index s) {
  for_each_spring_array([&](auto& v) { move_last_into(v, s); });
}

void SpringMesh::move_last_triangle_into(Index t) {
  for_each_triangle_array([&](auto& v) { move_last_into(v, t); });
}

void SpringMesh::compact(std::span<const Index> node_map, Index new_nodes, std::span<const Index> spring_map,
                         Index new_springs) {
  for (auto& e : spring_nodes)
    for (auto& x : e) x = node_map[at(x)];
  for (auto& tn : tri_nodes)
    for (auto& x : tn) x = node_map[at(x)];
  for (auto& ts : tri_springs)
    for (auto& x : ts) x = spring_map[at(x)];
  for_each_node_array([&](auto& v) { compact_array(v, node_map, new_nodes); });
  for_each_spring_array([&](auto& v) { compact_array(v, spring_map, new_springs); });
  node_springs = Incidence(at(new_nodes));
  node_triangles = Incidence(at(new_nodes));
  for (Index s = 0; s < new_springs; ++s) {
    node_springs.add(spring_nodes[at(s)][0], s);
    node_springs.add(spring_nodes[at(s)][1], s);
  }
  for (Index t = 0; t < triangle_count(); ++t)
    for (Index x : tri_nodes[at(t)]) node_triangles.add(x, t);
}

Result<SpringMesh> build_spring_mesh(const TriMesh& membrane, const SpringMeshDef& def) {
  if (auto s = check_def(def); !s) return s.error();
  const Index n = static_cast<Index>(membrane.positions.size());
  if (n == 0 || membrane.triangles.empty())
    return Error{"spring mesh: the membrane has no nodes or no triangles"};
  for (std::size_t t = 0; t < membrane.triangles.size(); ++t) {
    const Tri& tri = membrane.triangles[t];
    for (Index v : tri)
      if (v < 0 || v >= n)
        return Error{
            fmt::format("spring mesh: triangle {} references node {}, but there are {} nodes", t, v, n)};
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
      return Error{
          fmt::format("spring mesh: triangle {} repeats a node ({}, {}, {})", t, tri[0], tri[1], tri[2])};
  }
  SpringMesh m;
  m.append_nodes(membrane.positions);
  for (std::size_t t = 0; t < membrane.triangles.size(); ++t) {
    const Tri& tri = membrane.triangles[t];
    const double area =
        area_vector(m.rest_position[at(tri[0])], m.rest_position[at(tri[1])], m.rest_position[at(tri[2])])
            .norm();
    if (!(area > 0.0)) return Error{fmt::format("spring mesh: triangle {} has zero area", t)};
    for (Index v : tri) m.mass[at(v)] += def.mass_density * area / 3.0;
  }
  if (auto s = add_springs(m, unique_edges(membrane.triangles), def); !s) return s.error();
  if (auto s = add_triangles(m, membrane.triangles); !s) return s.error();
  finish_masses(m, def);
  return m;
}

Result<SpringMesh> build_spring_mesh(const TetMesh& body, const SpringMeshDef& def) {
  if (auto s = check_def(def); !s) return s.error();
  const Index n = static_cast<Index>(body.positions.size());
  if (n == 0 || body.tets.empty()) return Error{"spring mesh: the body has no nodes or no tetrahedra"};
  std::vector<Tet> tets = body.tets;
  SpringMesh m;
  m.append_nodes(body.positions);
  for (std::size_t t = 0; t < tets.size(); ++t) {
    Tet& tet = tets[t];
    for (Index v : tet)
      if (v < 0 || v >= n)
        return Error{
            fmt::format("spring mesh: tetrahedron {} references node {}, but there are {} nodes", t, v, n)};
    double vol = signed_volume(m.rest_position[at(tet[0])], m.rest_position[at(tet[1])],
                               m.rest_position[at(tet[2])], m.rest_position[at(tet[3])]);
    if (!(std::abs(vol) > 0.0)) return Error{fmt::format("spring mesh: tetrahedron {} has zero volume", t)};
    if (vol < 0.0) std::swap(tet[2], tet[3]), vol = -vol;  // orient positively for boundary normals
    for (Index v : tet) m.mass[at(v)] += def.mass_density * vol / 4.0;
  }
  if (auto s = add_springs(m, unique_edges(tets), def); !s) return s.error();
  if (auto s = add_triangles(m, boundary_faces(tets)); !s) return s.error();
  m.tets = std::move(tets);
  finish_masses(m, def);
  return m;
}

Result<SpringMesh> build_spring_graph(const std::vector<Vec3>& positions, const std::vector<Edge>& edges,
                                      const SpringMeshDef& def) {
  if (auto s = check_def(def); !s) return s.error();
  if (!(def.node_mass > 0.0))
    return Error{"spring graph: node_mass must be > 0 kg (no elements to lump from)"};
  const Index n = static_cast<Index>(positions.size());
  if (n == 0) return Error{"spring graph: no nodes"};
  std::vector<Edge> unique;
  unique.reserve(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const Edge& ed = edges[e];
    if (ed[0] < 0 || ed[0] >= n || ed[1] < 0 || ed[1] >= n || ed[0] == ed[1])
      return Error{fmt::format("spring graph: edge {} ({}, {}) is invalid for {} nodes", e, ed[0], ed[1], n)};
    unique.push_back({std::min(ed[0], ed[1]), std::max(ed[0], ed[1])});
  }
  std::vector<Edge> sorted = unique;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    return Error{"spring graph: an edge is listed twice"};
  SpringMesh m;
  m.append_nodes(positions);
  if (auto s = add_springs(m, unique, def); !s) return s.error();
  finish_masses(m, def);
  return m;
}

Status check_spring_mesh(const SpringMesh& m) {
  const std::size_t n = m.position.size();
  bool same = m.node_springs.node_count() == n && m.node_triangles.node_count() == n;
  m.for_each_node_array([&](const auto& v) { same = same && v.size() == n; });
  if (!same) return Error{"spring mesh: node arrays differ in length (N1)"};
  const std::size_t e = m.spring_nodes.size();
  m.for_each_spring_array([&](const auto& v) { same = same && v.size() == e; });
  if (!same) return Error{"spring mesh: spring arrays differ in length (N1)"};
  m.for_each_triangle_array([&](const auto& v) { same = same && v.size() == m.tri_nodes.size(); });
  if (!same) return Error{"spring mesh: triangle arrays differ in length (N1)"};
  for (std::size_t i = 0; i < n; ++i) {
    if (!(m.mass[i] > 0.0)) return Error{fmt::format("spring mesh: node {} has mass {} (N2)", i, m.mass[i])};
    if (m.inv_mass[i] != 0.0 && std::abs(m.inv_mass[i] * m.mass[i] - 1.0) > 1e-12)
      return Error{fmt::format("spring mesh: node {} inverse mass is not 1/mass (N2)", i)};
  }
  std::vector<Index> seen(n, 0);
  for (std::size_t s = 0; s < e; ++s) {
    const Edge& ed = m.spring_nodes[s];
    if (ed[0] < 0 || ed[1] < 0 || at(ed[0]) >= n || at(ed[1]) >= n || ed[0] == ed[1])
      return Error{fmt::format("spring mesh: spring {} has bad nodes ({}, {}) (S1)", s, ed[0], ed[1])};
    if (!(m.rest_length[s] > 0.0) || !(m.max_length[s] >= m.rest_length[s]))
      return Error{fmt::format("spring mesh: spring {} rest/max length {} / {} (S1)", s, m.rest_length[s],
                               m.max_length[s])};
    for (Index v : ed) {
      Index c = 0;
      for (Index x : m.node_springs.of(v)) c += x == static_cast<Index>(s);
      if (c != 1)
        return Error{fmt::format("spring mesh: spring {} listed {} times at its node {} (S2)", s, c, v)};
    }
    ++seen[at(ed[0])], ++seen[at(ed[1])];
  }
  for (std::size_t i = 0; i < n; ++i)
    if (m.node_springs.of(static_cast<Index>(i)).size() != at(seen[i]))
      return Error{fmt::format("spring mesh: node {} lists springs that do not end at it (S2)", i)};
  std::vector<Index> tri_count(e, 0);
  std::fill(seen.begin(), seen.end(), 0);
  for (std::size_t t = 0; t < m.tri_nodes.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const Index a = m.tri_nodes[t][at(k)], b = m.tri_nodes[t][at((k + 1) % 3)];
      const Index s = m.tri_springs[t][at(k)];
      if (a < 0 || at(a) >= n) return Error{fmt::format("spring mesh: triangle {} bad node {} (T1)", t, a)};
      if (s < 0 || at(s) >= e) return Error{fmt::format("spring mesh: triangle {} bad spring {} (T1)", t, s)};
      const Edge& ed = m.spring_nodes[at(s)];
      if (!((ed[0] == a && ed[1] == b) || (ed[0] == b && ed[1] == a)))
        return Error{fmt::format("spring mesh: triangle {} edge ({}, {}) has spring {} joining ({}, {}) (T1)",
                                 t, a, b, s, ed[0], ed[1])};
      const auto& st = m.spring_triangles[at(s)];
      if (st[0] != static_cast<Index>(t) && st[1] != static_cast<Index>(t))
        return Error{fmt::format("spring mesh: spring {} does not list its triangle {} (T3)", s, t)};
      ++tri_count[at(s)];
      Index c = 0;
      for (Index x : m.node_triangles.of(a)) c += x == static_cast<Index>(t);
      if (c != 1)
        return Error{fmt::format("spring mesh: triangle {} listed {} times at its node {} (T2)", t, c, a)};
      ++seen[at(a)];
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (m.node_triangles.of(static_cast<Index>(i)).size() != at(seen[i]))
      return Error{fmt::format("spring mesh: node {} lists triangles that do not contain it (T2)", i)};
  for (std::size_t s = 0; s < e; ++s) {
    const auto& st = m.spring_triangles[s];
    const Index listed = (st[0] >= 0) + (st[1] >= 0);
    if (listed != tri_count[s] || (st[0] >= 0 && st[0] == st[1]))
      return Error{fmt::format("spring mesh: spring {} lists {} triangles but lies on {} (T3)", s, listed,
                               tri_count[s])};
  }
  return {};
}

double mean_rest_length(const SpringMesh& mesh) {
  if (mesh.rest_length.empty()) return 0.0;
  double sum = 0.0;
  for (double l : mesh.rest_length) sum += l;
  return sum / static_cast<double>(mesh.rest_length.size());
}

}  // namespace pliant::springs
