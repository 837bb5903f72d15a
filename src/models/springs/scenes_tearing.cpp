// Tearing scenes (J. Grimm, doctoral thesis, Universität Mannheim 2005, section 3.3.4: the recorded
// cylinder moving through membranes of 272/758/486, 3367/9900/6534 and 8587/25440/16854
// nodes/springs/triangles, the bursting balloon of figure 3.8; the EYESI capsulorhexis of the
// applications chapter).
#include "pliant/models/springs/scenes_tearing.hpp"

#include "pliant/core/cylinder.hpp"
#include "pliant/core/track.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/models/springs/forces.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::springs {
namespace {

inline std::size_t u(Index i) { return static_cast<std::size_t>(i); }

void fix_rim(SpringMesh& m) {
  for (Index s = 0; s < m.spring_count(); ++s) {
    const auto& st = m.spring_triangles[u(s)];
    if ((st[0] >= 0) != (st[1] >= 0))
      for (Index x : m.spring_nodes[u(s)]) m.set_fixed(x, true);
  }
}

Index nearest(const SpringMesh& m, const Vec3& p) {
  Index best = 0;
  for (Index i = 1; i < m.node_count(); ++i)
    if ((m.rest_position[u(i)] - p).squaredNorm() < (m.rest_position[u(best)] - p).squaredNorm()) best = i;
  return best;
}

// Appends a fixed handle node at `where` hanging on springs to nodes a and b (no triangle), with the
// mass of node a and the stiffness, damping and stretch limit of spring 0.
void add_handle(SpringMesh& m, const Vec3& where, Index a, Index b) {
  const Index h = m.append_nodes({&where, 1});
  m.mass[u(h)] = m.mass[u(a)];
  m.set_fixed(h, true);
  const double k = m.stiffness[0], c = m.damping[0], stretch = m.max_length[0] / m.rest_length[0];
  for (Index x : {a, b}) {
    const double l0 = (m.rest_position[u(x)] - where).norm();
    m.append_spring({h, x}, l0, k, c, stretch * l0);
  }
}

// Thresholds given in units of k · l0 -> node stresses (unit: N).
TearingDef scaled(TearingDef t, double k, double l0) {
  t.seed_threshold *= k * l0;
  t.edge_threshold *= k * l0;
  t.inner_threshold *= k * l0;
  return t;
}

}  // namespace

Vec3 Trajectory::at(double t) const {
  return track_value(
      std::min(times.size(), positions.size()), [this](std::size_t k) { return times[k]; },
      [this](std::size_t k) { return positions[k]; }, t);
}

void TearingScene::step() {
  const double dt = integrator.def().dt;
  time += dt;
  events.clear();
  if (!grabbed.empty()) {
    const Vec3 shift = grab_path.at(time) - grab_path.at(0.0);
    for (std::size_t i = 0; i < grabbed.size(); ++i) {
      if (grabbed[i] < 0 || grabbed[i] >= mesh.node_count()) continue;
      mesh.position[u(grabbed[i])] = grab_start[i] + shift;
      mesh.velocity[u(grabbed[i])] = Vec3::Zero();
    }
  }
  Loads loads;
  if (pressure != 0.0) {
    external_.assign(u(mesh.node_count()), Vec3::Zero());
    for (Index t = 0; t < mesh.triangle_count(); ++t) {
      const Tri& tn = mesh.tri_nodes[u(t)];
      const Vec3& a = mesh.position[u(tn[0])];
      // pressure × area vector, a third to each corner (unit: N)
      const Vec3 f = pressure / 6.0 * (mesh.position[u(tn[1])] - a).cross(mesh.position[u(tn[2])] - a);
      for (Index x : tn) external_[u(x)] += f;
    }
    loads.external = external_;
  }
  integrator.step(mesh, loads);
  if (!all_events.empty() && pressure_decay > 0.0) pressure *= std::exp(-dt / pressure_decay);

  if (has_tool) {
    const Cylinder cylinder{tool.path.at(time), tool.axis, tool.radius, tool.half_length};
    for (Index i = 0; i < mesh.node_count(); ++i) {
      if (mesh.fixed(i)) continue;
      const std::optional<CylinderContact> c = cylinder_contact(cylinder, mesh.position[u(i)]);
      if (!c) continue;
      // Out along the radial direction onto the surface.
      mesh.position[u(i)] = cylinder_surface_point(cylinder, *c);
      mesh.velocity[u(i)] = Vec3::Zero();
    }
  }

  if (method == TearingMethod::area_preserving) {
    for (int k = 0; k < tears_per_step; ++k) {
      if (tearing.step(mesh) == 0) break;
      events.insert(events.end(), tearing.events().begin(), tearing.events().end());
    }
  } else if (method == TearingMethod::deletion) {
    if (deletion.step(mesh) > 0) {
      events.insert(events.end(), deletion.events().begin(), deletion.events().end());
      for (Index& g : grabbed)
        if (g >= 0) g = deletion.node_map()[u(g)];
    }
  }
  if (!events.empty()) all_events.insert(all_events.end(), events.begin(), events.end());
}

