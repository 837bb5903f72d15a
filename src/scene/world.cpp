#include "pliant/scene/world.hpp"

#include "pliant/core/cylinder.hpp"
#include "pliant/core/hash.hpp"
#include "pliant/core/track.hpp"
#include "pliant/scene/capabilities.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pliant::scene {

Vec3 offset_at(const std::vector<Keyframe>& track, double t) {
  return track_value(
      track.size(), [&](std::size_t k) { return track[k].t; }, [&](std::size_t k) { return track[k].offset; },
      t);
}

Index World::add_body(std::unique_ptr<Body> body) {
  bodies_.push_back(std::move(body));
  body_profiles_.emplace_back();
  return static_cast<Index>(bodies_.size() - 1);
}

std::optional<WorldHit> World::pick(const Ray& ray) {
  picker_.resize(bodies_.size());
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Body& body = *bodies_[b];
    picker_.update(b, body.surface_positions(), body.surface_triangles(), body.surface_topology_version());
  }
  const std::optional<SurfaceHit> hit = picker_.pick(ray);
  if (!hit) return std::nullopt;
  return WorldHit{static_cast<Index>(hit->surface),
                  {hit->hit.triangle, hit->hit.u, hit->hit.v},
                  ray.at(hit->hit.t),
                  hit->hit.t};
}

void World::step() {
  // Interactions act at the time the step ends: targets are where handles should be after it.
  const double t = time_ + dt_;
  Stopwatch watch;
  for (ScriptedGrab& g : grabs_) {
    if (g.done) continue;
    if (!g.id.valid()) follow_topology(g.body, g.point, g.rest_anchor, g.topology_version, g.placed);
    if (t < g.start) continue;
    Body& b = body(g.body);
    if (!g.id.valid()) {
      g.anchor = point_on(b.surface_positions(), b.surface_triangles(), g.point);
      g.id = b.grab_patch(g.point, g.radius);
    }
    if (g.release > g.start && t >= g.release) {
      b.release(g.id);
      g.done = true;
      continue;
    }
    b.move_grab(g.id, g.anchor + offset_at(g.track, t - g.start));
  }
  for (ForceProbe& p : probes_) apply_probe(p, t);
  for (ScriptedTool& tool : tools_) apply_tool(tool, t);
  for (ScriptedProjectile& p : projectiles_) apply_projectile(p, t);
  for (ScriptedBlade& blade : blades_) apply_blade(blade, t);
  place_instruments(t);
  profile_.record("apply_interactions", watch.ms());

  const bool contact = contact_wanted();
  if (contact) {
    watch.reset();
    contact_detect(t);
    profile_.record("contact.detect", watch.ms());
    watch.reset();
    contact_solve(t);
    profile_.record("contact.solve", watch.ms());
  }

  watch.reset();
  for (std::size_t i = 0; i < bodies_.size(); ++i) bodies_[i]->step(dt_, body_profiles_[i]);
  profile_.record("solve", watch.ms());

  if (std::any_of(render_meshes_.begin(), render_meshes_.end(),
                  [](const auto& r) { return r.has_value(); })) {
    watch.reset();
    for (std::size_t i = 0; i < render_meshes_.size(); ++i)
      if (render_meshes_[i]) render_meshes_[i]->update(*bodies_[i]);
    profile_.record("render_meshes", watch.ms());
  }

  watch.reset();
  time_ = t;
  ++steps_;
  events_.clear();
  if (contact) contact_report();
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    bodies_[i]->events().for_each([&](const EventEntry& e) {
      events_.push_back({static_cast<Index>(i), time_, e.category, e.brief});
    });
  }
  profile_.record("emit_events", watch.ms());

  if (std::any_of(std::begin(haptic_), std::end(haptic_),
                  [](const HapticBinding& h) { return h.active(); })) {
    watch.reset();
    publish_haptics();
    profile_.record("publish_haptics", watch.ms());
  }
}

void World::set_render_mesh(Index b, RenderMesh mesh) {
  if (b < 0 || static_cast<std::size_t>(b) >= bodies_.size()) return;
  render_meshes_.resize(bodies_.size());
  render_meshes_[static_cast<std::size_t>(b)] = std::move(mesh);
}

const RenderMesh* World::render_mesh(Index b) const {
  if (b < 0 || static_cast<std::size_t>(b) >= render_meshes_.size() ||
      !render_meshes_[static_cast<std::size_t>(b)])
    return nullptr;
  return &*render_meshes_[static_cast<std::size_t>(b)];
}

