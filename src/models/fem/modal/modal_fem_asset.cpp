// ModalFemAsset: the eigen-solve and what every body of the asset reads at rest.
#include "pliant/models/fem/modal/modal_fem_asset.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/materials/material_hash.hpp"

#include <algorithm>

namespace pliant::fem {
namespace {

// Bumped when what the asset holds or how it is computed changes, so that a key never names an asset
// built the old way.
constexpr std::uint64_t kModalAssetVersion = 1;

std::vector<Index> sorted_unique(std::vector<Index> nodes) {
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

}  // namespace

std::uint64_t ModalFemAsset::key_of(const TetMesh& rest, std::span<const materials::Material> materials,
                                    const ModalFemAssetDef& def) {
  Hasher h;
  h.add(std::string_view("fem.modal")).add_value(kModalAssetVersion);
  h.add_value(rest.positions.size()).add(rest.positions).add_value(rest.tets.size()).add(rest.tets);
  pliant::materials::add_to_hash(h, materials);
  const std::vector<Index> fixed = sorted_unique(def.fixed_nodes);
  h.add_value(fixed.size()).add(fixed);
  // The NaN default shift hashes as its bits: every default NaN is the same quiet NaN.
  h.add_value(def.mass).add_value(def.modes).add_value(def.shift);
  return h.value();
}

Result<std::shared_ptr<const ModalFemAsset>> ModalFemAsset::build(const TetMesh& rest,
                                                                  std::vector<materials::Material> materials,
                                                                  const ModalFemAssetDef& def) {
  FemBodyDef body{
      .element = ElementKind::linear, .mass = def.mass, .fixed_nodes = sorted_unique(def.fixed_nodes)};
  // The force model checks the mesh, materials and fixed nodes, and gives the lumped masses.
  Result<FemForceModel> model = FemForceModel::build(rest, materials, body);
  if (!model.ok()) return Error{model.message()};
  ModalAnalysisDef ad;
  ad.modes = def.modes;
  ad.shift = def.shift;
  Result<ModalBasis> basis =
      modal_analysis(rest, materials, body.fixed_nodes, ad,
                     def.mass == MassKind::consistent ? ModalMass::consistent : ModalMass::lumped);
  if (!basis.ok()) return Error{"fem modal: " + basis.message()};
  std::shared_ptr<ModalFemAsset> a(new ModalFemAsset());
  a->key_ = key_of(rest, materials, def);
  a->rest_ = rest;
  a->materials_ = std::move(materials);
  a->def_ = def;
  a->def_.fixed_nodes = std::move(body.fixed_nodes);
  a->basis_ = std::move(basis).value();
  a->node_mass_.assign(model->mass().begin(), model->mass().end());
  a->fixed_.assign(rest.node_count(), 0);
  for (Index i : a->def_.fixed_nodes) a->fixed_[static_cast<std::size_t>(i)] = 1;
  BoundarySurface boundary = extract_boundary(rest);
  a->surface_ = std::move(boundary.mesh);
  a->surface_node_ = std::move(boundary.volume_node);
  a->adjacency_ =
      vertex_adjacency(static_cast<Index>(a->surface_.positions.size()), unique_edges(a->surface_.triangles));
  return std::shared_ptr<const ModalFemAsset>(std::move(a));
}

}  // namespace pliant::fem
