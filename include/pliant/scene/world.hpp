// World: bodies of any family, scripted interactions, and the staged step.
//
// One step runs these named stages, each timed into profile():
//   apply_interactions  scripted grabs, probes and tools move their handles (surface contract only);
//                       blades hand their sweep to Cuttable bodies
//   contact.detect      colliders moved to their pose at the step's end; every contact-enabled body's
//                       surface nodes tested against the colliders whose bounds meet the body's, and
//                       against the surface of every other body whose bounds meet it
//   contact.solve       the active set: released (adhesive), stick or slip from the last forces,
//                       new contacts held like grabs at the collider or other body's surface, the
//                       other body given the equal and opposite force (contact.hpp)
//   solve               every body's own step, in order (each body's internal stages, e.g.
//                       "springs.solve", are in body_profile(i))
//   render_meshes       render meshes follow their bodies (render_mesh.hpp), when any body has one
//   emit_events         body events gathered into events(), stamped with body and time
//   publish_haptics     the haptic snapshot of the bound grabs (haptics()), when any are bound
// Events are valid until the next step. The same world gives a bit-identical state_hash() for any
// thread count (tests/scene/determinism_test.cpp).
#pragma once

#include "pliant/core/surface_picker.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/scene/body.hpp"
#include "pliant/scene/collider.hpp"
#include "pliant/scene/contact.hpp"
#include "pliant/scene/haptics.hpp"
#include "pliant/scene/instrument.hpp"
#include "pliant/scene/interactions.hpp"
#include "pliant/scene/render_mesh.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pliant::scene {

/// One event of the last step, in its generic form (typed arrays: body(i).events().get<E>()).
struct WorldEvent {
  Index body = 0;
  double time = 0.0;          ///< simulation time at the end of the step that emitted it (unit: s)
  std::string_view category;  ///< e.g. "grab", "tear"
  EventBrief brief;           ///< kind, node, position
};

/// What a ray hits first among a world's bodies.
struct WorldHit {
  Index body = -1;
  SurfacePoint point;            ///< on that body's current surface: grab(point), apply_force(point, ..)
  Vec3 position = Vec3::Zero();  ///< the hit point (unit: m)
  double t = 0.0;                ///< ray parameter of the hit
};

class World {
 public:
  explicit World(double time_step = 1.0 / 60.0) : dt_(time_step) {}

  /// Adds a body; returns its index.
  Index add_body(std::unique_ptr<Body> body);
  std::size_t body_count() const { return bodies_.size(); }
  Body& body(Index i) { return *bodies_[static_cast<std::size_t>(i)]; }
  const Body& body(Index i) const { return *bodies_[static_cast<std::size_t>(i)]; }

  void add(ScriptedGrab grab) { grabs_.push_back(std::move(grab)); }
  void add(ForceProbe probe) { probes_.push_back(probe); }
  void add(ScriptedTool tool) { tools_.push_back(std::move(tool)); }
  void add(ScriptedProjectile projectile) { projectiles_.push_back(std::move(projectile)); }
  /// Adds a blade, its edge placed where its track puts it now.
  void add(ScriptedBlade blade);
  std::span<const ScriptedProjectile> projectiles() const { return projectiles_; }
  std::span<const ScriptedTool> tools() const { return tools_; }
  std::span<const ScriptedBlade> blades() const { return blades_; }
  std::span<const ScriptedGrab> scripted_grabs() const { return grabs_; }
  /// Removes scripted grab i and returns it, so that something else (a haptic device, the viewer's
  /// mouse) can drive that handle instead of its keyframes.
  ScriptedGrab take_scripted_grab(std::size_t i);
  /// Plays every scripted interaction again, `offset` seconds later (unit: s; a soak's next cycle is
  /// offset by the script's length): held grabs are released and grab again at start + offset,
  /// probes act from start + offset, tools', blades' and colliders' tracks are shifted by offset, and
  /// projectiles are fired again at time + offset from their start. Interactions already taken over
  /// (take_scripted_grab) and haptic grabs are not touched. The bodies keep their state (tears, cuts
  /// and dents stay).
  void repeat_scripts(double offset);

