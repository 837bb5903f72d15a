// SpringsBody: the run time of one mass-spring body (Grimm 2005), the single place where its step
// happens. The scene adapter (scene/springs_scene_body.hpp) and the tearing scenes (scenes_tearing.hpp)
// both drive one; neither steps a SpringMesh itself.
//
// It is made from a shared SpringsAsset (the initial network) and a def. It owns the SpringMesh (state,
// including the topology that tearing changes: a copy of the asset's mesh made once, when the body is
// made, because the state IS the mesh; the asset never changes), a MethodStepper (one of
// the nine Table 2.1 methods), the tearing of its TearMode, node grabs, external node forces, gravity,
// an optional internal pressure and rigid cylinder obstacles. step(dt) covers dt with substeps of the
// method's own time step (one substep for the quasi-static methods); each substep runs
//   1. grabs      every held node moves to its place on the straight line from where it was at the
//                 start of the step to its target (the last substep puts it on the target);
//   2. solve      the method's step with gravity, the external forces of the step and the pressure
//                 forces; once anything has torn, the pressure decays;
//   3. obstacles  free nodes inside a cylinder are projected onto its surface, their velocity zeroed;
//   4. tear       the tearing mode (area-preserving: up to tears_per_step tears; deletion: every
//                 over-stretched spring), keeping every index the body holds valid;
// and records the stages "springs.interaction" (handing the held nodes to the method: at the start
// of a step after grabs changed, and after each substep that tore), "springs.solve" (grabs, solve,
// obstacles) and "springs.tear" into the caller's Profile (unit: ms, summed over the substeps).
//
// A grab fixes its node (inv_mass 0: the interaction node of Grimm's methods) for as long as it holds
// it; the node's own fixedness comes back on release. Grabs are handles {slot, generation}: a released
// handle never aliases a later grab. Events are arrays valid until the next step: the tears of the
// step, and the grabs released since the previous step (by release(), or because deletion tearing
// removed the held node). The step never throws and allocates only while arrays grow (tearing adds
// nodes, a new grab takes a new slot).
#pragma once

#include "pliant/core/cylinder.hpp"
#include "pliant/core/grab_id.hpp"
#include "pliant/core/grab_released.hpp"
#include "pliant/core/grab_slots.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/springs/forces.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/springs_asset.hpp"
#include "pliant/models/springs/tearing.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::springs {

/// Which tearing runs after each substep.
enum class TearMode : std::uint8_t {
  off,              ///< no tearing
  area_preserving,  ///< duplicate nodes along cracks, never lose area (Grimm 2005, section 3.3)
  deletion,         ///< delete over-stretched springs and their triangles (Grimm 2005, section 3.2)
};

/// Identifier used in JSON: "off", "area_preserving", "deletion".
std::string_view tear_mode_name(TearMode mode);
std::optional<TearMode> tear_mode_from_name(std::string_view name);

/// Plain settings of a SpringsBody (C++20 aggregate).
struct SpringsBodyDef {
  /// The method and its time step, which is the substep of SpringsBody::step (unit: s).
  MethodDef method = {};
  TearMode tear_mode = TearMode::off;
  TearingDef tearing = {};      ///< area-preserving thresholds (unit: N)
  int tears_per_step = 1;       ///< area-preserving tears at most per substep (Grimm 2005: one)
  Vec3 gravity = Vec3::Zero();  ///< gravitational acceleration (unit: m/s²)
  /// Internal pressure on the triangles' area vectors, a third to each corner (unit: Pa); 0: none.
  double pressure = 0.0;
  /// Once anything has torn, pressure *= exp(−h/pressure_decay) after each substep of length h
  /// (unit: s); 0 keeps it.
  double pressure_decay = 0.0;
};

/// A grab that let go: core's GrabReleased (node -1 when deletion tearing removed the node it held,
/// the grab then letting go by itself; position: the node's position at release(), or the grab's
/// target when its node was removed), and where it falls among the step's tears.
struct GrabRelease : GrabReleased {
  /// How many of the step's tear events came before it, to read both arrays in the order they happened.
  std::uint32_t after_tears = 0;
};

