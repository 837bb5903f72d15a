// The command line shared by `pliant view` (a verb of the pliant CLI) and the standalone
// `pliant-view`: the same options, the same model choice, the same errors. Each front end only adds
// its error prefix.
//
//   [FILE]                a scene (.json) or a mesh file (.msh .vtu .vtk .node/.ele .mesh .obj .stl .off
//   .ply);
//                         none: the demo scenes (pliant view) or a sphere (pliant-view)
//   --scene NAME          which demo scene to show first (no FILE)
//   --scripted            play the scene's scripted grabs (off: only the mouse moves bodies)
//   --model pull|static   the stand-in model for a mesh file (test_models.hpp)
//   --width W --height H  window size (unit: screen pixel)
//   --field NAME          colour by this field from the start
//   --screenshot F --after N --first-screenshot F0 --script-drag x0,y0,x1,y1,frames --no-panel
//   --instrument-mode     start in instrument mode: a left-drag moves the scene's instrument
#pragma once

#include "pliant/core/result.hpp"
#include "viewer.hpp"

#include <string>

namespace CLI {
class App;
}

namespace pliant::viewer {

struct ViewCommand {
  std::string file;
  std::string scene;  // demo scene shown first (name or 1-based number)
  std::string model = "pull";
  std::string screenshot, first_screenshot, drag;
  bool no_panel = false;
  bool no_grid = false;
  bool no_axes = false;
  bool no_fixed_markers = false;
  bool scripted = false;
  ViewerOptions options;
};

/// What opens when no FILE is given.
enum class WithoutFile { sphere, demo_scenes };

/// Adds the options above to `app`, filling `command` when it parses.
void add_view_options(CLI::App& app, ViewCommand& command, WithoutFile without_file);

/// Builds the model (scene, demo scenes or mesh) and runs the viewer. Every failure is one line
/// without a prefix: a bad option value, a scene's parse error, no display, an unwritable screenshot.
Status run_view_command(ViewCommand command, WithoutFile without_file);

}  // namespace pliant::viewer
