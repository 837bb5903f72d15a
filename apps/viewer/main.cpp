// pliant-view: the interactive viewer as its own program, with the options of `pliant view`
// (view_command.hpp). Without a file it shows a sphere with the pull test model, which exercises
// the viewer alone; `pliant view` without a file shows the demo scenes.
//
//   pliant-view                                   a sphere with the pull test model
//   pliant-view examples/scenes/pipe_drag.json    a scene's world (bodies of any family)
//   pliant-view organ.msh --model static
//   pliant-view --screenshot out.png --after 30 --script-drag 512,360,620,300,20
#include "view_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  using namespace pliant::viewer;
  CLI::App app{"Pliant interactive viewer"};
  ViewCommand command;
  add_view_options(app, command, WithoutFile::sphere);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "pliant-view: error: %s\n", e.what());
    return 2;
  }
  if (pliant::Status s = run_view_command(std::move(command), WithoutFile::sphere); !s.ok()) {
    std::fprintf(stderr, "pliant-view: error: %s\n", s.message().c_str());
    return 2;
  }
  return 0;
}
