// The tensor-mass model (Cotin, Delingette & Ayache, "Real-time elastic deformations of soft tissues
// for surgery simulation", IEEE TVCG 5(1), 1999), one of the volume models Grimm (2005) surveys: linear
// elasticity on tetrahedra, written like a mass-spring system. Masses are lumped on nodes; the
// stiffness lives in 3×3 tensors on nodes (K_ii, summed over the node's tets) and on edges (K_ij,
// summed over the tets sharing the edge), so the elastic force on node i is
//   F_i = -K_ii u_i - Σ_j K_ij u_j,    u = x - X (displacement from rest),
// computed locally in O(#nodes + #edges) per step and integrated explicitly. The tensors are the
// blocks of the linear-tetrahedron stiffness (fem/linear_tet.hpp), so the forces are exactly -K u of
// linear FEM with a lumped mass matrix: the same small-displacement limits (large rotations inflate
// the body), and none of the spring model's dependence on mesh orientation.
//
// The edges are the springs of a SpringMesh built from a TetMesh (build_spring_mesh), whose own
// stiffness is then not used. Tearing changes topology and is not supported for tensor-mass bodies.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <span>
#include <vector>

namespace pliant::springs {

class TensorMass {
 public:
  /// Builds the node and edge tensors from the mesh's tets at their rest positions. Fails when the
  /// mesh has no tets, a tet is inverted or flat, or a tet edge has no spring.
  static Result<TensorMass> build(const SpringMesh& mesh, const materials::Material& material);

  /// K_ii of node i (unit: N/m).
  const Mat3& node_tensor(Index node) const { return node_[static_cast<std::size_t>(node)]; }
  /// K_ab of spring s with (a, b) = mesh.spring_nodes[s]; K_ba is its transpose (unit: N/m).
  const Mat3& edge_tensor(Index spring) const { return edge_[static_cast<std::size_t>(spring)]; }

  /// Adds the elastic forces -K u to `force` (node_count() entries, unit: N). The mesh must have
  /// the node and spring counts it was built with. No allocation.
  void add_forces(const SpringMesh& mesh, std::span<Vec3> force) const;

  /// An upper bound of the largest ω² of M⁻¹K over the free nodes (block Gershgorin, unit: 1/s²);
  /// symplectic Euler is stable for dt < 2/ω_max.
  double omega_squared_bound(const SpringMesh& mesh) const;

  /// One symplectic-Euler step of length dt (unit: s) with gravity, mass damping and external
  /// forces from `loads`; fixed nodes (inv_mass 0) stay put. Uses an internal force array (allocated
  /// on the first step only).
  void step(SpringMesh& mesh, double dt, const Loads& loads = {});

 private:
  std::vector<Mat3> node_;
  std::vector<Mat3> edge_;
  std::vector<Vec3> force_;
};

}  // namespace pliant::springs
