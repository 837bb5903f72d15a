// `pliant demo [-o DIR] [--no-render]`: runs the built-in demo scenes (scene/demo_scenes.hpp) with no
// input files: the Nikitina et al. (2003) pipe dragged by its free end (Green's functions) and the Table 2.1
// membrane of Grimm (2005) pulled until it tears (Dragnet mass-spring with area-preserving tearing).
// Each scene writes DIR/<scene>/ (a .pvd series of VTU frames, PNG frames, summary.json); DIR/summary.json
// gathers both, and a short table of steps and per-stage times is printed. Stage lines go to stderr
// ("building pipe_drag...", "running pipe_drag: 120 steps..."), and on a terminal the elapsed time
// every few seconds while a scene builds (the pipe precomputes its Green's functions for tens of
// seconds).
#include "cli.hpp"
#include "progress_ticker.hpp"

#if PLIANT_HAS_SCENE
#include "pliant/core/timing.hpp"
#include "pliant/headless/headless_run.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/scene/demo_scenes.hpp"
#include "run_table.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

namespace pliant::cli {
namespace {

struct DemoArgs {
  std::string dir = "out/demo";
  bool no_render = false;
};

void run_demo(const DemoArgs& args) {
  const std::filesystem::path root = args.dir;
  Stopwatch total;
  const bool terminal = isatty(fileno(stderr)) != 0;
  nlohmann::json summary = {{"demo", "pliant"}, {"scenes", nlohmann::json::array()}};
  // A wrong -o fails before the pipe precomputes.
  for (const scene::DemoScene& demo : scene::demo_scenes())
    unwrap(headless::prepare_output_directory(root / demo.name));
  for (const scene::DemoScene& demo : scene::demo_scenes()) {
    const std::filesystem::path dir = root / demo.name;
    Stopwatch load_clock;
    std::optional<ProgressTicker> ticker;
    ticker.emplace(demo.name, terminal);
    // The scene is anchored in its output directory (relative paths in it would resolve there).
    scene::Scene scene = unwrap(scene::parse_scene(demo.json, dir / (demo.name + ".json")));
    ticker.reset();
    const double load_s = load_clock.seconds();
    fmt::print(stderr, "running {}: {} steps...\n", demo.name, scene.steps);
    std::fflush(stderr);
    if (args.no_render) scene.output.png = false;
    headless::RunOptions options;
    options.out_dir = dir;
    options.load_s = load_s;
    nlohmann::json s = nlohmann::json::parse(unwrap(headless::run_scene(scene, options)).summary_json);
    print_run_table(s, dir);
    s["directory"] = demo.name;
    summary["scenes"].push_back(std::move(s));
  }
  summary["wall_s"] = total.seconds();
  unwrap(io::write_file_atomically(root / "summary.json", summary.dump(2) + "\n"));
  fmt::print("demo: {:.1f} s in all; open {}/*/*.pvd in ParaView{}, {}\n", total.seconds(), root.string(),
             args.no_render ? "" : ", PNG frames beside them", (root / "summary.json").string());
}

void setup_demo(CLI::App& app) {
  auto args = std::make_shared<DemoArgs>();
  auto* cmd =
      app.add_subcommand("demo",
                         "Run the built-in demo: the Nikitina et al. (2003) pipe dragged by its free end "
                         "(Green's functions) and the "
                         "Table 2.1 membrane pulled until it tears; frames and summary.json under DIR");
  cmd->add_option("-o,--output", args->dir, "Output directory")->capture_default_str();
  cmd->add_flag("--no-render", args->no_render,
                "Skip the PNG frames, so that no EGL is needed (default: PNG frames are written)");
  cmd->callback([args] { run_demo(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(100, setup_demo);
}  // namespace pliant::cli
#endif
