// The meshless step warning's rule (docs/meshless.md "Stable step").
#include "pliant/models/meshless/step_warning.hpp"

#include <cmath>

namespace pliant::meshless {

std::optional<MeshlessStepWarning> step_warning(const MeshlessBody& body) {
  const double stretch = body.largest_stretch();
  if (!(stretch <= kUnstableStretch))
    return MeshlessStepWarning{std::isfinite(stretch) ? "meshless_unstable" : "meshless_not_finite",
                               "largest_stretch", stretch};
  if (!(body.last_relative_residual() <= body.cg_tolerance()))
    return MeshlessStepWarning{"meshless_not_converged", "relative_residual", body.last_relative_residual()};
  return std::nullopt;
}

}  // namespace pliant::meshless
