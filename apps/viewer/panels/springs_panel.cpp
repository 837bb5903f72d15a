// The springs family's panel: method, Dragnet, tearing mode, stiffness, damping, masses, the
// integrator step and the correction factors.
#include "family_panel.hpp"

#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/tearing.hpp"

#include <imgui.h>

#include <algorithm>

namespace pliant::viewer {

using nlohmann::json;

namespace {

bool is_dragnet(springs::Method m) {
  return m == springs::Method::dragnet || m == springs::Method::dragnet_mass_spring;
}

bool uses_provot(springs::Method m) {
  return m == springs::Method::provot || m == springs::Method::lr_mass_spring ||
         m == springs::Method::length_correction_mass_spring;
}

}  // namespace

void springs_panel(const PanelContext& ctx) {
  const std::string base = ctx.pointer + "/springs";
  const json s = ctx.body.value("springs", json::object());
  const springs::SpringMeshDef mesh_defaults;
  const springs::MethodDef method_defaults;
  const springs::TearingDef tear_defaults;
  const auto at = [&](const std::string& key) { return json::json_pointer(base + "/" + key); };

  std::vector<std::string> names;
  for (springs::Method m : springs::all_methods) names.emplace_back(springs::method_name(m));
  const std::string method_text = string_at(s, "method", "dragnet_mass_spring");
  const springs::Method method =
      springs::method_from_name(method_text).value_or(springs::Method::dragnet_mass_spring);
  int current = static_cast<int>(
      std::find(names.begin(), names.end(), std::string(springs::method_name(method))) - names.begin());
  if (ImGui::Combo("method", &current, items_of(names).c_str()))
    ctx.edit(at("method"), names[static_cast<std::size_t>(current)]);
  // Dragnet on/off: the explicit mass-spring integrator with or without Grimm's Dragnet correction.
  bool dragnet = is_dragnet(method);
  if (ImGui::Checkbox("Dragnet", &dragnet))
    ctx.edit(at("method"), dragnet ? "dragnet_mass_spring" : "mass_spring");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("dragnet_mass_spring when on, mass_spring when off");

  const json tearing = s.value("tearing", json::object());
  const std::vector<std::string> modes = {"off", "area_preserving", "deletion"};
  const std::string mode = string_at(tearing, "mode", "off");
  int mode_index = static_cast<int>(std::find(modes.begin(), modes.end(), mode) - modes.begin());
  if (mode_index >= static_cast<int>(modes.size())) mode_index = 0;
  if (ImGui::Combo("tearing", &mode_index, items_of(modes).c_str()))
    ctx.edit(at("tearing/mode"), modes[static_cast<std::size_t>(mode_index)]);

  double v = 0;
  if (springs::method_is_dynamic(method)) {
    if (slider("stiffness (N/m)", base + "/stiffness", number_at(s, "stiffness", mesh_defaults.stiffness),
               0.1, 1e6, "%.4g", true, v))
      ctx.edit(at("stiffness"), v);
    if (slider("damping (N s/m)", base + "/damping", number_at(s, "damping", mesh_defaults.damping), 0.0,
               100.0, "%.4g", true, v))
      ctx.edit(at("damping"), v);
    if (slider("mass density", base + "/mass_density",
               number_at(s, "mass_density", mesh_defaults.mass_density), 1e-4, 1e4, "%.4g", true, v))
      ctx.edit(at("mass_density"), v);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("kg/m2 for membranes, kg/m3 for volume meshes");
    if (slider("mass damping (1/s)", base + "/mass_damping", number_at(s, "mass_damping", 0.0), 0.0, 1e4,
               "%.4g", true, v))
      ctx.edit(at("mass_damping"), v);
    // The explicit-Euler substep: without "dt" the scene picks a stable one from the mesh; a "dt"
    // above the stability limit is refused by the rebuild (its message says why).
    bool auto_dt = !s.contains("dt");
    if (ImGui::Checkbox("stable integrator step", &auto_dt)) {
      if (auto_dt) {
        ctx.erase(at("dt"));
      } else {
        ctx.edit(at("dt"), method_defaults.dt);
      }
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("explicit Euler substep chosen from stiffness, masses and damping");
    if (!auto_dt && slider("integrator dt (s)", base + "/dt", number_at(s, "dt", method_defaults.dt), 1e-6,
                           1e-1, "%.3g", true, v))
      ctx.edit(at("dt"), v);
  }
  if (slider("max stretch", base + "/max_stretch", number_at(s, "max_stretch", mesh_defaults.max_stretch),
             1.0, 3.0, "%.3f", false, v))
    ctx.edit(at("max_stretch"), v);
  if (is_dragnet(method) &&
      slider("Dragnet factor", base + "/dragnet_factor",
             number_at(s, "dragnet_factor", method_defaults.dragnet_factor), 0.01, 1.0, "%.3f", false, v))
    ctx.edit(at("dragnet_factor"), v);
  if (uses_provot(method) &&
      slider("Provot factor", base + "/provot_factor",
             number_at(s, "provot_factor", method_defaults.provot_factor), 0.01, 2.0, "%.3f", false, v))
    ctx.edit(at("provot_factor"), v);
  if (mode != "off") {
    if (slider("seed threshold (N)", base + "/tearing/seed_threshold",
               number_at(tearing, "seed_threshold", tear_defaults.seed_threshold), 1e-4, 1e4, "%.4g", true,
               v))
      ctx.edit(at("tearing/seed_threshold"), v);
    if (slider("edge threshold (N)", base + "/tearing/edge_threshold",
               number_at(tearing, "edge_threshold", tear_defaults.edge_threshold), 1e-4, 1e4, "%.4g", true,
               v))
      ctx.edit(at("tearing/edge_threshold"), v);
    if (slider("inner threshold (N)", base + "/tearing/inner_threshold",
               number_at(tearing, "inner_threshold", tear_defaults.inner_threshold), 1e-4, 1e4, "%.4g", true,
               v))
      ctx.edit(at("tearing/inner_threshold"), v);
  }
}

}  // namespace pliant::viewer
