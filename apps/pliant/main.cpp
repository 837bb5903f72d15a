// `pliant`: the command-line entry point. Verbs register themselves (see cli.hpp).
#include "cli.hpp"

#include "pliant/core/escape.hpp"
#include "pliant/core/threads.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace pliant::cli {
namespace {

std::vector<std::pair<int, VerbSetup>>& registry() {
  static std::vector<std::pair<int, VerbSetup>> verbs;
  return verbs;
}

int report_user_error(const std::string& message) {
  // One line whatever the user typed: a file name or option value with a newline or an escape
  // character is echoed escaped (\n, \x1b), like the bytes of a file.
  std::fprintf(stderr, "pliant: error: %s\n", pliant::escape_for_message(message, std::string::npos).c_str());
  return 2;
}

std::vector<std::pair<std::string, InfoHandler>>& info_registry() {
  static std::vector<std::pair<std::string, InfoHandler>> handlers;
  return handlers;
}

}  // namespace

VerbRegistrar::VerbRegistrar(int order, VerbSetup setup) { registry().emplace_back(order, setup); }

InfoRegistrar::InfoRegistrar(const char* extension, InfoHandler handler) {
  info_registry().emplace_back(extension, handler);
}

InfoHandler find_info_handler(const std::string& extension) {
  for (const auto& [ext, handler] : info_registry()) {
    if (ext == extension) return handler;
  }
  return nullptr;
}

}  // namespace pliant::cli

int main(int argc, char** argv) {
  using namespace pliant::cli;
  // One BLAS thread under the solvers' OpenMP teams, whether or not the caller exported
  // OPENBLAS_NUM_THREADS=1 (a user's own setting wins; see core/threads.hpp).
  pliant::apply_blas_threads();
  CLI::App app{
      "pliant: real-time deformable bodies (FEM, Green's functions, mass-spring tissue, meshless MLS, impact "
      "dents).",
      "pliant"};
  app.set_version_flag("--version", std::string("pliant ") + PLIANT_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  auto verbs = registry();
  std::stable_sort(verbs.begin(), verbs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, setup] : verbs) setup(app);
  if (argc < 2) {  // a bare `pliant`: what it can do, not "a subcommand is required"
    std::fputs(app.help().c_str(), stdout);
    return 0;
  }
  // The first word that is no option is the verb (pliant itself takes only --help and --version).
  // CLI11 would answer a misspelt one with "A subcommand is required"; name it and the real ones.
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (!word.empty() && word[0] == '-') continue;
    std::string verbs;
    bool known = false;
    for (const CLI::App* verb : app.get_subcommands([](CLI::App*) { return true; })) {
      verbs += (verbs.empty() ? "" : ", ") + verb->get_name();
      known = known || verb->get_name() == word;
    }
    if (!known) return report_user_error("unknown verb \"" + word + "\"; the verbs are: " + verbs);
    break;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Option errors (unknown flag, missing or malformed value) are user errors: one line, status 2.
    return report_user_error(e.what());
  } catch (const QuietError&) {
    return 2;
  } catch (const UserError& e) {
    return report_user_error(e.what());
  } catch (const std::bad_alloc&) {
    return report_user_error("out of memory (the input asks for more than this machine has)");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pliant: internal error: %s\n", e.what());
    return 3;
  }
  return 0;
}
