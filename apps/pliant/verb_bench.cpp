// `pliant bench NAME|all [-o PATH] [--quick]`: runs registered benchmarks (bench/).
#include "cli.hpp"
#include "option_checks.hpp"

#if PLIANT_HAS_BENCH
#include "bench.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/io/atomic_file.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <filesystem>

namespace pliant::cli {
namespace {

struct BenchArgs {
  std::string name;
  std::string json;
  bool quick = false;
  int threads = 0;
  bool busy = false;
};

void run_bench(const BenchArgs& args) {
  const auto all = bench::registered();
  std::vector<bench::Entry> chosen;
  for (const auto& e : all) {
    if (args.name == "all" || e.name == args.name) chosen.push_back(e);
  }
  if (chosen.empty()) {
    std::string names;
    for (const auto& e : all) names += (names.empty() ? "" : ", ") + e.name;
    if (args.name.empty()) fail(fmt::format("bench: name a benchmark: one of {}, all", names));
    fail(fmt::format("bench: unknown benchmark '{}' (available: {}, all)", args.name, names));
  }
  // With several benchmarks --json names a directory (one NAME.json each); with one, a file.
  const bool to_dir = chosen.size() > 1 || std::filesystem::is_directory(args.json);
  if (!args.json.empty() && to_dir) std::filesystem::create_directories(args.json);
  bench::Context context;
  context.quick = args.quick;
  context.threads = args.threads;
  context.busy = args.busy;
  if (args.threads > 0) set_threads(args.threads);
  for (const auto& e : chosen) {
    fmt::print("== bench {}: {}{}\n", e.name, e.description, args.quick ? " (quick smoke run)" : "");
    nlohmann::json result = e.run(context);
    result["benchmark"] = e.name;
    result["quick"] = args.quick;
    result["machine"] = bench::machine_description();
    if (!args.json.empty()) {
      const std::filesystem::path out =
          to_dir ? std::filesystem::path(args.json) / (e.name + ".json") : std::filesystem::path(args.json);
      unwrap(io::write_file_atomically(out, result.dump(2) + "\n"));
      fmt::print("wrote {}\n", out.string());
    }
  }
}

void setup_bench(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  std::string names;
  for (const auto& e : bench::registered()) names += "\n  " + e.name + ": " + e.description;
  auto* cmd =
      app.add_subcommand("bench", "Run a benchmark, print its table and, with -o, write JSON." + names);
  std::string list;
  for (const auto& e : bench::registered()) list += (list.empty() ? "" : ", ") + e.name;
  // Not CLI11's required(): its "name is required" would not say which names exist.
  cmd->add_option("name", args->name, "Benchmark name, or 'all' (one of: " + list + ")");
  // -o names the output as in every verb; --json is the older spelling, kept for scripts.
  cmd->add_option("-o,--output,--json", args->json,
                  "Write the results to this JSON file (a directory for 'all'; default: print only)");
  cmd->add_flag("--quick", args->quick, "Smoke run: smallest sizes, few repetitions (default: full sizes)");
  add_number(*cmd, "--threads", args->threads, "Worker threads (0 = all cores)", whole(0))
      ->capture_default_str();
  cmd->add_flag(
      "--busy", args->busy,
      "Also time runs with two busy background threads (benchmarks that support it: green; default: "
      "an idle machine only)");
  cmd->callback([args] { run_bench(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(900, setup_bench);
}  // namespace pliant::cli
#endif
#if !PLIANT_HAS_BENCH
#include <CLI/CLI.hpp>

namespace pliant::cli {
namespace {

// A tree configured without benchmarks (./dev demo's first build) still knows the verb, so that
// `pliant bench` says how to get it instead of "unexpected argument".
void setup_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Run a benchmark (not in this build: ./dev build adds them)");
  cmd->allow_extras();
  cmd->callback([] {
    fail(
        "this pliant was built without the benchmarks: run ./dev build (or configure with "
        "-DPLIANT_BUILD_BENCH=ON)");
  });
}

}  // namespace
PLIANT_REGISTER_VERB(900, setup_bench);
}  // namespace pliant::cli
#endif
