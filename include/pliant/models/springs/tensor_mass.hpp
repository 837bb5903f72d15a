// The tensor-mass model (Cotin, Delingette & Ayache, "Real-time elastic deformations of soft tissues
// for surgery simulation", IEEE TVCG 5(1), 1999), one of the volume models Grimm (2005) surveys: linear
// elasticity on tetrahedra, written like a mass-spring system. Masses are lumped on nodes; the
// stiffness lives in 3×3 tensors on nodes (K_ii, summed over the node's tets) and on edges (K_ij,
// summed over the tets sharing the edge), so the elastic force on node i is
//   F_i = -K_ii u_i - Σ_j K_ij u_j,    u = x - X (displacement from rest),
// computed locally in O(#nodes + #edges) per step. The tensors are exactly the edge-based store
// (linalg/edge_stiffness.hpp, Nikitina et al. 2003) of the linear-tetrahedron stiffness, filled by fem's
// element kernels (fem::assemble_edge_stiffness), and the force is its
// product, so the forces are -K u of linear FEM with a lumped mass matrix: the same small-displacement
// limits (large rotations inflate the body), and none of the spring model's dependence on mesh
// orientation. Time integration is pliant::dynamics' over TensorMassForceModel, symplectic Euler by
// default.
//
// The mesh is a SpringMesh built from a TetMesh (build_spring_mesh) for its tets, rest positions and
// lumped masses; its springs and their stiffness are not used. Tearing changes topology and is not
// supported for tensor-mass bodies.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/dynamics/force_model.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/linalg/edge_stiffness.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <span>

namespace pliant::springs {

class TensorMass {
 public:
  /// Builds the node and edge tensors from the mesh's tets at their rest positions. Fails when the
  /// mesh has no tets or fails fem's mesh check (an inverted, flat or sliver tet, a bad index).
  static Result<TensorMass> build(const SpringMesh& mesh, const materials::Material& material);

  /// K_ii of node i (unit: N/m).
  const Mat3& node_tensor(Index node) const { return stiffness_.diagonal[static_cast<std::size_t>(node)]; }
  /// All tensors: K_ii per node and K_ij per tet edge i < j (fem's edge store, unit: N/m).
  const linalg::EdgeStiffness& stiffness() const { return stiffness_; }

  /// Adds the elastic forces -K u at the mesh's positions to `force` (node_count() entries, unit: N).
  /// The mesh must have the node count it was built with. No allocation.
  void add_forces(const SpringMesh& mesh, std::span<Vec3> force) const;

  /// An upper bound of the largest ω² of M⁻¹K over the free nodes (block Gershgorin, unit: 1/s²);
  /// symplectic Euler is stable for dt < 2/ω_max.
  double omega_squared_bound(const SpringMesh& mesh) const;

  /// The integrator settings step() uses; symplectic Euler by default. Its dt is overwritten by step()'s.
  const dynamics::IntegratorDef& integrator() const { return integrator_.def(); }
  /// Chooses another scheme (any of dynamics::Scheme) or its parameters; forgets multistep history.
  void set_integrator(const dynamics::IntegratorDef& def) { integrator_.set_def(def); }

  /// One step of length dt (unit: s) of the chosen scheme with gravity, mass damping and external
  /// forces from `loads`; fixed nodes (inv_mass 0) stay put. A dt other than the previous step's
  /// forgets multistep history. Scratch arrays are sized on the first step only.
  void step(SpringMesh& mesh, double dt, const Loads& loads = {});

 private:
  linalg::EdgeStiffness stiffness_;
  dynamics::Integrator integrator_;
};

/// A tensor-mass body with its loads as the force model pliant::dynamics advances: lumped masses, the
/// loads of load_forces and the elastic forces -K (x - X); K p is the edge-store product, and the model
/// has no damping besides the loads' mass damping. Holds references: valid while they are.
class TensorMassForceModel final : public dynamics::ForceModel {
 public:
  TensorMassForceModel(const TensorMass& model, const SpringMesh& mesh, const Loads& loads)
      : model_(model), mesh_(mesh), loads_(loads) {}
  std::span<const double> mass() const override { return mesh_.mass; }
  std::span<const double> inverse_mass() const override { return mesh_.inv_mass; }
  double mass_damping() const override { return loads_.mass_damping; }
  void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const override;
  void add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y) const override;
  /// No-op: D = 0 (mass damping is the integrators' α M term).
  void add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                           std::span<Vec3> y) const override;
  /// beta_k times the mean diagonal entry of K_ii at each node.
  void add_jacobi_diagonal(std::span<const Vec3> x, double beta_k, double beta_d,
                           std::span<double> diagonal) const override;

 private:
  const TensorMass& model_;
  const SpringMesh& mesh_;
  const Loads& loads_;
};

}  // namespace pliant::springs
