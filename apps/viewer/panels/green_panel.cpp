// The green family's panel: material (preset or E, nu), density, rotation correction.
#include "family_panel.hpp"

#include "pliant/models/green/green_body.hpp"

#include <imgui.h>

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
  const json green = body.value("green", json::object());
  bool rotation = green.is_object()
                      ? green.value("rotation_correction", green::GreenDef{}.rotation_correction)
                      : green::GreenDef{}.rotation_correction;
  if (ImGui::Checkbox("rotation correction", &rotation))
    ctx.edit(json::json_pointer(base + "/green/rotation_correction"), rotation);
}

}  // namespace pliant::viewer
