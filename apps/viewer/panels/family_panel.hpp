// Family panels of the viewer: each registered family's settings are drawn from its settings table
// (pliant/scene/setting_spec.hpp) by one widget per setting type (settings_panel); the family's own
// panel (panels/NAME_panel.cpp defining `void NAME_panel(const PanelContext&)`) draws only what is not
// a setting (the material editor, shortcuts such as springs' Dragnet switch). The viewer finds both
// through the family registry, never by switching on family names.
#pragma once

#include "pliant/scene/setting_spec.hpp"

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
/// The whole panel of a body: its family's panel, then settings_panel over its settings table.
void draw_body_panel(std::string_view family, const PanelContext& ctx);
/// One widget per setting of `settings` offered in the viewer (SettingSpec::in_viewer): a slider for
/// a number or integer (with an "auto" box for one without a constant default), a checkbox for a
/// boolean, a combo for a choice; each shows the scene's value or the declared default, its help as
/// the tooltip, and hides settings whose `shown_if` does not hold.
void settings_panel(const PanelContext& ctx, const std::vector<scene::SettingSpec>& settings);

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
