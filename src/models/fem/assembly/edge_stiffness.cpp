// Nikitina et al.'s (2003) edge-based block store of K (linalg::EdgeStiffness), filled from linear tets.
// Built straight from the element kernels (not from the sparse matrix), so that tests comparing the two
// check both assemblies.
#include "pliant/models/fem/assembly/assembly.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/linalg/edge_stiffness.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

#include <algorithm>

namespace pliant::fem {

using linalg::EdgeStiffness;

namespace {

EdgeStiffness build(const TetMesh& mesh, const materials::Material* materials, bool per_tet) {
  EdgeStiffness S;
  S.node_count = static_cast<Index>(mesh.node_count());
  S.edges = unique_edges(mesh.tets);
  S.diagonal.assign(mesh.node_count(), Mat3::Zero());
  S.off_diagonal.assign(S.edges.size(), Mat3::Zero());
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    const Tet& tet = mesh.tets[t];
    const TetGradients g = tet_gradients(mesh.positions[tet[0]], mesh.positions[tet[1]],
                                         mesh.positions[tet[2]], mesh.positions[tet[3]]);
    const materials::Material& m = per_tet ? materials[t] : materials[0];
    for (int a = 0; a < 4; ++a) {
      S.diagonal[tet[a]] += tet_stiffness_block(g, m, a, a);
      for (int b = a + 1; b < 4; ++b) {
        const Edge key = tet[a] < tet[b] ? Edge{tet[a], tet[b]} : Edge{tet[b], tet[a]};
        const auto e = std::lower_bound(S.edges.begin(), S.edges.end(), key) - S.edges.begin();
        const Mat3 Kab = tet_stiffness_block(g, m, a, b);
        // The stored block has row node e[0] and column node e[1].
        if (tet[a] < tet[b])
          S.off_diagonal[e] += Kab;
        else
          S.off_diagonal[e] += Kab.transpose();
      }
    }
  }
  return S;
}

}  // namespace

EdgeStiffness assemble_edge_stiffness(const TetMesh& mesh, const materials::Material& material) {
  return build(mesh, &material, false);
}

EdgeStiffness assemble_edge_stiffness(const TetMesh& mesh, std::span<const materials::Material> per_tet) {
  return build(mesh, per_tet.data(), true);
}

}  // namespace pliant::fem
