// Construction of family bodies from scene JSON. Each family adapter (green_body.cpp,
// springs_body.cpp, ...) provides one factory; scene_file.cpp lists them by family name.
#pragma once

#include "json_reader.hpp"

#include "pliant/core/region.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/scene/body.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pliant::scene::detail {

/// The parts of a body entry every family shares, already read and checked.
struct BodyInputs {
  std::string name;
  std::optional<TetMesh> volume;    ///< set when the mesh is a volume
  std::optional<TriMesh> surface;   ///< set when the mesh is a surface or membrane
  std::vector<Region> fixed;        ///< fixed (clamped) node regions
  std::filesystem::path directory;  ///< of the scene file, for relative paths
  double time_step = 1.0 / 60.0;    ///< the scene's step (unit: s), bounds a family's substep count
  int max_threads = 0;              ///< SceneLimits::max_threads (0: no cap)
  bool write_files = true;          ///< SceneLimits::write_files
};

/// Reads the family-specific keys of `body` (the whole body object; shared keys are already read) and
/// builds the body. Throws JsonReadError naming the JSON pointer on bad input.
using BodyFactory = std::unique_ptr<Body> (*)(const JsonReader& body, BodyInputs inputs);

/// Family-specific keys allowed in a body object besides the shared ones.
struct FamilyEntry {
  const char* family;
  BodyFactory make;
  std::initializer_list<std::string_view> keys;
};

}  // namespace pliant::scene::detail
