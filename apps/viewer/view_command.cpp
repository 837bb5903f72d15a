#include "view_command.hpp"

#include "option_checks.hpp"
#include "progress_ticker.hpp"
#include "scene_set_model.hpp"
#include "test_models.hpp"
#if PLIANT_VIEWER_HAS_SCENE
#include "world_model.hpp"
#if __has_include("pliant/scene/demo_scenes.hpp")
#include "pliant/scene/demo_scenes.hpp"
#define PLIANT_VIEWER_HAS_DEMO_SCENES 1
#endif
#endif

#include <CLI/CLI.hpp>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace pliant::viewer {

void add_view_options(CLI::App& app, ViewCommand& c, WithoutFile without_file) {
  app.add_option(
      "file", c.file,
      without_file == WithoutFile::demo_scenes
          ? "scene (.json) or mesh file (.msh .vtu .vtp .vtk .node/.ele .mesh .obj .stl .off .ply); "
            "default: the demo scenes"
          : "scene (.json) or mesh file (.msh .vtu .vtp .vtk .node/.ele .mesh .obj .stl .off .ply); "
            "default: a sphere");
  if (without_file == WithoutFile::demo_scenes)
    app.add_option("--scene", c.scene,
                   "demo scene shown first (name or number; switch in the panel; default: the first)");
  app.add_flag(
      "--scripted", c.scripted,
      "play the scene's scripted grabs (default: only the mouse grabs; probes, tools, projectiles and "
      "blades always play)");
  app.add_option("--model", c.model, "model for a mesh file: pull (test model, Gaussian falloff) or static")
      ->capture_default_str()
      ->check(CLI::IsMember({"pull", "static"}));
  using cli::add_number;
  add_number(app, "--width", c.options.width, "window width in pixels", cli::whole(64, 8192))
      ->capture_default_str();
  add_number(app, "--height", c.options.height, "window height in pixels", cli::whole(64, 8192))
      ->capture_default_str();
  app.add_option("--screenshot", c.screenshot,
                 "save a PNG of frame --after (1 unless given) and exit (default: no screenshot)");
  app.add_option("--first-screenshot", c.first_screenshot,
                 "save a PNG of the first frame (default: no screenshot)");
  add_number(app, "--after", c.options.after,
             "exit after this many frames (0: when the window is closed; 1 with --screenshot)", cli::whole(0))
      ->capture_default_str();
  app.add_option("--script-drag", c.drag,
                 "inject a left-drag x0,y0,x1,y1,frames (window pixels; default: none)");
  app.add_flag("--instrument-mode", c.options.instrument_mode,
               "start in instrument mode (the I key): a left-drag, also --script-drag, moves the scene's "
               "instrument (its \"device\" one, else its first) instead of grabbing a body (default: off)");
  app.add_option("--field", c.options.field,
                 "colour by this field at start (e.g. displacement, stress; default: the scene's output "
                 "colour field)");
  app.add_flag("--no-panel", c.no_panel, "hide the ImGui panel (default: shown)");
  app.add_flag("--no-grid", c.no_grid, "start without the floor grid (a panel toggle; default: shown)");
  app.add_flag("--no-axes", c.no_axes, "start without the world axes (a panel toggle; default: shown)");
  app.add_flag("--no-fixed-markers", c.no_fixed_markers,
               "start without markers on fixed nodes (a panel toggle; default: shown)");
}

namespace {

#if PLIANT_VIEWER_HAS_SCENE
// The demo scenes, each built when first shown (scene_set_model.hpp).
Result<std::unique_ptr<ViewerModel>> demo_model(const ViewCommand& c,
                                                const std::function<Status()>& can_show) {
  WorldViewerModel::SceneOptions options;
  options.scripted = c.scripted;
  std::vector<SceneSetModel::Entry> entries;
#if PLIANT_VIEWER_HAS_DEMO_SCENES
  for (scene::DemoScene& d : scene::demo_scenes()) {
    // The name stands for the file in messages; the demos use procedural meshes, no relative paths.
    entries.push_back(
        {d.name,
         [json = std::move(d.json), name = d.name, options]() -> Result<std::unique_ptr<ViewerModel>> {
           auto model = WorldViewerModel::from_scene(json, "demo:" + name + ".json", options);
           if (!model.ok()) return model.error();
           return std::unique_ptr<ViewerModel>(std::move(model).value());
         }});
  }
#else
  for (const char* name : {"pipe_drag", "membrane_tear"}) {
    const std::filesystem::path path =
        std::filesystem::path(PLIANT_VIEWER_EXAMPLES_DIR) / (std::string(name) + ".json");
    entries.push_back({name, [path, options]() -> Result<std::unique_ptr<ViewerModel>> {
                         auto model = WorldViewerModel::from_scene_file(path, options);
                         if (!model.ok()) return model.error();
                         return std::unique_ptr<ViewerModel>(std::move(model).value());
                       }});
  }
#endif
  std::size_t shown = 0;
  if (!c.scene.empty()) {
    bool found = false;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].name == c.scene || std::to_string(i + 1) == c.scene) {
        shown = i;
        found = true;
      }
    }
    if (!found) {
      std::string names;
      for (const auto& e : entries) names += (names.empty() ? "" : ", ") + e.name;
      return Error{"--scene '" + c.scene + "': no such demo scene (there are: " + names + ")"};
    }
  }
  if (Status shown_ok = can_show(); !shown_ok.ok()) return shown_ok.error();
  // Built in the background: the window opens at once and shows the build's progress (the pipe
  // precomputes its Green's functions for many seconds).
  auto set = SceneSetModel::create(std::move(entries), shown, SceneSetModel::FirstBuild::background);
  if (!set.ok()) return set.error();
  return std::unique_ptr<ViewerModel>(std::move(set).value());
}
#endif

