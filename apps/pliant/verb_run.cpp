// `pliant run SCENE.json [-o DIR] [--steps N] [--render] [--json]`: runs a scene headless.
#include "cli.hpp"
#include "option_checks.hpp"
#include "progress_ticker.hpp"

#if PLIANT_HAS_SCENE
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/headless/headless_run.hpp"
#include "run_table.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace pliant::cli {
namespace {

constexpr long long kMaxSteps = 100'000'000;
// Elements (tetrahedra or triangles) of one body mesh, and phyxels of a meshless body, that a run
// accepts unless told otherwise: checked before a shape is meshed or a body sampled, so that a typo in
// a size or spacing is one line instead of minutes and gigabytes (SceneLimits).
constexpr long long kDefaultMaxElements = 10'000'000;

// Set by SIGINT (Ctrl-C) while the scene steps: the run stops after the current step and still writes
// summary.json ("interrupted": true).
volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_interrupt(int) { g_interrupted = 1; }

// `pliant run` on a file that is no scene: say what runs it instead of "invalid JSON".
void refuse_non_scene(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  static constexpr std::array<const char*, 11> kMeshes = {".msh", ".vtk", ".vtu",  ".vtp",  ".obj", ".stl",
                                                          ".off", ".ply", ".mesh", ".node", ".ele"};
  if (ext == ".green") {
    fail(path + ": is a precomputed Green's-function asset, not a scene; `pliant info " + path +
         "` describes it, and a scene runs it through a green body's \"cache\" key (docs/scene-format.md)");
  }
  if (std::find(kMeshes.begin(), kMeshes.end(), ext) != kMeshes.end()) {
    fail(path + ": is a mesh, not a scene; `pliant view " + path + "` shows it, `pliant info " + path +
         "` describes it, and a scene file runs it: {\"pliant\": 1, \"bodies\": [{\"name\": \"b\", "
         "\"family\": \"fem\", \"mesh\": {\"file\": \"" +
         std::filesystem::path(path).filename().string() +
         "\"}, \"fixed\": [\"zmin\"]}]} (docs/scene-format.md)");
  }
}

// Removes `dir` and the parents up to (not including) `kept` when they are empty: a run that failed
// before writing leaves no empty output folder behind.
void remove_if_empty(std::filesystem::path dir, const std::filesystem::path& kept) {
  std::error_code ec;
  while (!dir.empty() && dir != kept && std::filesystem::is_directory(dir, ec) &&
         std::filesystem::is_empty(dir, ec)) {
    if (!std::filesystem::remove(dir, ec)) break;
    dir = dir.parent_path();
  }
}

struct RunArgs {
  std::string scene;
  std::string out;
  int steps = -1;
  bool render = false;
  bool json = false;
  int threads = 0;
  long long max_elements = kDefaultMaxElements;
};

// The folders a run creates, removed again when the run fails before writing anything into them.
struct Created {
  std::filesystem::path leaf;  // the output folder
  std::filesystem::path stop;  // the deepest folder that existed before the run
  bool any = false;
};

void will_create(const std::filesystem::path& dir, Created& created) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec)) return;
  std::filesystem::path first = dir;
  while (first.has_parent_path() && first.parent_path() != first &&
         !std::filesystem::exists(first.parent_path(), ec))
    first = first.parent_path();
  if (!created.any) created.stop = first.parent_path();
  created.leaf = dir;
  created.any = true;
}

void run_checked(const RunArgs& args, Created& created);

void run(const RunArgs& args) {
  refuse_non_scene(args.scene);
  Created created;
  try {
    run_checked(args, created);
  } catch (...) {
    if (created.any) remove_if_empty(created.leaf, created.stop);
    throw;
  }
}

void run_checked(const RunArgs& args, Created& created) {
  if (args.threads > 0) set_threads(args.threads);  // wins over OMP_NUM_THREADS (core/threads.hpp)
  // A wrong -o fails before the scene builds (the default goes under ./out).
  const std::filesystem::path first_out =
      args.out.empty() ? std::filesystem::path("out") : std::filesystem::path(args.out);
  will_create(first_out, created);
  unwrap(headless::prepare_output_directory(first_out));
  Stopwatch load_clock;
  // A Green body precomputes for a while: on a terminal, say so (scripts see an empty stderr).
  std::optional<ProgressTicker> ticker;
  if (isatty(fileno(stderr)) != 0) ticker.emplace(args.scene);
  scene::SceneLimits limits;
  limits.max_mesh_elements = static_cast<std::size_t>(args.max_elements);
  scene::Scene scene = unwrap(scene::load_scene(args.scene, limits));
  ticker.reset();
  // What reading changed (nodes in no element dropped, cells split): said, never blocking.
  for (const std::string& notice : scene.notices) fmt::print(stderr, "pliant: notice: {}\n", notice);
  // What looks unintended (a mesh in the wrong unit, kPa written as Pa, flat tets): said, never blocking.
  for (const scene::PlausibilityWarning& w : scene.warnings)
    fmt::print(stderr, "pliant: warning: {}\n", w.message);
  headless::RunOptions options;
  options.load_s = load_clock.seconds();
  options.out_dir =
      args.out.empty() ? std::filesystem::path("out") / scene.name : std::filesystem::path(args.out);
  options.steps = args.steps;
  options.render = args.render;
  will_create(options.out_dir, created);
  options.stop_requested = [] { return g_interrupted != 0; };
  // Ctrl-C from here on stops after the current step and still reports (before, it ends the build).
  g_interrupted = 0;
  std::signal(SIGINT, on_interrupt);
  const headless::RunReport report = unwrap(headless::run_scene(scene, options));
  std::signal(SIGINT, SIG_DFL);
  const nlohmann::json summary = nlohmann::json::parse(report.summary_json);
  if (!args.json) print_run_table(summary, options.out_dir);
  for (const auto& w : summary["warnings"])
    if (w["kind"] == "realtime") fmt::print(stderr, "pliant: warning: {}\n", w["message"].get<std::string>());
  if (args.json) fmt::print("{}\n", summary.dump(2));
  if (summary.value("interrupted", false)) {
    fmt::print(stderr, "pliant: interrupted after step {} ({:.4g} s simulated); summary.json written in {}\n",
               summary["last_good_step"].get<int>(), summary["time_s"].get<double>(),
               options.out_dir.string());
    std::fflush(stdout);
    std::exit(130);  // the shell's status for a command ended by SIGINT
  }
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
  add_number(*cmd, "--max-elements", args->max_elements,
             "Largest body mesh (tetrahedra or triangles) or meshless phyxel count accepted, checked before "
             "meshing or sampling (default 10000000; 0: only each family's own cap)",
             whole(0, 1'000'000'000'000));
  cmd->callback([args] { run(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(300, setup_run);
}  // namespace pliant::cli
#endif
