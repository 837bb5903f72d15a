// The meshless family's panel: material (preset or E, nu, density), phyxel spacing, sampling and support,
// volume stiffness, strain measure, integrator and mass damping. The phyxels themselves are drawn by the
// viewer's "show" option (interior points).
#include "family_panel.hpp"

#include "pliant/dynamics/integrator.hpp"
#include "pliant/models/meshless/mls_body.hpp"

#include <imgui.h>

#include <algorithm>

namespace pliant::viewer {

using nlohmann::json;

void meshless_panel(const PanelContext& ctx) {
  const json& body = ctx.body;
  const std::string& base = ctx.pointer;
  json material;
  if (material_editor(body.value("material", json::object()), base + "/material",
                      {.fallback_E = 2e4, .max_E = 1e9, .density = false}, material))
    ctx.edit(json::json_pointer(base + "/material"), std::move(material));
  double v = 0;

  const json s = body.value("meshless", json::object());
  const std::string at = base + "/meshless";
  const auto ptr = [&](const char* key) { return json::json_pointer(at + "/" + key); };
  if (slider("spacing (m)", at + "/spacing", number_at(s, "spacing", 0.01), 1e-3, 0.1, "%.4g", true, v))
    ctx.edit(ptr("spacing"), v);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("phyxel lattice spacing: finer is slower (more phyxels, smaller step)");
  const std::vector<std::string> samplings = {"lattice", "poisson"};
  int sampling = string_at(s, "sampling", "lattice") == "poisson" ? 1 : 0;
  if (ImGui::Combo("sampling", &sampling, items_of(samplings).c_str())) {
    json settings = s;
    settings["sampling"] = samplings[static_cast<std::size_t>(sampling)];
    if (sampling == 1) settings.erase("jitter");  // jitter is for the lattice only
    if (sampling == 0) settings.erase("margin");  // margin is for Poisson-disk only
    ctx.edit(json::json_pointer(at), std::move(settings));
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "lattice: cell centres at the spacing; poisson: Poisson-disk points (Bridson 2007) at "
        "least 0.84 spacings apart, about as many. Show the phyxels with show > interior points");
  if (slider("support (x spacing)", at + "/support",
             number_at(s, "support", meshless::MlsDef{}.support_factor), 1.5, 4.0, "%.2f", false, v))
    ctx.edit(ptr("support"), v);
  if (slider("volume stiffness (Pa)", at + "/volume_stiffness", number_at(s, "volume_stiffness", 0.0), 0.0,
             1e7, "%.4g", true, v))
    ctx.edit(ptr("volume_stiffness"), v);
  if (slider("mass damping (1/s)", at + "/mass_damping", number_at(s, "mass_damping", 0.0), 0.0, 1e3, "%.4g",
             true, v))
    ctx.edit(ptr("mass_damping"), v);

  const std::vector<std::string> strains = {"green", "linear"};
  int strain = string_at(s, "strain", "green") == "linear" ? 1 : 0;
  if (ImGui::Combo("strain", &strain, items_of(strains).c_str()))
    ctx.edit(ptr("strain"), strains[static_cast<std::size_t>(strain)]);

  const std::vector<std::string> schemes = {"symplectic_euler", "backward_euler", "central_difference",
                                            "rk4"};
  const std::string scheme = string_at(s, "integrator", "symplectic_euler");
  int si = static_cast<int>(std::find(schemes.begin(), schemes.end(), scheme) - schemes.begin());
  if (si >= static_cast<int>(schemes.size())) si = 0;
  if (ImGui::Combo("integrator", &si, items_of(schemes).c_str()))
    ctx.edit(ptr("integrator"), schemes[static_cast<std::size_t>(si)]);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("backward_euler linearises about the rest state (exact for small deformation)");
}

}  // namespace pliant::viewer