// Builds what the command shows. `can_show` (is there a display?) runs after the checks that cost
// nothing and before any build: a scene can take a minute to build (a Green body precomputes), only to
// find that no window can open. A FILE that does not exist fails at once with its own message first.
Result<std::unique_ptr<ViewerModel>> make_model(const ViewCommand& c, WithoutFile without_file,
                                                const std::function<Status()>& can_show) {
  const std::filesystem::path path = c.file;
  if (!c.scene.empty() && !c.file.empty())
    return Error{"--scene picks a demo scene and takes no FILE (got '" + c.file + "')"};
  std::error_code ec;
  if (c.file.empty() || std::filesystem::exists(path, ec)) {
    if (!(c.file.empty() &&
          without_file == WithoutFile::demo_scenes)) {  // the demos check their --scene first
      if (Status shown_ok = can_show(); !shown_ok.ok()) return shown_ok.error();
    }
  }
#if PLIANT_VIEWER_HAS_SCENE
  if (path.extension() == ".json") {
    WorldViewerModel::SceneOptions options;
    options.scripted = c.scripted;
    auto model = WorldViewerModel::from_scene_file(path, options);
    if (!model.ok()) return model.error();
    // Said as `pliant run` says them: one line each, never blocking.
    for (const scene::PlausibilityWarning& w : (*model)->warnings())
      std::fprintf(stderr, "pliant: warning: %s\n", w.message.c_str());
    return std::unique_ptr<ViewerModel>(std::move(model).value());
  }
  if (c.file.empty() && without_file == WithoutFile::demo_scenes) return demo_model(c, can_show);
#else
  if (path.extension() == ".json")
    return Error{c.file + ": this build has no scene layer (pliant::scene) to open scene files"};
  if (c.file.empty() && without_file == WithoutFile::demo_scenes)
    return Error{"the demo scenes need the scene layer (pliant::scene), which this build lacks"};
#endif
  TriMesh mesh;
  std::string name = "sphere";
  if (c.file.empty()) {
    mesh = sphere_surface(0.1, 4);
  } else {
    auto loaded = load_surface(path);
    if (!loaded.ok()) return loaded.error();
    mesh = std::move(loaded).value();
    name = path.filename().string();
  }
  if (c.model == "static")
    return std::unique_ptr<ViewerModel>(std::make_unique<StaticMeshModel>(std::move(mesh), name));
  return std::unique_ptr<ViewerModel>(std::make_unique<PullTestModel>(std::move(mesh), name));
}

}  // namespace

Status run_view_command(ViewCommand c, WithoutFile without_file) {
  c.options.screenshot = c.screenshot;
  c.options.first_screenshot = c.first_screenshot;
  c.options.show_panel = !c.no_panel;
  c.options.grid = !c.no_grid;
  c.options.axes = !c.no_axes;
  c.options.fixed_markers = !c.no_fixed_markers;
  if (!c.screenshot.empty() && c.options.after == 0) c.options.after = 1;
  if (!c.drag.empty()) {
    auto d = parse_scripted_drag(c.drag);
    if (!d.ok()) return d.error();
    c.options.script_drag = *d;
  }
  // Building a scene can take a while (a Green body precomputes its response): say so on a terminal.
  // Scripts, which read stderr for the one error line, see nothing. A scene file is built before the
  // window opens (its errors are the command's), with a line every 5 s; the demo scenes are built
  // while the window shows a progress bar, and the viewer prints the lines.
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  const bool scene_file = std::filesystem::path(c.file).extension() == ".json";
  const bool demos = c.file.empty() && without_file == WithoutFile::demo_scenes;
  c.options.progress_on_terminal = terminal && (scene_file || demos);
  std::optional<cli::ProgressTicker> ticker;
  // No display: fail before the build. With one, a scene file's build is announced as it starts.
  const auto can_show = [&]() -> Status {
    Status display = check_display();
    if (display.ok() && scene_file && terminal) ticker.emplace(c.file);
    return display;
  };
  auto model = make_model(c, without_file, can_show);
  ticker.reset();
  if (!model.ok()) return model.error();
  if (const LoadingState loading = (*model)->loading(); demos && terminal && loading.active)
    std::fprintf(stderr, "building the demo scene %s (the window shows it when ready)...\n",
                 loading.what.c_str());
  return run_viewer(**model, c.options);
}

}  // namespace pliant::viewer
