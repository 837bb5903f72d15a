// The family registry: how the scene file reader, its error messages, the viewer and the Python module
// learn which model families exist, without naming any of them (DESIGN.md, "the family registry").
//
// A family is a FamilyEntry: its name (the body's "family" value in a scene file), the body keys it
// reads besides the shared ones, a small example body, and a factory that reads those keys through a
// JsonReader and builds the scene body. The scene file reader checks the shared keys ("name",
// "family", "mesh", "fixed", "contact", "render_mesh"), refuses any key neither shared nor listed in
// FamilyEntry::keys (the error lists the allowed ones), reads the mesh and the fixed regions, then
// calls the factory with them in BodyInputs.
//
// The built-in families (PLIANT_FAMILIES, src/CMakeLists.txt) register themselves before the first
// look-up; a family outside the library calls register_family once, before it loads a scene that
// names it (examples/plugin_family, docs/writing-a-family.md).
#pragma once

#include "pliant/core/region.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/scene/body.hpp"
#include "pliant/scene/json_reader.hpp"
#include "pliant/scene/setting_spec.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// The parts of a body entry every family shares, already read and checked.
struct BodyInputs {
  std::string name;                   ///< the body's "name" (letters, digits, '_', '-', '.')
  std::optional<TetMesh> volume;      ///< set when the mesh is a volume (positions in m)
  std::optional<TriMesh> surface;     ///< set when the mesh is a surface or membrane (positions in m)
  std::vector<Region> fixed;          ///< fixed (clamped) node regions, each selecting ≥ 1 node
  std::filesystem::path directory;    ///< of the scene file, for relative paths
  double time_step = 1.0 / 60.0;      ///< the scene's step (unit: s), bounds a family's substep count
  int max_threads = 0;                ///< SceneLimits::max_threads (0: no cap)
  bool write_files = true;            ///< SceneLimits::write_files
  std::size_t max_mesh_elements = 0;  ///< SceneLimits::max_mesh_elements, for meshes a family reads itself
  std::vector<std::string> notices;   ///< what reading the mesh changed (Scene::notices), one line each
};

/// Reads the family's keys of `body` (the whole body object; the shared keys are already read and
/// unknown keys refused) and builds the body. Bad input throws JsonReadError naming the JSON pointer
/// (JsonReader::fail, JsonReader::fail_expected, take); the scene loader returns it as its error.
/// Never returns nullptr.
using BodyFactory = std::function<std::unique_ptr<Body>(const JsonReader& body, BodyInputs inputs)>;

/// One registered family.
struct FamilyEntry {
  std::string name;               ///< the scene's "family" value, e.g. "green"; unique
  std::string summary;            ///< one line for help texts and the viewer: what, and whose method
  std::vector<std::string> keys;  ///< body keys it adds to the shared ones
  std::string why_fixed;          ///< why "fixed" is required; empty: it is optional
  /// A small body object of this family (JSON, without "name" and "family"): what the contract
  /// conformance suite, the docs and the Python smoke tests build. Seconds at most to build.
  std::string example_body;
  BodyFactory make;
  /// Its body keys' declarations (pliant/scene/setting_spec.hpp: path, type, unit, default, range, help),
  /// from which the reader's checks, the viewer's widgets, Python's keywords and the docs' tables come.
  std::vector<SettingSpec> settings = {};
};

/// Every registered family, built-in ones first in PLIANT_FAMILIES order. The entries stay valid
/// (and at the same address) for the program's life.
const std::vector<const FamilyEntry*>& family_entries();
/// The family of that name, or nullptr.
const FamilyEntry* find_family(std::string_view name);
/// Adds a family; false (and nothing added) if the name is empty or taken or the entry has no
/// factory. Register before loading scenes: a registration racing a scene load on another thread is
/// not supported.
bool register_family(FamilyEntry entry);

}  // namespace pliant::scene
