// The meshless family's step warning: the event a MeshlessBody's step raises when it went unstable or
// an implicit solve stopped short, and the rule that decides it.
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/models/meshless/meshless_body.hpp"

#include <optional>
#include <string_view>

namespace pliant::meshless {

/// The event a meshless body emits for a step after which a phyxel is stretched more than
/// kUnstableStretch times or the state is no longer finite (the explicit-step study's instability test,
/// docs/meshless.md "Stable step": the step is too long for the material, or the rest tangent of an
/// implicit step is too far off), and for an implicit step whose CG stopped at its iteration cap above
/// its tolerance.
struct MeshlessStepWarning {
  static constexpr std::string_view category = "meshless.step";
  /// "meshless_unstable", "meshless_not_finite" or "meshless_not_converged" (static strings).
  std::string_view kind;
  /// What `value` is: "largest_stretch" (dimensionless) or "relative_residual" (dimensionless).
  std::string_view quantity;
  double value = 0.0;
  EventBrief brief() const { return {kind, -1, Vec3::Zero(), quantity, value}; }
};

/// The largest principal stretch (dimensionless) a step may leave before it counts as unstable.
inline constexpr double kUnstableStretch = 5.0;

/// The warning for `body`'s last step, or none: unstable or not finite when its largest stretch is
/// above kUnstableStretch (or NaN), else not converged when its relative residual is above the CG
/// tolerance.
std::optional<MeshlessStepWarning> step_warning(const MeshlessBody& body);

}  // namespace pliant::meshless
