// `pliant view [SCENE.json]`: the interactive viewer (GLFW + Dear ImGui + OpenGL 3.3) in-process.
// Without a file it opens the demo scenes (the rubber pipe and the Table 2.1 membrane), switched
// in the panel. Options, mouse, keys and automation: apps/viewer/view_command.hpp, viewer.hpp and
// docs/rendering.md. Errors (a bad scene, no display) are one line and exit status 2.
#include "cli.hpp"

#if PLIANT_HAS_VIEWER
#include "view_command.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace pliant::cli {
namespace {

void setup_view(CLI::App& app) {
  auto command = std::make_shared<viewer::ViewCommand>();
  auto* cmd = app.add_subcommand(
      "view",
      "Open a scene (default: the demo scenes) in the interactive viewer: drag bodies with the mouse.");
  viewer::add_view_options(*cmd, *command, viewer::WithoutFile::demo_scenes);
  cmd->callback([command] { unwrap(viewer::run_view_command(*command, viewer::WithoutFile::demo_scenes)); });
}

}  // namespace
PLIANT_REGISTER_VERB(350, setup_view);
}  // namespace pliant::cli
#else
#include <CLI/CLI.hpp>

namespace pliant::cli {
namespace {

// A build without the viewer (PLIANT_WITH_VIEWER=OFF, or no render module) still knows the verb, so
// that `pliant view` says why it cannot run instead of "unexpected argument".
void setup_view(CLI::App& app) {
  auto* cmd = app.add_subcommand("view", "Interactive viewer (not in this build)");
  cmd->allow_extras();
  cmd->callback([] {
    fail(
        "this pliant was built without the viewer: configure with -DPLIANT_WITH_VIEWER=ON and "
        "PLIANT_WITH_RENDER=ON (GLFW, Dear ImGui and OpenGL development packages; ./dev installs them)");
  });
}

}  // namespace
PLIANT_REGISTER_VERB(350, setup_view);
}  // namespace pliant::cli
#endif
