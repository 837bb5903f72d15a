// `pliant validate [--quick] [--json FILE] [--plots DIR] [--only NAME...]`: the verification catalogue
// (apps/pliant/validate, docs/validation.md) against analytic and published references. Prints the
// table; exit status 0 when every problem passes, 1 when one fails (named on one line), 2 on bad
// arguments.
#include "cli.hpp"
#include "option_checks.hpp"

#include "validation.hpp"

#include "pliant/io/atomic_file.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace pliant::cli {
namespace {

struct ValidateArgs {
  bool quick = false;
  std::string json;
  std::string plots;
  std::vector<std::string> only;
  double youngs_scale = 1.0;
};

void run_validate(const ValidateArgs& args) {
  const std::vector<const validate::Entry*> entries = unwrap(validate::select(args.only, args.quick));
  // Outputs that cannot be written fail now, not after the problems have run.
  if (!args.json.empty()) {
    const std::filesystem::path parent = std::filesystem::path(args.json).parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
      fail(fmt::format("{}: cannot write: directory {} does not exist", args.json, parent.string()));
  }
  if (!args.plots.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(args.plots, ec);
    if (ec || !std::filesystem::is_directory(args.plots))
      fail(fmt::format("{}: cannot create the plot directory{}", args.plots, ec ? ": " + ec.message() : ""));
  }
  validate::Variant variant;
  variant.quick = args.quick;
  variant.youngs_scale = args.youngs_scale;
  fmt::print("pliant validate{}: {} problems (docs/validation.md)\n", args.quick ? " --quick" : "",
             entries.size());
  std::fflush(stdout);
  const std::vector<validate::Problem> problems =
      validate::run(entries, variant, [](const validate::Problem& p) {
        fmt::print(stderr, "  {} {}\n", p.passed ? "ok  " : "FAIL", p.name);
      });
  fmt::print("{}", validate::table(problems));
  if (!args.json.empty()) {
    unwrap(io::write_file_atomically(args.json, validate::to_json(problems, args.quick).dump(2) + "\n"));
    fmt::print("wrote {}\n", args.json);
  }
  if (!args.plots.empty()) {
    const auto files = unwrap(validate::write_plots(problems, args.plots));
    fmt::print("wrote {} plots in {}\n", files.size(), args.plots);
  }
  std::string failed;
  int count = 0;
  for (const auto& p : problems)
    if (!p.passed) failed += (count++ ? ", " : "") + p.name;
  if (count > 0) {
    std::fflush(stdout);
    std::fprintf(stderr, "pliant: validate: %d problem%s failed: %s\n", count, count > 1 ? "s" : "",
                 failed.c_str());
    std::exit(1);
  }
}

void setup_validate(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = app.add_subcommand(
      "validate",
      "Run the verification problems against analytic and published references (docs/validation.md); exit 1 "
      "when one fails.");
  cmd->add_flag("--quick", args->quick, "The CI subset with smaller meshes (default: the full run)");
  cmd->add_option("-o,--json", args->json, "Write the problems as JSON to this file (default: print only)");
  cmd->add_option(
      "--plots", args->plots,
      "Write a log-log convergence plot (PNG) per refinement series into this directory (default: no plots)");
  cmd->add_option(
      "--only", args->only,
      "Run only these problems: names, or a prefix ending in * (default: every problem, or the quick ones)");
  add_number(
      *cmd, "--youngs-scale", args->youngs_scale,
      "Simulate with Young's modulus times this against the nominal references (every other tet in the "
      "patch tests), to see the checks fail (default 1: as published)",
      between(0.01, 100));
  cmd->callback([args] { run_validate(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(850, setup_validate);
}  // namespace pliant::cli
