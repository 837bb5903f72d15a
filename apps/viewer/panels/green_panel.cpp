// The green family's panel: what is not a setting, the material editor (preset or E, nu, density).
// The settings (rotation correction) are drawn from the family's settings table (settings_panel).
#include "family_panel.hpp"

namespace pliant::viewer {

using nlohmann::json;

void green_panel(const PanelContext& ctx) {
  const json& body = ctx.body;
  const std::string& base = ctx.pointer;
  // Any edit drops the body's "cache" key: experiments in the viewer must not overwrite the scene's
  // precomputed asset file.
  json material;
  if (material_editor(body.value("material", json::object()), base + "/material", {}, material)) {
    json next = body;
    if (next.contains("green") && next["green"].is_object()) next["green"].erase("cache");
    next["material"] = std::move(material);
    ctx.edit(json::json_pointer(base), std::move(next));
  }
}

}  // namespace pliant::viewer
