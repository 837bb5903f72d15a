// SpringsAsset: the immutable initial mass-spring network of a body (Grimm 2005), shareable between
// bodies and cacheable by content key (core/asset_cache.hpp).
//
// It holds the SpringMesh as built from the rest mesh and a SpringMeshDef: rest positions, the spring
// graph with rest and maximum lengths, stiffnesses and damping, the lumped masses, the boundary
// triangles with their incidence, and the fixed nodes (inv_mass 0). That is everything the network
// precomputes from its inputs alone; the method's own set-up (interaction order, stability limit)
// depends on the per-body def and stays in the body.
//
// Unusually for Pliant, a body's state IS its mesh: every step moves positions and velocities, a grab
// fixes and frees nodes, and tearing (Grimm 2005, chapter 4) duplicates, reconnects and deletes nodes,
// springs and triangles. So a SpringsBody copies the asset's mesh once, when it is made, and owns that
// copy; the asset never changes and bodies sharing it never see each other's tears.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <cstdint>
#include <memory>
#include <span>

namespace pliant::springs {

class SpringsAsset {
 public:
  /// Builds the network of a membrane (build_spring_mesh) and fixes `fixed_nodes` (indices into
  /// `membrane.positions`). Fails with build_spring_mesh's line, or one naming a fixed node out of range.
  static Result<std::shared_ptr<const SpringsAsset>> build(const TriMesh& membrane, const SpringMeshDef& def,
                                                           std::span<const Index> fixed_nodes = {});
  /// The same for a volume body (one spring per tet edge, boundary faces as triangles).
  static Result<std::shared_ptr<const SpringsAsset>> build(const TetMesh& volume, const SpringMeshDef& def,
                                                           std::span<const Index> fixed_nodes = {});
  /// Wraps a SpringMesh built or edited by hand (build_spring_graph, scene set-ups that set per-node
  /// factors) as it is: it cannot fail, the mesh being already built. Key: key_of(mesh).
  static std::shared_ptr<const SpringsAsset> from_mesh(SpringMesh mesh);

  /// The content key of build(membrane, def, fixed_nodes), computed without building: rest positions,
  /// triangles, every SpringMeshDef field, the sorted unique fixed nodes and a format version.
  static std::uint64_t key_of(const TriMesh& membrane, const SpringMeshDef& def,
                              std::span<const Index> fixed_nodes = {});
  /// The same for build(volume, def, fixed_nodes).
  static std::uint64_t key_of(const TetMesh& volume, const SpringMeshDef& def,
                              std::span<const Index> fixed_nodes = {});
  /// The content key of from_mesh(mesh): every node, spring and triangle array and the tets.
  static std::uint64_t key_of(const SpringMesh& mesh);

  /// The content key of this asset (key_of of the inputs it was built from).
  std::uint64_t key() const { return key_; }
  /// The initial network, at rest (positions = rest positions, velocities 0), fixed nodes marked.
  const SpringMesh& mesh() const { return mesh_; }

 private:
  SpringsAsset(SpringMesh mesh, std::uint64_t key) : mesh_(std::move(mesh)), key_(key) {}
  static Result<std::shared_ptr<const SpringsAsset>> finish(Result<SpringMesh> mesh,
                                                            std::span<const Index> fixed_nodes,
                                                            std::uint64_t key);

  SpringMesh mesh_;
  std::uint64_t key_ = 0;
};

}  // namespace pliant::springs
