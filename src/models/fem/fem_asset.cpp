// FemAsset: built once from the rest mesh and materials; its checks and messages are the force
// model's, so that a body built through it fails as one built directly would.
#include "pliant/models/fem/fem_asset.hpp"

#include "models/fem/implicit/tet_materials_check.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/materials/material_hash.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"

#include <string>
#include <utility>

namespace pliant::fem {

namespace {

// Raised whenever what the asset holds, or how its key is hashed, changes: a key of an older layout
// then never names an asset of the new one.
constexpr std::uint64_t kFemAssetVersion = 1;

}  // namespace

std::uint64_t FemAsset::key_of(const TetMesh& rest, std::span<const materials::Material> materials) {
  Hasher h;
  h.add(std::string_view("fem.asset")).add_value(kFemAssetVersion);
  h.add_value(rest.positions.size()).add(rest.positions);
  h.add_value(rest.tets.size()).add(rest.tets);
  pliant::materials::add_to_hash(h, materials);
  return h.value();
}

Result<std::shared_ptr<const FemAsset>> FemAsset::build(TetMesh rest,
                                                        std::vector<materials::Material> materials) {
  if (Status s = check_fem_mesh(rest); !s.ok()) return Error{"fem body: " + s.message()};
  if (Status s = detail::check_tet_materials(materials, rest.tet_count()); !s.ok()) return Error{s.message()};
  auto asset = std::shared_ptr<FemAsset>(new FemAsset());
  asset->key_ = key_of(rest, materials);
  BoundarySurface boundary = extract_boundary(rest);
  asset->surface_ = std::move(boundary.mesh);
  asset->volume_node_ = std::move(boundary.volume_node);
  asset->surface_node_ = std::move(boundary.surface_node);
  asset->adjacency_ = vertex_adjacency(static_cast<Index>(asset->volume_node_.size()),
                                       unique_edges(asset->surface_.triangles));
  asset->rest_ = std::move(rest);
  asset->materials_ = std::move(materials);
  return std::shared_ptr<const FemAsset>(std::move(asset));
}

}  // namespace pliant::fem
