// The fem family's panel: what is not a setting, the material editor (preset or E, nu, density). The
// settings (element, damping, integrator, solver...) are drawn from the family's settings table
// (settings_panel). The panel sees the scene JSON only (PanelContext), so the solver's per-step figures
// (iterations, residuals) reach the user as the body's "fem.solver" events and profile stages.
#include "family_panel.hpp"

namespace pliant::viewer {

using nlohmann::json;

void fem_panel(const PanelContext& ctx) {
  json material;
  if (material_editor(ctx.body.value("material", json::object()), ctx.pointer + "/material",
                      {.fallback_E = 1e5, .max_E = 1e10, .density = true}, material))
    ctx.edit(json::json_pointer(ctx.pointer + "/material"), std::move(material));
}

}  // namespace pliant::viewer
