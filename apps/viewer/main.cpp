// pliant-view: the interactive viewer on a mesh file or a built-in sphere, with the stand-in models
// of test_models.hpp, or on a scene file's world. See viewer.hpp for mouse, keys and automation.
//
//   pliant-view                          a sphere with the pull test model
//   pliant-view examples/scenes/pipe_drag.json   a scene's world (bodies of any family)
//   pliant-view organ.msh --model static
//   pliant-view --screenshot out.png --after 30 --script-drag 512,360,620,300,20
#include "test_models.hpp"
#include "viewer.hpp"
#if PLIANT_VIEWER_HAS_SCENE
#include "pliant/scene/scene_file.hpp"
#include "world_model.hpp"
#endif

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

int main(int argc, char** argv) {
  using namespace pliant;
  CLI::App app{"Pliant interactive viewer"};
  std::string file, model_name = "pull", drag, screenshot, first_screenshot;
  viewer::ViewerOptions options;
  bool no_panel = false;
  app.add_option("file", file,
                 "scene (.json) or mesh file (.msh .vtu .vtk .node/.ele .obj .stl); default: a sphere");
  app.add_option("--model", model_name, "pull (test model: drag deforms with a Gaussian falloff) or static")
      ->check(CLI::IsMember({"pull", "static"}));
  app.add_option("--width", options.width, "window width in pixels")->check(CLI::Range(64, 8192));
  app.add_option("--height", options.height, "window height in pixels")->check(CLI::Range(64, 8192));
  app.add_option("--screenshot", screenshot, "save a PNG of frame --after (default 1) and exit");
  app.add_option("--first-screenshot", first_screenshot, "save a PNG of the first frame");
  app.add_option("--after", options.after, "exit after this many frames")->check(CLI::NonNegativeNumber);
  app.add_option("--script-drag", drag, "inject a left-drag x0,y0,x1,y1,frames (window pixels)");
  app.add_option("--field", options.field, "colour by this field at start (pull model: displacement)");
  app.add_flag("--no-panel", no_panel, "hide the ImGui panel");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  const auto fail = [](const std::string& message) {
    std::fprintf(stderr, "pliant-view: error: %s\n", message.c_str());
    return 2;
  };
  options.screenshot = screenshot;
  options.first_screenshot = first_screenshot;
  options.show_panel = !no_panel;
  if (!screenshot.empty() && options.after == 0) options.after = 1;
  if (!drag.empty()) {
    auto d = viewer::parse_scripted_drag(drag);
    if (!d.ok()) return fail(d.message());
    options.script_drag = *d;
  }

  std::unique_ptr<viewer::ViewerModel> model;
#if PLIANT_VIEWER_HAS_SCENE
  if (std::filesystem::path(file).extension() == ".json") {
    const std::filesystem::path path = file;
    auto world = viewer::WorldViewerModel::create(path.filename().string(),
                                                  [path]() -> Result<std::unique_ptr<scene::World>> {
                                                    auto loaded = scene::load_scene(path);
                                                    if (!loaded.ok()) return loaded.error();
                                                    return std::move(loaded->world);
                                                  });
    if (!world.ok()) return fail(world.message());
    model = std::move(world).value();
  }
#endif
  if (!model) {
    TriMesh mesh;
    std::string name = "sphere";
    if (file.empty()) {
      mesh = viewer::sphere_surface(0.1, 4);
    } else {
      auto loaded = viewer::load_surface(file);
      if (!loaded.ok()) return fail(loaded.message());
      mesh = std::move(loaded).value();
      name = std::filesystem::path(file).filename().string();
    }
    if (model_name == "static")
      model = std::make_unique<viewer::StaticMeshModel>(std::move(mesh), name);
    else
      model = std::make_unique<viewer::PullTestModel>(std::move(mesh), name);
  }
  if (Status s = viewer::run_viewer(*model, options); !s.ok()) return fail(s.message());
  return 0;
}
