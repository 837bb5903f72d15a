// Table 2.1 membrane scenes and the settling loop (Grimm 2005, section 2.3.5 convergence test).
#include "pliant/models/springs/scenes.hpp"

#include "pliant/core/timing.hpp"
#include "pliant/meshing/disc_membrane.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

MembraneSceneDef table21_membrane_def() { return {}; }

MembraneSceneDef small_membrane_def() {
  MembraneSceneDef d;
  d.nodes = 630;
  d.boundary_nodes = 88;
  return d;
}

Result<MembraneScene> membrane_scene(const MembraneSceneDef& def) {
  auto disc = meshing::disc_membrane(def.radius, def.nodes, def.boundary_nodes);
  if (!disc) return disc.error();
  auto built = build_spring_mesh(*disc, def.springs);
  if (!built) return built.error();
  MembraneScene scene;
  scene.mesh = std::move(built).value();
  SpringMesh& m = scene.mesh;
  if (def.fix_rim) {
    for (Index s = 0; s < m.spring_count(); ++s) {
      const auto& st = m.spring_triangles[at(s)];
      if (st[0] >= 0 && st[1] < 0) {
        m.set_fixed(m.spring_nodes[at(s)][0], true);
        m.set_fixed(m.spring_nodes[at(s)][1], true);
      }
    }
  }
  Vec3 centroid = Vec3::Zero();
  for (const Vec3& p : m.rest_position) centroid += p;
  centroid /= static_cast<double>(m.node_count());
  Index best = 0;
  double best_d = INFINITY;
  for (Index i = 0; i < m.node_count(); ++i) {
    const double d = (m.rest_position[at(i)] - centroid).squaredNorm();
    if (d < best_d) best_d = d, best = i;
  }
  scene.interaction_node = best;
  scene.target = m.rest_position[at(best)] + def.displacement;
  m.position[at(best)] = scene.target;
  m.set_fixed(best, true);
  scene.mesh_size = mean_rest_length(m);
  return scene;
}

void set_spring_parameters(SpringMesh& mesh, double stiffness, double damping) {
  std::fill(mesh.stiffness.begin(), mesh.stiffness.end(), stiffness);
  std::fill(mesh.damping.begin(), mesh.damping.end(), damping);
  for (std::size_t s = 0; s < mesh.stiffness.size(); ++s) mesh.stiffness[s] *= mesh.spring_factor[s];
}

SettleResult settle(const MembraneScene& scene, const MethodDef& def, int max_steps, bool want_1e4) {
  SpringMesh mesh = scene.mesh;
  MethodStepper stepper(def);
  const Index nodes[1] = {scene.interaction_node};
  stepper.set_interaction(mesh, nodes);
  std::vector<Vec3> previous = mesh.position;
  const double tol3 = 1e-3 * scene.mesh_size, tol4 = 1e-4 * scene.mesh_size;
  double extent = 0.0;
  for (const Vec3& p : mesh.rest_position) extent = std::max(extent, p.norm());
  const double box = 100.0 * std::max(extent, scene.mesh_size);
  SettleResult r;
  for (int step = 0; step < max_steps; ++step) {
    Stopwatch watch;
    stepper.step(mesh);
    const double ms = watch.ms();
    double motion = 0.0;
    bool finite = true;
    for (std::size_t i = 0; i < mesh.position.size(); ++i) {
      const Vec3& p = mesh.position[i];
      if (!p.allFinite() || p.norm() > box) finite = false;
      motion = std::max(motion, (p - previous[i]).norm());
      previous[i] = p;
    }
    if (!finite) {
      r.stable = false;
      r.steps = r.steps_1e4 = -1;
      return r;
    }
    // The first step is never the settled one: explicit Euler moves nothing in its first step (the
    // velocities are still zero), which would otherwise read as "settled".
    if (r.steps < 0) {
      if (motion < tol3 && step > 0) {
        r.steps = step;
      } else {
        r.total_ms += ms;
        r.max_ms = std::max(r.max_ms, ms);
      }
    }
    if (r.steps >= 0 && (!want_1e4 || motion < tol4)) {
      if (want_1e4) r.steps_1e4 = step;
      break;
    }
  }
  if (r.steps > 0) r.mean_ms = r.total_ms / r.steps;
  return r;
}

}  // namespace pliant::springs
