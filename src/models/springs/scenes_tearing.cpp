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

// The thesis' scenes integrate with symplectic Euler (stable for ω h < 2) and no extra damping.
MethodDef symplectic(double dt) {
  return {.method = Method::mass_spring, .dt = dt, .scheme = Scheme::symplectic_euler};
}

}  // namespace

void TearingScene::step() {
  const double dt = body.def().method.dt;
  time += dt;
  if (!grabs.empty()) {
    const Vec3 shift = grab_path.at(time) - grab_path.at(0.0);
    for (std::size_t i = 0; i < grabs.size(); ++i) body.move_grab(grabs[i], grab_start[i] + shift);
  }
  if (has_tool) {
    const Cylinder cylinder{tool.path.at(time), tool.axis, tool.radius, tool.half_length};
    body.set_obstacles({&cylinder, 1});
  }
  body.step(dt, profile);
  events.assign(body.tear_events().begin(), body.tear_events().end());
  all_events.insert(all_events.end(), events.begin(), events.end());
}

void TearingScene::run_until(double t_end) {
  while (time < t_end - 1e-12) step();
}

// ---------------------------------------------------------------------------------------------------

CylinderSceneDef cylinder_scene_def(int resolution, TearMode mode) {
  CylinderSceneDef def;
  def.rings = resolution <= 0 ? 9 : (resolution == 1 ? 33 : 53);
  def.tear_mode = mode;
  // The tool is about one coarse edge wide whatever the resolution, as in the recorded interaction.
  return def;
}

Track cylinder_tool_path(const CylinderSceneDef& def) {
  Track path;
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
  SpringMesh mesh = std::move(built).value();
  fix_rim(mesh);
  const bool handle = def.handle < 0 ? def.rings == 9 : def.handle > 0;
  if (handle) {
    // A fixed handle beyond the +x corner, hanging on that corner and its neighbour on the rim.
    const double edge = def.radius / static_cast<double>(def.rings);
    const Index corner = nearest(mesh, Vec3(def.radius, 0, 0));
    Index next = -1;
    for (Index s : mesh.node_springs.of(corner)) {
      const auto& st = mesh.spring_triangles[u(s)];
      if ((st[0] >= 0) != (st[1] >= 0)) {
        next = mesh.other_end(s, corner);
        break;
      }
    }
    add_handle(mesh, Vec3(def.radius + edge, 0.5 * edge, 0), corner, next);
  }
  TearingScene scene{
      .body = SpringsBody(std::move(mesh), {.method = symplectic(def.dt),
                                            .tear_mode = def.tear_mode,
                                            .tearing = scaled(def.thresholds, def.springs.stiffness,
                                                              def.radius / static_cast<double>(def.rings))})};
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
  SpringMesh m = std::move(built).value();
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
  const double seed = def.seed_ratio * s0;
  // The puncture: a hole at the top node.
  Index top = 0;
  for (Index i = 1; i < m.node_count(); ++i)
    if (m.position[u(i)].z() > m.position[u(top)].z()) top = i;
  TearingScene scene{.body = SpringsBody(std::move(m), {.method = symplectic(def.dt),
                                                        .tear_mode = TearMode::area_preserving,
                                                        .tearing = {.seed_threshold = seed,
                                                                    .edge_threshold = def.edge_to_seed * seed,
                                                                    .inner_threshold = def.inner_ratio * s0},
                                                        .tears_per_step = def.tears_per_step,
                                                        .pressure = -spring_out / area_out,
                                                        .pressure_decay = def.pressure_decay})};
  if (scene.body.cut(top) == 0) return Error{"balloon scene: the puncture did not open"};
  scene.all_events.assign(scene.body.tear_events().begin(), scene.body.tear_events().end());
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
  SpringMesh mesh = std::move(built).value();
  fix_rim(mesh);
  // The initial cut: a hole at the start radius; its copy is the flap the forceps grab.
  const Index start = nearest(mesh, Vec3(def.start_radius, 0, 0));
  TearingScene scene{
      .body = SpringsBody(std::move(mesh), {.method = symplectic(def.dt),
                                            .tear_mode = TearMode::area_preserving,
                                            .tearing = scaled(def.thresholds, def.springs.stiffness,
                                                              def.radius / static_cast<double>(def.rings))})};
  if (scene.body.cut(start) == 0) return Error{"capsulorhexis scene: the cut did not open"};
  scene.all_events.assign(scene.body.tear_events().begin(), scene.body.tear_events().end());
  // The flap: the copy made by the cut and its neighbours, except the two slit tips.
  const SpringMesh& m = scene.mesh();
  const Index flap = scene.body.tear_events()[0].new_node;
  std::vector<Index> tips, held{flap};
  for (Index s : m.node_springs.of(flap)) {
    const auto& st = m.spring_triangles[u(s)];
    if ((st[0] >= 0) != (st[1] >= 0)) tips.push_back(m.other_end(s, flap));
  }
  for (Index s : m.node_springs.of(flap)) {
    const Index x = m.other_end(s, flap);
    if (std::find(tips.begin(), tips.end(), x) == tips.end()) held.push_back(x);
  }
  for (Index g : held) {
    scene.grabs.push_back(scene.body.grab(g));
    scene.grab_start.push_back(m.position[u(g)]);
  }
  const Vec3 p0 = m.position[u(flap)];
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
