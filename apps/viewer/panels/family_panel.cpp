#include "family_panel.hpp"

#include "pliant/materials/material.hpp"
#include "pliant/scene/material_json.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace pliant::viewer {

#define PLIANT_FAMILY(NAME) void NAME##_panel(const PanelContext&);
#include "pliant/generated/families.inc"
#undef PLIANT_FAMILY

FamilyPanel family_panel(std::string_view family) {
#define PLIANT_FAMILY(NAME) \
  if (family == #NAME) return &NAME##_panel;
#include "pliant/generated/families.inc"
#undef PLIANT_FAMILY
  return nullptr;
}

using nlohmann::json;

namespace {

// Slider values while the user drags them, by JSON pointer.
std::map<std::string, double>& scratch() {
  static std::map<std::string, double> values;
  return values;
}

}  // namespace

double number_at(const json& object, const char* key, double fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string string_at(const json& object, const char* key, const std::string& fallback) {
  if (!object.is_object()) return fallback;
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

bool slider(const char* label, const std::string& pointer, double current, double lo, double hi,
            const char* format, bool logarithmic, double& out) {
  const auto it = scratch().find(pointer);
  double v = it != scratch().end() ? it->second : current;
  ImGui::PushID(pointer.c_str());
  ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format,
                      ImGuiSliderFlags_AlwaysClamp | (logarithmic ? ImGuiSliderFlags_Logarithmic : 0));
  ImGui::PopID();
  if (ImGui::IsItemActive()) scratch()[pointer] = v;
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    out = v;
    scratch().erase(pointer);
    return true;
  }
  return false;
}

std::string items_of(const std::vector<std::string>& names) {
  std::string items;
  for (const std::string& n : names) items += n + '\0';
  return items;
}

namespace {

// The JSON object at a '/'-separated path below `body` (null when absent or not an object).
const json* object_at(const json& body, std::string_view path) {
  const json* at = &body;
  std::size_t start = 0;
  while (start < path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    if (!at->is_object()) return nullptr;
    const auto it = at->find(std::string(path.substr(start, slash - start)));
    if (it == at->end()) return nullptr;
    at = &*it;
    start = slash + 1;
  }
  return at->is_object() ? at : nullptr;
}

// Whether `shown_if` ("KEY=A|B") holds for the sibling values in `parent` (the sibling's default when
// absent, from `settings`).
bool shown(const scene::SettingSpec& s, const json& parent, const std::vector<scene::SettingSpec>& settings) {
  if (s.shown_if.empty()) return true;
  const std::size_t eq = s.shown_if.find('=');
  const std::string key(s.shown_if.substr(0, eq));
  std::string value;
  if (parent.is_object() && parent.contains(key) && parent[key].is_string()) {
    value = parent[key].get<std::string>();
  } else {
    const std::string sibling = std::string(scene::setting_parent(s)) + "/" + key;
    for (const scene::SettingSpec& o : settings) {
      if (o.path == sibling && !o.fallback.empty()) value = json::parse(o.fallback).get<std::string>();
    }
  }
  std::string_view options = s.shown_if.substr(eq + 1);
  while (!options.empty()) {
    const std::size_t bar = std::min(options.find('|'), options.size());
    if (options.substr(0, bar) == value) return true;
    options.remove_prefix(std::min(bar + 1, options.size()));
  }
  return false;
}

// The widget's label: the key with its unit (the object it is in heads its group, below). A long unit
// ("kg/m² or kg/m³") would push the label past the panel's edge: the tooltip gives it instead.
constexpr std::size_t kMaxLabelUnit = 8;
std::string label_of(const scene::SettingSpec& s) {
  std::string label(scene::setting_key(s));
  if (!s.unit.empty() && s.unit.size() <= kMaxLabelUnit) label += " (" + std::string(s.unit) + ")";
  return label;
}

}  // namespace

void settings_panel(const PanelContext& ctx, const std::vector<scene::SettingSpec>& settings) {
  static const json empty = json::object();
  std::string_view heading;
  for (const scene::SettingSpec& s : settings) {
    using T = scene::SettingType;
    if (!s.in_viewer ||
        !(s.type == T::number || s.type == T::integer || s.type == T::boolean || s.type == T::choice))
      continue;
    const std::string_view parent_path = scene::setting_parent(s);
    const json* found = object_at(ctx.body, parent_path);
    const json& parent = found ? *found : empty;
    if (!shown(s, parent, settings)) continue;
    // Settings of a nested object ("fem/solver/kind") under a heading naming it ("solver").
    if (const std::size_t slash = parent_path.find('/');
        slash != std::string_view::npos && parent_path != heading) {
      ImGui::TextDisabled("%s", std::string(parent_path.substr(slash + 1)).c_str());
      heading = parent_path;
    }
    const std::string key(scene::setting_key(s));
    const std::string pointer = ctx.pointer + "/" + std::string(s.path);
    const std::string label = label_of(s);
    const json fallback = s.fallback.empty() ? json() : json::parse(s.fallback);
    const auto it = parent.find(key);
    const bool present = it != parent.end();
    if (s.type == T::boolean) {
      bool v = present && it->is_boolean() ? it->get<bool>() : fallback.is_boolean() && fallback.get<bool>();
      if (ImGui::Checkbox(label.c_str(), &v)) ctx.edit(json::json_pointer(pointer), v);
    } else if (s.type == T::choice) {
      std::vector<std::string> names(s.choices.begin(), s.choices.end());
      const std::string current = present && it->is_string() ? it->get<std::string>()
                                  : fallback.is_string()     ? fallback.get<std::string>()
                                                             : "";
      int i = static_cast<int>(std::find(names.begin(), names.end(), current) - names.begin());
      if (i >= static_cast<int>(names.size())) i = 0;
      if (ImGui::Combo(label.c_str(), &i, items_of(names).c_str())) {
        // The parent object with the new value, less the siblings the new value hides: the scene never
        // holds a key its reader refuses for that choice.
        json next = parent;
        next[key] = names[static_cast<std::size_t>(i)];
        for (const scene::SettingSpec& o : settings) {
          if (scene::setting_parent(o) == parent_path && !shown(o, next, settings))
            next.erase(std::string(scene::setting_key(o)));
        }
        ctx.edit(json::json_pointer(ctx.pointer + "/" + std::string(parent_path)), std::move(next));
      }
    } else {
      double lo = s.view_min, hi = s.view_max;
      if (lo == 0.0 && hi == 0.0) {
        lo = s.min;
        hi = s.max;
      }
      if (!(std::abs(lo) < scene::kSettingUnbounded && std::abs(hi) < scene::kSettingUnbounded)) continue;
      bool automatic = false;
      if (fallback.is_null()) {
        // No constant default: "auto" leaves the key out and the reader computes it.
        automatic = !present;
        if (ImGui::Checkbox(("auto " + label).c_str(), &automatic)) {
          if (automatic) {
            ctx.erase(json::json_pointer(pointer));
          } else {
            ctx.edit(json::json_pointer(pointer),
                     s.view_log && lo > 0.0 ? std::sqrt(lo * hi) : 0.5 * (lo + hi));
          }
        }
        if (ImGui::IsItemHovered() && !s.otherwise.empty())
          ImGui::SetTooltip("auto: %s", std::string(s.otherwise).c_str());
      }
      if (!automatic) {
        const double current = present && it->is_number() ? it->get<double>()
                               : fallback.is_number()     ? fallback.get<double>()
                                                          : lo;
        double v = 0.0;
        const bool integer = s.type == T::integer;
        if (slider(label.c_str(), pointer, current, lo, hi, integer ? "%.0f" : "%.4g", s.view_log, v)) {
          if (integer) {
            ctx.edit(json::json_pointer(pointer), static_cast<long long>(std::llround(v)));
          } else {
            ctx.edit(json::json_pointer(pointer), v);
          }
        }
      }
    }
    if (ImGui::IsItemHovered() && !s.help.empty()) {
      if (s.unit.size() > kMaxLabelUnit) {
        ImGui::SetTooltip("%s (unit: %s)", std::string(s.help).c_str(), std::string(s.unit).c_str());
      } else {
        ImGui::SetTooltip("%s", std::string(s.help).c_str());
      }
    }
  }
}

void draw_body_panel(std::string_view family, const PanelContext& ctx) {
  if (const FamilyPanel panel = family_panel(family)) panel(ctx);
  settings_panel(ctx, scene::family_settings(family));
}

bool material_editor(const nlohmann::json& material, const std::string& pointer,
                     const MaterialEditorRange& range, nlohmann::json& next) {
  using nlohmann::json;
  const std::string preset = string_at(material, "preset", "");
  // The constants in force, read as the scene reader reads them (a value the reader refuses shows
  // the sliders at the fallback until it is fixed).
  Result<materials::Material> m = scene::material_from_json(material.dump());
  if (!m.ok()) m = materials::material_from_young_poisson(range.fallback_E, 0.3);
  const double E = m->youngs_modulus(), nu = m->poisson_ratio();
  const double density = number_at(material, "density", m->density);

  bool edited = false;
  const std::vector<std::string> presets = materials::material_preset_names();
  std::vector<std::string> items = {"custom (E, nu)"};
  items.insert(items.end(), presets.begin(), presets.end());
  int current = 0;
  for (std::size_t i = 0; i < presets.size(); ++i)
    if (presets[i] == preset) current = static_cast<int>(i) + 1;
  if (ImGui::Combo("material", &current, items_of(items).c_str())) {
    next = current == 0 ? json{{"E", E}, {"nu", nu}, {"density", density}}
                        : json{{"preset", presets[static_cast<std::size_t>(current - 1)]}};
    edited = true;
  }
  double v = 0;
  if (preset.empty()) {
    if (slider("E (Pa)", pointer + "/E", E, 1e2, range.max_E, "%.4g", true, v)) {
      next = {{"E", v}, {"nu", nu}, {"density", density}};
      edited = true;
    }
    if (slider("nu", pointer + "/nu", nu, -0.9, 0.49, "%.3f", false, v)) {
      next = {{"E", E}, {"nu", v}, {"density", density}};
      edited = true;
    }
  } else {
    ImGui::TextDisabled("E = %.4g Pa, nu = %.3f", E, nu);
  }
  if (range.density && slider("density (kg/m3)", pointer + "/density", density, 1.0, 3e4, "%.4g", true, v)) {
    next = material;
    next["density"] = v;
    edited = true;
  }
  return edited;
}

}  // namespace pliant::viewer