  /// Adds a rigid collider (validate() it first: an invalid one is refused with its one-line error);
  /// returns its index.
  Result<Index> add_collider(Collider collider);
  std::span<const Collider> colliders() const { return colliders_; }
  /// Adds an instrument (instrument.hpp), which owns its colliders (a probe's capsule, a grasper's two
  /// jaws, a scalpel's blade: colliders(), instrument_collider()); refused with its one-line error when
  /// invalid, when its name is taken by a collider or another instrument, or when it is driven by the
  /// device and another instrument already is. Returns its index.
  Result<Index> add_instrument(Instrument instrument);
  std::span<const Instrument> instruments() const { return instruments_; }
  /// The instrument named `name`, or -1.
  Index find_instrument(std::string_view name) const;
  /// Instrument i's k-th collider's index in colliders() (k < instrument_collider_count(i)), or -1.
  Index instrument_collider(Index i, int k = 0) const;
  /// How many colliders instrument i owns (1, or 2 for a grasper's jaws), 0 for i out of range.
  int instrument_collider_count(Index i) const;
  /// The instrument owning collider c, or -1 for a plain collider.
  Index collider_instrument(Index c) const;
  /// Closes (true) or opens a grasper's jaws from the next step on, its jaw track then no longer used
  /// (a viewer key, a device button); nothing for another instrument type.
  void close_jaws(Index i, bool closed);
  /// Grasper i's jaws after the last step, their command as it is now (a close_jaws since counts;
  /// default values for another instrument type).
  GrasperState grasper_state(Index i) const;
  /// Cuttable bodies that scalpel i's edge reached in the last step (0 for another instrument type).
  int scalpel_bodies_cut(Index i) const;
  /// Where instrument i's tip was in the last step (its pose before the first step) (unit: m).
  Pose instrument_pose(Index i) const;
  /// The force the bodies exert on instrument i after the last step (unit: N): minus the sum of its
  /// contact forces on them (ContactEvent::force), zero while it touches nothing.
  Vec3 instrument_force(Index i) const;
  /// Surface nodes instrument i holds in contact after the last step.
  int instrument_contacts(Index i) const;
  /// Moves instrument i's tip for the next steps (unit: m), its track then no longer used: what a
  /// viewer's mouse or a device without the coupling does. A non-finite pose is ignored.
  void move_instrument(Index i, const Pose& tip);

  /// Contact settings of body i (defaults until set).
  void set_contact(Index body, const BodyContact& settings);
  const BodyContact& contact(Index body) const;
  ContactSolverDef& contact_solver() { return contact_solver_; }
  const ContactSolverDef& contact_solver() const { return contact_solver_; }
  /// One event per body–collider pair in contact after the last step (valid until the next step).
  std::span<const ContactEvent> contact_events() const { return contact_events_; }
  /// Every held surface node after the last step (valid until the next step), in event order.
  std::span<const ContactPoint> contact_points() const { return contact_points_; }
  /// Whether contact runs at all: some collider, or two bodies or more.
  bool contact_enabled() const { return contact_wanted(); }
  /// Body b's contact pressure after the last step, per surface node (unit: Pa): the normal force the
  /// node takes (held against a collider or another body, or, as the holding surface, its barycentric
  /// share of the force it hands back) over its area share, one third of its triangles' areas.
  /// Integrated with those shares it is the body's total normal contact force. Zeros without
  /// contact; empty for b out of range.
  std::vector<double> contact_pressure(Index b) const;

  /// Gives body i a render mesh (RenderMesh::embed it in that body first), which follows the body after
  /// every step; replaces one given before. An index out of range is ignored.
  void set_render_mesh(Index body, RenderMesh mesh);
  /// Body i's render mesh, or nullptr when it has none.
  const RenderMesh* render_mesh(Index body) const;

  /// The virtual ray (Nikitina et al. 2003, Grimm 2005): the first body surface the ray hits (two-sided), for
  /// grabbing with a mouse, a VR controller or a tool tip. Refits the picking trees to the current surfaces.
  std::optional<WorldHit> pick(const Ray& ray);

  /// Advances every body by one time step.
  void step();

  double time() const { return time_; }
  std::uint64_t step_count() const { return steps_; }
  double time_step() const { return dt_; }  ///< (unit: s)

  const Profile& profile() const { return profile_; }
  const Profile& body_profile(Index i) const { return body_profiles_[static_cast<std::size_t>(i)]; }
  std::span<const WorldEvent> events() const { return events_; }

  /// Hash of every body's state and the world clock.
  std::uint64_t state_hash() const;

  /// Binds a grab to haptic contact `contact` (< kMaxHapticContacts): after every step the World
  /// publishes its target, reaction and contact stiffness into haptics(): −C⁻¹ for a body with a local
  /// compliance C at the grab (green), else an isotropic secant estimate from the last steps. The grab's
  /// target is then moved with move_haptic_grab. Returns false for a contact index out of range, a grab
  /// the body does not hold (Body::holds) or a non-finite target.
  bool bind_haptic_grab(int contact, Index body, GrabId grab, const Vec3& target);
  /// Binds instrument i to haptic contact `contact` (< kMaxHapticContacts): after every step the World
  /// publishes its tip position, the force the bodies exert on it and its contact stiffness: exact for
  /// Green bodies (the touched nodes' capacitance system, Body::grab_set_stiffness), else the secant
  /// estimate of bind_haptic_grab; move_haptic_grab(contact, tip) then moves its tip (the coupling's
  /// proxy). Returns false for a contact index or instrument out of range, or a non-finite tip.
  bool bind_haptic_instrument(int contact, Index instrument, const Vec3& tip);
  /// Moves a bound grab's target, or a bound instrument's tip, for the next step (unit: m): typically
  /// the coupling's proxy.
  void move_haptic_grab(int contact, const Vec3& target);
  /// Unbinds a contact (its grab stays held; release it on the body).
  void unbind_haptic_grab(int contact);
  /// The double-buffered snapshots a haptic device thread reads (HapticLoop); published after each
  /// step and by bind_haptic_grab, never during a step.
  SnapshotBuffer& haptics() { return haptics_; }

