// `pliant bench fem-modal`: modal reduction of a rubber tube clamped at z = 0. A 0.5 m pipe (outer
// radius 0.1 m, 3 cm wall) meshed with 10,176 nodes (48 around, 52 along, 3 through: 43,056 tets).
// Reports the time to assemble K and M and find its lowest 50 modes (shift-invert Lanczos on a
// CHOLMOD factor), and the cost of one modal step (50 damped modes, exact step) plus the
// reconstruction of the ~5k surface nodes, with and without modal warping. Goals (issue "Dynamic
// FEM"): 50 modes in ≤ 5 s; a step updating 5k surface nodes at ≥ 10 kHz.
#include "modal_tube.hpp"
#include "bench.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/meshing/tube.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"
#include "pliant/models/fem/modal/modal_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <vector>

namespace pliant::bench {
namespace {

using namespace pliant::fem;

// CPU time of the process (unit: s): on a shared machine where other builds take the cores, closer to
// the cost than wall time (which counts the time others ran). Cache contention still inflates it.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

nlohmann::json run_fem_modal(const Context& context) {
  meshing::TubeDef def;
  def.segments_along = context.quick ? 10 : 52;
  const Index modes = context.quick ? 10 : 50;
  const int steps = context.quick ? 200 : 20000;
  if (context.threads > 0) set_threads(context.threads);
  const TetMesh mesh = meshing::tube_mesh(def).value();
  const materials::Material rubber = materials::material_preset("rubber").value();
  std::vector<Index> clamp;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].z() < 1e-9) clamp.push_back(static_cast<Index>(i));

  // Eigen-solve, including the assembly of K and M and the factorisation of K - σM.
  const Stopwatch clock;
  const double cpu0 = cpu_seconds();
  const ModalBasis basis = modal_analysis(mesh, std::span(&rubber, 1), clamp, {.modes = modes}).value();
  const double eigen_s = clock.seconds(), eigen_cpu_s = cpu_seconds() - cpu0;
  const Eigen::VectorXd hz = basis.frequencies_hz();
  fmt::print(
      "tube: {} nodes, {} tets; {} modes in {:.2f} s wall, {:.2f} s CPU ({} restarts, {} solves); {:.2f} .. "
      "{:.1f} Hz\n",
      mesh.node_count(), mesh.tet_count(), modes, eigen_s, eigen_cpu_s, basis.restarts, basis.operations,
      hz[0], hz[hz.size() - 1]);

  const BoundarySurface surface = extract_boundary(mesh);
  // The tip ring's outer nodes get a sideways force that changes every step (a grab being dragged).
  std::vector<Index> tip;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].z() > def.length - 1e-9 && mesh.positions[i].head<2>().norm() > 0.099)
      tip.push_back(static_cast<Index>(i));
  nlohmann::json out;
  out["tube"] = {{"nodes", mesh.node_count()},
                 {"tets", mesh.tet_count()},
                 {"modes", modes},
                 {"eigen_seconds", eigen_s},
                 {"eigen_cpu_seconds", eigen_cpu_s},
                 {"restarts", basis.restarts},
                 {"solves", basis.operations},
                 {"lowest_hz", hz[0]},
                 {"highest_hz", hz[hz.size() - 1]}};
  out["steps"] = nlohmann::json::array();
  fmt::print("{:>8} {:>9} {:>13} {:>8} {:>12} {:>12} {:>9} {:>12}\n", "warping", "output", "surface nodes",
             "modes", "us/step", "CPU us/step", "kHz (CPU)", "rel. error");
  // The output rows in double, float and half: every variant ends in the same modal state (the state,
  // forces and steps are in double throughout), so its last surface is compared with double's.
  std::vector<Vec3> reference[2];
  const char* precision_names[] = {"double", "float", "half"};
  for (int variant = 0; variant < 6; ++variant) {
    const bool warping = variant % 2 == 1, single = variant / 2 == 1, half = variant / 2 == 2;
    const char* precision = precision_names[variant / 2];
    auto body = ModalBody::build(mesh, basis,
                                 {.dt = 1e-3,
                                  .rayleigh_alpha = 0.5,
                                  .rayleigh_beta = 1e-4,
                                  .warping = warping,
                                  .single_precision_output = single,
                                  .half_precision_output = half,
                                  .output_nodes = surface.volume_node})
                    .value();
    std::vector<Vec3> u(body.output_nodes().size());
    double checksum = 0.0;
    Stopwatch step_clock;
    double cpu_start = 0.0;
    for (int s = -steps / 10; s < steps; ++s) {  // the first tenth warms up
      if (s == 0) {
        step_clock.reset();
        cpu_start = cpu_seconds();
      }
      body.clear_forces();
      const Vec3 f(std::sin(1e-3 * s), 0.0, 0.0);
      for (Index n : tip) body.add_point_force(n, f);
      body.step();
      body.reconstruct(u);
      checksum += u.back().x();
    }
    const double us = step_clock.seconds() * 1e6 / steps, cpu_us = (cpu_seconds() - cpu_start) * 1e6 / steps;
    std::vector<Vec3>& ref = reference[warping ? 1 : 0];
    if (variant < 2) ref = u;
    double error = 0.0, size = 0.0;
    for (std::size_t i = 0; i < u.size(); ++i) {
      error = std::max(error, (u[i] - ref[i]).norm());
      size = std::max(size, ref[i].norm());
    }
    const double relative = size > 0.0 ? error / size : 0.0;
    fmt::print("{:>8} {:>9} {:>13} {:>8} {:>12.1f} {:>12.1f} {:>9.2f} {:>12.1e}\n", warping ? "yes" : "no",
               precision, u.size(), modes, us, cpu_us, 1e3 / cpu_us, relative);
    out["steps"].push_back({{"warping", warping},
                            {"output_precision", precision},
                            {"largest_difference_to_double_relative", relative},
                            {"surface_nodes", u.size()},
                            {"tip_forced_nodes", tip.size()},
                            {"us_per_step", us},
                            {"cpu_us_per_step", cpu_us},
                            {"khz", 1e3 / us},
                            {"checksum", checksum}});
  }
  set_threads(0);
  return out;
}

}  // namespace

nlohmann::json fem_modal_figures(const Context& context) { return run_fem_modal(context); }

PLIANT_REGISTER_BENCH("fem-modal",
                      "modal reduction of a 10k-node rubber tube: 50 modes' eigen-solve time, modal step + "
                      "surface reconstruction with and without warping",
                      run_fem_modal);

}  // namespace pliant::bench
