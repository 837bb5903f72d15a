// The meshless family's panel: what is not a setting, the material editor (preset or E, nu; the
// phyxels' density is the material's). The settings (spacing, sampling, support, integrator...) are
// drawn from the family's settings table (settings_panel); the phyxels themselves by the viewer's
// "show" option (interior points).
#include "family_panel.hpp"

namespace pliant::viewer {

using nlohmann::json;

void meshless_panel(const PanelContext& ctx) {
  json material;
  if (material_editor(ctx.body.value("material", json::object()), ctx.pointer + "/material",
                      {.fallback_E = 2e4, .max_E = 1e9, .density = false}, material))
    ctx.edit(json::json_pointer(ctx.pointer + "/material"), std::move(material));
}

}  // namespace pliant::viewer
