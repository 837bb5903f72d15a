// `pliant bench impact`: frame times of permanent dents (Milanović's method, models/impact).
//
// Part 1 reproduces the source's measurement: plates of 289 and 1,089 points hit by a point
// projectile with a falloff radius that moves 9 points, and radii that move tens to hundreds of
// points, with and without the octree. Part 2 scales to plates of 10k, 100k and 1M triangles hit by
// a point projectile and by sphere projectiles of about 1k and 10k triangles, for the three query
// structures (brute_force, octree, bvh_grid). Every run fires two projectiles at the same spot one
// after the other (the second meets the first's dent), steps at 60 Hz and times every step, so the
// worst frame includes the first contact (ray casts, dent weights), the octree refresh of every dent
// step and the BVH refit before the second projectile's casts. Brute force is skipped where one
// frame would cast more than 10^7 ray–triangle tests.
#include "bench.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/uv_sphere.hpp"
#include "pliant/models/impact/dent_target.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace pliant::bench {
namespace {

using namespace pliant::impact;

TriMesh plate(int n, double size) {
  return meshing::rect_membrane(
             {.size = Vec2(size, size), .cells_x = n, .cells_y = n, .alternate_diagonals = false})
      .value();
}

TriMesh sphere(double radius, int rings, int segments) {
  return meshing::uv_sphere({.radius = radius, .rings = rings, .segments = segments}).value();
}

struct Case {
  const char* part;
  int cells;             // plate n × n cells, 2n² triangles, (n+1)² points
  double radius;         // φ (unit: m)
  int sphere_rings = 0;  // 0: point projectile
  int sphere_segments = 0;
};

struct Timing {
  double worst_ms = 0, mean_ms = 0;
  Index affected = 0;
  int frames = 0;
};

Timing run_case(const Case& c, ImpactMethod method, int threads) {
  const TriMesh target = plate(c.cells, 1.0);
  auto made = DentTarget::create(target, {0.2, c.radius, 2.0, 0.0}, {}, {method, 0, threads});
  if (!made) throw std::runtime_error(made.message());
  DentTarget t = std::move(made).value();
  // The aim: a plate node near the centre (offset a little so the 9-point case is a node's ring).
  const double h = 1.0 / c.cells;
  const Vec3 aim(h * std::round(0.5 * c.cells), h * std::round(0.5 * c.cells), 0.0);
  Projectile p;
  double lift = 0.05;
  if (c.sphere_rings > 0) {
    p.shape = sphere(0.1, c.sphere_rings, c.sphere_segments);
    lift += 0.1;
  }
  p.position = aim + Vec3(0.0, 0.0, lift);
  p.velocity = Vec3(0.0, 0.0, -1.0);
  p.acceleration = Vec3(0.0, 0.0, -3.0);
  p.contact_deceleration = 12.0;
  Timing out;
  double total = 0;
  for (int shot = 0; shot < 2; ++shot) {
    const Index id = t.launch(p);
    for (int frame = 0; frame < 240; ++frame) {
      Stopwatch clock;
      t.step(1.0 / 60.0);
      const double ms = clock.seconds() * 1e3;
      total += ms;
      ++out.frames;
      out.worst_ms = std::max(out.worst_ms, ms);
      const ProjectilePhase phase = t.status(id).phase;
      if (phase == ProjectilePhase::stopped || phase == ProjectilePhase::passed) break;
    }
    out.affected = std::max(out.affected, static_cast<Index>(t.dent(id).nodes.size()));
  }
  out.mean_ms = total / std::max(1, out.frames);
  return out;
}

nlohmann::json run_impact(const Context& context) {
  std::vector<Case> cases;
  // Part 1: the source's targets (289 and 1,089 points), 9 affected points (φ = 1.7 spacings), then
  // tens and hundreds of affected points.
  for (int n : {16, 32}) {
    cases.push_back({"source", n, 1.7 / n});
    cases.push_back({"source", n, 4.0 / n});
    cases.push_back({"source", n, 10.0 / n});
  }
  // Part 2: 10k, 100k, 1M triangles.
  std::vector<int> sizes = {71};
  if (!context.quick) sizes = {71, 224, 708};
  for (int n : sizes) {
    cases.push_back({"scale", n, 0.02});
    cases.push_back({"scale", n, 0.1});
    cases.push_back({"scale", n, 0.03, 16, 32});
    if (!context.quick) cases.push_back({"scale", n, 0.03, 50, 100});
  }
  nlohmann::json runs = nlohmann::json::array();
  fmt::print("{:<7} {:>9} {:>6} {:>8} {:>12} {:>9} {:>8} {:>10} {:>10}\n", "part", "triangles", "proj",
             "proj_tri", "method", "phi_m", "affected", "worst_ms", "mean_ms");
  for (const Case& c : cases) {
    const Index tris = 2 * c.cells * c.cells;
    const bool mesh = c.sphere_rings > 0;
    const Index ptris = mesh ? 2 * c.sphere_segments * (c.sphere_rings - 1) : 0;
    const double per_frame = static_cast<double>(tris) * (mesh ? ptris / 2.0 : 1.0);
    for (ImpactMethod method : {ImpactMethod::brute_force, ImpactMethod::octree, ImpactMethod::bvh_grid}) {
      if (method == ImpactMethod::brute_force && (per_frame > 1e7 || (context.quick && mesh))) continue;
      const Timing r = run_case(c, method, context.threads);
      fmt::print("{:<7} {:>9} {:>6} {:>8} {:>12} {:>9.4f} {:>8} {:>10.3f} {:>10.3f}\n", c.part, tris,
                 mesh ? "mesh" : "point", ptris, to_string(method), c.radius, r.affected, r.worst_ms,
                 r.mean_ms);
      runs.push_back({{"part", c.part},
                      {"triangles", tris},
                      {"points", (c.cells + 1) * (c.cells + 1)},
                      {"projectile", mesh ? "mesh" : "point"},
                      {"projectile_triangles", ptris},
                      {"method", to_string(method)},
                      {"falloff_radius_m", c.radius},
                      {"affected_points", r.affected},
                      {"frames", r.frames},
                      {"worst_frame_ms", r.worst_ms},
                      {"mean_frame_ms", r.mean_ms}});
    }
  }
  return {
      {"runs", runs},
      {"setup",
       "plate 1 m x 1 m, R = 0.2, r = 2; projectile 1 m/s, 3 m/s^2 toward the plate, contact deceleration "
       "12 m/s^2; sphere radius 0.1 m; two shots at one spot; 60 Hz steps; every step timed"}};
}

}  // namespace

PLIANT_REGISTER_BENCH(
    "impact",
    "Milanovic's dents: frame times of point and mesh projectiles, octree vs BVH+grid vs brute force",
    run_impact);

}  // namespace pliant::bench
