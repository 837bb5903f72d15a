// One declaration per family setting: the JSON path of a key of a body object, its type, unit,
// default, range and one help line. Each family declares its settings once, as a table next to its
// scene reader; the reader's checks and error messages, the viewer's panel widgets, the Python
// module's `family_settings` and the tables of docs/scene-format.md are derived from (or tested
// against) that table, so a key added in one place and not the others fails a test.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// What a setting's JSON value is.
enum class SettingType {
  number,   ///< a finite JSON number, checked against the range
  integer,  ///< a JSON integer, checked against the range
  boolean,  ///< true or false
  choice,   ///< a string, one of `choices`
  string,   ///< any string (a file name)
  vec3,     ///< an array of 3 numbers
  object,   ///< an object whose own keys are declared by further rows (path "a/b" under "a"), or read
            ///< by the family's code when none are (materials, regions)
  array,    ///< an array of objects, read by the family's code (regions with values)
};

/// Bounds far beyond any physical value: a range side at this value is unbounded.
inline constexpr double kSettingUnbounded = 1e300;

/// One setting of a family's body object.
struct SettingSpec {
  /// JSON path below the body object, '/'-separated: "fem/solver/kind" is body["fem"]["solver"]["kind"].
  std::string_view path = {};
  SettingType type = SettingType::number;
  /// The SI unit of a number, integer or vec3 ("s", "N/m", "1/s"); empty: dimensionless or not a number.
  std::string_view unit = {};
  /// The default as JSON text ("0.05", "\"lumped\"", "[0, 0, 0]", "true"); empty: none (see `otherwise`).
  std::string_view fallback = {};
  /// Without a constant default: what holds when the key is absent ("from the stability limit"); the
  /// reader then computes it, and the docs and the viewer say this.
  std::string_view otherwise = {};
  /// Range of a number or integer (unit: `unit`), each side closed unless `*_open`.
  double min = -kSettingUnbounded;
  double max = kSettingUnbounded;
  bool min_open = false;
  bool max_open = false;
  /// The upper bound is also the scene's time_step (unit: s): a substep never exceeds the world step.
  bool max_time_step = false;
  /// The values of a choice, in the order the viewer lists them.
  std::vector<std::string_view> choices = {};
  bool required = false;
  /// One line: what the setting does (the viewer's tooltip, the docs' meaning).
  std::string_view help = {};

  // How the viewer offers it (ignored by the reader).
  /// False: not offered in the viewer (file names, thread counts, memory caps).
  bool in_viewer = true;
  /// Slider bounds (unit: `unit`); both 0: the range above where finite.
  double view_min = 0.0;
  double view_max = 0.0;
  bool view_log = false;
  /// "KEY=A|B": shown only while the sibling setting KEY (same parent object) is one of A, B; a
  /// choice edit removes the siblings it hides, so the scene never holds a key its reader refuses.
  std::string_view shown_if = {};
};

/// "number", "integer", "boolean", "choice", "string", "vec3", "object", "array".
std::string_view to_string(SettingType type);
/// The key: the last segment of the path ("kind" for "fem/solver/kind").
std::string_view setting_key(const SettingSpec& spec);
/// The parent object's path ("fem/solver" for "fem/solver/kind"; "" for a top-level body key).
std::string_view setting_parent(const SettingSpec& spec);
/// The range as text: "(0, 1]", ">= 0", "> 0", "(0, time_step]"; empty when unbounded or not numeric.
std::string setting_range_text(const SettingSpec& spec);
/// The type as the docs write it: "number", "integer", "boolean", `"a"` \| `"b"`, ...
std::string setting_type_text(const SettingSpec& spec);

/// The settings table of a registered family (empty if there is no such family).
std::vector<SettingSpec> family_settings(std::string_view family);
/// The family's settings as the Markdown table docs/scene-format.md carries (columns key, type, unit,
/// default, range, meaning), ending in a newline. Empty if there is no such family.
std::string settings_markdown(std::string_view family);

}  // namespace pliant::scene
