// Headless scene runs shared by `pliant run`, `pliant demo` and the Python module's Scene.run: steps a scene,
// writes ParaView frames (.vtu per body per frame plus a .pvd series per body), optional PNG frames, and
// summary.json; returns the summary.
#pragma once

#include "pliant/scene/scene_file.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>

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

/// Runs the scene; throws UserError on a failure the user can fix (unwritable directory, no EGL, a
/// body whose positions turn non-finite: its step is too large for its stiffness). A body that turns
/// non-finite still leaves summary.json, with "failure" and the "last_good_step".
nlohmann::json run_scene(scene::Scene& scene, const RunOptions& options);

}  // namespace pliant::cli