void TearingScene::run_until(double t_end) {
  while (time < t_end - 1e-12) step();
}

// ---------------------------------------------------------------------------------------------------

CylinderSceneDef cylinder_scene_def(int resolution, TearingMethod method) {
  CylinderSceneDef def;
  def.rings = resolution <= 0 ? 9 : (resolution == 1 ? 33 : 53);
  def.method = method;
  // The tool is about one coarse edge wide whatever the resolution, as in the recorded interaction.
  return def;
}

Trajectory cylinder_tool_path(const CylinderSceneDef& def) {
  Trajectory path;
  const double r = def.radius, d = def.duration;
  path.times = {0.0, 0.3 * d, d};
  path.positions = {Vec3(-0.4 * r, 0.0, def.tool_radius + 0.002), Vec3(-0.3 * r, 0.0, -0.3 * r),
                    Vec3(0.4 * r, 0.0, -0.4 * r)};
  return path;
}

Result<TearingScene> cylinder_scene(const CylinderSceneDef& def) {
  auto tri = meshing::hex_disc({.radius = def.radius, .rings = def.rings});
  if (!tri) return Error{"cylinder scene: " + tri.message()};
  auto built = build_spring_mesh(*tri, def.springs);
  if (!built) return Error{"cylinder scene: " + built.message()};
  TearingScene scene;
  scene.mesh = std::move(built).value();
  fix_rim(scene.mesh);
  const bool handle = def.handle < 0 ? def.rings == 9 : def.handle > 0;
  if (handle) {
    // A fixed handle beyond the +x corner, hanging on that corner and its neighbour on the rim.
    const double edge = def.radius / static_cast<double>(def.rings);
    const Index corner = nearest(scene.mesh, Vec3(def.radius, 0, 0));
    Index next = -1;
    for (Index s : scene.mesh.node_springs.of(corner)) {
      const auto& st = scene.mesh.spring_triangles[u(s)];
      if ((st[0] >= 0) != (st[1] >= 0)) {
        next = scene.mesh.other_end(s, corner);
        break;
      }
    }
    add_handle(scene.mesh, Vec3(def.radius + edge, 0.5 * edge, 0), corner, next);
  }
  scene.integrator.set_def({.scheme = Scheme::symplectic_euler, .dt = def.dt});
  scene.method = def.method;
  scene.tearing.set_def(
      scaled(def.thresholds, def.springs.stiffness, def.radius / static_cast<double>(def.rings)));
  scene.has_tool = true;
  scene.tool.radius = def.tool_radius;
  scene.tool.half_length = 2.0 * def.radius;
  scene.tool.path = cylinder_tool_path(def);
  return scene;
}

// ---------------------------------------------------------------------------------------------------

