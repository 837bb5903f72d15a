// DentAsset: the immutable, shareable part of a dentable surface (N. Milanović's visual dents): the rest
// surface, each node's material, and the query structure the chosen method casts rays through, built
// at rest (the octree, or the BVH and the falloff-radius point grid).
//
// A dent moves the surface, so a DentTarget reads the asset's rest surface and structures until its
// first dent (or edit), then takes its own copy of them (copy-on-write) and moves and refits that: other
// targets sharing the asset never see the dent and the asset never changes. Which structures exist
// depends on the method and the octree depth, so those are asset inputs; the thread settings are not.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/bvh.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/models/impact/material.hpp"
#include "pliant/models/impact/octree.hpp"
#include "pliant/models/impact/point_grid.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace pliant::impact {

enum class ImpactMethod { brute_force, octree, bvh_grid };

/// "brute_force", "octree" or "bvh_grid".
const char* to_string(ImpactMethod method);

class DentAsset {
 public:
  /// The rest `surface` (unit: m) with `material` everywhere but in `regions` (a later region wins),
  /// and the structures of `method` (octree leaf level `octree_depth`, 0: automatic; see
  /// Octree::Options). Fails (one line) on a material out of range, a region naming a missing node, or
  /// an empty mesh.
  static Result<std::shared_ptr<const DentAsset>> build(TriMesh surface, const ImpactMaterial& material,
                                                        const std::vector<ImpactRegion>& regions = {},
                                                        ImpactMethod method = ImpactMethod::bvh_grid,
                                                        int octree_depth = 0);
  /// The content key build() would give the asset of these inputs, computed without building the
  /// structures: a hash of the positions and triangles, every node's material, the method, the octree
  /// depth and a format version.
  static std::uint64_t key_of(const TriMesh& surface, const ImpactMaterial& material,
                              const std::vector<ImpactRegion>& regions = {},
                              ImpactMethod method = ImpactMethod::bvh_grid, int octree_depth = 0);
  /// key_of of the inputs this asset was built from.
  std::uint64_t key() const { return key_; }

  /// The rest surface (unit: m).
  const TriMesh& surface() const { return surface_; }
  /// Each node's material.
  const std::vector<ImpactMaterial>& materials() const { return materials_; }
  /// The largest falloff radius over the nodes (unit: m).
  double max_radius() const { return max_radius_; }
  ImpactMethod method() const { return method_; }
  int octree_depth() const { return octree_depth_; }
  /// Bounding box of the rest surface (unit: m).
  const Aabb& bounds() const { return bounds_; }
  /// The structures at rest: the octree (method octree), the BVH and the point grid of cell φ_max
  /// (method bvh_grid); empty for the other methods.
  const Octree& octree() const { return octree_; }
  const TriangleBvh& bvh() const { return bvh_; }
  const PointGrid& grid() const { return grid_; }

 private:
  DentAsset() = default;

  std::uint64_t key_ = 0;
  TriMesh surface_;
  std::vector<ImpactMaterial> materials_;
  double max_radius_ = 0;
  ImpactMethod method_ = ImpactMethod::bvh_grid;
  int octree_depth_ = 0;
  Aabb bounds_;
  Octree octree_;
  TriangleBvh bvh_;
  PointGrid grid_;
};

}  // namespace pliant::impact
