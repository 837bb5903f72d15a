// `pliant bench fem-dynamic`: the peer scene of the dynamic FEM comparison. A beam 10 × 1.5 × 1.5 m
// clamped at x = 0 falls under gravity (-y) from rest: corotational tets, E = 1e5 Pa, ν = 0.45,
// ρ = 1 kg/m³, dt = 0.01 s, 200 steps, regular meshes of 900, 11,515 and 57,600 tets (five tets per
// cell). Every run reports its cost per step and its tip error against a converged trajectory
// computed here (Newmark average acceleration, Newton to 1e-8 per step, dt = 1e-3; 900 and 11.5k tets
// only), so speed is never
// quoted without accuracy. The tip is the mean of the end nodes nearest (10, 0.75, 0.75). The "hybrid"
// object times the hybrid operational / non-operational body on an organ-like ellipsoid
// (run_hybrid_organ); the "modal" object is `pliant bench fem-modal`'s (modal_tube.cpp: 50 modes of a
// 10k-node tube and the modal step with its ~5k surface nodes).
#include "bench.hpp"
#include "modal_tube.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/dynamics/integrator.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/cut/tet_cut.hpp"
#include "pliant/models/fem/hybrid/hybrid_solver.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace pliant::bench {
namespace {

using namespace pliant::fem;

constexpr double kDt = 0.01;
constexpr int kFastIterations = 3;  // the hybrid organ's fast path: CG iterations a step
constexpr std::array<double, 3> kTipTimes = {0.5, 1.0, 2.0};

struct Scene {
  TetMesh mesh;
  std::vector<Index> clamp, tip;
};

Scene make_scene(std::array<Index, 3> cells) {
  meshing::BoxDef def;
  def.size = Vec3(10.0, 1.5, 1.5);
  def.cells = cells;
  def.split = meshing::CellSplit::five;
  Scene s;
  s.mesh = meshing::box_mesh(def).value();
  double nearest = 1e300;
  for (const Vec3& p : s.mesh.positions)
    if (p.x() > 10.0 - 1e-9) nearest = std::min(nearest, (p - Vec3(10.0, 0.75, 0.75)).norm());
  for (std::size_t i = 0; i < s.mesh.node_count(); ++i) {
    const Vec3& p = s.mesh.positions[i];
    if (p.x() < 1e-9) s.clamp.push_back(static_cast<Index>(i));
    if (p.x() > 10.0 - 1e-9 && (p - Vec3(10.0, 0.75, 0.75)).norm() < nearest + 1e-9)
      s.tip.push_back(static_cast<Index>(i));
  }
  return s;
}

FemForceModel make_model(const Scene& s) {
  const materials::Material mat = materials::material_from_young_poisson(1e5, 0.45, 1.0).value();
  return FemForceModel::build(
             s.mesh, std::span(&mat, 1),
             {.element = ElementKind::corotational, .gravity = Vec3(0, -9.81, 0), .fixed_nodes = s.clamp})
      .value();
}

double tip_y(const Scene& s, std::span<const Vec3> x) {
  double y = 0.0;
  for (Index i : s.tip) y += x[static_cast<std::size_t>(i)].y();
  return y / static_cast<double>(s.tip.size());
}

struct Trajectory {
  std::array<std::optional<double>, 3> tip;  // tip y at kTipTimes (m), when the run got there
  double swing = 0.0;                        // max |tip y - rest tip y| (m)
  double ms_per_step = 0.0;                  // mean after the first step
  double relative_residual = 0.0;            // largest last-linear-solve residual over the steps
  double newton = 0.0, cg = 0.0;             // mean per step
};

// Runs `steps` steps of length dt with `advance` (returns the step's report), timing all but the first.
template <typename Advance>
Trajectory run(const Scene& s, const FemForceModel& model, double dt, int steps, Advance&& advance) {
  std::vector<Vec3> x(model.rest_positions()), v(model.node_count(), Vec3::Zero());
  const double rest = tip_y(s, x);
  Trajectory t;
  Stopwatch clock;
  for (int k = 1; k <= steps; ++k) {
    if (k == 2) clock.reset();
    const ImplicitReport r = advance(x, v);
    t.relative_residual = std::isnan(r.relative_residual)
                              ? r.relative_residual
                              : std::max(t.relative_residual, r.relative_residual);
    t.newton += r.newton_iterations;
    t.cg += r.cg_iterations;
    const double y = tip_y(s, x);
    t.swing = std::max(t.swing, std::abs(y - rest));
    for (std::size_t j = 0; j < kTipTimes.size(); ++j)
      if (std::abs(k * dt - kTipTimes[j]) < 0.5 * dt) t.tip[j] = y;
  }
  t.ms_per_step = steps > 1 ? clock.ms() / (steps - 1) : 0.0;
  t.newton /= steps;
  t.cg /= steps;
  return t;
}

Trajectory run_implicit(const Scene& s, const FemForceModel& model, const ImplicitSolverDef& def, int steps) {
  auto solver = ImplicitSolver::build(model, def).value();
  return run(s, model, def.dt, steps,
             [&](std::span<Vec3> x, std::span<Vec3> v) { return solver.step(x, v); });
}

Trajectory run_matrix_free(const Scene& s, const FemForceModel& model, int steps) {
  dynamics::Integrator integrator({.scheme = dynamics::Scheme::backward_euler,
                                   .dt = kDt,
                                   .cg_tolerance = 1e-6,
                                   .cg_max_iterations = 5000});
  return run(s, model, kDt, steps, [&](std::span<Vec3> x, std::span<Vec3> v) {
    integrator.step(model, x, v);
    // The integrator does not report its residual: NaN, written as null.
    return ImplicitReport{.newton_iterations = 1,
                          .cg_iterations = integrator.last_cg_iterations(),
                          .relative_residual = std::nan("")};
  });
}

nlohmann::json tip_errors(const Trajectory& t, const std::optional<Trajectory>& ref) {
  nlohmann::json out;
  const char* keys[] = {"tip_error_0_5", "tip_error_1", "tip_error_2"};
  for (std::size_t j = 0; j < 3; ++j) {
    if (ref && t.tip[j] && ref->tip[j])
      out[keys[j]] = std::abs(*t.tip[j] - *ref->tip[j]) / ref->swing;
    else
      out[keys[j]] = nullptr;
  }
  return out;
}

std::string percent(const nlohmann::json& e) {
  return e.is_null() ? std::string("-") : fmt::format("{:.1f}%", 100.0 * e.get<double>());
}

// The hybrid organ stepped while a blade cuts across its operational region: the plane x = 0.12 m (rest
// coordinates; the body swings 0.2 m, a blade fixed in the world would leave it), its edge along z, going
// down through the region in kStrokes strokes evenly spread over the timed steps, each sweep starting
// one tet behind where the last one stopped (to reopen its front, as the scene does). Each stroke is
// cut_tets over the operational tets (interface and fixed nodes frozen), apply_tet_cut and
// replace_operational; a step's time includes the cut made before it.
struct CutRun {
  double ms = 0.0, worst_ms = 0.0, cut_ms = 0.0, cg = 0.0;
  int strokes = 0, refreshes = 0;
  Index tets_split = 0, nodes_added = 0;
  std::size_t tets = 0;
  bool converged = true;
  std::vector<Vec3> x, rest;              // at the end
  std::vector<std::vector<Vec3>> states;  // x after each timed step
};

// The largest node distance between two runs' states over all their timed steps (cutting runs make the
// same cuts: cut_tets works on rest positions), and the largest displacement of the first from `rest`.
std::pair<double, double> largest_difference(const std::vector<std::vector<Vec3>>& a,
                                             const std::vector<std::vector<Vec3>>& b,
                                             const std::vector<Vec3>& rest) {
  double difference = 0.0, swing = 0.0;
  for (std::size_t s = 0; s < std::min(a.size(), b.size()); ++s)
    for (std::size_t i = 0; i < std::min(a[s].size(), b[s].size()); ++i) {
      difference = std::max(difference, (a[s][i] - b[s][i]).norm());
      swing = std::max(swing, (a[s][i] - rest[i]).norm());
    }
  return {difference, swing};
}

CutRun run_cut(TetMesh mesh, std::vector<std::uint8_t> flags, const materials::Material& mat,
               const FemBodyDef& def, const ImplicitSolverDef& solver, int steps, double extent) {
  constexpr int kWarmUp = 3, kStrokes = 5;
  constexpr double kPlane = 0.12, kTop = 0.08, kStroke = 0.03;
  HybridSolver hybrid = HybridSolver::build(mesh, std::span(&mat, 1), def, flags, solver).value();
  std::vector<Vec3> x = mesh.positions, v(mesh.node_count(), Vec3::Zero());
  std::vector<std::uint8_t> frozen(mesh.node_count(), 0);
  for (Index i : hybrid.interface_nodes()) frozen[static_cast<std::size_t>(i)] = 1;
  for (Index i : def.fixed_nodes) frozen[static_cast<std::size_t>(i)] = 1;
  const int every = std::max(1, steps / kStrokes);
  CutRun out;
  for (int s = 0; s < kWarmUp + steps; ++s) {
    const int t = s - kWarmUp;
    Stopwatch clock;
    if (t >= 0 && t % every == 0 && t / every < kStrokes) {
      const int k = t / every;
      const double y0 = kTop - k * kStroke + (k > 0 ? extent : 0.0), y1 = kTop - (k + 1) * kStroke;
      const TetCutBlade blade{Vec3(kPlane, y0, -0.1), Vec3(kPlane, y0, 0.1), Vec3(kPlane, y1, -0.1),
                              Vec3(kPlane, y1, 0.1)};
      const TetCutResult cut = cut_tets(mesh, mesh.positions, flags, frozen, blade).value();
      if (!cut.new_tets.empty()) {
        const std::size_t old_nodes = mesh.node_count();
        const std::vector<Index> tet_map = apply_tet_cut(cut, mesh, x, v);
        std::vector<std::uint8_t> new_flags(mesh.tet_count(), 1);  // new tets come from operational ones
        for (std::size_t q = 0; q < tet_map.size(); ++q)
          if (tet_map[q] >= 0) new_flags[static_cast<std::size_t>(tet_map[q])] = flags[q];
        flags = std::move(new_flags);
        frozen.resize(mesh.node_count(), 0);
        std::vector<Tet> op_tets;
        for (std::size_t q = 0; q < mesh.tet_count(); ++q)
          if (flags[q]) op_tets.push_back(mesh.tets[q]);
        const std::vector<Vec3> appended(mesh.positions.begin() + static_cast<std::ptrdiff_t>(old_nodes),
                                         mesh.positions.end());
        out.converged =
            static_cast<bool>(hybrid.replace_operational(appended, op_tets, std::span(&mat, 1))) &&
            out.converged;
        ++out.strokes;
        out.tets_split += cut.tets_split;
        out.nodes_added += cut.nodes_added;
      }
      out.cut_ms += clock.ms();
    }
    const ImplicitReport r = hybrid.step(x, v);
    out.converged = r.converged && out.converged;
    if (t < 0) continue;
    const double ms = clock.ms();
    out.ms += ms / steps;
    out.worst_ms = std::max(out.worst_ms, ms);
    out.cg += static_cast<double>(r.cg_iterations) / steps;
    out.states.push_back(x);
  }
  out.refreshes = hybrid.interface_refreshes();
  out.tets = mesh.tet_count();
  out.x = std::move(x);
  out.rest = mesh.positions;
  return out;
}

// The hybrid organ (Wu & Heng 2005): an ellipsoid 0.3 × 0.2 × 0.12 m (a ball mesh scaled), held at its
// -x end, falling under gravity; the tets nearest its +x end (by centroid, `operational` of them) are
// corotational and operational, the rest linear and condensed. Steps the hybrid body and the same body
// with ImplicitSolver (CHOLMOD, the same per-tet elements) from rest, backward Euler, dt = 0.01 s, and
// reports both costs and their largest position difference (the two solve the same equations); the hybrid
// body also with rest_factor_pcg and interface_pcg, and run_cut's cutting run with cholmod, interface_pcg
// and rest_factor_pcg.
nlohmann::json run_hybrid_organ(Index resolution, std::size_t operational, int steps) {
  TetMesh mesh =
      meshing::ball_mesh({.center = Vec3::Zero(), .radius = 0.1, .resolution = resolution}).value();
  for (Vec3& p : mesh.positions) p = p.cwiseProduct(Vec3(1.5, 1.0, 0.6));
  const Vec3 end(0.15, 0.0, 0.0);
  std::vector<std::pair<double, std::size_t>> by_distance;
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    Vec3 c = Vec3::Zero();
    for (Index a : mesh.tets[t]) c += 0.25 * mesh.positions[static_cast<std::size_t>(a)];
    by_distance.emplace_back((c - end).norm(), t);
  }
  std::sort(by_distance.begin(), by_distance.end());
  std::vector<std::uint8_t> flags(mesh.tet_count(), 0);
  for (std::size_t k = 0; k < std::min(operational, by_distance.size()); ++k)
    flags[by_distance[k].second] = 1;
  std::vector<Index> fixed;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].x() < -0.13) fixed.push_back(static_cast<Index>(i));
  const materials::Material mat = materials::material_from_young_poisson(3e4, 0.45, 1000.0).value();
  FemBodyDef def{.element = ElementKind::corotational,
                 .rayleigh_alpha = 1.0,
                 .rayleigh_beta = 0.002,
                 .gravity = Vec3(0, -9.81, 0),
                 .fixed_nodes = fixed};
  const ImplicitSolverDef solver{.dt = kDt};
  const ImplicitSolverDef fast{.dt = kDt, .solver = LinearSolverKind::rest_factor_pcg, .pcg_tolerance = 1e-6};
  // The fast path: the same CG stopped after three iterations (warm-started, so the error it leaves does
  // not pile up from step to step); its accuracy is measured below against the converged bodies.
  const ImplicitSolverDef capped{.dt = kDt,
                                 .solver = LinearSolverKind::rest_factor_pcg,
                                 .pcg_tolerance = 1e-6,
                                 .pcg_max_iterations = kFastIterations};
  const Stopwatch build_clock;
  HybridSolver hybrid = HybridSolver::build(mesh, std::span(&mat, 1), def, flags, solver).value();
  const double build_s = build_clock.seconds();
  HybridSolver hybrid_pcg = HybridSolver::build(mesh, std::span(&mat, 1), def, flags, fast).value();
  HybridSolver hybrid_fast = HybridSolver::build(mesh, std::span(&mat, 1), def, flags, capped).value();
  const ImplicitSolverDef split{.dt = kDt, .solver = LinearSolverKind::interface_pcg, .pcg_tolerance = 1e-8};
  const Stopwatch split_build_clock;
  HybridSolver hybrid_split = HybridSolver::build(mesh, std::span(&mat, 1), def, flags, split).value();
  const double split_build_s = split_build_clock.seconds();
  for (std::uint8_t op : flags)
    def.tet_elements.push_back(op ? ElementKind::corotational : ElementKind::linear);
  const FemForceModel model = FemForceModel::build(mesh, std::span(&mat, 1), def).value();
  ImplicitSolver full = ImplicitSolver::build(model, solver).value();
  // Each body stepped in its own loop (interleaved, each step would find the others' data in the caches),
  // its state kept after every timed step for the comparisons.
  struct Run {
    std::vector<Vec3> x, v;
    std::vector<std::vector<Vec3>> states;
    double ms = 0.0, worst = 0.0, cg = 0.0;
    bool converged = true;
  };
  constexpr int kWarmUp = 3;
  const auto run_steps = [&](auto& body) {
    Run r{mesh.positions, std::vector<Vec3>(mesh.node_count(), Vec3::Zero()), {}};
    for (int s = 0; s < kWarmUp + steps; ++s) {
      Stopwatch clock;
      const ImplicitReport report = body.step(r.x, r.v);
      const double ms = clock.ms();
      r.converged = report.converged && r.converged;
      if (s < kWarmUp) continue;
      r.ms += ms / steps;
      r.worst = std::max(r.worst, ms);
      r.cg += static_cast<double>(report.cg_iterations) / steps;
      r.states.push_back(r.x);
    }
    return r;
  };
  const Run direct_run = run_steps(hybrid), pcg_run = run_steps(hybrid_pcg),
            split_run = run_steps(hybrid_split), fast_run = run_steps(hybrid_fast),
            full_run = run_steps(full);
  const std::vector<Vec3>&xh = direct_run.x, &xp = pcg_run.x, &xs = split_run.x, &xf = full_run.x;
  const double hybrid_ms = direct_run.ms * steps, pcg_ms = pcg_run.ms * steps, full_ms = full_run.ms * steps,
               cg = pcg_run.cg * steps, split_ms = split_run.ms * steps, split_cg = split_run.cg * steps,
               split_worst = split_run.worst, fast_ms = fast_run.ms * steps, fast_worst = fast_run.worst;
  const bool converged = direct_run.converged && full_run.converged;
  const double fast_difference = largest_difference(fast_run.states, full_run.states, mesh.positions).first;
  double difference = 0.0, pcg_difference = 0.0, swing = 0.0;
  for (std::size_t i = 0; i < xh.size(); ++i) {
    difference = std::max(difference, (xh[i] - xf[i]).norm());
    pcg_difference = std::max(pcg_difference, (xp[i] - xf[i]).norm());
    swing = std::max(swing, (xf[i] - mesh.positions[i]).norm());
  }
  double extent = 0.0;  // the largest operational tet's extent (m)
  for (std::size_t t = 0; t < mesh.tet_count(); ++t)
    if (flags[t])
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b)
          extent = std::max(extent, (mesh.positions[static_cast<std::size_t>(mesh.tets[t][a])] -
                                     mesh.positions[static_cast<std::size_t>(mesh.tets[t][b])])
                                        .norm());
  def.tet_elements.clear();
  // A grab on the operational end (its nodes with x > 0.14 m): held by set_held_nodes (values only) against
  // the rebuild a grab used to cost (a new HybridSolver with them fixed: a new condensation and, for
  // interface_pcg, a new dense preconditioner), and the first step after each; then the release alike.
  std::vector<Index> held;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].x() > 0.14) held.push_back(static_cast<Index>(i));
  FemBodyDef held_def = def;
  held_def.fixed_nodes.insert(held_def.fixed_nodes.end(), held.begin(), held.end());
  std::sort(held_def.fixed_nodes.begin(), held_def.fixed_nodes.end());
  // (On copies of the state: the comparisons below use the bodies' states after the timed steps.)
  auto time_grab = [&](HybridSolver& body, std::vector<Vec3> x, std::vector<Vec3> v,
                       const ImplicitSolverDef& sd) {
    for (Index i : held) v[static_cast<std::size_t>(i)].setZero();
    std::vector<Vec3> xr = x, vr = v;
    Stopwatch clock;
    const bool held_ok = static_cast<bool>(body.set_held_nodes(held));
    const double hold_ms = clock.ms();
    clock.reset();
    body.step(x, v);
    const double hold_step_ms = clock.ms();
    clock.reset();
    HybridSolver rebuilt = HybridSolver::build(mesh, std::span(&mat, 1), held_def, flags, sd).value();
    const double rebuild_ms = clock.ms();
    clock.reset();
    rebuilt.step(xr, vr);
    const double rebuild_step_ms = clock.ms();
    double grab_difference = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
      grab_difference = std::max(grab_difference, (x[i] - xr[i]).norm());
    clock.reset();
    const bool released = static_cast<bool>(body.set_held_nodes({}));
    const double release_ms = clock.ms();
    clock.reset();
    body.step(x, v);
    const double release_step_ms = clock.ms();
    fmt::print(
        "hybrid organ grab ({}, {} nodes): hold {:.3f} ms + first step {:.2f} ms, release {:.3f} ms + first "
        "step {:.2f} ms; the rebuild it replaces {:.1f} ms + first step {:.2f} ms; diff {:.1e} m\n",
        linear_solver_name(sd.solver), held.size(), hold_ms, hold_step_ms, release_ms, release_step_ms,
        rebuild_ms, rebuild_step_ms, grab_difference);
    return nlohmann::json{{"held_nodes", held.size()},
                          {"hold_ms", hold_ms},
                          {"hold_first_step_ms", hold_step_ms},
                          {"release_ms", release_ms},
                          {"release_first_step_ms", release_step_ms},
                          {"rebuild_ms", rebuild_ms},
                          {"rebuild_first_step_ms", rebuild_step_ms},
                          {"max_difference_m", grab_difference},
                          {"ok", held_ok && released}};
  };
  const nlohmann::json grab_direct = time_grab(hybrid, xh, direct_run.v, solver);
  const nlohmann::json grab_split = time_grab(hybrid_split, xs, split_run.v, split);
  const CutRun cut_direct = run_cut(mesh, flags, mat, def, solver, steps, extent);
  const CutRun cut_split = run_cut(mesh, flags, mat, def, split, steps, extent);
  const CutRun cut_pcg = run_cut(mesh, flags, mat, def, fast, steps, extent);
  const CutRun cut_fast = run_cut(mesh, flags, mat, def, capped, steps, extent);
  const auto [cut_fast_difference, cut_swing] =
      largest_difference(cut_direct.states, cut_fast.states, cut_direct.rest);
  double cut_difference = 0.0, cut_pcg_difference = 0.0;
  for (std::size_t i = 0; i < cut_direct.x.size(); ++i)
    cut_pcg_difference = std::max(cut_pcg_difference, (cut_direct.x[i] - cut_pcg.x[i]).norm());
  for (std::size_t i = 0; i < cut_direct.x.size(); ++i)
    cut_difference = std::max(cut_difference, (cut_direct.x[i] - cut_split.x[i]).norm());
  double split_difference = 0.0;
  for (std::size_t i = 0; i < xh.size(); ++i)
    split_difference = std::max(split_difference, (xs[i] - xf[i]).norm());
  nlohmann::json out{{"tets", mesh.tet_count()},
                     {"nodes", mesh.node_count()},
                     {"operational_tets", hybrid.operational_tets().size()},
                     {"interface_nodes", hybrid.interface_nodes().size()},
                     {"build_s", build_s},
                     {"condensation_s", hybrid.condensation_seconds()},
                     {"steps", steps},
                     {"ms_per_step", hybrid_ms / steps},
                     {"full_ms_per_step", full_ms / steps},
                     {"ratio", full_ms / std::max(hybrid_ms, 1e-300)},
                     {"max_difference_m", difference},
                     {"rest_factor_pcg_1e-6",
                      {{"ms_per_step", pcg_ms / steps},
                       {"cg_per_step", cg / steps},
                       {"ratio", full_ms / std::max(pcg_ms, 1e-300)},
                       {"max_difference_m", pcg_difference}}},
                     {"rest_factor_pcg_3_iterations",
                      {{"ms_per_step", fast_ms / steps},
                       {"worst_ms", fast_worst},
                       {"max_difference_m", fast_difference},
                       {"relative_to_swing", fast_difference / std::max(swing, 1e-300)}}},
                     {"interface_pcg_1e-8",
                      {{"ms_per_step", split_ms / steps},
                       {"build_s", split_build_s},
                       {"worst_ms", split_worst},
                       {"cg_per_step", split_cg / steps},
                       {"preconditioner_refreshes", hybrid_split.interface_refreshes()},
                       {"ratio", full_ms / std::max(split_ms, 1e-300)},
                       {"speed_up_over_cholmod", hybrid_ms / std::max(split_ms, 1e-300)},
                       {"max_difference_m", split_difference}}},
                     {"cutting",
                      {{"strokes", cut_direct.strokes},
                       {"tets_split", cut_direct.tets_split},
                       {"nodes_added", cut_direct.nodes_added},
                       {"tets_after", cut_direct.tets},
                       {"cut_update_ms_total", cut_direct.cut_ms},
                       {"cholmod", {{"ms_per_step", cut_direct.ms}, {"worst_ms", cut_direct.worst_ms}}},
                       {"interface_pcg_1e-8",
                        {{"ms_per_step", cut_split.ms},
                         {"worst_ms", cut_split.worst_ms},
                         {"cg_per_step", cut_split.cg},
                         {"preconditioner_refreshes", cut_split.refreshes}}},
                       {"rest_factor_pcg_1e-6",
                        {{"ms_per_step", cut_pcg.ms},
                         {"worst_ms", cut_pcg.worst_ms},
                         {"cg_per_step", cut_pcg.cg},
                         {"max_difference_m", cut_pcg_difference}}},
                       {"rest_factor_pcg_3_iterations",
                        {{"ms_per_step", cut_fast.ms},
                         {"worst_ms", cut_fast.worst_ms},
                         {"max_difference_m", cut_fast_difference},
                         {"relative_to_swing", cut_fast_difference / std::max(cut_swing, 1e-300)}}},
                       {"swing_m", cut_swing},
                       {"max_difference_m", cut_difference},
                       {"converged", cut_direct.converged && cut_split.converged && cut_pcg.converged &&
                                         cut_fast.converged}}},
                     {"grab", {{"cholmod", grab_direct}, {"interface_pcg_1e-8", grab_split}}},
                     {"swing_m", swing},
                     {"converged", converged}};
  fmt::print(
      "hybrid organ while cutting: {} strokes, {} split, {} nodes added, {} tets; cholmod {:.2f} ms/step "
      "(worst {:.2f}, cut "
      "{:.2f} ms total); interface_pcg {:.2f} (worst {:.2f}), {:.1f} cg/step, {} refreshes; diff {:.1e}; "
      "rest_factor_pcg 1e-6 {:.2f} (worst {:.2f}), {:.1f} cg/step, diff {:.1e}\n",
      cut_direct.strokes, cut_direct.tets_split, cut_direct.nodes_added, cut_direct.tets, cut_direct.ms,
      cut_direct.worst_ms, cut_direct.cut_ms, cut_split.ms, cut_split.worst_ms, cut_split.cg,
      cut_split.refreshes, cut_difference, cut_pcg.ms, cut_pcg.worst_ms, cut_pcg.cg, cut_pcg_difference);
  fmt::print(
      "hybrid organ fast path (rest_factor_pcg, {} CG iterations a step): uncut {:.2f} ms/step (worst "
      "{:.2f}), "
      "within {:.1e} m of the full body ({:.2f} % of the swing); while cutting {:.2f} ms/step (worst "
      "{:.2f}), "
      "within {:.1e} m of cholmod's cutting run ({:.2f} % of its swing of {:.3f} m)\n",
      kFastIterations, fast_ms / steps, fast_worst, fast_difference, 100.0 * fast_difference / swing,
      cut_fast.ms, cut_fast.worst_ms, cut_fast_difference, 100.0 * cut_fast_difference / cut_swing,
      cut_swing);
  fmt::print(
      "hybrid organ, interface_pcg 1e-8: build {:.2f} s, {:.2f} ms/step (worst {:.2f}), {:.1f} cg/step, {} "
      "refreshes, diff {:.1e} m\n",
      split_build_s, split_ms / steps, split_worst, split_cg / steps, hybrid_split.interface_refreshes(),
      split_difference);
  fmt::print(
      "hybrid organ: {} tets ({} operational, {} interface nodes), build {:.2f} s (condensation {:.2f} s); "
      "cholmod {:.2f} ms/step, rest_factor_pcg_1e-6 {:.2f} ms/step ({:.1f} cg), full body {:.2f} ms/step; "
      "max difference to the full body {:.1e} m (cholmod), {:.1e} m (pcg) over a swing of {:.3f} m\n",
      mesh.tet_count(), hybrid.operational_tets().size(), hybrid.interface_nodes().size(), build_s,
      hybrid.condensation_seconds(), hybrid_ms / steps, pcg_ms / steps, cg / steps, full_ms / steps,
      difference, pcg_difference, swing);
  return out;
}

