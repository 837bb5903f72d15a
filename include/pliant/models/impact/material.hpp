// The target material of the impact family: how strongly and how widely a surface dents.
#pragma once

#include "pliant/core/region.hpp"
#include "pliant/core/result.hpp"

#include <vector>

namespace pliant::impact {

/// Material of a dentable surface (Milanović's parameters).
struct ImpactMaterial {
  double resistance =
      0.0;  ///< R in [0, 1]: a point moves (1 - R)·f of the projectile's travel (dimensionless)
  double falloff_radius = 0.05;  ///< φ: points farther than this from every hit do not move (unit: m)
  double hardness = 2.0;         ///< r > 0: exponent of the falloff (1 - (x/φ)²)^r (dimensionless)
  double min_force = 0.0;        ///< contact force below which nothing dents (unit: N)
};

/// One error line if a material is out of range (R outside [0, 1], φ ≤ 0, r ≤ 0, negative force).
Status check_material(const ImpactMaterial& material);

/// A part of the surface with its own material, chosen by a node region of the rest shape.
struct ImpactRegion {
  Region region;            ///< nodes of the region (see core/region.hpp)
  ImpactMaterial material;  ///< material of those nodes
};

/// The material of every node: `base` everywhere, then each region in order over its nodes (a later
/// region wins where regions overlap). Node positions in m.
std::vector<ImpactMaterial> node_materials(const std::vector<Vec3>& positions, const ImpactMaterial& base,
                                           const std::vector<ImpactRegion>& regions);

}  // namespace pliant::impact
