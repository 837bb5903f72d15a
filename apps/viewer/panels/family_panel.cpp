#include "family_panel.hpp"

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

}  // namespace pliant::viewer
