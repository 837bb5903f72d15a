// The impact family's panel: query structure, resistance, falloff radius, hardness and minimum force
// of the target material (Milanović's parameters).
#include "family_panel.hpp"

#include "pliant/models/impact/material.hpp"
#include "pliant/scene/impact_scene_body.hpp"

#include <imgui.h>

#include <algorithm>

namespace pliant::viewer {

using nlohmann::json;

void impact_panel(const PanelContext& ctx) {
  const std::string base = ctx.pointer + "/impact";
  const json s = ctx.body.value("impact", json::object());
  const impact::ImpactMaterial defaults;
  const scene::ImpactBodyDef body_defaults;
  const auto at = [&](const std::string& key) { return json::json_pointer(base + "/" + key); };

  const std::vector<std::string> methods = {"bvh_grid", "octree", "brute_force"};
  const std::string method = string_at(s, "method", "bvh_grid");
  int current = static_cast<int>(std::find(methods.begin(), methods.end(), method) - methods.begin());
  if (current >= static_cast<int>(methods.size())) current = 0;
  if (ImGui::Combo("method", &current, items_of(methods).c_str()))
    ctx.edit(at("method"), methods[static_cast<std::size_t>(current)]);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("query structure: same dents, different speed");

  double v = 0;
  if (slider("resistance R", base + "/resistance", number_at(s, "resistance", defaults.resistance), 0.0, 1.0,
             "%.3f", false, v))
    ctx.edit(at("resistance"), v);
  if (slider("falloff radius (m)", base + "/falloff_radius",
             number_at(s, "falloff_radius", defaults.falloff_radius), 1e-4, 1.0, "%.4g", true, v))
    ctx.edit(at("falloff_radius"), v);
  if (slider("hardness r", base + "/hardness", number_at(s, "hardness", defaults.hardness), 0.1, 20.0, "%.3g",
             true, v))
    ctx.edit(at("hardness"), v);
  if (slider("min force (N)", base + "/min_force", number_at(s, "min_force", defaults.min_force), 0.0, 1e4,
             "%.4g", false, v))
    ctx.edit(at("min_force"), v);
  if (slider("projectile deceleration (m/s2)", base + "/projectile_deceleration",
             number_at(s, "projectile_deceleration", body_defaults.projectile_deceleration), 0.1, 1e4, "%.4g",
             true, v))
    ctx.edit(at("projectile_deceleration"), v);
}

}  // namespace pliant::viewer
