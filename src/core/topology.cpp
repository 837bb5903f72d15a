// Mesh topology by sorting: every function packs the entities into flat keys, sorts them once and
// scans runs of equal keys. No node-based maps: on a 100k-tet mesh this is a few sorts of 400k–600k
// small records.
#include "pliant/core/topology.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace pliant {
namespace {

// Packs an undirected edge into one 64-bit key ordered like the pair (min, max).
std::uint64_t edge_key(Index a, Index b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

std::vector<Edge> edges_from_keys(std::vector<std::uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<Edge> edges(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    edges[i] = {static_cast<Index>(keys[i] >> 32), static_cast<Index>(keys[i] & 0xffffffffu)};
  }
  return edges;
}

// Local faces of a positively oriented tet, face k opposite node k, counter-clockwise seen from
// outside: with x0 = 0 and x1, x2, x3 the unit axes, (x2-x1)×(x3-x1) = (1,1,1) points away from the
// origin, and the others give -x, -y, -z.
constexpr int kTetFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

struct FaceRecord {
  Index a, b, c;  // sorted node triple: the key
  Index owner;    // 4·tet + local face
};

}  // namespace

std::vector<Edge> unique_edges(const std::vector<Tet>& tets) {
  std::vector<std::uint64_t> keys;
  keys.reserve(tets.size() * 6);
  for (const Tet& t : tets) {
    for (int i = 0; i < 4; ++i) {
      for (int j = i + 1; j < 4; ++j) keys.push_back(edge_key(t[i], t[j]));
    }
  }
  return edges_from_keys(keys);
}

std::vector<Edge> unique_edges(const std::vector<Tri>& triangles) {
  std::vector<std::uint64_t> keys;
  keys.reserve(triangles.size() * 3);
  for (const Tri& t : triangles) {
    keys.push_back(edge_key(t[0], t[1]));
    keys.push_back(edge_key(t[1], t[2]));
    keys.push_back(edge_key(t[2], t[0]));
  }
  return edges_from_keys(keys);
}

Adjacency vertex_adjacency(Index node_count, const std::vector<Edge>& edges) {
  Adjacency adj;
  node_count = std::max<Index>(node_count, 0);
  const auto valid = [node_count](const Edge& e) {
    return e[0] >= 0 && e[1] >= 0 && e[0] < node_count && e[1] < node_count && e[0] != e[1];
  };
  adj.offsets.assign(static_cast<std::size_t>(node_count) + 1, 0);
  for (const Edge& e : edges) {
    if (!valid(e)) continue;
    ++adj.offsets[static_cast<std::size_t>(e[0]) + 1];
    ++adj.offsets[static_cast<std::size_t>(e[1]) + 1];
  }
  std::partial_sum(adj.offsets.begin(), adj.offsets.end(), adj.offsets.begin());
  adj.neighbors.resize(static_cast<std::size_t>(adj.offsets.back()));
  std::vector<Index> fill(adj.offsets.begin(), adj.offsets.end() - 1);
  for (const Edge& e : edges) {
    if (!valid(e)) continue;
    adj.neighbors[static_cast<std::size_t>(fill[e[0]]++)] = e[1];
    adj.neighbors[static_cast<std::size_t>(fill[e[1]]++)] = e[0];
  }
  for (Index i = 0; i < node_count; ++i) {
    std::sort(adj.neighbors.begin() + adj.offsets[i], adj.neighbors.begin() + adj.offsets[i + 1]);
  }
  return adj;
}

namespace {

// Owners (4·tet + local face) of the faces used by exactly one tet, ascending.
std::vector<Index> boundary_face_owners(const std::vector<Tet>& tets) {
  std::vector<FaceRecord> faces;
  faces.reserve(tets.size() * 4);
  for (std::size_t t = 0; t < tets.size(); ++t) {
    for (int k = 0; k < 4; ++k) {
      std::array<Index, 3> s = {tets[t][kTetFaces[k][0]], tets[t][kTetFaces[k][1]], tets[t][kTetFaces[k][2]]};
      std::sort(s.begin(), s.end());
      faces.push_back({s[0], s[1], s[2], static_cast<Index>(4 * t + static_cast<std::size_t>(k))});
    }
  }
  const auto key_less = [](const FaceRecord& x, const FaceRecord& y) {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b < y.b;
    return x.c < y.c;
  };
  std::sort(faces.begin(), faces.end(), key_less);
  // A face used once is on the boundary; shared (2) and non-manifold (3+) faces are not.
  std::vector<Index> owners;
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && !key_less(faces[i], faces[j])) ++j;
    if (j == i + 1) owners.push_back(faces[i].owner);
    i = j;
  }
  std::sort(owners.begin(), owners.end());
  return owners;
}

