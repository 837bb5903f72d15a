#include "pliant/core/topology.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace pliant {
namespace {

// Independent reference: count undirected edges of a triangle list with a std::map.
std::map<std::pair<Index, Index>, int> edge_use(const std::vector<Tri>& tris) {
  std::map<std::pair<Index, Index>, int> use;
  for (const Tri& t : tris)
    for (int i = 0; i < 3; ++i) ++use[{std::min(t[i], t[(i + 1) % 3]), std::max(t[i], t[(i + 1) % 3])}];
  return use;
}

TEST(Topology, UniqueEdgesOfStructuredBoxMatchEulerCount) {
  // For a tet mesh of a ball: V - E + F - T = 1.
  const TetMesh m = test::structured_box(3, 2, 4);
  const auto edges = unique_edges(m.tets);
  EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
  for (const Edge& e : edges) EXPECT_LT(e[0], e[1]);
  std::set<std::array<Index, 3>> faces;
  for (const Tet& t : m.tets)
    for (int k = 0; k < 4; ++k) {
      std::array<Index, 3> f;
      int n = 0;
      for (int i = 0; i < 4; ++i)
        if (i != k) f[n++] = t[i];
      std::sort(f.begin(), f.end());
      faces.insert(f);
    }
  const long chi = static_cast<long>(m.node_count()) - static_cast<long>(edges.size()) +
                   static_cast<long>(faces.size()) - static_cast<long>(m.tet_count());
  EXPECT_EQ(chi, 1);
}

TEST(Topology, UniqueTriangleEdges) {
  const std::vector<Tri> tris = {{0, 1, 2}, {2, 1, 3}};
  const auto edges = unique_edges(tris);
  const std::vector<Edge> expect = {{0, 1}, {0, 2}, {1, 2}, {1, 3}, {2, 3}};
  EXPECT_EQ(edges, expect);
}

TEST(Topology, AdjacencyIsSymmetricAndSorted) {
  const TetMesh m = test::structured_box(2, 2, 2);
  const auto edges = unique_edges(m.tets);
  const Adjacency adj = vertex_adjacency(static_cast<Index>(m.node_count()), edges);
  ASSERT_EQ(adj.offsets.size(), m.node_count() + 1);
  EXPECT_EQ(adj.neighbors.size(), 2 * edges.size());
  for (Index i = 0; i < static_cast<Index>(m.node_count()); ++i) {
    const auto b = adj.neighbors.begin() + adj.offsets[i], e = adj.neighbors.begin() + adj.offsets[i + 1];
    EXPECT_TRUE(std::is_sorted(b, e));
    for (auto it = b; it != e; ++it) {
      const Edge edge = {std::min(i, *it), std::max(i, *it)};
      EXPECT_TRUE(std::binary_search(edges.begin(), edges.end(), edge));
    }
  }
  // The centre node of a 2x2x2 Freudenthal grid touches 14 others (6 axis + 8 diagonal neighbours).
  const Index centre = 13;
  EXPECT_EQ(adj.offsets[centre + 1] - adj.offsets[centre], 14);
}

TEST(Topology, BoundaryOfBoxIsClosedOutwardAndGenusZero) {
  const double h = 0.25;
  const TetMesh m = test::structured_box(3, 4, 2, h, Vec3(0.3, -1.0, 2.0));
  const auto faces = boundary_faces(m.tets);
  // Each side of the box has 2 triangles per grid square.
  EXPECT_EQ(faces.size(), 2u * (3 * 4 + 4 * 2 + 3 * 2) * 2);
  // Closed: every edge in exactly two faces, and used once in each direction (consistent orientation).
  for (const auto& [e, n] : edge_use(faces)) EXPECT_EQ(n, 2);
  std::set<std::pair<Index, Index>> directed;
  for (const Tri& t : faces)
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(directed.insert({t[i], t[(i + 1) % 3]}).second);
  // Outward: divergence theorem, volume = Σ (area vector · x_face) / 3.
  double volume = 0;
  for (const Tri& t : faces) {
    const Vec3& a = m.positions[t[0]];
    volume += area_vector(a, m.positions[t[1]], m.positions[t[2]]).dot(a) / 3.0;
  }
  EXPECT_NEAR(volume, 3 * 4 * 2 * h * h * h, 1e-12);
  // Euler characteristic 2.
  const BoundarySurface s = extract_boundary(m);
  const long chi = static_cast<long>(s.mesh.node_count()) -
                   static_cast<long>(unique_edges(s.mesh.triangles).size()) +
                   static_cast<long>(s.mesh.triangle_count());
  EXPECT_EQ(chi, 2);
}

TEST(Topology, SphereSurfacesHaveEulerCharacteristicTwo) {
  for (int level = 0; level < 4; ++level) {
    const TriMesh s = test::sphere_surface(level);
    const long chi = static_cast<long>(s.node_count()) - static_cast<long>(unique_edges(s.triangles).size()) +
                     static_cast<long>(s.triangle_count());
    EXPECT_EQ(chi, 2) << level;
    // Closed: every edge of the surface in exactly two triangles.
    for (const auto& [e, n] : edge_use(s.triangles)) EXPECT_EQ(n, 2);
  }
}

TEST(Topology, ExtractBoundaryMapsAreConsistent) {
  const TetMesh m = test::structured_box(3, 3, 3);
  const BoundarySurface s = extract_boundary(m);
  const auto faces = boundary_faces(m.tets);
  ASSERT_EQ(s.mesh.triangles.size(), faces.size());
  ASSERT_EQ(s.face_tet.size(), faces.size());
  // 4^3 nodes, of which the 2^3 interior ones are not on the surface.
  EXPECT_EQ(s.mesh.node_count(), 64u - 8u);
  EXPECT_TRUE(std::is_sorted(s.volume_node.begin(), s.volume_node.end()));
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const Tet& t = m.tets[s.face_tet[i]];
    for (int k = 0; k < 3; ++k) {
      const Index v = s.volume_node[s.mesh.triangles[i][k]];
      EXPECT_EQ(v, faces[i][k]);
      EXPECT_NE(std::find(t.begin(), t.end(), v), t.end());
      EXPECT_EQ(s.surface_node[v], s.mesh.triangles[i][k]);
      EXPECT_EQ(s.mesh.positions[s.mesh.triangles[i][k]], m.positions[v]);
    }
  }
  int interior = 0;
  for (Index sn : s.surface_node) interior += sn < 0;
  EXPECT_EQ(interior, 8);
}

