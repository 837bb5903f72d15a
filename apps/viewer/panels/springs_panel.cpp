// The springs family's panel: what is not a setting, the Dragnet switch (a shortcut between two
// values of "method"). The settings (method, stiffness, damping, masses, the integrator step, the
// correction factors, tearing) are drawn from the family's settings table (settings_panel), each shown
// only for the methods it applies to.
#include "family_panel.hpp"

#include "pliant/models/springs/methods.hpp"

#include <imgui.h>

namespace pliant::viewer {

using nlohmann::json;

void springs_panel(const PanelContext& ctx) {
  const json s = ctx.body.value("springs", json::object());
  const springs::Method method = springs::method_from_name(string_at(s, "method", "dragnet_mass_spring"))
                                     .value_or(springs::Method::dragnet_mass_spring);
  // Dragnet on/off: the explicit mass-spring integrator with or without Grimm's Dragnet correction.
  bool dragnet = method == springs::Method::dragnet || method == springs::Method::dragnet_mass_spring;
  if (ImGui::Checkbox("Dragnet", &dragnet))
    ctx.edit(json::json_pointer(ctx.pointer + "/springs/method"),
             dragnet ? "dragnet_mass_spring" : "mass_spring");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("dragnet_mass_spring when on, mass_spring when off");
}

}  // namespace pliant::viewer
