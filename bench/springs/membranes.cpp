// `pliant bench membranes`: Grimm's (2005) Table 2.1 reproduced. Nine interaction methods pull the
// centre node of a 1403-node, 4066-spring, 2664-triangle membrane (rim fixed) by a fixed vector; each
// runs until the largest per-step node motion falls below 1e-3 × mesh size (and then 1e-4 ×). The
// dynamic methods share one set of explicit parameters (the stiffest grid point stable for all five);
// Provot's correction and Dragnet use factor 1. Plus one Dragnet pass timed against the thesis' 5.0 ms
// (as a ratio), the Dragnet and Provot factor sweeps on the 630-node membrane (Grimm 2005, Fig. 2.5 /
// Table D.1) and the tearing costs.
#include "bench.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/models/springs/dragnet.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/scenes.hpp"

#if __has_include("tearing_bench.hpp")
#include "tearing_bench.hpp"
#define PLIANT_HAS_TEARING_BENCH 1
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace pliant::bench {
namespace {

using namespace pliant::springs;

// Thesis figures (P4 2.8 GHz): steps, total ms, mean ms, max ms, in Table 2.1's order.
struct ThesisRow {
  int steps;
  double total_ms, mean_ms, max_ms;
};
constexpr double kTableMaxStretch = 1.2;  // string maximum length / rest length in Table 2.1's run

constexpr ThesisRow kThesis[9] = {{86, 188.5, 2.2, 2.3},   {149, 565.0, 3.8, 4.2}, {193, 335.6, 1.7, 1.8},
                                  {32, 139.6, 4.4, 4.5},   {1, 3.5, 3.5, 3.5},     {1, 5.0, 5.0, 5.0},
                                  {192, 1044.6, 5.4, 5.5}, {221, 843.8, 3.8, 4.0}, {75, 184.1, 2.5, 9.4}};

// Explicit parameters in dimensionless form for step h and node mass m: stiffness a = k h²/m,
// axial damping b = c / (k h), mass damping αh.
struct Dynamic {
  double a, b, alpha_h;
};

struct Candidate {
  MethodDef def;
  Dynamic dyn{0, 0, 0};
  SettleResult result;
  nlohmann::json parameters;
};

MembraneScene with_parameters(const MembraneScene& base, const Dynamic& d, double h) {
  MembraneScene s = base;
  const double m = s.mesh.mass[0];
  const double k = d.a * m / (h * h);
  set_spring_parameters(s.mesh, k, d.b * k * h);
  return s;
}

nlohmann::json dynamic_json(const MembraneScene& s, const Dynamic& d, double h) {
  const double m = s.mesh.mass[0];
  const double k = d.a * m / (h * h);
  return {{"dt_s", h},
          {"node_mass_kg", m},
          {"stiffness_N_per_m", k},
          {"damping_Ns_per_m", d.b * k * h},
          {"mass_damping_per_s", d.alpha_h / h},
          {"k_h2_over_m", d.a},
          {"c_over_k_h", d.b},
          {"alpha_h", d.alpha_h}};
}

// Table 2.1 compares the methods as published: Provot's correction with its own factor 1 (the
// over-correction factor is the thesis' extension, measured in the factor sweep below), Dragnet with
// f = 1, and the five dynamic methods with ONE set of explicit parameters, the stiffest of the grid
// (k h²/m, then the mass damping α h with the fewest steps in total) with which all five are stable
// and settle within the cap. Grimm (2005) chose "the free parameters so that the tissue is as stiff as
// possible while staying numerically stable"; sharing them keeps the comparison fair, since the
// combined methods are stable where plain mass-spring is not. `pliant bench membranes_sweep` shows
// the whole grid.
struct Common {
  Dynamic dyn{0, 0, 0};
  std::vector<SettleResult> results;  // per dynamic method, in all_methods order
  bool found = false;
};

Common common_parameters(const MembraneScene& base, bool quick, int cap) {
  const double h = 1e-3;
  const std::vector<double> stiffness =
      quick ? std::vector<double>{0.1} : std::vector<double>{0.4, 0.3, 0.2, 0.1, 0.05};
  const std::vector<double> mass_damping =
      quick ? std::vector<double>{1.0} : std::vector<double>{1.0, 0.8, 0.6, 0.3};
  Common best;
  for (double a : stiffness) {
    long best_total = -1;
    for (double alpha_h : mass_damping) {
      const Dynamic dyn{a, 0.3, alpha_h};
      const MembraneScene s = with_parameters(base, dyn, h);
      std::vector<SettleResult> rs;
      long total = 0;
      bool ok = true;
      for (Method m : all_methods) {
        if (!method_is_dynamic(m)) continue;
        const SettleResult r = settle(s, {.method = m, .dt = h, .mass_damping = alpha_h / h}, cap, false);
        ok = ok && r.stable && r.steps > 0;
        if (!ok) break;
        rs.push_back(r);
        total += r.steps;
      }
      if (ok && (best_total < 0 || total < best_total)) {
        best_total = total;
        best.dyn = dyn, best.results = rs, best.found = true;
      }
    }
    if (best.found) break;  // the stiffest k h²/m at which every dynamic method is stable
  }
  return best;
}

Candidate search(const MembraneScene& base, Method method, const Common& common, int cap) {
  const double h = 1e-3;
  Candidate best;
  best.def.method = method;
  const double max_stretch = base.mesh.max_length[0] / base.mesh.rest_length[0];
  switch (method) {
    case Method::dragnet:
      best.parameters = {{"dragnet_factor", 1.0}, {"max_stretch", max_stretch}};
      break;
    case Method::provot:
      best.parameters = {{"provot_factor", 1.0}, {"max_stretch", max_stretch}};
      break;
    case Method::wagner:
      best.parameters = {{"max_stretch", max_stretch}};
      break;
    case Method::enhanced_chainmail:
      best.parameters = {{"per_axis_slack", "max_length - rest_length"}, {"max_stretch", max_stretch}};
      break;
    default: {
      best.dyn = common.dyn;
      best.def = {.method = method, .dt = h, .mass_damping = common.dyn.alpha_h / h};
      const MembraneScene s = with_parameters(base, common.dyn, h);
      best.parameters = dynamic_json(s, common.dyn, h);
      if (method != Method::mass_spring && method != Method::interaction_ordered) {
        best.parameters["max_stretch"] = max_stretch;
        best.parameters["correction_coupling"] = "positions";
      }
      if (method == Method::lr_mass_spring || method == Method::length_correction_mass_spring)
        best.parameters["provot_factor"] = 1.0;
      if (method == Method::dragnet_mass_spring) best.parameters["dragnet_factor"] = 1.0;
      return best;
    }
  }
  best.result = settle(base, best.def, cap, false);
  return best;
}

nlohmann::json run_membranes(const Context& context) {
  const bool quick = context.quick;
  nlohmann::json out;
  // The Table 2.1 membrane with the strings' maximum length at 1.2 rest lengths (see docs/benchmarks.md:
  // with 1.1 the Dragnet-coupled method fights the elastic equilibrium, whose strain near the pulled
  // node exceeds 10 %, and settles after plain mass-spring at every stable grid point).
  MembraneSceneDef table_def = quick ? small_membrane_def() : table21_membrane_def();
  table_def.springs.max_stretch = kTableMaxStretch;
  auto big = membrane_scene(table_def);
  auto pass_scene = membrane_scene(quick ? small_membrane_def() : table21_membrane_def());
  auto small = membrane_scene(small_membrane_def());
  if (!big || !small || !pass_scene) {
    std::fprintf(stderr, "membranes: %s\n", (!big ? big.message() : small.message()).c_str());
    return {{"error", !big ? big.message() : small.message()}};
  }
  const int cap = quick ? 1500 : 4000;
  fmt::print(
      "membrane: {} nodes, {} springs, {} triangles, mesh size {:.3f} mm, pull {:.1f} mm out of plane, "
      "string max length {} x rest length\n",
      big->mesh.node_count(), big->mesh.spring_count(), big->mesh.triangle_count(), big->mesh_size * 1e3,
      (big->target - big->mesh.rest_position[static_cast<std::size_t>(big->interaction_node)]).norm() * 1e3,
      kTableMaxStretch);
  fmt::print("{:<31} {:>6} {:>9} {:>8} {:>8} {:>8} | thesis {:>5} {:>8} {:>5} {:>5}\n", "method", "steps",
             "total ms", "mean ms", "max ms", "to 1e-4", "steps", "total", "mean", "max");
  nlohmann::json table = nlohmann::json::array();
  const Common common = common_parameters(*big, quick, cap);
  if (!common.found) fmt::print("no grid point is stable for all five dynamic methods\n");
  for (std::size_t i = 0; i < all_methods.size(); ++i) {
    const Method method = all_methods[i];
    Candidate c = search(*big, method, common, cap);
    // Timed run with the chosen parameters, continuing to 1e-4.
    MembraneScene s = method_is_dynamic(method) ? with_parameters(*big, c.dyn, c.def.dt) : *big;
    const SettleResult r = settle(s, c.def, quick ? cap : 3 * cap, true);
    const ThesisRow& t = kThesis[i];
    fmt::print("{:<31} {:>6} {:>9.2f} {:>8.3f} {:>8.3f} {:>8} | {:>12} {:>8.1f} {:>5.1f} {:>5.1f}\n",
               method_name(method), r.steps, r.total_ms, r.mean_ms, r.max_ms, r.steps_1e4, t.steps,
               t.total_ms, t.mean_ms, t.max_ms);
    table.push_back(
        {{"method", method_name(method)},
         {"steps", r.steps},
         {"total_ms", r.total_ms},
         {"mean_ms", r.mean_ms},
         {"max_ms", r.max_ms},
         {"steps_1e4", r.steps_1e4},
         {"stable", r.stable},
         {"parameters", c.parameters},
         {"thesis",
          {{"steps", t.steps}, {"total_ms", t.total_ms}, {"mean_ms", t.mean_ms}, {"max_ms", t.max_ms}}}});
  }
  out["table21"] = table;
  out["mesh"] = {{"nodes", big->mesh.node_count()},
                 {"springs", big->mesh.spring_count()},
                 {"triangles", big->mesh.triangle_count()},
                 {"mesh_size_m", big->mesh_size},
                 {"max_stretch", kTableMaxStretch}};

  // One full Dragnet pass on the Table 2.1 pull (the thesis: 5.0 ms on a P4 2.8 GHz).
  {
    const int reps = quick ? 20 : 200;
    Dragnet dragnet;
    const Index nodes[1] = {pass_scene->interaction_node};
    SpringMesh m = pass_scene->mesh;
    std::vector<double> times;
    DragnetStats stats;
    for (int r = 0; r < reps; ++r) {
      m.position = pass_scene->mesh.position;  // same-size copy: no allocation
      Stopwatch w;
      stats = dragnet.pass(m, nodes);
      times.push_back(w.ms());
    }
    std::sort(times.begin(), times.end());
    const double best = times.front(), median = times[times.size() / 2];
    double sum = 0.0;
    for (double t : times) sum += t;
    // Against the thesis' 5.0 ms as a ratio: the minimum over repetitions is what the pass costs when
    // nothing interrupts it, so the comparison does not depend on a quiet machine; the median shows
    // what a busy one gives.
    constexpr double kThesisPassMs = 5.0;
    fmt::print(
        "dragnet pass (first, largest: {} strings queued, {} corrected): min {:.3f} ms, median {:.3f} ms, "
        "mean {:.3f} ms; thesis 5.0 ms (P4 2.8 GHz): {:.4f} of it at the minimum ({:.0f}x faster), "
        "{:.4f} at the median ({:.0f}x)\n",
        stats.queued, stats.corrected, best, median, sum / reps, best / kThesisPassMs, kThesisPassMs / best,
        median / kThesisPassMs, kThesisPassMs / median);
    out["dragnet_pass_ms"] = {{"min", best},
                              {"median", median},
                              {"mean", sum / reps},
                              {"thesis", kThesisPassMs},
                              {"ratio_min_to_thesis", best / kThesisPassMs},
                              {"ratio_median_to_thesis", median / kThesisPassMs},
                              {"queued", stats.queued},
                              {"corrected", stats.corrected}};
  }

  // Factor sweeps on the 630-node membrane: steps until static (1e-4 × mesh size).
  nlohmann::json dsweep = nlohmann::json::array(), psweep = nlohmann::json::array();
  fmt::print("factor sweep (630 nodes, steps to 1e-4 / 1e-3 x mesh size):\n{:>6} {:>14} {:>14}\n", "factor",
             "dragnet", "provot");
  const int sweep_cap = quick ? 1000 : 5000;
  bool provot_stable = true;
  for (int i = 1; i <= (quick ? 3 : 22); ++i) {
    const double f = 0.1 * i;
    std::string dcol = "-", pcol = "-";
    if (f <= 1.0 + 1e-9) {
      const SettleResult d =
          settle(*small, {.method = Method::dragnet, .dragnet_factor = f}, sweep_cap, true);
      dsweep.push_back({{"factor", f}, {"steps_1e4", d.steps_1e4}, {"steps", d.steps}, {"stable", d.stable}});
      dcol = fmt::format("{}/{}", d.steps_1e4, d.steps);
    }
    if (provot_stable) {
      const SettleResult p = settle(*small, {.method = Method::provot, .provot_factor = f}, sweep_cap, true);
      provot_stable = p.stable && p.steps_1e4 > 0;
      psweep.push_back(
          {{"factor", f}, {"steps_1e4", p.steps_1e4}, {"steps", p.steps}, {"stable", provot_stable}});
      pcol = fmt::format("{}/{}", p.steps_1e4, p.steps);
    }
    fmt::print("{:>6.1f} {:>14} {:>14}\n", f, dcol, pcol);
  }
  out["dragnet_sweep"] = dsweep;
  out["provot_sweep"] = psweep;

  nlohmann::json tearing = nlohmann::json::array();
#ifdef PLIANT_HAS_TEARING_BENCH
  const nlohmann::json t = tearing_benchmark(context);
  if (t.contains("rows"))
    for (const auto& row : t["rows"]) {
      nlohmann::json r = row;
      tearing.push_back(r);
    }
  out["tearing_details"] = t;
#endif
  out["tearing"] = tearing;
  out["caveat"] =
      "explicit parameters searched on a grid (see each row's parameters); timings on a shared machine";
  return out;
}

}  // namespace

PLIANT_REGISTER_BENCH("membranes", "Grimm 2005 Table 2.1: nine interaction methods on a pulled membrane",
                      run_membranes);

}  // namespace pliant::bench