nlohmann::json run_fem_dynamic(const Context& context) {
  struct Size {
    std::array<Index, 3> cells;
    bool reference;
  };
  const std::vector<Size> sizes =
      context.quick ? std::vector<Size>{{{20, 3, 3}, false}}
                    : std::vector<Size>{{{20, 3, 3}, true}, {{47, 7, 7}, true}, {{80, 12, 12}, false}};
  const int steps = context.quick ? 20 : 200;
  const std::vector<int> thread_counts =
      context.threads > 0 ? std::vector<int>{context.threads} : std::vector<int>{1, 2};
  nlohmann::json out;
  out["dt"] = kDt;
  out["steps"] = steps;
  out["beam"] = nlohmann::json::array();
  out["references"] = nlohmann::json::array();
  fmt::print("{:>6} {:<13} {:<15} {:<22} {:>3} {:>9} {:>9} {:>6} {:>7} {:>7} {:>7} {:>7}\n", "tets",
             "element", "integrator", "solver", "thr", "ms/step", "residual", "newton", "cg", "err0.5",
             "err1", "err2");
  for (const Size& size : sizes) {
    const Scene scene = make_scene(size.cells);
    const FemForceModel model = make_model(scene);
    std::optional<Trajectory> ref;
    if (size.reference) {
      set_threads(0);
      const Stopwatch clock;
      ref = run_implicit(scene, model,
                         {.scheme = ImplicitScheme::newmark,
                          .dt = 1e-3,
                          .solver = LinearSolverKind::rest_factor_pcg,
                          .max_newton_iterations = 20,
                          .newton_tolerance = 1e-8,
                          .pcg_tolerance = 1e-10},
                         2000);
      const double ref_s = clock.seconds();
      nlohmann::json r{{"tets", scene.mesh.tet_count()},
                       {"integrator", "newmark"},
                       {"dt", 1e-3},
                       {"tip_y", {*ref->tip[0], *ref->tip[1], *ref->tip[2]}},
                       {"tip_rest_y", 0.75},
                       {"swing", ref->swing},
                       {"newton_per_step", ref->newton},
                       {"seconds", ref_s}};
      // Backward Euler at the same dt, Newton to 1e-6: what the peers' reference integrator gives.
      const Trajectory be = run_implicit(scene, model,
                                         {.dt = 1e-3,
                                          .solver = LinearSolverKind::rest_factor_pcg,
                                          .max_newton_iterations = 20,
                                          .newton_tolerance = 1e-6,
                                          .pcg_tolerance = 1e-10},
                                         2000);
      r["backward_euler_tip_y"] = {*be.tip[0], *be.tip[1], *be.tip[2]};
      fmt::print(
          "reference {} tets (Newmark, dt 1e-3, {:.0f} s): tip y {:.4f} {:.4f} {:.4f} m, swing {:.4f} m; "
          "backward Euler dt 1e-3: {:.4f} {:.4f} {:.4f}\n",
          scene.mesh.tet_count(), ref_s, *ref->tip[0], *ref->tip[1], *ref->tip[2], ref->swing, *be.tip[0],
          *be.tip[1], *be.tip[2]);
      out["references"].push_back(r);
    }
    auto record = [&](const char* integrator, const std::string& solver, int threads, const Trajectory& t) {
      nlohmann::json row{{"tets", scene.mesh.tet_count()},
                         {"element", "corotational"},
                         {"integrator", integrator},
                         {"solver", solver},
                         {"threads", threads},
                         {"ms_per_step", t.ms_per_step},
                         {"relative_residual", t.relative_residual},
                         {"newton_per_step", t.newton},
                         {"cg_per_step", t.cg}};
      row.update(tip_errors(t, ref));
      fmt::print("{:>6} {:<13} {:<15} {:<22} {:>3} {:>9.3f} {:>9.1e} {:>6.1f} {:>7.1f} {:>7} {:>7} {:>7}\n",
                 scene.mesh.tet_count(), "corotational", integrator, solver, threads, t.ms_per_step,
                 t.relative_residual, t.newton, t.cg, percent(row["tip_error_0_5"]),
                 percent(row["tip_error_1"]), percent(row["tip_error_2"]));
      out["beam"].push_back(row);
    };
    // The largest mesh: one thread and the direct and rest-factor solvers only (the others take minutes).
    const bool largest = scene.mesh.tet_count() > 20000;
    for (int threads : thread_counts) {
      if (largest && threads != thread_counts.front()) continue;
      set_threads(threads);
      record("backward_euler", "cholmod", threads, run_implicit(scene, model, {.dt = kDt}, steps));
      if (!largest)
        record("backward_euler", "pcg_jacobi_1e-6", threads,
               run_implicit(scene, model, {.dt = kDt, .solver = LinearSolverKind::pcg, .pcg_tolerance = 1e-6},
                            steps));
      record("backward_euler", "rest_factor_pcg_1e-6", threads,
             run_implicit(scene, model,
                          {.dt = kDt, .solver = LinearSolverKind::rest_factor_pcg, .pcg_tolerance = 1e-6},
                          steps));
      for (int iterations : {1, 2})
        record("backward_euler", fmt::format("rest_factor_pcg_{}_iter", iterations), threads,
               run_implicit(
                   scene, model,
                   {.dt = kDt, .solver = LinearSolverKind::rest_factor_pcg, .pcg_max_iterations = iterations},
                   steps));
      // BDF2 (second order, little numerical damping) on the same rest-factor solver: the fast path.
      record("bdf2", "rest_factor_pcg_1e-6", threads,
             run_implicit(scene, model,
                          {.scheme = ImplicitScheme::bdf2,
                           .dt = kDt,
                           .solver = LinearSolverKind::rest_factor_pcg,
                           .pcg_tolerance = 1e-6},
                          steps));
      record("bdf2", "rest_factor_pcg_1_iter", threads,
             run_implicit(scene, model,
                          {.scheme = ImplicitScheme::bdf2,
                           .dt = kDt,
                           .solver = LinearSolverKind::rest_factor_pcg,
                           .pcg_max_iterations = 1},
                          steps));
      if (!context.quick && !largest) {
        record("newmark", "cholmod", threads,
               run_implicit(scene, model, {.scheme = ImplicitScheme::newmark, .dt = kDt}, steps));
        record("backward_euler", "matrix_free_jacobi_cg_1e-6", threads, run_matrix_free(scene, model, steps));
      }
    }
    set_threads(0);
  }
  set_threads(context.threads > 0 ? context.threads : 0);
  out["hybrid"] = context.quick ? run_hybrid_organ(6, 250, 5) : run_hybrid_organ(12, 2000, 50);
  set_threads(0);
  out["modal"] = fem_modal_figures(context);  // the fem-modal benchmark's figures (modal_tube.cpp)
  return out;
}

}  // namespace

// The hybrid organ alone (the "hybrid" object of fem-dynamic without the beams).
nlohmann::json run_fem_hybrid(const Context& context) {
  set_threads(context.threads > 0 ? context.threads : 0);
  nlohmann::json out{
      {"dt", kDt}, {"hybrid", context.quick ? run_hybrid_organ(6, 250, 5) : run_hybrid_organ(12, 2000, 50)}};
  set_threads(0);
  return out;
}

PLIANT_REGISTER_BENCH(
    "fem-hybrid",
    "hybrid operational / non-operational organ (10k tets, 2k operational) against the "
    "full body: cholmod, interface_pcg, rest_factor_pcg and the fast path (3 CG iterations), "
    "uncut and while being cut: ms/step, accuracy, build, grabs",
    run_fem_hybrid);

PLIANT_REGISTER_BENCH(
    "fem-dynamic",
    "corotational beam under gravity (900-57.6k tets): implicit solvers, ms/step and tip error",
    run_fem_dynamic);

}  // namespace pliant::bench