class SpringsBody {
 public:
  /// A body on `asset` (shared, never changed: the body copies its mesh once, here) with the settings
  /// `def`. Fails with one line for a null asset, a dynamic method's dt <= 0 (unit: s) or
  /// tears_per_step < 1 with area-preserving tearing.
  static Result<SpringsBody> build(std::shared_ptr<const SpringsAsset> asset, const SpringsBodyDef& def);
  /// A convenience for tests and hand-made set-ups: wraps the mesh as it is (fixed nodes, positions,
  /// velocities) in its own asset (SpringsAsset::from_mesh) and makes the body on it, unchecked.
  SpringsBody(SpringMesh mesh, const SpringsBodyDef& def);

  const SpringsBodyDef& def() const { return def_; }
  /// The initial network the body was made from (shared; its mesh is the body's state at construction).
  const std::shared_ptr<const SpringsAsset>& asset() const { return asset_; }
  /// The mesh: valid until the next step or cut (tearing may reallocate its arrays).
  const SpringMesh& mesh() const { return mesh_; }
  /// The current internal pressure (unit: Pa): def().pressure, decayed since the first tear.
  double pressure() const { return pressure_; }
  /// Tears since construction (events of every step and cut).
  std::uint64_t tear_count() const { return tear_count_; }

  // ---- grabs ----
  /// Holds `node` where it is now (fixes it). Invalid handle for a node outside the mesh or one
  /// another grab already holds.
  GrabId grab(Index node);
  /// Sets where the grab's node is at the end of the next step (unit: m). Ignores a non-live handle.
  void move_grab(GrabId id, const Vec3& target);
  /// Lets go: the node gets its own fixedness back and stops (velocity 0); reported by the next step.
  void release(GrabId id);
  /// The node a live grab holds, -1 otherwise.
  Index grab_node(GrabId id) const;
  /// The spring forces on the held node after the last step and its weight: the pull the holding tool
  /// feels (unit: N).
  Vec3 grab_reaction(GrabId id) const;

  // ---- loads and obstacles ----
  /// Adds a force on a node for the next step (every substep of it) (unit: N). Ignores bad nodes.
  void add_force(Index node, const Vec3& force);
  /// The rigid cylinders (unit: m) where they are during the next steps; replaces the previous ones.
  void set_obstacles(std::span<const Cylinder> cylinders);

  /// Cuts now, whatever the stress: an area-preserving tear at `node` (a hole at an inner node, a
  /// crack from an edge node), as a scalpel or a puncture does. Its events replace tear_events()
  /// until the next step. Returns the number of events (0: nothing could open there).
  int cut(Index node);

  /// Advances by dt (unit: s) in substeps (see the top of this file), recording its stages into
  /// `profile`. Never throws.
  void step(double dt, Profile& profile);

  /// Tears of the last step (or cut), in the order they happened.
  std::span<const TearEvent> tear_events() const { return tear_events_; }
  /// Grabs released since the step before the last one: by release() before the last step, and
  /// during it because deletion tearing removed their node.
  std::span<const GrabRelease> released_grabs() const { return released_; }

  /// Hash of positions, velocities and topology, for determinism tests.
  std::uint64_t state_hash() const;

 private:
  struct Slot {
    bool was_fixed = false;  // the node's own fixedness, restored on release
    Index node = -1;
    Vec3 target = Vec3::Zero();
    Vec3 start = Vec3::Zero();  // the node's position at the start of the step
  };

  void refresh_interaction();
  bool tear();
  void apply_pressure();
  void push_out_of_obstacles();
  SpringsBody(std::shared_ptr<const SpringsAsset> asset, const SpringsBodyDef& def);

  std::shared_ptr<const SpringsAsset> asset_;
  SpringsBodyDef def_;
  SpringMesh mesh_;
  MethodStepper stepper_;
  Tearing tearing_;
  DeletionTearing deletion_;
  Loads loads_;
  double pressure_ = 0.0;
  std::uint64_t tear_count_ = 0;
  std::vector<Vec3> external_, remapped_, pressure_load_;
  std::vector<Vec3> last_external_;  // the external forces of the last step, for grab_reaction (unit: N)
  std::vector<Cylinder> obstacles_;
  GrabSlots<Slot> slots_;
  std::vector<Index> interaction_nodes_;
  std::vector<TearEvent> tear_events_;
  std::vector<GrabRelease> released_, pending_released_;
  bool interaction_dirty_ = true;
};

}  // namespace pliant::springs