bool World::bind_haptic_grab(int contact, Index body_index, GrabId grab, const Vec3& target) {
  if (contact < 0 || contact >= kMaxHapticContacts || body_index < 0 ||
      static_cast<std::size_t>(body_index) >= bodies_.size() || !body(body_index).holds(grab) ||
      !target.allFinite())
    return false;
  haptic_[contact] = {};
  haptic_[contact].body = body_index;
  haptic_[contact].grab = grab;
  haptic_[contact].target = target;
  body(body_index).move_grab(grab, target);
  publish_haptics();
  return true;
}

bool World::bind_haptic_instrument(int contact, Index instrument, const Vec3& tip) {
  if (contact < 0 || contact >= kMaxHapticContacts || instrument < 0 ||
      static_cast<std::size_t>(instrument) >= instruments_.size() || !tip.allFinite())
    return false;
  haptic_[contact] = {};
  haptic_[contact].instrument = instrument;
  haptic_[contact].target = tip;
  publish_haptics();
  return true;
}

void World::move_haptic_grab(int contact, const Vec3& target) {
  if (contact < 0 || contact >= kMaxHapticContacts || !haptic_[contact].active()) return;
  haptic_[contact].target = target;
  if (haptic_[contact].instrument >= 0) return;  // place_instruments moves its tip at the next step
  body(haptic_[contact].body).move_grab(haptic_[contact].grab, target);
}

void World::unbind_haptic_grab(int contact) {
  if (contact < 0 || contact >= kMaxHapticContacts) return;
  haptic_[contact] = {};
  publish_haptics();
}

namespace {

// A body without a local compliance (fem, springs, meshless) reports its grab reaction once per step.
// A haptic coupling whose proxy assumed a zero stiffness there would move the grab by F/k each step,
// a fixed-point iteration that diverges once the body is stiffer than the coupling; with a stiffness
// estimate K̂ the error shrinks by |K̂ − K| / (k + K̂) per step, which is < 1 for any overestimate (and
// an overestimate renders dissipatively). So: twice the secant stiffness along the grab's last move,
// −ΔF·Δx / |Δx|², held at its peak and let decay slowly (5 % per step) so that a step with little
// motion or a noisy reaction does not drop it. Until a move has measured it, a stiffness above any
// tissue's stands in: the proxy then moves a little, which measures it. A negative stored value marks
// "not measured yet".
constexpr double kSecantDecay = 0.95;
constexpr double kSecantMargin = 2.0;
constexpr double kSecantUnmeasured = 1e5;  // (unit: N/m)
constexpr double kSecantMinMove = 1e-7;    // smaller moves give no stiffness estimate (unit: m)

}  // namespace

double World::secant_stiffness(HapticBinding& h, const Vec3& target, const Vec3& force) {
  if (!h.published) {
    h.secant_stiffness = -kSecantUnmeasured;
  } else {
    const Vec3 dx = target - h.published_target;
    const double d2 = dx.squaredNorm();
    const double k = d2 > kSecantMinMove * kSecantMinMove ? -(force - h.published_force).dot(dx) / d2 : 0.0;
    const bool measured = std::isfinite(k) && k > 0.0;
    if (h.secant_stiffness < 0.0) {
      if (measured) h.secant_stiffness = kSecantMargin * k;
    } else {
      h.secant_stiffness *= kSecantDecay;
      if (measured) h.secant_stiffness = std::max(h.secant_stiffness, kSecantMargin * k);
    }
  }
  h.published_target = target;
  h.published_force = force;
  h.published = true;
  return std::abs(h.secant_stiffness);
}

void World::publish_haptics() {
  HapticSnapshot snap;
  snap.step = steps_;
  snap.time = time_;
  for (int c = 0; c < kMaxHapticContacts; ++c) {
    const HapticBinding& h = haptic_[c];
    HapticContact& out = snap.contacts[c];
    out.active = h.active();
    if (!out.active) continue;
    if (h.instrument >= 0) {
      // The instrument: the force of every body it holds in contact, and the stiffness of those
      // contacts moved together with its tip (exact over Green bodies; else the secant estimate).
      out.position = instrument_pose(h.instrument).position;
      out.force = instrument_force(h.instrument);
      out.contacts = instrument_contacts(h.instrument);
      bool exact = true;
      const Mat3 k = instrument_stiffness(h.instrument, exact);
      out.stiffness_exact = exact;
      if (out.contacts == 0) {
        // Free: nothing to feel; a secant measured now would read the first touch as infinitely stiff.
        out.stiffness.setZero();
        haptic_[c].published = false;
      } else if (exact) {
        out.stiffness = k;
      } else {
        out.stiffness = -secant_stiffness(haptic_[c], out.position, out.force) * Mat3::Identity();
      }
      continue;
    }
    const Body& b = body(h.body);
    out.position = h.target;
    out.force = b.grab_reaction(h.grab);
    // The tool feels −C⁻¹ per metre it moves, C the body's compliance at the grab (m/N).
    const Mat3 compliance = b.grab_compliance(h.grab);
    const Eigen::FullPivLU<Mat3> lu(compliance);
    out.contacts = 1;
    out.stiffness_exact = lu.isInvertible();
    if (lu.isInvertible()) {
      out.stiffness = -lu.inverse();
    } else {
      out.stiffness = -secant_stiffness(haptic_[c], out.position, out.force) * Mat3::Identity();
    }
  }
  haptics_.publish(snap);
}

