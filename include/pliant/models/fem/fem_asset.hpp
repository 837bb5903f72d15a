// FemAsset: the immutable rest data of a dynamic FEM body (fem::FemBody), shared by every body built
// from the same mesh and materials.
//
// A FEM body's state (positions, velocities, grabs, the force model's caches and the solver's
// factorisation, which depends on the body's fixed and held nodes) is its own; what does not depend on
// the per-body def is here, built once: the rest tet mesh, the materials, and the boundary surface with
// its node maps and edge adjacency. (The tets' rest shape, Dm⁻¹ and volume, is not: it is about 1 % of
// a body's build, which the def-dependent solver set-up dominates, so the force model keeps its own.) A cut
// of a hybrid body (Wu & Heng 2005) rewrites the rest mesh: that body then builds a private asset from the
// cut mesh and leaves this one, and every other body holding it, untouched.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace pliant::fem {

class FemAsset {
 public:
  /// The asset of the tet mesh `rest` (unit: m) with one material or one per tet. Fails with the force
  /// model's one line ("fem body: ...") on a bad mesh (check_fem_mesh: bad indices, non-finite
  /// positions, inverted or degenerate tets), a material count other than 1 or #tets, or an invalid
  /// material.
  static Result<std::shared_ptr<const FemAsset>> build(TetMesh rest,
                                                       std::vector<materials::Material> materials);

  /// The key build() would give these inputs, computed without building (a core/hash.hpp hash of the
  /// positions, tets, materials and the asset's format version), for pliant::AssetCache.
  static std::uint64_t key_of(const TetMesh& rest, std::span<const materials::Material> materials);
  /// key_of of the inputs this asset was built from.
  std::uint64_t key() const { return key_; }

  /// The rest mesh (unit: m).
  const TetMesh& rest() const { return rest_; }
  /// One material, or one per tet.
  const std::vector<materials::Material>& materials() const { return materials_; }

  /// The boundary surface: rest positions (unit: m) and outward triangles in surface numbering.
  const TriMesh& surface() const { return surface_; }
  /// Surface node -> volume node (#surface nodes).
  const std::vector<Index>& surface_nodes() const { return volume_node_; }
  /// Volume node -> surface node, -1 for an interior node (#nodes).
  const std::vector<Index>& surface_index() const { return surface_node_; }
  /// The surface's edge adjacency over surface nodes.
  const Adjacency& surface_adjacency() const { return adjacency_; }

 private:
  FemAsset() = default;

  TetMesh rest_;
  std::vector<materials::Material> materials_;
  TriMesh surface_;
  std::vector<Index> volume_node_, surface_node_;
  Adjacency adjacency_;
  std::uint64_t key_ = 0;
};

}  // namespace pliant::fem
