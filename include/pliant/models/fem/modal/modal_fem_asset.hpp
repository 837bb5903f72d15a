// ModalFemAsset: the immutable, shareable part of a modal FEM body: the rest mesh, its materials, the
// boundary surface and, above all, the modal basis, the lowest r eigenpairs of K φ = λ M φ (Pentland &
// Williams 1989; Hauser, Shen & O'Brien 2003; reviewed by Huang & Wang 2007).
//
// The eigen-solve (a sparse Cholesky factor of K - σM and a shift-invert Lanczos run) is what building a
// modal body costs; everything else a body sets up (the step coefficients, the packed output rows) is
// one pass over the basis. The basis depends on the mesh, the materials, the fixed nodes, the mass
// matrix and the mode count (and the shift, which picks the modes), so those are the asset's inputs and
// its content key; damping, the time step, warping, gravity and surface loads are per body
// (fem::ModalFemDef) and never change it. Bodies built from one asset hold it by shared_ptr and
// never write to it: a modal body has no cut, so it never needs its own copy.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace pliant::fem {

/// What a modal basis is computed from besides the mesh and materials (C++20 aggregate).
struct ModalFemAssetDef {
  Index modes = 20;  ///< r, the lowest modes kept (a free body's six rigid modes count among them)
  /// Shift σ of the shift-invert eigen-solve (unit: rad²/s²); NaN: modal_analysis.hpp's default.
  double shift = std::numeric_limits<double>::quiet_NaN();
  MassKind mass = MassKind::lumped;     ///< the mass matrix the modes are M-orthonormal in
  std::vector<Index> fixed_nodes = {};  ///< nodes held at rest (any order, duplicates ignored)
};

class ModalFemAsset {
 public:
  /// Computes the lowest `def.modes` modes of the tet mesh `rest` (unit: m) with one material or one
  /// per tet. Fails with one line (the modal body's messages) on a bad mesh, material, fixed node or
  /// mode count, or an eigen-solve that does not converge.
  static Result<std::shared_ptr<const ModalFemAsset>> build(const TetMesh& rest,
                                                            std::vector<materials::Material> materials,
                                                            const ModalFemAssetDef& def);
  /// The content key build() would give the asset of these inputs, computed without building: a hash of
  /// the rest positions and tets, the materials, the sorted fixed nodes, the mass kind, the mode count,
  /// the shift and a format version.
  static std::uint64_t key_of(const TetMesh& rest, std::span<const materials::Material> materials,
                              const ModalFemAssetDef& def);
  /// key_of of the inputs this asset was built from.
  std::uint64_t key() const { return key_; }

  const TetMesh& rest() const { return rest_; }
  const std::vector<materials::Material>& materials() const { return materials_; }
  /// The inputs, fixed nodes sorted and unique.
  const ModalFemAssetDef& def() const { return def_; }
  const ModalBasis& basis() const { return basis_; }
  /// Lumped node masses (unit: kg; for a consistent mass its row sums, the same values).
  const std::vector<double>& node_masses() const { return node_mass_; }
  /// 1 for a fixed node, per node.
  const std::vector<char>& fixed() const { return fixed_; }
  /// The boundary surface: rest positions (unit: m) and outward triangles in surface numbering, its
  /// nodes' volume ids and its edge adjacency.
  const TriMesh& surface() const { return surface_; }
  const std::vector<Index>& surface_nodes() const { return surface_node_; }
  const Adjacency& surface_adjacency() const { return adjacency_; }

 private:
  ModalFemAsset() = default;

  std::uint64_t key_ = 0;
  TetMesh rest_;
  std::vector<materials::Material> materials_;
  ModalFemAssetDef def_;
  ModalBasis basis_;
  std::vector<double> node_mass_;
  std::vector<char> fixed_;
  TriMesh surface_;
  std::vector<Index> surface_node_;
  Adjacency adjacency_;
};

}  // namespace pliant::fem
