// Plausibility warnings: a scene that runs but is probably not what its author meant (a mesh read in
// the wrong unit, a modulus in kPa written as Pa, nearly flat tets, a run slower than real time).
// Each warning is one line with the numbers and what to change; none blocks a run.
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/scene/world.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// One warning.
struct PlausibilityWarning {
  std::string body;     ///< the body it concerns; empty for the whole scene
  std::string kind;     ///< "size", "material", "sag", "tet_quality" or "realtime"
  std::string message;  ///< one line: what was found, with its numbers, and what to change
};

/// Checks every body of `world` at rest: a body far smaller than a millimetre; an organ preset
/// ("liver", "kidney", the brains) on a body wider than 0.5 m, another tissue preset on one wider than
/// 2.5 m; Young's modulus below 100 Pa (softer than any tissue) or above 2·10¹² Pa (stiffer than
/// diamond); a density outside 10 to 25,000 kg/m³; and, under gravity, a static sag ρ g L² / (2 E)
/// (a column of height L along gravity squashed by its own weight, with the softest material and the
/// densest) larger than L. Materials and gravity come from bodies with the DescribesPhysics
/// capability; the size checks apply to every body.
std::vector<PlausibilityWarning> check_plausibility(const World& world);

/// Smallest dihedral angle under which a tet counts as nearly flat (unit: degree).
inline constexpr double kFlatTetDegrees = 1.0;

/// Warns when tets of `mesh` (the body `body`'s simulation mesh, unit: m) are nearly flat: their smallest
/// dihedral angle is below kFlatTetDegrees. Such slivers make the stiffness ill-conditioned and an
/// explicit step tiny. nullopt when there are none.
std::optional<PlausibilityWarning> check_tet_quality(std::string_view body, const TetMesh& mesh);

/// One stage of a run's profile: its name and its mean time per step (unit: ms).
struct StageTime {
  std::string name;
  double mean_ms = 0.0;
};

/// Warns when a run stepped slower than real time: `simulated_s` of simulated time took `wall_s` of
/// stepping (unit: s). Names the stage that took most of a step among `stages` (a body's own stages,
/// "body/stage", and the World's; the World's "solve" holds the bodies' and is not counted itself).
/// nullopt when the run kept up, or ran fewer than `steps` < 5 steps (too few to judge).
std::optional<PlausibilityWarning> check_realtime(double simulated_s, double wall_s, int steps,
                                                  std::span<const StageTime> stages);

}  // namespace pliant::scene
