// Nikitina et al.'s edge-based block store of the global stiffness, and its matrix-vector product.
//
// Nikitina et al. (2003) stores K as 3×3 blocks: K_ii on every node and one oriented block K_ij
// per edge (i < j), using K_ji = K_ijᵀ. Its product is g_i = K_ii u_i, then for each edge ij:
// g_i += K_ij u_j and g_j += K_ijᵀ u_i. This halves the off-diagonal storage of a full CSR matrix
// and needs no index arrays per entry; the paper quotes (6 N_verts + 9 N_edges)·8 bytes (symmetric
// diagonal blocks). We keep full 3×3 diagonal blocks for simpler, aligned arithmetic.
//
// The store and its product are generic; filling it from linear tetrahedra is fem's
// (fem::assemble_edge_stiffness, assembly.hpp).
#pragma once

#include "pliant/core/types.hpp"

#include <Eigen/Core>

#include <cstddef>
#include <span>
#include <vector>

namespace pliant::linalg {

struct EdgeStiffness {
  Index node_count = 0;
  std::vector<Mat3> diagonal;  ///< #nodes blocks K_ii (unit: N/m)
  std::vector<Edge> edges;     ///< #edges unique edges, e[0] < e[1], sorted
  std::vector<Mat3>
      off_diagonal;  ///< #edges blocks K_ij, row node i = e[0], column node j = e[1] (unit: N/m)

  /// g = K u (both 3·#nodes). Serial, in Nikitina et al.'s order; `g` must not alias `u`. No allocation when
  /// `g` already has the right size.
  void multiply(const Eigen::VectorXd& u, Eigen::VectorXd& g) const;
  /// y += scale · K (u - u0), the same product over #nodes 3-vectors (y: N per m of u, times scale). An
  /// empty `u0` stands for zero; positions and rest positions as u and u0 give K times the displacement
  /// without forming it (the elastic force of linear FEM is -K (x - X)). `y` must not alias `u` or `u0`.
  /// No allocation.
  void add_product(std::span<const Vec3> u, double scale, std::span<Vec3> y,
                   std::span<const Vec3> u0 = {}) const;
  /// Bytes held by the blocks and edge list.
  std::size_t memory_bytes() const;
};

}  // namespace pliant::linalg