const World::NodeCorners& World::node_corners(Index b) {
  node_corners_.resize(bodies_.size());
  const Body& body = *bodies_[static_cast<std::size_t>(b)];
  const std::size_t n = body.surface_positions().size();
  NodeCorners& nc = node_corners_[static_cast<std::size_t>(b)];
  if (nc.version != body.surface_topology_version() || nc.point.size() != n) {
    const auto tris = body.surface_triangles();
    nc.version = body.surface_topology_version();
    nc.point.assign(n, SurfacePoint{-1, 0.0, 0.0});
    for (std::size_t k = 0; k < tris.size(); ++k) {
      for (int c = 0; c < 3; ++c) {
        SurfacePoint& p = nc.point[static_cast<std::size_t>(tris[k][c])];
        if (p.triangle < 0) p = {static_cast<Index>(k), c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
      }
    }
  }
  return nc;
}

void World::follow_topology(Index body_index, SurfacePoint& point, Vec3& rest_anchor, std::uint64_t& version,
                            bool& placed) {
  Body& b = body(body_index);
  if (!placed) {
    rest_anchor = point_on(b.surface_rest_positions(), b.surface_triangles(), point);
    version = b.surface_topology_version();
    placed = true;
  }
  if (version != b.surface_topology_version()) {
    // Triangles were renumbered (tearing): hold on at the surface node nearest the old rest position.
    const NodeCorners& nc = node_corners(body_index);
    const auto rest = b.surface_rest_positions();
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < nc.point.size(); ++i) {
      if (nc.point[i].triangle < 0) continue;
      const double d = (rest[i] - rest_anchor).squaredNorm();
      if (d < best) best = d, point = nc.point[i];
    }
    version = b.surface_topology_version();
  }
}

void World::apply_projectile(ScriptedProjectile& p, double t) {
  if (p.done || t < p.time) return;
  if (!p.launched) {
    p.launched = true;
    p.position = p.start;
    p.current_velocity = p.velocity;
  }
  ProjectileState state;
  state.position = p.position;
  state.velocity = p.current_velocity;
  state.acceleration = p.acceleration;
  state.mass = p.mass;
  state.shape = p.shape.get();
  if (p.shape) {
    for (const Vec3& x : p.shape->positions) state.radius = std::max(state.radius, x.norm());
  }
  // Impact targets first: one that absorbs the projectile carries it from here.
  for (std::size_t i = 0; i < bodies_.size(); ++i) {
    ImpactTarget* target = capability<ImpactTarget>(*bodies_[i]);
    if (!target) continue;
    const Vec3 dv = target->impact(state, dt_);
    if (dv != Vec3::Zero()) {
      p.current_velocity += dv;
      p.done = true;
      p.hit_body = static_cast<Index>(i);
      return;
    }
  }
  const Vec3 travel = dt_ * p.current_velocity + 0.5 * dt_ * dt_ * p.acceleration;
  // The impact targets have answered; the picking ray is for the other bodies, and refitting a
  // picking tree over a large impact target every step (1M triangles: tens of ms) is avoided when
  // there are none.
  const bool others = std::any_of(bodies_.begin(), bodies_.end(), [](const std::unique_ptr<Body>& b) {
    return !capability<ImpactTarget>(*b);
  });
  if (others && travel.squaredNorm() > 0.0) {
    if (const std::optional<WorldHit> hit = pick(Ray{p.position, travel}); hit && hit->t <= 1.0) {
      Body& b = body(hit->body);
      if (!capability<ImpactTarget>(b)) {
        // The momentum delivered within one step, through the surface contract.
        b.apply_force(hit->point, p.mass / dt_ * p.current_velocity);
        p.position = hit->position;
        p.current_velocity = Vec3::Zero();
        p.done = true;
        p.hit_body = hit->body;
        return;
      }
    }
  }
  p.position += travel;
  p.current_velocity += dt_ * p.acceleration;
}

