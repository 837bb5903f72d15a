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

void init_nodes(SpringMesh& m, const std::vector<Vec3>& positions) {
  const std::size_t n = positions.size();
  m.rest_position = positions;
  m.position = positions;
  m.velocity.assign(n, Vec3::Zero());
  m.mass.assign(n, 0.0);
  m.inv_mass.assign(n, 0.0);
  m.stiffness_factor.assign(n, 1.0);
  m.tear_factor.assign(n, 1.0);
  m.weight.assign(n, 1.0);
  m.origin.resize(n);
  for (std::size_t i = 0; i < n; ++i) m.origin[i] = static_cast<Index>(i);
  m.node_springs = Incidence(n);
  m.node_triangles = Incidence(n);
}

Status add_springs(SpringMesh& m, const std::vector<Edge>& edges, const SpringMeshDef& d) {
  m.spring_nodes = edges;
  const std::size_t e = edges.size();
  m.rest_length.resize(e);
  m.stiffness.assign(e, d.stiffness);
  m.damping.assign(e, d.damping);
  m.max_length.resize(e);
  m.spring_factor.assign(e, 1.0);
  m.spring_triangles.assign(e, {-1, -1});
  for (std::size_t s = 0; s < e; ++s) {
    const double l = (m.rest_position[at(edges[s][1])] - m.rest_position[at(edges[s][0])]).norm();
    if (!(l > 0.0))
      return Error{fmt::format("spring mesh: edge {} joins nodes {} and {} at the same position", s,
                               edges[s][0], edges[s][1])};
    m.rest_length[s] = l;
    m.max_length[s] = d.max_stretch * l;
    m.node_springs.add(edges[s][0], static_cast<Index>(s));
    m.node_springs.add(edges[s][1], static_cast<Index>(s));
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
  init_nodes(m, membrane.positions);
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
  init_nodes(m, body.positions);
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
  init_nodes(m, positions);
  if (auto s = add_springs(m, unique, def); !s) return s.error();
  finish_masses(m, def);
  return m;
}

Status check_spring_mesh(const SpringMesh& m) {
  const std::size_t n = m.position.size();
  if (m.rest_position.size() != n || m.velocity.size() != n || m.mass.size() != n || m.inv_mass.size() != n ||
      m.stiffness_factor.size() != n || m.tear_factor.size() != n || m.weight.size() != n ||
      m.origin.size() != n || m.node_springs.node_count() != n || m.node_triangles.node_count() != n)
    return Error{"spring mesh: node arrays differ in length (N1)"};
  const std::size_t e = m.spring_nodes.size();
  if (m.rest_length.size() != e || m.stiffness.size() != e || m.damping.size() != e ||
      m.max_length.size() != e || m.spring_factor.size() != e || m.spring_triangles.size() != e)
    return Error{"spring mesh: spring arrays differ in length (N1)"};
  if (m.tri_springs.size() != m.tri_nodes.size())
    return Error{"spring mesh: triangle arrays differ in length (N1)"};
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
