// A scene file run from C++ exactly as `pliant run` runs it: ParaView frames, forces.csv and summary.json
// in an output directory, through the library function the CLI and the Python module use.
//
//   run_scene SCENE.json OUT_DIR [STEPS]    prints the steps, simulated time and state hash
//
// Built with the project (target example_run_scene) and by the install test against an installed Pliant
// through find_package(pliant) (tests/install/consumer): link pliant::headless.
#include <pliant/headless/headless_run.hpp>
#include <pliant/scene/scene_file.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  using namespace pliant;
  if (argc < 3 || argc > 4) return std::fprintf(stderr, "usage: run_scene SCENE.json OUT_DIR [STEPS]\n"), 2;
  // Reading a scene builds its World: meshes, materials, Green's functions. Errors name the file and the
  // JSON path at fault, in one line.
  Result<scene::Scene> scene = scene::load_scene(argv[1]);
  if (!scene.ok()) return std::fprintf(stderr, "%s\n", scene.message().c_str()), 1;
  for (const std::string& notice : scene->notices) std::fprintf(stderr, "notice: %s\n", notice.c_str());

  headless::RunOptions options;
  options.out_dir = argv[2];
  if (argc == 4) options.steps = std::atoi(argv[3]);  // else the scene's own step count
  const Result<headless::RunReport> report = headless::run_scene(*scene, options);
  if (!report.ok()) return std::fprintf(stderr, "%s\n", report.message().c_str()), 1;
  std::printf("%s: %d steps, %.3f s simulated in %.2f s, state %s, %d VTU frames in %s\n",
              scene->name.c_str(), report->steps, report->time_s, report->wall_s, report->state_hash.c_str(),
              report->vtu_files, options.out_dir.c_str());
  return 0;
}