 private:
  double dt_;
  double time_ = 0.0;
  std::uint64_t steps_ = 0;
  std::vector<std::unique_ptr<Body>> bodies_;
  std::vector<Profile> body_profiles_;
  std::vector<ScriptedGrab> grabs_;
  std::vector<ForceProbe> probes_;
  std::vector<ScriptedTool> tools_;
  std::vector<ScriptedProjectile> projectiles_;
  std::vector<ScriptedBlade> blades_;
  SurfacePicker picker_;
  // Per body: one (triangle, corner) for every surface node, so tools can push single nodes through
  // apply_force; rebuilt when the body's topology version changes.
  struct NodeCorners {
    std::uint64_t version = ~std::uint64_t{0};
    std::vector<SurfacePoint> point;
  };
  std::vector<NodeCorners> node_corners_;
  const NodeCorners& node_corners(Index body);
  void apply_tool(ScriptedTool& tool, double t);
  void apply_probe(ForceProbe& probe, double t);
  void apply_projectile(ScriptedProjectile& projectile, double t);
  void apply_blade(ScriptedBlade& blade, double t);
  void follow_topology(Index body, SurfacePoint& point, Vec3& rest_anchor, std::uint64_t& version,
                       bool& placed);
  std::vector<WorldEvent> events_;
  Profile profile_;
  std::vector<std::optional<RenderMesh>> render_meshes_;
  // Contact (world_contact.cpp).
  std::vector<Collider> colliders_;
  std::vector<Instrument> instruments_;
  struct InstrumentState {
    Index collider = -1;     // its first collider
    int colliders = 1;       // how many (a grasper: 2)
    Pose tip;                // where the last step put it (unit: m)
    Pose moved;              // move_instrument's pose
    bool was_moved = false;  // follows `moved`, not its track
    // A grasper's jaws (update_jaws).
    double gap = 0.0;             // between the inner faces (unit: m)
    int jaws_command = -1;        // close_jaws: 1 closed, 0 open, -1 the jaw track
    bool closed = false;          // commanded closed in the last step
    double last_grip = 0.0;       // the grip force one step earlier (unit: N)
    double last_close = 0.0;      // how much the gap narrowed in the last step (unit: m)
    double grip_stiffness = 0.0;  // ∂grip/∂closing, secant estimate (unit: N/m); 0: not known
    int bodies_cut = 0;           // a scalpel's Cuttable bodies cut in the last step
  };
  std::vector<InstrumentState> instrument_state_;
  void place_instruments(double t);
  void update_jaws(std::size_t instrument, double t);
  double jaw_grip(std::size_t instrument, int& contacts) const;
  Mat3 instrument_stiffness(Index instrument, bool& exact) const;
  std::vector<BodyContact> body_contact_;
  ContactSolverDef contact_solver_;
  std::vector<ContactEvent> contact_events_;
  std::vector<ContactPoint> contact_points_;
  struct ContactState;
  std::shared_ptr<ContactState> contact_state_;  // shared_ptr: World stays movable with an incomplete type
  bool contact_wanted() const;
  bool contact_surface(std::size_t body);
  void contact_detect(double t);
  void contact_solve(double t);
  void contact_report();
  struct HapticBinding {
    Index body = -1;
    GrabId grab;
    Index instrument = -1;  // bound to an instrument instead of a grab
    Vec3 target = Vec3::Zero();
    bool active() const { return body >= 0 || instrument >= 0; }
    // For a body without a local compliance: the last published target and reaction, and the secant
    // stiffness estimated from them (publish_haptics).
    Vec3 published_target = Vec3::Zero();  // (unit: m)
    Vec3 published_force = Vec3::Zero();   // (unit: N)
    double secant_stiffness = 0.0;         // (unit: N/m)
    bool published = false;
  };
  HapticBinding haptic_[kMaxHapticContacts];
  SnapshotBuffer haptics_;
  void publish_haptics();
  static double secant_stiffness(HapticBinding& h, const Vec3& target, const Vec3& force);
};

}  // namespace pliant::scene
