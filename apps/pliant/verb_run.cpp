// `pliant run SCENE.json [-o DIR] [--steps N] [--render] [--json]`: runs a scene headless.
#include "cli.hpp"
#include "option_checks.hpp"
#include "progress_ticker.hpp"

#if PLIANT_HAS_SCENE
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "scene_runner.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>

namespace pliant::cli {
namespace {

constexpr long long kMaxSteps = 100'000'000;

struct RunArgs {
  std::string scene;
  std::string out;
  int steps = -1;
  bool render = false;
  bool json = false;
  int threads = 0;
};

void run(const RunArgs& args) {
  if (args.threads > 0) set_threads(args.threads);  // wins over OMP_NUM_THREADS (core/threads.hpp)
  // A wrong -o fails before the scene builds (the default goes under ./out).
  ensure_output_directory(args.out.empty() ? std::filesystem::path("out") : std::filesystem::path(args.out));
  Stopwatch load_clock;
  // A Green body precomputes for a while: on a terminal, say so (scripts see an empty stderr).
  std::optional<ProgressTicker> ticker;
  if (isatty(fileno(stderr)) != 0) ticker.emplace(args.scene);
  scene::Scene scene = unwrap(scene::load_scene(args.scene));
  ticker.reset();
  // What reading changed (nodes in no element dropped, cells split): said, never blocking.
  for (const std::string& notice : scene.notices) fmt::print(stderr, "pliant: notice: {}\n", notice);
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
  // More than 1e8 steps is a typo (at 1 ms a step, over a day of computing), not a run.
  add_number(*cmd, "--steps", args->steps, "Steps to run (default: the scene's \"steps\")",
             whole(1, kMaxSteps));
  cmd->add_flag("--render", args->render,
                "Write PNG frames (headless EGL; default: only when the scene's output asks for them)");
  cmd->add_flag("--json", args->json, "Print the summary as JSON (default: a table)");
  add_number(*cmd, "--threads", args->threads,
             "Solver threads (default 0: OMP_NUM_THREADS, else all cores); summary.json records them",
             whole(0, 1024));
  cmd->callback([args] { run(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(300, setup_run);
}  // namespace pliant::cli
#endif
