// The family registry: how the scene file reader, its error messages, the viewer and the Python module
// learn which model families exist, without naming any of them.
//
// Adding a family NAME takes its folder under src/models/NAME, its scene adapter
// (src/scene/NAME_scene_body.cpp defining `FamilyEntry NAME_family()` in this namespace), its viewer panel
// (apps/viewer/panels/NAME_panel.cpp) and its name in PLIANT_FAMILIES (src/CMakeLists.txt), the one
// registration line: CMake generates the list both the scene and the viewer read. A static library
// drops self-registering objects nobody references, so registration is explicit. Tests may add a
// family at run time with register_family.
#pragma once

#include "json_reader.hpp"

#include "pliant/core/region.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/scene/body.hpp"
#include "pliant/scene/setting_spec.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene::detail {

/// The parts of a body entry every family shares, already read and checked.
struct BodyInputs {
  std::string name;
  std::optional<TetMesh> volume;      ///< set when the mesh is a volume
  std::optional<TriMesh> surface;     ///< set when the mesh is a surface or membrane
  std::vector<Region> fixed;          ///< fixed (clamped) node regions
  std::filesystem::path directory;    ///< of the scene file, for relative paths
  double time_step = 1.0 / 60.0;      ///< the scene's step (unit: s), bounds a family's substep count
  int max_threads = 0;                ///< SceneLimits::max_threads (0: no cap)
  bool write_files = true;            ///< SceneLimits::write_files
  std::size_t max_mesh_elements = 0;  ///< SceneLimits::max_mesh_elements, for meshes a family reads itself
  std::vector<std::string> notices;   ///< what reading the mesh changed (Scene::notices), one line each
};

/// Reads the family-specific keys of `body` (the whole body object; shared keys are already read) and
/// builds the body. Throws JsonReadError naming the JSON pointer on bad input.
using BodyFactory = std::unique_ptr<Body> (*)(const JsonReader& body, BodyInputs inputs);

/// One registered family.
struct FamilyEntry {
  std::string_view name;               ///< the scene's "family" value, e.g. "green"
  std::string_view summary;            ///< one line for help texts and the viewer
  std::vector<std::string_view> keys;  ///< body keys it adds to the shared ones
  std::string_view why_fixed;          ///< why "fixed" is required; empty: it is optional
  /// A small body object of this family (JSON, without "name" and "family"): what the contract
  /// conformance suite, the docs and the Python smoke tests build. Seconds at most to build.
  std::string_view example_body;
  BodyFactory make = nullptr;
  /// Its body keys' declarations (pliant/scene/setting_spec.hpp), read by `make` through them.
  std::vector<SettingSpec> settings = {};
};

/// Every registered family, built-in ones first in PLIANT_FAMILIES order. Stable references.
const std::vector<const FamilyEntry*>& family_entries();
/// The family of that name, or nullptr.
const FamilyEntry* find_family(std::string_view name);
/// Adds a family at run time (tests); false if the name is taken or the entry has no factory.
bool register_family(FamilyEntry entry);

}  // namespace pliant::scene::detail
