// The interactive viewer: a GLFW window drawn by render::GlRenderer with a Dear ImGui panel.
//
// Mouse: left-drag on a surface grabs it along the mouse ray (the grabbed point follows the cursor in
// the plane facing the camera through it) and shows the reaction force as an arrow and a number;
// left-drag on the background orbits; right- or middle-drag pans; the wheel zooms. Keys: space
// pause, S step, R reset, F frame, P fire, Esc quit. With a model that has an instrument
// (ViewerModel::instrument), I toggles instrument mode: a left-drag then moves the instrument's tip in
// the plane through it facing the camera (the wheel while dragging: along the view direction) instead
// of grabbing a body, and J closes or opens a grasper's jaws. The instrument's contact force is drawn
// at its tip as an arrow labelled in N whenever it is not zero, in either mode.
//
// Automation: `screenshot` with `after` saves frame N as PNG and exits 0; `script_drag` injects a
// left-drag from one pixel to another over a number of frames through the same input path as the
// mouse, so a test can grab a body (or, with `instrument_mode`, move the instrument) without a person.
#pragma once

#include "pliant/core/result.hpp"
#include "viewer_model.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pliant::viewer {

/// A left-drag from (x0, y0) to (x1, y1) (window pixels, y down), pressed at frame `start`, moved
/// linearly over `frames` frames, then held (released when the viewer exits).
struct ScriptedDrag {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int frames = 10;
  int start = 2;
};

/// Parses "x0,y0,x1,y1,frames" (frames ≥ 1); the error names the option's text.
Result<ScriptedDrag> parse_scripted_drag(const std::string& text);

struct ViewerOptions {
  int width = 1024;                        ///< window width (unit: screen pixel)
  int height = 720;                        ///< window height (unit: screen pixel)
  std::filesystem::path screenshot;        ///< saved at frame `after`, then the viewer exits
  std::filesystem::path first_screenshot;  ///< saved at frame 1 (before any scripted drag)
  int after = 0;                           ///< frame count before exiting (0: run until closed)
  std::optional<ScriptedDrag> script_drag;
  /// Start in instrument mode (the I key): a left-drag, scripted or not, moves the model's instrument
  /// instead of grabbing a body. Without an instrument it does nothing.
  bool instrument_mode = false;
  /// Field coloured at start (a name from ViewerModel::field_names); empty: the model's
  /// default_field() (a scene's output colour field)
  std::string field;
  bool show_panel = true;
  bool grid = true;           ///< floor grid at start (a panel toggle)
  bool axes = true;           ///< world axes at start (a panel toggle)
  bool fixed_markers = true;  ///< markers on fixed nodes at start (a panel toggle)
  bool vsync = true;
  /// Print progress lines on stderr while the model builds with nothing to show, and "ready: TITLE"
  /// when it first shows a scene; the caller has announced the build (a terminal user then sees why
  /// the window is empty; off for scripts, which read stderr for the error line).
  bool progress_on_terminal = false;
};

/// Width of the panel when the viewer opens (unit: screen pixel); it sits `kPanelMargin` from the
/// window's top-left corner, and the camera frames bodies in the part of the window right of it.
inline constexpr float kPanelWidth = 390.0f;
inline constexpr float kPanelMargin = 8.0f;
/// Widgets take this fraction of the panel's width; their labels get the rest.
inline constexpr float kPanelItemWidth = 0.45f;

/// The field to colour by when a scene appears: `wanted` (--field, or the user's last pick in the
/// panel) if the model has it, else the model's `default_field` if it has it, else "" (none).
std::string pick_field(const std::vector<std::string>& names, const std::string& wanted,
                       const std::string& default_field);

/// Whether a window can open: initialises GLFW (connects to the display), in milliseconds, and leaves
/// it initialised for run_viewer. The error is the one run_viewer gives without a display ("cannot
/// open the viewer window: no display ..."), so that a command can fail at once instead of after
/// building a scene.
Status check_display();

/// Runs the viewer until the window closes (returns 0) or `after` frames (0). An error when no
/// window or GL 3.3 context can be created, or a screenshot cannot be written.
Status run_viewer(ViewerModel& model, const ViewerOptions& options);

}  // namespace pliant::viewer
