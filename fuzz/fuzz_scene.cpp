// libFuzzer harness: scene JSON (scene_file.hpp) through parse_scene, within SceneLimits that keep
// every input cheap: meshes of at most 600 elements (checked before meshing), one solver
// thread, and no files written (a Green "cache" is built in memory only). Relative mesh paths resolve
// against tests/data/scenes, so inputs can name the test meshes ("../meshes/box.msh").
#include "fuzz_checks.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/scene/scene_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#ifndef PLIANT_FUZZ_DATA_DIR
#error "PLIANT_FUZZ_DATA_DIR (tests/data) must be defined by the build"
#endif

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  pliant::set_threads(1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::path(PLIANT_FUZZ_DATA_DIR) / "scenes" / "fuzz.json";
  pliant::scene::SceneLimits limits;
  // A Green precompute of 600 tets stays well under the per-input timeout with ASan; the example
  // scenes' larger meshes are refused by the limit (after their JSON is read), not built.
  limits.max_mesh_elements = 600;
  limits.max_threads = 1;
  limits.write_files = false;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto scene = pliant::scene::parse_scene(text, file, limits);
  if (!scene.ok()) pliant::fuzz::check_error_message(scene.message(), file.string());
  return 0;
}
