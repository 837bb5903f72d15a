// The green family's panel: material (preset or E, nu), density, rotation correction.
#include "family_panel.hpp"

#include "pliant/materials/material.hpp"
#include "pliant/models/green/green_body.hpp"
#include "pliant/scene/material_json.hpp"

#include <imgui.h>

namespace pliant::viewer {

using nlohmann::json;

void green_panel(const PanelContext& ctx) {
  const json& body = ctx.body;
  const std::string& base = ctx.pointer;
  const json material = body.value("material", json::object());
  const std::string preset = string_at(material, "preset", "");
  // The constants in force, read as the scene reader reads them (a value the reader refuses shows
  // the sliders at a neutral 1 MPa, 0.3 until it is fixed).
  Result<materials::Material> m = scene::material_from_json(material.dump());
  if (!m.ok()) m = materials::material_from_young_poisson(1e6, 0.3);
  const double E = m->youngs_modulus(), nu = m->poisson_ratio();
  const double density = number_at(material, "density", m->density);
  // Any edit drops the body's "cache" key: experiments in the viewer must not overwrite the scene's
  // precomputed asset file.
  const auto set_material = [&](json value) {
    json next = body;
    if (next.contains("green") && next["green"].is_object()) next["green"].erase("cache");
    next["material"] = std::move(value);
    ctx.edit(json::json_pointer(base), std::move(next));
  };

  const std::vector<std::string> presets = materials::material_preset_names();
  std::vector<std::string> items = {"custom (E, nu)"};
  items.insert(items.end(), presets.begin(), presets.end());
  int current = 0;
  for (std::size_t i = 0; i < presets.size(); ++i)
    if (presets[i] == preset) current = static_cast<int>(i) + 1;
  if (ImGui::Combo("material", &current, items_of(items).c_str())) {
    if (current == 0) {
      set_material({{"E", E}, {"nu", nu}, {"density", density}});
    } else {
      set_material({{"preset", presets[static_cast<std::size_t>(current - 1)]}});
    }
  }
  double v = 0;
  if (preset.empty()) {
    if (slider("E (Pa)", base + "/material/E", E, 1e2, 1e12, "%.4g", true, v))
      set_material({{"E", v}, {"nu", nu}, {"density", density}});
    if (slider("nu", base + "/material/nu", nu, -0.9, 0.49, "%.3f", false, v))
      set_material({{"E", E}, {"nu", v}, {"density", density}});
  } else {
    ImGui::TextDisabled("E = %.4g Pa, nu = %.3f", E, nu);
  }
  if (slider("density (kg/m3)", base + "/material/density", density, 1.0, 3e4, "%.4g", true, v)) {
    json next = material;
    next["density"] = v;
    set_material(std::move(next));
  }
  const json green = body.value("green", json::object());
  bool rotation = green.is_object()
                      ? green.value("rotation_correction", green::GreenDef{}.rotation_correction)
                      : green::GreenDef{}.rotation_correction;
  if (ImGui::Checkbox("rotation correction", &rotation))
    ctx.edit(json::json_pointer(base + "/green/rotation_correction"), rotation);
}

}  // namespace pliant::viewer
