#include "family_panel.hpp"

#include "pliant/materials/material.hpp"
#include "pliant/scene/material_json.hpp"

#include <imgui.h>

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