Tri face_of(const std::vector<Tet>& tets, Index owner) {
  const Tet& t = tets[static_cast<std::size_t>(owner / 4)];
  const int* f = kTetFaces[owner % 4];
  return {t[f[0]], t[f[1]], t[f[2]]};
}

}  // namespace

std::vector<Tri> boundary_faces(const std::vector<Tet>& tets) {
  const std::vector<Index> owners = boundary_face_owners(tets);
  std::vector<Tri> result(owners.size());
  for (std::size_t i = 0; i < owners.size(); ++i) {
    result[i] = face_of(tets, owners[i]);
  }
  return result;
}

BoundarySurface extract_boundary(const TetMesh& mesh) {
  BoundarySurface out;
  const Index n = static_cast<Index>(mesh.positions.size());
  std::vector<Index> owners = boundary_face_owners(mesh.tets);
  // Faces naming nodes that do not exist are dropped (validate() reports them).
  owners.erase(std::remove_if(owners.begin(), owners.end(),
                              [&](Index owner) {
                                for (Index v : face_of(mesh.tets, owner)) {
                                  if (v < 0 || v >= n) return true;
                                }
                                return false;
                              }),
               owners.end());
  std::vector<Tri> faces(owners.size());
  out.face_tet.resize(owners.size());
  for (std::size_t i = 0; i < owners.size(); ++i) {
    faces[i] = face_of(mesh.tets, owners[i]);
    out.face_tet[i] = owners[i] / 4;
  }
  out.surface_node.assign(mesh.positions.size(), -1);
  for (const Tri& f : faces) {
    for (Index v : f) out.surface_node[static_cast<std::size_t>(v)] = 0;
  }
  // Surface nodes are numbered in increasing volume-node order, so the map is monotone.
  for (std::size_t v = 0; v < out.surface_node.size(); ++v) {
    if (out.surface_node[v] == 0) {
      out.surface_node[v] = static_cast<Index>(out.volume_node.size());
      out.volume_node.push_back(static_cast<Index>(v));
    }
  }
  out.mesh.positions.reserve(out.volume_node.size());
  for (Index v : out.volume_node) out.mesh.positions.push_back(mesh.positions[static_cast<std::size_t>(v)]);
  out.mesh.triangles.reserve(faces.size());
  for (const Tri& f : faces) {
    out.mesh.triangles.push_back({out.surface_node[static_cast<std::size_t>(f[0])],
                                  out.surface_node[static_cast<std::size_t>(f[1])],
                                  out.surface_node[static_cast<std::size_t>(f[2])]});
  }
  return out;
}

Components connected_components(Index node_count, const std::vector<Edge>& edges) {
  // Union-find with path halving and union by index (smaller root wins), so every root is the
  // smallest node of its set.
  node_count = std::max<Index>(node_count, 0);
  std::vector<Index> parent(static_cast<std::size_t>(node_count));
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&parent](Index x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (const Edge& e : edges) {
    if (e[0] < 0 || e[1] < 0 || e[0] >= node_count || e[1] >= node_count) continue;
    const Index a = find(e[0]);
    const Index b = find(e[1]);
    if (a < b) {
      parent[b] = a;
    } else if (b < a) {
      parent[a] = b;
    }
  }
  Components c;
  c.label.assign(static_cast<std::size_t>(node_count), -1);
  for (Index i = 0; i < node_count; ++i) {
    const Index r = find(i);
    if (c.label[r] < 0) c.label[r] = c.count++;
    c.label[i] = c.label[r];
  }
  return c;
}

}  // namespace pliant
