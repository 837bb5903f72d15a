#include "pliant/models/meshless/meshless_asset.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/core/region.hpp"
#include "pliant/materials/material_hash.hpp"

#include <variant>

namespace pliant::meshless {

namespace {

// Bumped whenever what build() computes from the same inputs changes.
constexpr std::uint64_t kAssetFormat = 1;

}  // namespace

std::uint64_t MeshlessAsset::key_of(const TriMesh& surface, const MeshlessAssetDef& def) {
  Hasher h(0x6d6c7361ULL);
  h.add_value(kAssetFormat);
  h.add_value(surface.positions.size()).add(surface.positions);
  h.add_value(surface.triangles.size()).add(surface.triangles);
  const SamplingDef& s = def.sampling;
  h.add_value(s.spacing).add_value(s.jitter).add_value(s.seed).add_value(s.kind).add_value(s.candidates);
  h.add_value(s.margin);
  const MlsDef& m = def.mls;
  h.add_value(m.support_factor).add_value(m.volume_stiffness).add_value(m.strain).add_value(m.max_condition);
  h.add_value(m.enlargement).add_value(m.max_enlargements);
  h.add_value(m.plasticity.yield).add_value(m.plasticity.creep).add_value(m.plasticity.max);
  materials::add_to_hash(h, m.materials);
  h.add_value(m.regions.size());
  for (const MaterialRegion& r : m.regions) {
    h.add_value(r.box.min).add_value(r.box.max).add_value(r.material);
    h.add_value(reinterpret_cast<std::uintptr_t>(r.inside.get()));
    h.add(r.selection ? to_string(*r.selection) : std::string("-"));
  }
  const SurfaceBindingDef& b = def.binding;
  h.add_value(b.radius).add_value(b.max_condition).add_value(b.enlargement).add_value(b.max_enlargements);
  return h.value();
}

Result<std::shared_ptr<const MeshlessAsset>> MeshlessAsset::build(const TriMesh& surface,
                                                                  const MeshlessAssetDef& def) {
  auto distance = SignedDistance::build(surface);
  if (!distance) return distance.error();
  auto points = sample_phyxels(*distance, def.sampling);
  if (!points) return points.error();
  MeshlessAssetDef used = def;
  used.mls.spacing = def.sampling.spacing;
  auto body = build_mls_body(*points, used.mls);
  if (!body) return body.error();
  auto driven = DrivenSurface::bind(*body, surface, def.binding);
  if (!driven) return driven.error();
  auto asset = std::make_shared<MeshlessAsset>();
  asset->key_ = key_of(surface, def);
  asset->def_ = std::move(used);
  asset->body_ = std::move(body).value();
  asset->surface_ = std::move(driven).value();
  return std::shared_ptr<const MeshlessAsset>(std::move(asset));
}

}  // namespace pliant::meshless
