// DentAsset: checking the inputs and building the rest surface's query structures once.
#include "pliant/models/impact/dent_asset.hpp"

#include "pliant/core/hash.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pliant::impact {
namespace {

// Bumped when what the asset holds or how it is built changes, so that a key never names an asset
// built the old way.
constexpr std::uint64_t kDentAssetVersion = 1;

}  // namespace

const char* to_string(ImpactMethod method) {
  switch (method) {
    case ImpactMethod::brute_force:
      return "brute_force";
    case ImpactMethod::octree:
      return "octree";
    case ImpactMethod::bvh_grid:
      return "bvh_grid";
  }
  return "?";
}

std::uint64_t DentAsset::key_of(const TriMesh& surface, const ImpactMaterial& material,
                                const std::vector<ImpactRegion>& regions, ImpactMethod method,
                                int octree_depth) {
  // The regions enter through the node materials they give (select_nodes skips nodes out of range, so
  // this is safe before the regions are checked): two region lists that give every node the same
  // material give the same asset.
  const std::vector<ImpactMaterial> materials = node_materials(surface.positions, material, regions);
  return Hasher()
      .add(std::string_view("impact.dent"))
      .add_value(kDentAssetVersion)
      .add_value(surface.positions.size())
      .add(surface.positions)
      .add_value(surface.triangles.size())
      .add(surface.triangles)
      .add(materials)
      .add_value(method)
      .add_value(octree_depth)
      .value();
}

Result<std::shared_ptr<const DentAsset>> DentAsset::build(TriMesh surface, const ImpactMaterial& material,
                                                          const std::vector<ImpactRegion>& regions,
                                                          ImpactMethod method, int octree_depth) {
  if (surface.positions.empty() || surface.triangles.empty())
    return Error{"impact target: the mesh has no triangles"};
  const auto n = static_cast<Index>(surface.positions.size());
  for (std::size_t t = 0; t < surface.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      if (surface.triangles[t][k] < 0 || surface.triangles[t][k] >= n)
        return Error{fmt::format("impact target: triangle {} names node {}, but there are {} nodes", t,
                                 surface.triangles[t][k], n)};
  if (auto s = check_material(material); !s) return s.error();
  for (const ImpactRegion& r : regions) {
    if (auto s = check_material(r.material); !s) return s.error();
    if (auto s = check_region(r.region, surface.positions.size()); !s) return s.error();
  }
  std::shared_ptr<DentAsset> a(new DentAsset());
  a->key_ = key_of(surface, material, regions, method, octree_depth);
  a->surface_ = std::move(surface);
  a->materials_ = node_materials(a->surface_.positions, material, regions);
  for (const ImpactMaterial& m : a->materials_) a->max_radius_ = std::max(a->max_radius_, m.falloff_radius);
  a->method_ = method;
  a->octree_depth_ = octree_depth;
  a->bounds_ = bounding_box(a->surface_.positions);
  switch (method) {
    case ImpactMethod::brute_force:
      break;
    case ImpactMethod::octree:
      a->octree_ = Octree(a->surface_.positions, a->surface_.triangles, {octree_depth, 0.25});
      break;
    case ImpactMethod::bvh_grid:
      a->bvh_.build(a->surface_.positions, a->surface_.triangles);
      a->bvh_.refit_nodes(a->surface_.positions, {});  // builds its node-to-leaf map now, not mid-dent
      a->grid_ = PointGrid(a->surface_.positions, a->max_radius_);
      break;
  }
  return std::shared_ptr<const DentAsset>(std::move(a));
}

}  // namespace pliant::impact
