// The run time of a mass-spring body (Grimm 2005): substeps, grabs, loads, obstacles and tearing
// around a MethodStepper. See the header for the order of a substep.
#include "pliant/models/springs/springs_body.hpp"

#include "pliant/core/hash.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pliant::springs {
namespace {
inline std::size_t u(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

std::string_view tear_mode_name(TearMode mode) {
  switch (mode) {
    case TearMode::off:
      return "off";
    case TearMode::area_preserving:
      return "area_preserving";
    case TearMode::deletion:
      return "deletion";
  }
  return "unknown";
}

std::optional<TearMode> tear_mode_from_name(std::string_view name) {
  for (TearMode m : {TearMode::off, TearMode::area_preserving, TearMode::deletion})
    if (tear_mode_name(m) == name) return m;
  return std::nullopt;
}

Result<SpringsBody> SpringsBody::build(std::shared_ptr<const SpringsAsset> asset, const SpringsBodyDef& def) {
  if (!asset) return Error{"springs: no asset (null SpringsAsset)"};
  if (method_is_dynamic(def.method.method) && !(def.method.dt > 0.0))
    return Error{fmt::format("springs: method dt must be > 0 s, got {}", def.method.dt)};
  if (def.tear_mode == TearMode::area_preserving && def.tears_per_step < 1)
    return Error{fmt::format("springs: tears_per_step must be >= 1, got {}", def.tears_per_step)};
  return SpringsBody(std::move(asset), def);
}

SpringsBody::SpringsBody(SpringMesh mesh, const SpringsBodyDef& def)
    : SpringsBody(SpringsAsset::from_mesh(std::move(mesh)), def) {}

// The one copy of the initial network: the body's state is its mesh (see the top of the header).
SpringsBody::SpringsBody(std::shared_ptr<const SpringsAsset> asset, const SpringsBodyDef& def)
    : asset_(std::move(asset)),
      def_(def),
      mesh_(asset_->mesh()),
      stepper_(def.method),
      tearing_(def.tearing),
      pressure_(def.pressure) {
  loads_.gravity = def.gravity;
  stepper_.set_interaction(mesh_, {});
}

GrabId SpringsBody::grab(Index node) {
  if (node < 0 || node >= mesh_.node_count()) return {};
  bool taken = false;
  slots_.for_each([&](const Slot& s) { taken = taken || s.node == node; });
  if (taken) return {};
  const GrabId id = slots_.acquire();
  Slot& s = slots_[id];
  s.node = node;
  s.was_fixed = mesh_.fixed(node);
  s.target = mesh_.position[u(node)];
  mesh_.set_fixed(node, true);
  interaction_dirty_ = true;
  return id;
}

void SpringsBody::move_grab(GrabId id, const Vec3& target) {
  if (Slot* s = slots_.find(id)) s->target = target;
}

void SpringsBody::release(GrabId id) {
  const Slot* s = slots_.find(id);
  if (!s) return;
  slots_.release(id);
  if (s->node >= 0) {
    mesh_.set_fixed(s->node, s->was_fixed);
    mesh_.velocity[u(s->node)].setZero();
    pending_released_.push_back({{id, s->node, mesh_.position[u(s->node)]}, 0});
  }
  interaction_dirty_ = true;
}

Index SpringsBody::grab_node(GrabId id) const {
  const Slot* s = slots_.find(id);
  return s ? s->node : -1;
}

Vec3 SpringsBody::grab_reaction(GrabId id) const {
  const Index n = grab_node(id);
  if (n < 0) return Vec3::Zero();
  // Spring forces on the held node, its own weight and the external force it took in the last step: the
  // pull the tool feels (a membrane lying on a table carries its whole weight through the nodes held
  // there, and the weight of what lies on them: a force handed to a held node goes through its hold).
  Vec3 f = mesh_.mass[u(n)] * loads_.gravity;
  if (u(n) < last_external_.size()) f += last_external_[u(n)];
  for (Index s : mesh_.node_springs.of(n)) {
    const Index o = mesh_.other_end(s, n);
    f += spring_force(mesh_.position[u(n)], mesh_.position[u(o)], mesh_.velocity[u(n)], mesh_.velocity[u(o)],
                      mesh_.stiffness[u(s)], mesh_.damping[u(s)], mesh_.rest_length[u(s)]);
  }
  return f;
}

void SpringsBody::add_force(Index node, const Vec3& force) {
  if (node < 0 || node >= mesh_.node_count()) return;
  external_.resize(mesh_.position.size(), Vec3::Zero());
  external_[u(node)] += force;
}

void SpringsBody::set_obstacles(std::span<const Cylinder> cylinders) {
  obstacles_.assign(cylinders.begin(), cylinders.end());
}

int SpringsBody::cut(Index node) {
  tear_events_.clear();
  const int made = tearing_.tear_node(mesh_, node);
  if (made == 0) return 0;
  tear_events_.assign(tearing_.events().begin(), tearing_.events().end());
  tear_count_ += static_cast<std::uint64_t>(made);
  external_.resize(mesh_.position.size(), Vec3::Zero());
  interaction_dirty_ = true;
  return made;
}

void SpringsBody::step(double dt, Profile& profile) {
  // Grabs released between steps are reported by this one.
  released_.swap(pending_released_);
  pending_released_.clear();
  tear_events_.clear();
  Stopwatch watch;
  double interaction_ms = 0.0, solve_ms = 0.0, tear_ms = 0.0;
  if (interaction_dirty_) refresh_interaction();
  interaction_ms += watch.ms();
  // Substeps of the method's own time step cover the step; held nodes move linearly across them.
  const int substeps = method_is_dynamic(def_.method.method)
                           ? std::max(1, static_cast<int>(std::lround(dt / def_.method.dt)))
                           : 1;
  slots_.for_each([&](Slot& s) {
    if (s.node >= 0) s.start = mesh_.position[u(s.node)];
  });
  external_.resize(mesh_.position.size(), Vec3::Zero());
  for (int k = 1; k <= substeps; ++k) {
    watch.reset();
    const double a = static_cast<double>(k) / substeps;
    slots_.for_each([&](const Slot& s) {
      if (s.node >= 0) mesh_.position[u(s.node)] = (1.0 - a) * s.start + a * s.target;
    });
    if (pressure_ != 0.0) {
      apply_pressure();
      loads_.external = pressure_load_;
    } else {
      loads_.external = external_;
    }
    stepper_.step(mesh_, loads_);
    if (tear_count_ > 0 && def_.pressure_decay > 0.0)
      pressure_ *= std::exp(-def_.method.dt / def_.pressure_decay);
    if (!obstacles_.empty()) push_out_of_obstacles();
    solve_ms += watch.ms();
    watch.reset();
    const bool torn = tear();
    tear_ms += watch.ms();
    if (torn) {
      watch.reset();
      refresh_interaction();
      interaction_ms += watch.ms();
    }
  }
  last_external_.assign(external_.begin(), external_.end());
  std::fill(external_.begin(), external_.end(), Vec3::Zero());
  profile.record("springs.interaction", interaction_ms);
  profile.record("springs.solve", solve_ms);
  profile.record("springs.tear", tear_ms);
}

// The external forces of the step plus the pressure p on every triangle's area vector, a third to
// each corner: p · ½ (b − a) × (c − a) / 3 (unit: N).
void SpringsBody::apply_pressure() {
  pressure_load_.assign(external_.begin(), external_.end());
  for (const Tri& tn : mesh_.tri_nodes) {
    const Vec3& a = mesh_.position[u(tn[0])];
    const Vec3 f = pressure_ / 6.0 * (mesh_.position[u(tn[1])] - a).cross(mesh_.position[u(tn[2])] - a);
    for (Index x : tn) pressure_load_[u(x)] += f;
  }
}

void SpringsBody::push_out_of_obstacles() {
  for (const Cylinder& c : obstacles_) {
    for (Index i = 0; i < mesh_.node_count(); ++i) {
      if (mesh_.fixed(i)) continue;
      const std::optional<CylinderContact> contact = cylinder_contact(c, mesh_.position[u(i)]);
      if (!contact) continue;
      mesh_.position[u(i)] = cylinder_surface_point(c, *contact);
      mesh_.velocity[u(i)] = Vec3::Zero();
    }
  }
}

// Hands the held nodes to the stepper as its interaction nodes (and, for the interaction-ordered
// methods, rebuilds its order).
void SpringsBody::refresh_interaction() {
  interaction_nodes_.clear();
  slots_.for_each([&](const Slot& s) {
    if (s.node >= 0) interaction_nodes_.push_back(s.node);
  });
  stepper_.set_interaction(mesh_, interaction_nodes_);
  interaction_dirty_ = false;
}

// Runs the tearing mode once (after each substep) and keeps every index this body holds valid; true
// when anything tore. Tearing happens between substeps of one step, so the caller refreshes the
// stepper's interaction nodes before the next substep: deferring it to the next step handed the
// remaining substeps node indices from before deletion compacted the arrays (out of bounds in the
// Dragnet pass when a held node had been removed or the node count had shrunk).
bool SpringsBody::tear() {
  const std::size_t before = tear_events_.size();
  if (def_.tear_mode == TearMode::area_preserving) {
    for (int k = 0; k < def_.tears_per_step; ++k) {
      if (tearing_.step(mesh_) == 0) break;
      // A copy of a held node inherits its inv_mass 0; the grab holds only the original, so the copy
      // takes the node's own fixedness (else it would hang in space forever, fixed by no one).
      for (const TearEvent& e : tearing_.events()) {
        if (e.new_node < 0) continue;
        slots_.for_each([&](const Slot& s) {
          if (s.node == e.node) mesh_.set_fixed(e.new_node, s.was_fixed);
        });
      }
      tear_events_.insert(tear_events_.end(), tearing_.events().begin(), tearing_.events().end());
    }
    if (tear_events_.size() == before) return false;
  } else if (def_.tear_mode == TearMode::deletion) {
    if (deletion_.step(mesh_) == 0) return false;
    // Deletion compacts the arrays: follow the held nodes and pending forces to their new indices.
    const auto map = deletion_.node_map();
    if (!map.empty()) {
      slots_.for_each([&](GrabId id, Slot& s) {
        if (s.node < 0) return;
        s.node = map[u(s.node)];
        if (s.node < 0) {
          // The held node was deleted with its last triangle: the grab lets go.
          slots_.release(id);
          released_.push_back({{id, -1, s.target}, static_cast<std::uint32_t>(before)});
        }
      });
      remapped_.assign(mesh_.position.size(), Vec3::Zero());
      for (std::size_t i = 0; i < map.size() && i < external_.size(); ++i) {
        if (map[i] >= 0) remapped_[u(map[i])] = external_[i];
      }
      external_.swap(remapped_);
    }
    tear_events_.insert(tear_events_.end(), deletion_.events().begin(), deletion_.events().end());
  } else {
    return false;
  }
  tear_count_ += tear_events_.size() - before;
  external_.resize(mesh_.position.size(), Vec3::Zero());
  return true;
}

std::uint64_t SpringsBody::state_hash() const {
  Hasher h;
  h.add(mesh_.position).add(mesh_.velocity).add(mesh_.tri_nodes).add(mesh_.spring_nodes);
  return h.value();
}

}  // namespace pliant::springs
