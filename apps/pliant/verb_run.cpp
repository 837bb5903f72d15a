// `pliant run SCENE.json [-o DIR] [--steps N] [--render] [--json]`: runs a scene headless.
#include "cli.hpp"

#if PLIANT_HAS_SCENE
#include "pliant/core/timing.hpp"
#include "scene_runner.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <memory>

namespace pliant::cli {
namespace {

struct RunArgs {
  std::string scene;
  std::string out;
  int steps = -1;
  bool render = false;
  bool json = false;
};

void run(const RunArgs& args) {
  Stopwatch load_clock;
  scene::Scene scene = unwrap(scene::load_scene(args.scene));
  RunOptions options;
  options.load_s = load_clock.seconds();
  options.out_dir =
      args.out.empty() ? std::filesystem::path("out") / scene.name : std::filesystem::path(args.out);
  options.steps = args.steps;
  options.render = args.render;
  options.print_table = !args.json;
  const nlohmann::json summary = run_scene(scene, options);
  if (args.json) fmt::print("{}\n", summary.dump(2));
}

void setup_run(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd =
      app.add_subcommand("run", "Run a scene file headless: ParaView frames, PNG frames, summary.json.");
  cmd->add_option("scene", args->scene, "Scene file (JSON, see docs/scene-format.md)")->required();
  cmd->add_option("-o,--output", args->out, "Output directory (default out/<scene name>)");
  cmd->add_option("--steps", args->steps, "Steps to run (default: the scene's)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--render", args->render, "Also write PNG frames (headless EGL)");
  cmd->add_flag("--json", args->json, "Print the summary as JSON instead of the table");
  cmd->callback([args] { run(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(300, setup_run);
}  // namespace pliant::cli
#endif
