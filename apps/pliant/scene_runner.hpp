// Headless scene runs shared by `pliant run`, `pliant demo` and the Python module's Scene.run: steps a scene,
// writes ParaView frames (.vtu per body per frame plus a .pvd series per body), optional PNG frames, and
// summary.json; returns the summary.
#pragma once

#include "pliant/scene/scene_file.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <span>
#include <string>

namespace pliant::cli {

struct RunOptions {
  std::filesystem::path out_dir;  ///< created if missing
  int steps = -1;                 ///< < 0: the scene's own step count
  bool render = false;            ///< write PNG frames (needs the render module and EGL)
  bool print_table = true;        ///< print the per-stage timing table
  double load_s = -1.0;           ///< time spent building the scene (unit: s), reported when ≥ 0
  /// Called after every step (e.g. the Python module checks for Ctrl-C there); may throw to stop.
  std::function<void()> after_step;
  /// Asked after every step (e.g. whether Ctrl-C was pressed); true ends the run early with
  /// summary.json's "interrupted": true and the steps done so far.
  std::function<bool()> stop_requested;
};

/// Creates `dir` (and its parents) if missing and checks that files can be written in it; throws
/// UserError otherwise. The verbs call it before building a scene, so a wrong -o fails at once rather
/// than after a long precomputation.
void ensure_output_directory(const std::filesystem::path& dir);

/// A body's state is out of any physical range when a surface node is not finite or has moved more than
/// kMaxDisplacementPerSize times the body's size (the diagonal of its rest surface's bounding box, at
/// least 1 mm) from its rest position: no deformable body does that, while an overflowing solve (a
/// 1e300 kg projectile) does it with finite numbers whose distances overflow.
inline constexpr double kMaxDisplacementPerSize = 1e6;

/// "" when surface positions `x` (unit: m) are within the range above, measured from `rest` (same
/// length; the overlapping prefix is checked when a cut changed the count), else the problem as a
/// phrase ("became unstable (non-finite positions)", "left any physical range (...)").
std::string physical_range_problem(std::span<const Vec3> x, std::span<const Vec3> rest);

/// Runs the scene; throws UserError on a failure the user can fix (unwritable directory, no EGL, a
/// body whose positions turn non-finite or leave the physical range: its step is too large for its
/// stiffness, or its loads absurd). A body that fails so still leaves summary.json, with "failure" and
/// the "last_good_step".
nlohmann::json run_scene(scene::Scene& scene, const RunOptions& options);

}  // namespace pliant::cli
