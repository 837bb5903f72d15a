// The fem family's panel: material (preset or E, nu, density), element, Rayleigh damping, integrator
// and linear solver. The panel sees the scene JSON only (PanelContext), so the solver's per-step
// figures (iterations, residuals) reach the user as the body's "fem.solver" events and profile stages.
#include "family_panel.hpp"

#include <imgui.h>

#include <algorithm>

namespace pliant::viewer {

using nlohmann::json;

namespace {

// A combo over `names` bound to the string at `pointer`; true with `out` when the choice changes.
bool choice(const char* label, const std::vector<std::string>& names, const std::string& current,
            std::string& out) {
  int i = static_cast<int>(std::find(names.begin(), names.end(), current) - names.begin());
  if (i >= static_cast<int>(names.size())) i = 0;
  if (!ImGui::Combo(label, &i, items_of(names).c_str())) return false;
  out = names[static_cast<std::size_t>(i)];
  return true;
}

}  // namespace

void fem_panel(const PanelContext& ctx) {
  const json& body = ctx.body;
  const std::string& base = ctx.pointer;
  json material;
  if (material_editor(body.value("material", json::object()), base + "/material",
                      {.fallback_E = 1e5, .max_E = 1e10, .density = true}, material))
    ctx.edit(json::json_pointer(base + "/material"), std::move(material));

  const json s = body.value("fem", json::object());
  const std::string at = base + "/fem";
  const auto ptr = [&](const std::string& key) { return json::json_pointer(at + "/" + key); };
  std::string picked;
  if (choice("element", {"linear", "corotational", "stvk", "neo_hookean"},
             string_at(s, "element", "corotational"), picked))
    ctx.edit(ptr("element"), picked);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "linear inflates under large rotations; corotational does not; stvk and neo_hookean "
        "for large strain (give the solver several Newton iterations)");

  const json d = s.value("damping", json::object());
  double v = 0;
  if (slider("damping alpha (1/s)", at + "/damping/alpha", number_at(d, "alpha", 0.0), 0.0, 100.0, "%.4g",
             true, v))
    ctx.edit(ptr("damping/alpha"), v);
  if (slider("damping beta (s)", at + "/damping/beta", number_at(d, "beta", 0.0), 0.0, 0.1, "%.4g", true, v))
    ctx.edit(ptr("damping/beta"), v);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Rayleigh damping C = alpha M + beta K");

  if (choice("integrator",
             {"backward_euler", "newmark", "bdf2", "quasi_static", "symplectic_euler", "central_difference",
              "houbolt"},
             string_at(s, "integrator", "backward_euler"), picked))
    ctx.edit(ptr("integrator"), picked);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the explicit schemes take substeps below the estimated stable step");

  const json solver = s.value("solver", json::object());
  if (choice("solver", {"cholmod", "pcg", "rest_factor_pcg", "fast", "interface_pcg"},
             string_at(solver, "kind", "cholmod"), picked))
    ctx.edit(ptr("solver/kind"), picked);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "fast: CG capped at two iterations, preconditioned by the rest-shape factor (inexact); "
        "interface_pcg: hybrid bodies only, CG on the condensed interface");
  if (slider("Newton iterations", at + "/solver/newton_iterations",
             number_at(solver, "newton_iterations", 1.0), 1.0, 20.0, "%.0f", false, v))
    ctx.edit(ptr("solver/newton_iterations"), static_cast<int>(v + 0.5));
}

}  // namespace pliant::viewer
