// A scene run headless, as `pliant run` does it: steps a scene, writes ParaView frames (a .vtu per body
// per frame plus a .pvd series per body, with render-mesh and interior series where a body has them),
// optional PNG frames and forces.png, forces.csv and summary.json into one directory, and returns the
// summary. The CLI (`pliant run`, `pliant demo`), the Python module's Scene.run and C++ programs share
// this one function (examples/cpp/run_scene.cpp).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/scene_file.hpp"

#include <filesystem>
#include <functional>
#include <span>
#include <string>

namespace pliant::headless {

/// How run_scene runs a scene.
struct RunOptions {
  std::filesystem::path out_dir;  ///< created (with its parents) if missing
  int steps = -1;                 ///< steps to run; < 0: the scene's own "steps"
  bool render = false;            ///< PNG frames even if the scene's output does not ask (needs EGL)
  double load_s = -1.0;  ///< time spent building the scene (unit: s), written to summary.json when ≥ 0
  /// Called after every step (the Python module checks for Ctrl-C there); may throw to stop the run,
  /// and the exception then leaves run_scene without a summary.
  std::function<void()> after_step;
  /// Asked after every step (e.g. whether Ctrl-C was pressed); true ends the run early with
  /// summary.json's "interrupted": true and the steps done so far.
  std::function<bool()> stop_requested;
};

/// What a finished run reports. summary_json is the text written to summary.json (its keys are listed in
/// docs/scene-format.md, "Output"); the members repeat its main values for C++ callers.
struct RunReport {
  std::string summary_json;  ///< summary.json's text, 2-space indented, ending in a newline
  int steps = 0;             ///< steps done (the scene's, --steps, or fewer when interrupted)
  double time_s = 0.0;       ///< simulated time reached (unit: s)
  double wall_s = 0.0;       ///< wall-clock time of the stepping and output (unit: s)
  bool interrupted = false;  ///< stop_requested ended the run early
  std::string state_hash;    ///< World::state_hash() as 16 hexadecimal digits
  int vtu_files = 0;         ///< VTU frames written, over all bodies and series
  int png_files = 0;         ///< PNG frames written
};

/// Creates `dir` (and its parents) if missing and checks that files can be written in it; the error names
/// the directory and the system's reason. The CLI calls it before building a scene, so a wrong -o fails at
/// once rather than after a long precomputation.
Result<void> prepare_output_directory(const std::filesystem::path& dir);

/// A body's state is out of any physical range when a surface node is not finite or has moved more than
/// kMaxDisplacementPerSize times the body's size (the diagonal of its rest surface's bounding box, at
/// least 1 mm) from its rest position: no deformable body does that, while an overflowing solve (a
/// 1e300 kg projectile) does it with finite numbers whose distances overflow.
inline constexpr double kMaxDisplacementPerSize = 1e6;

/// "" when surface positions `x` (unit: m) are within the range above, measured from `rest` (unit: m;
/// same length; the overlapping prefix is checked when a cut changed the count), else the problem as a
/// phrase ("became unstable (non-finite positions)", "left any physical range (...)").
std::string physical_range_problem(std::span<const Vec3> x, std::span<const Vec3> rest);

/// Runs `scene` and writes its output into options.out_dir. Fails with one line on what a user can fix:
/// an unwritable directory or file, PNG frames asked of a build without the render module or a machine
/// without EGL, a body name unfit for a file name, or a body whose positions turn non-finite or leave the
/// physical range (its step is too large for its stiffness, or its loads absurd). A run that fails on a
/// body still writes summary.json, with "failure" and the "last_good_step", and the frames before it.
Result<RunReport> run_scene(scene::Scene& scene, const RunOptions& options);

}  // namespace pliant::headless
