// MeshlessAsset: what a meshless body is built from and bodies share. The closed surface sampled into
// phyxels, their MLS rest constants (Müller et al. 2004, with Li et al.'s precomputed constants:
// neighbourhoods, moment matrices, kernel-sum volumes) and the driven surface bound to them at rest:
// the sampling, neighbour search and binding that make building a meshless body slow.
//
// Immutable once built. A MeshlessBody copies the phyxels and the binding once, when it is made: its
// state is those arrays (cutting removes links and recomputes constants, plasticity writes strains,
// grabs write inverse masses), so bodies sharing an asset never see each other's cuts, and the asset
// never changes.
#pragma once
#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/models/meshless/driven_surface.hpp"
#include "pliant/models/meshless/mls_body.hpp"
#include "pliant/models/meshless/sampling.hpp"

#include <cstdint>
#include <memory>

namespace pliant::meshless {

/// The settings that shape a meshless asset (the rest of MeshlessBodyDef is per body).
struct MeshlessAssetDef {
  SamplingDef sampling;       ///< spacing and jitter of the phyxels
  MlsDef mls;                 ///< support, materials, volume term, strain (its spacing is sampling's)
  SurfaceBindingDef binding;  ///< how surface vertices are fitted to phyxels
};

class MeshlessAsset {
 public:
  /// Samples `surface` (closed, outward, unit: m), builds the phyxels' rest constants and binds the
  /// surface. Fails with one line (the sampler's, the MLS builder's or the binding's).
  static Result<std::shared_ptr<const MeshlessAsset>> build(const TriMesh& surface,
                                                            const MeshlessAssetDef& def);
  /// The content key of the asset build() makes from these inputs, computed without building: the
  /// surface, every setting and a format version. A material region's `inside` surface counts by
  /// identity (the asset holds it, so a live asset's key never meets another surface at that address).
  static std::uint64_t key_of(const TriMesh& surface, const MeshlessAssetDef& def);

  std::uint64_t key() const { return key_; }
  /// The settings it was built with (mls.spacing set to sampling.spacing).
  const MeshlessAssetDef& def() const { return def_; }
  /// The phyxels at rest (positions equal to rest, velocities zero, nothing fixed).
  const MlsBody& phyxels() const { return body_; }
  /// The surface bound to the phyxels at rest.
  const DrivenSurface& surface() const { return surface_; }

 private:
  MeshlessAssetDef def_;
  MlsBody body_;
  DrivenSurface surface_;
  std::uint64_t key_ = 0;
};

}  // namespace pliant::meshless
