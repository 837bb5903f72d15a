// Nikitina et al.'s (2003) edge-based block store of K. Built straight from the element kernels (not from the
// sparse matrix), so that tests comparing the two check both assemblies.
#include "pliant/models/fem/edge_stiffness.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/models/fem/linear_tet.hpp"

#include <algorithm>

namespace pliant::fem {

namespace {

// The product in Nikitina et al.'s order, y(i) += scale · (K u)_i: node blocks first, then both blocks of
// each edge. `u(i)` yields node i's 3-vector of the operand, `y(i)` a writable view of node i's output.
template <class In, class Out>
void add_edge_product(const EdgeStiffness& S, double scale, In u, Out y) {
  for (Index i = 0; i < S.node_count; ++i) {
    const Vec3 k = S.diagonal[i] * u(i);
    y(i) += scale * k;
  }
  for (std::size_t e = 0; e < S.edges.size(); ++e) {
    const Index i = S.edges[e][0], j = S.edges[e][1];
    const Mat3& Kij = S.off_diagonal[e];
    const Vec3 kj = Kij * u(j);
    y(i) += scale * kj;
    const Vec3 ki = Kij.transpose() * u(i);
    y(j) += scale * ki;
  }
}

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

void EdgeStiffness::multiply(const Eigen::VectorXd& u, Eigen::VectorXd& g) const {
  g.setZero(3 * static_cast<Eigen::Index>(node_count));
  add_edge_product(
      *this, 1.0, [&](Index i) { return u.segment<3>(3 * i); }, [&](Index i) { return g.segment<3>(3 * i); });
}

void EdgeStiffness::add_product(std::span<const Vec3> u, double scale, std::span<Vec3> y,
                                std::span<const Vec3> u0) const {
  auto out = [&](Index i) -> Vec3& { return y[i]; };
  if (u0.empty())
    add_edge_product(
        *this, scale, [&](Index i) -> const Vec3& { return u[i]; }, out);
  else
    add_edge_product(
        *this, scale, [&](Index i) { return Vec3(u[i] - u0[i]); }, out);
}

std::size_t EdgeStiffness::memory_bytes() const {
  return diagonal.size() * sizeof(Mat3) + off_diagonal.size() * sizeof(Mat3) + edges.size() * sizeof(Edge);
}

EdgeStiffness assemble_edge_stiffness(const TetMesh& mesh, const materials::Material& material) {
  return build(mesh, &material, false);
}

EdgeStiffness assemble_edge_stiffness(const TetMesh& mesh, std::span<const materials::Material> per_tet) {
  return build(mesh, per_tet.data(), true);
}

}  // namespace pliant::fem
