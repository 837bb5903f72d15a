// `pliant bench membranes_sweep`: why the dynamic rows of Grimm's (2005) Table 2.1 rank as they do.
// On the Table 2.1 membrane (1403 nodes, centre node pulled out of plane) it counts the steps until
// the largest per-step node motion falls below 1e-3 × mesh size for the five dynamic methods over a
// grid of explicit parameters (stiffness k h²/m, mass damping α h) and for both ways a combined
// method can couple its position correction to the dynamics (positions only, as the thesis
// describes, or also velocities by Δ/h) and both places of the correction in the step (after or
// before the integration). "unst" marks a run that blew up, "-" one that did not settle in the cap.
#include "bench.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/scenes.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

namespace pliant::bench {
namespace {

using namespace pliant::springs;

struct Variant {
  const char* name;
  CorrectionCoupling coupling;
  CorrectionOrder order;
};

constexpr Variant kVariants[] = {
    {"positions, after", CorrectionCoupling::positions, CorrectionOrder::after_integration},
    {"positions, before", CorrectionCoupling::positions, CorrectionOrder::before_integration},
    {"velocities, after", CorrectionCoupling::velocities, CorrectionOrder::after_integration},
};

constexpr Method kDynamic[] = {Method::mass_spring, Method::interaction_ordered, Method::lr_mass_spring,
                               Method::length_correction_mass_spring, Method::dragnet_mass_spring};

std::string cell(const SettleResult& r) {
  if (!r.stable) return "unst";
  if (r.steps < 0) return "-";
  return std::to_string(r.steps);
}

nlohmann::json run_sweep(const Context& context) {
  const bool quick = context.quick;
  auto base = membrane_scene(quick ? small_membrane_def() : table21_membrane_def());
  if (!base) {
    std::fprintf(stderr, "membranes_sweep: %s\n", base.message().c_str());
    return {{"error", base.message()}};
  }
  const double h = 1e-3, mass = base->mesh.mass[0];
  const int cap = quick ? 800 : 1500;
  const std::vector<double> stiffness =
      quick ? std::vector<double>{0.1} : std::vector<double>{0.4, 0.2, 0.1, 0.05};
  const std::vector<double> damping = quick ? std::vector<double>{1.0} : std::vector<double>{0.6, 1.0};
  const std::vector<double> stretches = quick ? std::vector<double>{1.2} : std::vector<double>{1.1, 1.2};
  fmt::print("membrane: {} nodes, {} springs; steps to 1e-3 x mesh size (cap {}), c h/(k h) = 0.3\n",
             base->mesh.node_count(), base->mesh.spring_count(), cap);
  fmt::print("{:>4} {:>7} {:>6} {:<19} {:>7} {:>7} {:>7} {:>7} {:>7}\n", "max", "k h2/m", "a h",
             "coupling, order", "ms", "io", "lr", "lcms", "dms");
  nlohmann::json rows = nlohmann::json::array();
  for (double stretch : stretches)
    for (double a : stiffness) {
      for (double alpha_h : damping) {
        MembraneScene s = *base;
        const double k = a * mass / (h * h);
        set_spring_parameters(s.mesh, k, 0.3 * k * h);
        for (std::size_t i = 0; i < s.mesh.max_length.size(); ++i)
          s.mesh.max_length[i] = stretch * s.mesh.rest_length[i];
        for (const Variant& v : kVariants) {
          std::string line = fmt::format("{:>4.1f} {:>7.2f} {:>6.2f} {:<19}", stretch, a, alpha_h, v.name);
          nlohmann::json row = {
              {"max_stretch", stretch}, {"k_h2_over_m", a}, {"alpha_h", alpha_h}, {"variant", v.name}};
          for (Method m : kDynamic) {
            // The plain methods have no correction: one run serves every variant.
            const bool plain = m == Method::mass_spring || m == Method::interaction_ordered;
            if (plain && &v != &kVariants[0]) {
              line += fmt::format(" {:>7}", "=");
              continue;
            }
            const MethodDef def{.method = m,
                                .dt = h,
                                .mass_damping = alpha_h / h,
                                .provot_factor = 1.0,
                                .dragnet_factor = 1.0,
                                .coupling = v.coupling,
                                .order = v.order};
            const SettleResult r = settle(s, def, cap, false);
            line += fmt::format(" {:>7}", cell(r));
            row[std::string(method_name(m))] = {{"steps", r.steps}, {"stable", r.stable}};
          }
          fmt::print("{}\n", line);
          rows.push_back(row);
        }
      }
    }
  return {{"rows", rows},
          {"mesh", {{"nodes", base->mesh.node_count()}, {"springs", base->mesh.spring_count()}}},
          {"cap", cap}};
}

}  // namespace

PLIANT_REGISTER_BENCH("membranes_sweep",
                      "Grimm 2005 Table 2.1: dynamic methods over stiffness, damping and correction coupling",
                      run_sweep);

}  // namespace pliant::bench