Result<TearingScene> balloon_scene(const BalloonSceneDef& def, double* initial_stress) {
  if (!(def.inflation > 1.0)) return Error{"balloon scene: inflation must be > 1"};
  if (!(def.seed_ratio > 0.0 && def.edge_to_seed > 0.0 && def.inner_ratio > 0.0))
    return Error{"balloon scene: threshold ratios must be > 0"};
  auto sphere = meshing::icosphere({.radius = def.radius, .subdivisions = def.subdivisions});
  if (!sphere) return Error{"balloon scene: " + sphere.message()};
  auto built = build_spring_mesh(*sphere, def.springs);
  if (!built) return Error{"balloon scene: " + built.message()};
  TearingScene scene;
  scene.mesh = std::move(built).value();
  SpringMesh& m = scene.mesh;
  for (auto& p : m.position) p *= def.inflation;

  // The pressure that holds the inflated sphere: Σ spring force · n̂ + p Σ (area vector / 3) · n̂ = 0.
  std::vector<Vec3> force(u(m.node_count()), Vec3::Zero());
  accumulate_forces(m, m.position, m.velocity, Loads{}, force);
  std::vector<Vec3> area(u(m.node_count()), Vec3::Zero());
  for (const Tri& tn : m.tri_nodes) {
    const Vec3& a = m.position[u(tn[0])];
    const Vec3 av = (m.position[u(tn[1])] - a).cross(m.position[u(tn[2])] - a) / 6.0;
    for (Index x : tn) area[u(x)] += av;
  }
  double spring_out = 0.0, area_out = 0.0, stress = 0.0;
  for (Index i = 0; i < m.node_count(); ++i) {
    const Vec3 n = m.position[u(i)].normalized();
    spring_out += force[u(i)].dot(n);
    area_out += area[u(i)].dot(n);
    stress += node_stress(m, i);
  }
  const double s0 = stress / static_cast<double>(m.node_count());
  if (initial_stress) *initial_stress = s0;
  scene.pressure = -spring_out / area_out;
  scene.pressure_decay = def.pressure_decay;
  scene.integrator.set_def({.scheme = Scheme::symplectic_euler, .dt = def.dt});
  scene.method = TearingMethod::area_preserving;
  scene.tears_per_step = def.tears_per_step;
  const double seed = def.seed_ratio * s0;
  scene.tearing.set_def({.seed_threshold = seed,
                         .edge_threshold = def.edge_to_seed * seed,
                         .inner_threshold = def.inner_ratio * s0});

  // The puncture: a hole at the top node.
  Index top = 0;
  for (Index i = 1; i < m.node_count(); ++i)
    if (m.position[u(i)].z() > m.position[u(top)].z()) top = i;
  if (scene.tearing.tear_node(m, top) == 0) return Error{"balloon scene: the puncture did not open"};
  scene.all_events.assign(scene.tearing.events().begin(), scene.tearing.events().end());
  return scene;
}

// ---------------------------------------------------------------------------------------------------

Result<TearingScene> capsulorhexis_scene(const CapsulorhexisSceneDef& def) {
  if (!(def.start_radius > 0.0 && def.start_radius < def.radius))
    return Error{"capsulorhexis scene: start_radius must lie inside the disc"};
  if (!(def.duration > 0.0)) return Error{"capsulorhexis scene: duration must be > 0"};
  auto tri = meshing::hex_disc({.radius = def.radius, .rings = def.rings});
  if (!tri) return Error{"capsulorhexis scene: " + tri.message()};
  auto built = build_spring_mesh(*tri, def.springs);
  if (!built) return Error{"capsulorhexis scene: " + built.message()};
  TearingScene scene;
  scene.mesh = std::move(built).value();
  fix_rim(scene.mesh);
  scene.integrator.set_def({.scheme = Scheme::symplectic_euler, .dt = def.dt});
  scene.method = TearingMethod::area_preserving;
  scene.tearing.set_def(
      scaled(def.thresholds, def.springs.stiffness, def.radius / static_cast<double>(def.rings)));

  // The initial cut: a hole at the start radius; its copy is the flap the forceps grab.
  const Index start = nearest(scene.mesh, Vec3(def.start_radius, 0, 0));
  if (scene.tearing.tear_node(scene.mesh, start) == 0)
    return Error{"capsulorhexis scene: the cut did not open"};
  scene.all_events.assign(scene.tearing.events().begin(), scene.tearing.events().end());
  // The flap: the copy made by the cut and its neighbours, except the two slit tips.
  const TearEvent cut = scene.tearing.events()[0];
  const Index flap = cut.new_node;
  std::vector<Index> tips;
  for (Index s : scene.mesh.node_springs.of(flap)) {
    const auto& st = scene.mesh.spring_triangles[u(s)];
    if ((st[0] >= 0) != (st[1] >= 0)) tips.push_back(scene.mesh.other_end(s, flap));
  }
  scene.grabbed.push_back(flap);
  for (Index s : scene.mesh.node_springs.of(flap)) {
    const Index x = scene.mesh.other_end(s, flap);
    if (std::find(tips.begin(), tips.end(), x) == tips.end()) scene.grabbed.push_back(x);
  }
  for (Index g : scene.grabbed) {
    scene.mesh.set_fixed(g, true);
    scene.grab_start.push_back(scene.mesh.position[u(g)]);
  }
  const Vec3 p0 = scene.mesh.position[u(flap)];
  const double r0 = std::hypot(p0.x(), p0.y()), a0 = std::atan2(p0.y(), p0.x());
  const int samples = 64;
  for (int i = 0; i <= samples; ++i) {
    const double f = static_cast<double>(i) / samples;
    const double ang = a0 + f * def.turn;
    const double lift = def.lift * std::min(1.0, 10.0 * f);
    scene.grab_path.times.push_back(f * def.duration);
    scene.grab_path.positions.push_back(Vec3(r0 * std::cos(ang), r0 * std::sin(ang), p0.z() + lift));
  }
  return scene;
}

}  // namespace pliant::springs
