#include "pliant/models/impact/material.hpp"

#include <fmt/format.h>

namespace pliant::impact {

Status check_material(const ImpactMaterial& m) {
  if (!(m.resistance >= 0.0 && m.resistance <= 1.0))
    return Error{fmt::format("impact material: resistance {} is outside [0, 1]", m.resistance)};
  if (!(m.falloff_radius > 0.0) || !std::isfinite(m.falloff_radius))
    return Error{fmt::format("impact material: falloff radius {} m must be positive", m.falloff_radius)};
  if (!(m.hardness > 0.0) || !std::isfinite(m.hardness))
    return Error{fmt::format("impact material: hardness {} must be positive", m.hardness)};
  if (!(m.min_force >= 0.0))
    return Error{fmt::format("impact material: minimum force {} N is negative", m.min_force)};
  return {};
}

std::vector<ImpactMaterial> node_materials(const std::vector<Vec3>& positions, const ImpactMaterial& base,
                                           const std::vector<ImpactRegion>& regions) {
  std::vector<ImpactMaterial> out(positions.size(), base);
  for (const ImpactRegion& r : regions) {
    for (Index n : select_nodes(positions, r.region)) out[n] = r.material;
  }
  return out;
}

}  // namespace pliant::impact
