// Scene files: versioned JSON describing bodies, fixed regions, scripted interactions and output.
// The format is documented in docs/scene-format.md; examples are in examples/scenes/.
//
// Errors name the file and the JSON pointer of the value at fault, what was expected and what was
// found, e.g. `scene.json: /bodies/0/material/E: expected a number > 0, got "soft"`. Unknown keys
// are errors.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/scene/plausibility.hpp"
#include "pliant/scene/world.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// What to write while a scene runs.
struct OutputDef {
  int every = 10;        ///< a frame every N steps, plus the first and the last; 0: only those two
  bool vtu = true;       ///< ParaView frames (.vtu per body per frame, one .pvd series per body)
  bool png = false;      ///< rendered PNG frames (needs the render module)
  int png_width = 800;   ///< (unit: px)
  int png_height = 600;  ///< (unit: px)
  std::string color_field = "displacement";  ///< field drawn as colours in PNG frames
  /// PNG frames: an arrow per contact pair (its total force on the held body) beside the contact points
  bool contact_arrows = false;
};

/// A loaded scene, ready to run.
struct Scene {
  std::string name;
  int steps = 100;  ///< steps a headless run takes unless told otherwise
  OutputDef output;
  std::unique_ptr<World> world;
  /// What reading the scene's meshes changed, one line each naming the JSON path and file: cells split
  /// into tetrahedra, nodes in no element dropped, padding ignored. Not errors: the scene runs.
  std::vector<std::string> notices;
  /// What looks unintended (plausibility.hpp: a mesh read in the wrong unit, a modulus in kPa written as
  /// Pa, nearly flat tets): one line each with the numbers and what to change. The scene runs.
  std::vector<PlausibilityWarning> warnings;
};

/// Current scene-file format version (the "pliant" key).
inline constexpr int kSceneFormatVersion = 1;

/// Bounds for reading scenes from untrusted sources (a fuzzer, a server taking uploads). The defaults
/// add nothing to the checks every scene gets.
struct SceneLimits {
  /// A body mesh with more elements (tetrahedra or triangles) is an error; generated shapes are
  /// checked from their parameters before they are meshed, and a meshless body's phyxels from its
  /// spacing before they are sampled. 0: no limit beyond the meshers' own.
  std::size_t max_mesh_elements = 0;
  /// Caps the solver threads a body may ask for ("threads"). 0: no cap.
  int max_threads = 0;
  /// false: nothing is written (a Green "cache" that is missing or stale is rebuilt in memory only).
  bool write_files = true;
};

/// A mesh given in code to make_body, instead of the body object's "mesh" key: exactly one is set.
struct BodyMesh {
  std::optional<TetMesh> volume;
  std::optional<TriMesh> surface;
};

/// Builds one body from a body object of the scene schema (JSON text with "name", "family", "mesh",
/// "fixed" and the family's keys; docs/scene-format.md), for a World assembled in code
/// (World::add_body). `mesh`, when given, replaces the "mesh" key. `time_step` is the world's step
/// (unit: s), which bounds a family's substeps. Errors name `file` and the JSON path inside the body
/// object, e.g. `body.json: /material/E: expected a number > 0, got "soft"`.
Result<std::unique_ptr<Body>> make_body(std::string_view body_json, const std::filesystem::path& file,
                                        double time_step, const BodyMesh* mesh = nullptr,
                                        const SceneLimits& limits = {});

/// Builds one collider from a collider object of the scene schema (JSON text with "name", "shape", its
/// sizes, pose, "track", "friction", "margin"; docs/scene-format.md, "Contact"), for World::add_collider
/// in code. A mesh file is resolved against `file`'s directory. Errors name `file` and the JSON path,
/// e.g. `collider.json: /radius: expected a number > 0, got -1`.
Result<Collider> make_collider(std::string_view collider_json, const std::filesystem::path& file,
                               const SceneLimits& limits = {});
/// Builds one instrument from an instrument object of the scene schema (JSON text with "name", "type",
/// "radius", "length", pose, "track", "device", "friction", "margin"; docs/scene-format.md,
/// "Instruments"), for World::add_instrument in code; errors name `file` and the JSON path.
Result<Instrument> make_instrument(std::string_view instrument_json, const std::filesystem::path& file);
/// Reads a body's contact settings from a "contact" object of the scene schema ({"enabled", "bodies",
/// "friction", "margin"}), for World::set_contact in code; errors name `file` and the JSON path.
Result<BodyContact> make_body_contact(std::string_view contact_json, const std::filesystem::path& file);

/// Reads and builds a scene. Relative mesh paths are resolved against the scene file's directory.
Result<Scene> load_scene(const std::filesystem::path& path);
/// load_scene within `limits` (`pliant run` passes its --max-elements).
Result<Scene> load_scene(const std::filesystem::path& path, const SceneLimits& limits);
/// Builds a scene from JSON text; `file` names it in messages and anchors relative paths.
Result<Scene> parse_scene(std::string_view json_text, const std::filesystem::path& file);
/// parse_scene within `limits`.
Result<Scene> parse_scene(std::string_view json_text, const std::filesystem::path& file,
                          const SceneLimits& limits);

}  // namespace pliant::scene
