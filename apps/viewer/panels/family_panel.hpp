// Family panels of the viewer: each registered family draws its own parameter panel (one file per
// family, panels/NAME_panel.cpp defining `void NAME_panel(const PanelContext&)`); the viewer finds it
// through the family registry's generated list, never by switching on family names.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::viewer {

/// What a family panel reads and may change: one body's object in the scene JSON.
struct PanelContext {
  const nlohmann::json& body;  ///< the body's object as the scene file has it
  std::string pointer;         ///< its JSON pointer, e.g. "/bodies/0"
  /// Sets the value at a JSON pointer of the scene and rebuilds the world (once per frame at most).
  std::function<void(const nlohmann::json::json_pointer&, nlohmann::json)> edit;
  /// Removes the key at a JSON pointer and rebuilds.
  std::function<void(const nlohmann::json::json_pointer&)> erase;
};

using FamilyPanel = void (*)(const PanelContext&);

/// The panel of a registered family, or nullptr if it has none.
FamilyPanel family_panel(std::string_view family);

// Widgets the panels share.

/// A number/string member of a JSON object, or `fallback` when absent or of another type.
double number_at(const nlohmann::json& object, const char* key, double fallback);
std::string string_at(const nlohmann::json& object, const char* key, const std::string& fallback);
/// A double slider bound to the scene JSON value at `pointer`: it shows `current` when idle and the
/// dragged value while active; true (with `out`) when an edit ends, so one edit makes one rebuild.
bool slider(const char* label, const std::string& pointer, double current, double lo, double hi,
            const char* format, bool logarithmic, double& out);
/// ImGui::Combo's item string ("a\0b\0").
std::string items_of(const std::vector<std::string>& names);

/// Limits of the material editor.
struct MaterialEditorRange {
  double fallback_E = 1e6;  ///< E shown while the scene's material is refused (unit: Pa), with ν 0.3
  double max_E = 1e12;      ///< top of the E slider (unit: Pa)
  bool density = true;      ///< show a density slider
};
/// A body's "material" object at JSON pointer `pointer`: a preset combo, or E and ν sliders for a
/// custom material, and density. True with `next`, the whole new material object, when an edit ends.
bool material_editor(const nlohmann::json& material, const std::string& pointer,
                     const MaterialEditorRange& range, nlohmann::json& next);

}  // namespace pliant::viewer