TEST(Topology, SingleTetBoundaryIsItsFourOutwardFaces) {
  const TetMesh m = test::regular_tet();
  const auto faces = boundary_faces(m.tets);
  ASSERT_EQ(faces.size(), 4u);
  const Vec3 centroid = (m.positions[0] + m.positions[1] + m.positions[2] + m.positions[3]) / 4;
  for (const Tri& f : faces) {
    const Vec3 n = area_vector(m.positions[f[0]], m.positions[f[1]], m.positions[f[2]]);
    EXPECT_GT(n.dot(m.positions[f[0]] - centroid), 0);
  }
}

TEST(Topology, ConnectedComponentsLabelInOrderOfFirstNode) {
  // Nodes 0-2 chain, 3 isolated, 4-5 pair, 6 joined to 0 late.
  const std::vector<Edge> edges = {{4, 5}, {1, 2}, {0, 1}, {0, 6}};
  const Components c = connected_components(7, edges);
  EXPECT_EQ(c.count, 3);
  const std::vector<Index> expect = {0, 0, 0, 1, 2, 2, 0};
  EXPECT_EQ(c.label, expect);
}

TEST(Topology, TwoSeparateBoxesAreTwoComponents) {
  TetMesh a = test::structured_box(2, 2, 2);
  const TetMesh b = test::structured_box(1, 1, 1, 1.0, Vec3(5, 0, 0));
  const Index offset = static_cast<Index>(a.node_count());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  for (Tet t : b.tets) {
    for (Index& v : t) v += offset;
    a.tets.push_back(t);
  }
  const Components c = connected_components(static_cast<Index>(a.node_count()), unique_edges(a.tets));
  EXPECT_EQ(c.count, 2);
  EXPECT_EQ(c.label[0], 0);
  EXPECT_EQ(c.label[offset], 1);
}

}  // namespace
}  // namespace pliant

namespace pliant {
namespace {

TEST(Topology, OutOfRangeIndicesAreIgnoredNotFollowed) {
  TetMesh m = test::structured_box(1, 1, 1);
  m.tets.push_back({0, 1, 2, 1000});
  const BoundarySurface s = extract_boundary(m);
  // The cube's 12 faces stay, the bad tet's 3 faces naming node 1000 are dropped, and its face
  // (0, 1, 2), which no Kuhn tet of the cube has, is a 13th boundary face.
  EXPECT_EQ(s.mesh.triangle_count(), 13u);
  for (const Tri& t : s.mesh.triangles)
    for (Index v : t) EXPECT_LT(v, static_cast<Index>(s.mesh.node_count()));
  const Adjacency adj = vertex_adjacency(4, {{0, 1}, {2, 7}, {-1, 3}, {1, 3}});
  EXPECT_EQ(adj.neighbors.size(), 4u);
  const Components c = connected_components(3, {{0, 5}, {1, 2}});
  EXPECT_EQ(c.count, 2);
}

}  // namespace
}  // namespace pliant
