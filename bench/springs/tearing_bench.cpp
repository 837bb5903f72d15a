// Tearing cost per step: deletion tearing vs area-preserving tearing on hexagonal discs of growing
// size (Grimm 2005, section 3.3.4, figure 3.9). Each measured step tears:
//  - area-preserving: a membrane stretched 10 % across the x axis with a hole at the centre; crack
//    seeds have the lowest threshold, so every step propagates the crack one node (and finally tears
//    through the rim). The disc is restored from a copy (not timed) when the crack has run out.
//  - deletion: the same stretched membrane with the centre node pulled out of the plane so that its
//    springs exceed their maximum length; one step deletes them, their triangles, and compacts.
// A step always recomputes every spring length (both methods), so both grow linearly with the mesh;
// deletion pays an O(mesh) compaction when it deletes, area-preserving an O(#nodes) scan for the
// largest overshoot.
#include "springs/tearing_bench.hpp"

#include "pliant/core/timing.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/models/springs/tearing.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <vector>

namespace pliant::bench {
namespace {

using springs::SpringMesh;

inline std::size_t u(Index i) { return static_cast<std::size_t>(i); }

Index nearest_to_origin(const SpringMesh& m) {
  Index best = 0;
  for (Index i = 1; i < m.node_count(); ++i)
    if (m.rest_position[u(i)].norm() < m.rest_position[u(best)].norm()) best = i;
  return best;
}

}  // namespace

nlohmann::json tearing_benchmark(const Context& context) {
  const std::vector<Index> rings =
      context.quick ? std::vector<Index>{5, 9} : std::vector<Index>{5, 9, 15, 21, 27, 33, 43, 53};
  const int target_steps = context.quick ? 50 : 2000;
  nlohmann::json rows = nlohmann::json::array();
  fmt::print("{:>6} {:>7} {:>8} {:>6} {:>14} {:>14} {:>12} {:>12}\n", "rings", "nodes", "springs", "tris",
             "deletion_us", "area_pres_us", "del_idle_us", "ap_idle_us");
  for (Index n : rings) {
    auto tri = meshing::hex_disc({.radius = 0.05, .rings = n});
    if (!tri) return {{"error", tri.message()}};
    auto built =
        springs::build_spring_mesh(*tri, {.stiffness = 100.0, .node_mass = 1e-3, .max_stretch = 1.1});
    if (!built) return {{"error", built.message()}};
    SpringMesh base = std::move(built).value();
    for (auto& p : base.position) p.y() *= 1.1;
    const Index centre = nearest_to_origin(base);
    const double edge = 0.05 / static_cast<double>(n);

    // Area-preserving: a hole, then crack propagation along x.
    springs::Tearing ap({.seed_threshold = 1e-3, .edge_threshold = 1e3, .inner_threshold = 1e3});
    SpringMesh holed = base;
    ap.tear_node(holed, centre);
    double ap_total = 0.0;
    int ap_steps = 0;
    while (ap_steps < target_steps) {
      SpringMesh m = holed;
      for (;;) {
        const Stopwatch clock;
        const int events = ap.step(m);
        const double s = clock.seconds();
        if (events == 0) break;
        ap_total += s;
        ++ap_steps;
      }
    }
    // Idle step: thresholds above every stress.
    springs::Tearing idle({.seed_threshold = 1e9, .edge_threshold = 1e9, .inner_threshold = 1e9});
    SpringMesh still = holed;
    const int idle_reps = context.quick ? 20 : 500;
    Stopwatch idle_clock;
    for (int i = 0; i < idle_reps; ++i) idle.step(still);
    const double ap_idle = idle_clock.seconds() / idle_reps;

    // Deletion: the centre pulled out of the plane by one edge length.
    SpringMesh pulled = base;
    pulled.position[u(centre)].z() += edge;
    springs::DeletionTearing del;
    double del_total = 0.0;
    int del_steps = 0;
    const int del_reps = std::max(1, target_steps / 10);
    for (int i = 0; i < del_reps; ++i) {
      SpringMesh m = pulled;
      const Stopwatch clock;
      const int events = del.step(m);
      const double s = clock.seconds();
      if (events > 0) {
        del_total += s;
        ++del_steps;
      }
    }
    SpringMesh calm = base;
    idle_clock.reset();
    for (int i = 0; i < idle_reps; ++i) del.step(calm);
    const double del_idle = idle_clock.seconds() / idle_reps;

    const double ap_us = ap_steps ? 1e6 * ap_total / ap_steps : 0.0;
    const double del_us = del_steps ? 1e6 * del_total / del_steps : 0.0;
    fmt::print("{:>6} {:>7} {:>8} {:>6} {:>14.2f} {:>14.2f} {:>12.2f} {:>12.2f}\n", n, base.node_count(),
               base.spring_count(), base.triangle_count(), del_us, ap_us, 1e6 * del_idle, 1e6 * ap_idle);
    rows.push_back({{"rings", n},
                    {"nodes", base.node_count()},
                    {"springs", base.spring_count()},
                    {"triangles", base.triangle_count()},
                    {"deletion_us", del_us},
                    {"area_preserving_us", ap_us},
                    {"deletion_idle_us", 1e6 * del_idle},
                    {"area_preserving_idle_us", 1e6 * ap_idle},
                    {"area_preserving_steps", ap_steps},
                    {"deletion_steps", del_steps}});
  }
  return {{"benchmark", "tearing"},
          {"unit", "microseconds per tearing step"},
          {"quick", context.quick},
          {"rows", rows}};
}

namespace {
nlohmann::json run_tearing(const Context& context) { return tearing_benchmark(context); }
}  // namespace

PLIANT_REGISTER_BENCH(
    "tearing", "membrane tearing per step: deletion vs area-preserving on hexagonal discs (271-8587 nodes)",
    run_tearing);

}  // namespace pliant::bench
