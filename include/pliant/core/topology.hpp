// Mesh topology: unique edges, vertex adjacency, tet-mesh boundary, connected components.
// Free functions, inputs first, outputs returned (libigl style).
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <vector>

namespace pliant {

/// Unique undirected edges of tetrahedra: each with e[0] < e[1], sorted lexicographically.
std::vector<Edge> unique_edges(const std::vector<Tet>& tets);
/// Unique undirected edges of triangles: each with e[0] < e[1], sorted lexicographically.
std::vector<Edge> unique_edges(const std::vector<Tri>& triangles);

/// Functions taking a node count ignore edges and elements naming nodes outside [0, count) (and
/// self-loops), so a damaged file cannot make them write out of bounds; validate() reports those.

/// Compressed vertex adjacency: neighbours of node i are neighbors[offsets[i] .. offsets[i+1]),
/// sorted ascending.
struct Adjacency {
  std::vector<Index> offsets;    ///< #nodes + 1
  std::vector<Index> neighbors;  ///< 2·#edges
};
Adjacency vertex_adjacency(Index node_count, const std::vector<Edge>& edges);

/// Faces that belong to exactly one tetrahedron, oriented with outward normals (for positively
/// oriented tets). Order: by owning tet, then by local face.
std::vector<Tri> boundary_faces(const std::vector<Tet>& tets);

/// Boundary surface of a tet mesh as a compact TriMesh plus the maps back to the volume. Faces naming
/// nodes outside the mesh are left out. Surface nodes are numbered in increasing volume-node order.
struct BoundarySurface {
  TriMesh mesh;                     ///< compact surface (its own node numbering), outward normals
  std::vector<Index> volume_node;   ///< surface node -> volume node (#surface nodes)
  std::vector<Index> surface_node;  ///< volume node -> surface node, or -1 for interior nodes
  std::vector<Index> face_tet;      ///< surface triangle -> tet it bounds
};
BoundarySurface extract_boundary(const TetMesh& mesh);

/// Connected components of a graph: label[i] in [0, count).
struct Components {
  std::vector<Index> label;  ///< #nodes component label, numbered in order of first node
  Index count = 0;
};
Components connected_components(Index node_count, const std::vector<Edge>& edges);

}  // namespace pliant