std::optional<ScriptedProjectile> projectile_along_ray(const Ray& ray, double speed, double mass,
                                                       double time) {
  const double length = ray.direction.norm();
  if (!(length > 0.0) || !std::isfinite(length) || !ray.origin.allFinite()) return std::nullopt;
  if (!(speed > 0.0) || !std::isfinite(speed) || !(mass > 0.0) || !std::isfinite(mass)) return std::nullopt;
  if (!std::isfinite(time)) return std::nullopt;
  ScriptedProjectile p;
  p.start = ray.origin;
  p.velocity = (speed / length) * ray.direction;
  p.mass = mass;
  p.time = time;
  return p;
}

void World::apply_probe(ForceProbe& p, double t) {
  Body& b = body(p.body);
  follow_topology(p.body, p.point, p.rest_anchor, p.topology_version, p.placed);
  if (t < p.start || t >= p.end) return;
  const double scale = p.ramp > 0.0 ? std::min(1.0, (t - p.start) / p.ramp) : 1.0;
  b.apply_force(p.point, scale * p.force);
}

void World::add(ScriptedBlade blade) {
  const Vec3 offset = offset_at(blade.track, time_);
  blade.edge_a = blade.a + offset;
  blade.edge_b = blade.b + offset;
  blades_.push_back(std::move(blade));
}

void World::apply_blade(ScriptedBlade& blade, double t) {
  const Vec3 from = offset_at(blade.track, time_), to = offset_at(blade.track, t);
  const BladeSweep sweep{blade.a + from, blade.b + from, blade.a + to, blade.b + to};
  blade.edge_a = sweep.a1;
  blade.edge_b = sweep.b1;
  blade.bodies_cut = 0;
  for (auto& body : bodies_)
    if (Cuttable* cuttable = capability<Cuttable>(*body); cuttable && cuttable->cut(sweep))
      ++blade.bodies_cut;
}

void World::apply_tool(ScriptedTool& tool, double t) {
  tool.centre = tool.start + offset_at(tool.track, t);
  tool.force.setZero();
  tool.contacts = 0;
  const Cylinder cylinder{tool.centre, tool.axis, tool.radius, tool.half_length};
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const NodeCorners& nc = node_corners(static_cast<Index>(b));
    Body& body = *bodies_[b];
    const auto x = body.surface_positions();
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::optional<CylinderContact> c = cylinder_contact(cylinder, x[i]);
      if (!c || nc.point[i].triangle < 0) continue;
      const Vec3 f = tool.stiffness * c->depth * c->normal;
      body.apply_force(nc.point[i], f);
      tool.force -= f;
      ++tool.contacts;
    }
  }
}

ScriptedGrab World::take_scripted_grab(std::size_t i) {
  ScriptedGrab g = std::move(grabs_.at(i));
  grabs_.erase(grabs_.begin() + static_cast<std::ptrdiff_t>(i));
  return g;
}

void World::repeat_scripts(double offset) {
  for (ScriptedGrab& g : grabs_) {
    if (g.id.valid() && !g.done) body(g.body).release(g.id);
    g.id = GrabId{};
    g.done = false;
    if (g.release > g.start) g.release += offset;
    g.start += offset;  // the grab's track is relative to its start
  }
  for (ForceProbe& p : probes_) {
    p.start += offset;
    if (p.end < 1e300) p.end += offset;
  }
  for (ScriptedTool& tool : tools_)
    for (Keyframe& k : tool.track) k.t += offset;
  for (ScriptedBlade& blade : blades_)
    for (Keyframe& k : blade.track) k.t += offset;
  for (Collider& c : colliders_)
    for (PoseKey& k : c.track) k.t += offset;
  for (Instrument& in : instruments_) {
    for (PoseKey& k : in.track) k.t += offset;
    for (JawKey& k : in.jaws.track) k.t += offset;
  }
  for (ScriptedProjectile& p : projectiles_) {
    p.time += offset;
    p.position = Vec3::Zero();
    p.current_velocity = Vec3::Zero();
    p.launched = false;
    p.done = false;
    p.hit_body = -1;
  }
}

std::uint64_t World::state_hash() const {
  Hasher h;
  h.add_value(time_).add_value(steps_);
  for (const auto& b : bodies_) h.add_value(b->state_hash());
  for (const ScriptedProjectile& p : projectiles_) {
    h.add_value(p.position).add_value(p.current_velocity).add_value(p.launched).add_value(p.done);
    h.add_value(p.hit_body);
  }
  return h.value();
}

}  // namespace pliant::scene
