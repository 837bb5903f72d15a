// Contact between the World's bodies and its rigid colliders, and between bodies: per-body settings, the
// world's solver settings and the typed contact events (one per body–collider and per body–body pair in
// contact, each step).
//
// The response is a constraint, never a penalty: a surface node that reaches a collider (closer than
// the two margins) is held like a grab (Body::grab_patch with radius 0), at its projection on the
// collider plus the margin, so every family treats it in its own implicit solve (the Green family
// exactly, through its capacitance matrix, James & Pai 1999). After the step its reaction decides:
// pulling towards the collider (adhesive) releases it; Coulomb friction keeps it where it touched while
// |tangential| ≤ μ·normal (stick), else slides its target along the surface (slip): by the compliance
// times the excess tangential force for a body that reports its compliance, and for a dynamic body by
// sliding its whole contact patch with the patch's velocity, corrected so that the patch's tangential
// force is μ times its normal force (world_contact.cpp). Decisions use the reaction of the previous step
// (a one-step lag).
// Between two bodies, the nodes of the finer surface are held on the other body's current surface, and
// that body takes the equal and opposite force one step later (world_contact.cpp). A body with
// BodyContact::self on is its own master too: its surface nodes are held on its own non-neighbouring
// triangles and its edges off its own edges, on the side they came from (world_contact.cpp).
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/body.hpp"

#include <string_view>

namespace pliant::scene {

/// A body's contact settings (scene key "contact").
struct BodyContact {
  bool enabled = true;    ///< whether colliders and other bodies touch this body
  bool bodies = true;     ///< whether it touches other bodies (whose `bodies` is on too), not only colliders
  double friction = 0.5;  ///< Coulomb coefficient μ of the body (dimensionless, ≥ 0); a pair uses
                          ///< √(μ_body μ_collider) (the rule of Box2D and Jolt)
  double margin = 5e-4;   ///< contact thickness of the body (unit: m), > 0; a pair holds nodes at
                          ///< the sum of the body's and the collider's margins from the surface
  /// Whether the body touches itself (a membrane folding, an organ pressed on itself): its surface
  /// nodes are held two margins from its own triangles, and its edges from its own edges, that are not
  /// their neighbours at rest, on the side each came from (both sides of an open surface), the same
  /// body taking the opposite force (world_contact.cpp). Needs `enabled`; independent of `bodies`.
  bool self = false;
};

/// The World's contact solver settings (scene key "contact_solver").
struct ContactSolverDef {
  /// Relative tolerance of the stick/slip and release tests (dimensionless): a contact is released
  /// when its normal reaction is below −tolerance·|reaction| and slips when its tangential reaction
  /// exceeds (1 + tolerance)·μ·normal.
  double tolerance = 1e-9;
  /// Under-relaxation ω of the force handed to the master of a body–body pair (dimensionless, in
  /// (0, 1]): each step the master's force moves by ω towards minus the force its slave felt. The
  /// staggered coupling's force error is multiplied by 1 − ω(1 + ρ) a step, ρ = C_master/C_slave the
  /// ratio of the two bodies' compliances over a step: stable for ρ < 2/ω − 1 (ω = 1: ρ < 1, the two
  /// bodies equally soft at the limit; ω = 0.3: ρ < 5.7), at rest the force is the same for any ω.
  double relaxation = 0.3;
};

/// One body–collider pair, body–body pair or body in contact with itself (other_body == body) at the end
/// of a step: World::contact_events(), valid until the next step, Box2D-style.
struct ContactEvent {
  static constexpr std::string_view category = "contact";
  Index body = -1;                ///< the body whose surface nodes are held
  Index collider = -1;            ///< the collider holding them, or -1 for a body–body pair
  Index other_body = -1;          ///< the body whose surface holds them (body–body; == body for
                                  ///< self-contact), or -1
  int contacts = 0;               ///< surface nodes held against the collider
  int sticking = 0;               ///< of them, within the friction cone
  int slipping = 0;               ///< of them, sliding (their target moves along the surface)
  double normal_force = 0.0;      ///< Σ normal reaction on the body (unit: N), ≥ 0
  double tangential_force = 0.0;  ///< |Σ tangential reaction on the body| (unit: N)
  Vec3 force = Vec3::Zero();      ///< Σ force of the collider or other body on the body, the held nodes'
                                  ///< inertia included (unit: N)
  /// Body–body: Σ force handed to other_body in this step (unit: N): what it took the step before, moved
  /// by ContactSolverDef::relaxation towards −force of the previous step (the one-step lag of the
  /// response, world_contact.cpp); equal to −force at rest; zero for a collider.
  Vec3 force_on_other = Vec3::Zero();
  double max_penetration = 0.0;  ///< deepest node below the collider's surface before the step's
                                 ///< response (unit: m)
  Vec3 position = Vec3::Zero();  ///< mean position of the held nodes (unit: m)
  EventBrief brief() const { return {"contact", -1, position, "normal_force_N", normal_force}; }
};

/// The name of the World's per-surface-node contact pressure field (unit: Pa) in VTU frames, PNG colour
/// maps ("output": {"color": ...}), the viewer and Python (World::contact_pressure).
inline constexpr std::string_view kContactPressureField = "contact_pressure";

/// One held surface node at the end of a step: World::contact_points(), valid until the next step. The
/// per-node view behind ContactEvent's sums and the contact_pressure field.
struct ContactPoint {
  Index body = -1;        ///< the body whose surface node is held
  Index node = -1;        ///< that surface node
  Index collider = -1;    ///< the collider holding it, or -1 for a body–body contact
  Index other_body = -1;  ///< the body whose surface holds it (== body for self-contact), or -1
  SurfacePoint on;        ///< body–body: where other_body's surface holds it (takes the opposite force)
  Vec3 position = Vec3::Zero();  ///< the node (unit: m)
  Vec3 normal = Vec3::UnitZ();   ///< outward unit normal of the collider or other body there
  Vec3 force = Vec3::Zero();     ///< the contact's force on the body (unit: N)
  double normal_force = 0.0;     ///< force·normal (unit: N); ≥ 0 up to the release tolerance
  double penetration = 0.0;      ///< below the surface before the step's response (unit: m)
  bool slipping = false;         ///< outside the friction cone: its target slides
};

}  // namespace pliant::scene
