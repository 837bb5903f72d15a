// `pliant bench meshless`: the meshless family's costs. Explicit steps (symplectic Euler, Green strain,
// volume term) of jelly cubes sampled at 1 cm from about 1k to 100k phyxels on 1 and 2 threads, with
// the build time (signed distance, sampling, neighbours, constants, stable-step estimate); the
// per-frame update of a driven 50k-triangle sphere surface; and a cut through the middle of a
// 10k-phyxel cube (links removed, constants recomputed, surface refitted); and the SPlisHSPlasH beam
// (beam.hpp): wall time per simulated second and tip motion beside an FEM reference.
#include "beam.hpp"
#include "bench.hpp"

#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/meshing/uv_sphere.hpp"
#include "pliant/models/meshless/meshless_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pliant::bench {
namespace {

using namespace pliant::meshless;

TriMesh cube_surface(double side) {
  TriMesh m;
  for (int c = 0; c < 8; ++c)
    m.positions.emplace_back(c & 1 ? side : 0.0, c & 2 ? side : 0.0, c & 4 ? side : 0.0);
  m.triangles = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
                 {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
  return m;
}

MeshlessBodyDef jelly_def() {
  MeshlessBodyDef def;
  def.sampling.spacing = 0.01;
  def.mls.materials = {materials::material_from_young_poisson(2e4, 0.3, 1000.0).value()};
  def.mls.volume_stiffness = 2e4;
  def.gravity = Vec3(0, 0, -9.81);
  return def;
}

nlohmann::json run_meshless(const Context& ctx) {
  const std::vector<int> targets =
      ctx.quick ? std::vector<int>{1000} : std::vector<int>{1000, 10000, 50000, 100000};
  const std::vector<int> thread_counts = ctx.quick ? std::vector<int>{1} : std::vector<int>{1, 2};
  nlohmann::json steps = nlohmann::json::array();
  fmt::print("{:>8} {:>7} {:>10} {:>9} {:>12}\n", "phyxels", "threads", "build s", "links", "ms/step");
  for (int target : targets) {
    const double side = 0.01 * std::cbrt(static_cast<double>(target));
    Stopwatch build;
    auto body = MeshlessBody::build(cube_surface(side), jelly_def());
    const double build_s = build.seconds();
    if (!body.ok()) {
      fmt::print("build failed: {}\n", body.message());
      continue;
    }
    for (int threads : thread_counts) {
      set_threads(threads);
      const MeshlessBody& b = *body;
      MlsForceModel model(b.phyxels(), {.gravity = Vec3(0, 0, -9.81)});
      dynamics::Integrator integrator({.scheme = dynamics::Scheme::symplectic_euler, .dt = b.substep()});
      std::vector<Vec3> x = b.phyxels().rest, v(x.size(), Vec3::Zero());
      for (Vec3& p : x) p.x() *= 1.01;
      integrator.step(model, x, v);  // warm-up
      const int n =
          ctx.quick ? 5 : std::max(5, static_cast<int>(2e6 / static_cast<double>(b.phyxels().size())));
      Stopwatch watch;
      for (int s = 0; s < n; ++s) integrator.step(model, x, v);
      const double ms = watch.ms() / n;
      fmt::print("{:>8} {:>7} {:>10.3f} {:>9} {:>12.3f}\n", b.phyxels().size(), threads, build_s,
                 b.phyxels().link_count(), ms);
      steps.push_back({{"phyxels", b.phyxels().size()},
                       {"threads", threads},
                       {"integrator", "symplectic_euler"},
                       {"ms_per_step", ms},
                       {"build_s", build_s},
                       {"links", b.phyxels().link_count()},
                       {"substep_s", b.substep()}});
    }
  }
  set_threads(ctx.threads);

  // The driven surface: a 50,000-triangle sphere (the size) sampled at 1 cm, its update timed per
  // frame.
  nlohmann::json surface;
  {
    const auto sphere =
        meshing::uv_sphere({.radius = 0.1, .rings = ctx.quick ? 21 : 101, .segments = ctx.quick ? 50 : 250});
    auto body = MeshlessBody::build(*sphere, jelly_def());
    if (body.ok()) {
      std::vector<Vec3> x = body->phyxels().rest;
      for (Vec3& p : x) p.x() *= 1.01;
      std::vector<Vec3> pos(body->surface().vertex_count()), nrm(pos.size());
      body->surface().update(x, pos, nrm);
      const int n = ctx.quick ? 3 : 200;
      Stopwatch watch;
      for (int s = 0; s < n; ++s) body->surface().update(x, pos, nrm);
      const double ms = watch.ms() / n;
      std::size_t terms = 0;
      for (std::size_t v = 0; v < pos.size(); ++v)
        terms += body->surface().phyxels(static_cast<Index>(v)).size();
      const double per_vertex = static_cast<double>(terms) / static_cast<double>(pos.size());
      const char* kernel = cpu_has_avx2_fma() ? "avx2" : "baseline";
      fmt::print(
          "surface: {} triangles, {} vertices on {} phyxels, {:.1f} fit terms a vertex, {} kernel: {:.3f} ms "
          "per update\n",
          sphere->triangles.size(), pos.size(), body->phyxels().size(), per_vertex, kernel, ms);
      surface = {{"triangles", sphere->triangles.size()},
                 {"vertices", pos.size()},
                 {"phyxels", body->phyxels().size()},
                 {"fit_terms_per_vertex", per_vertex},
                 {"kernel", kernel},
                 {"ms_per_update", ms}};
    }
  }

  // A cut through the middle of a cube, and a partial one (the blade's edge stops halfway down: the
  // surface gets a slit closed by its cut face).
  nlohmann::json cut;
  {
    const double side = 0.01 * std::cbrt(ctx.quick ? 1000.0 : 10000.0);
    const auto cut_once = [&](const char* what, double depth) -> nlohmann::json {
      auto body = MeshlessBody::build(cube_surface(side), jelly_def());
      if (!body.ok()) return {};
      const double m = 0.5 * side, bottom = side - depth;
      const std::size_t links = body->phyxels().link_count(), triangles = body->surface().triangles().size();
      body->cut({Vec3(m, -1, 1), Vec3(m, 2, 1), Vec3(m, -1, bottom), Vec3(m, 2, bottom)});
      Profile profile;
      body->step(0.0, profile);  // the cut alone
      double ms = 0.0;
      for (const auto& s : profile.stages) {
        if (s.name == "meshless.cut") ms = s.ms;
      }
      const std::size_t removed = links - body->phyxels().link_count();
      fmt::print(
          "cut ({}): {} phyxels, {} links removed, {} phyxels affected, surface {} -> {} triangles: {:.3f} "
          "ms\n",
          what, body->phyxels().size(), removed, body->cut_events().size(), triangles,
          body->surface().triangles().size(), ms);
      return {{"phyxels", body->phyxels().size()},
              {"links_removed", removed},
              {"phyxels_affected", body->cut_events().size()},
              {"triangles_after", body->surface().triangles().size()},
              {"ms", ms}};
    };
    cut = cut_once("through", 2.0 * side + 2.0);
    if (!cut.empty()) cut["partial"] = cut_once("halfway down, a slit", 0.5 * side);
  }
  nlohmann::json beam = beam_vs_splishsplash(ctx);
  return {{"steps", steps}, {"surface", surface}, {"cut", cut}, {"beam_vs_splishsplash", beam}};
}

}  // namespace

PLIANT_REGISTER_BENCH("meshless",
                      "meshless MLS: ms per explicit step vs phyxels and threads, surface update, cut",
                      run_meshless);

}  // namespace pliant::bench
