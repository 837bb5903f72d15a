// The phyxels' output fields (what a phyxel point cloud shows in ParaView); the scene layer writes them
// (scene/phyxel_output.hpp), the family computes them.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/meshless/mls_body.hpp"

#include <span>
#include <vector>

namespace pliant::meshless {

/// Per-phyxel fields, one value (three for the displacement) per phyxel in phyxel order.
struct PhyxelFields {
  std::vector<double> displacement;   ///< x - rest, 3 components a phyxel (unit: m)
  std::vector<double> strain;         ///< Frobenius norm of the body's strain measure minus any plastic
                                      ///< strain (dimensionless)
  std::vector<double> stress;         ///< Frobenius norm of the Cauchy stress (unit: Pa)
  std::vector<double> volume_change;  ///< det J - 1 (dimensionless)
  std::vector<double> volume;         ///< v_i (unit: m³)
};

/// The fields of `body` at positions x (unit: m; one per phyxel). Empty fields when x has another size.
/// Allocates (output, not the step).
PhyxelFields phyxel_fields(const MlsBody& body, std::span<const Vec3> x);

}  // namespace pliant::meshless
