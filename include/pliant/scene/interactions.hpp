// Scripted interactions: grabs that follow a trajectory, force probes, and rigid tools. They act on
// bodies only through the surface contract (body.hpp), so they work on every family.
#pragma once

#include "pliant/core/ray.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace pliant::scene {

/// A keyframe of a scripted motion: at time t the handle is displaced by `offset` from where it was
/// grabbed. Between keyframes the offset is interpolated linearly; after the last it stays.
struct Keyframe {
  double t = 0.0;              ///< (unit: s)
  Vec3 offset = Vec3::Zero();  ///< (unit: m)
};

/// Offset at time t of a keyframe track (sorted by t).
Vec3 offset_at(const std::vector<Keyframe>& track, double t);

/// Grabs a surface point at `start` and moves it along `track`; released at `release` (if > start).
struct ScriptedGrab {
  Index body = 0;
  SurfacePoint point;
  double start = 0.0;     ///< (unit: s)
  double release = -1.0;  ///< (unit: s); ≤ start: held to the end
  /// Soft-grab radius (unit: m): 0 holds one node, kDefaultGrabRadius the body's default patch.
  double radius = kDefaultGrabRadius;
  std::vector<Keyframe> track;

  // State.
  GrabId id;
  Vec3 anchor = Vec3::Zero();  ///< position at the moment of grabbing (unit: m)
  bool done = false;
  // Where `point` sits in the rest shape and for which surface topology it was resolved: a grab that
  // starts after tearing renumbered the triangles takes the surface node nearest this rest position.
  Vec3 rest_anchor = Vec3::Zero();
  std::uint64_t topology_version = 0;
  bool placed = false;
};

/// Applies a force at a surface point while start ≤ t < end, ramped linearly over `ramp`.
struct ForceProbe {
  Index body = 0;
  SurfacePoint point;
  Vec3 force = Vec3::Zero();  ///< full force (unit: N)
  double start = 0.0;         ///< (unit: s)
  double end = 1e300;         ///< (unit: s)
  double ramp = 0.0;          ///< time to reach the full force (unit: s)

  // State: where the probe sits in the rest shape, and for which surface topology `point` was
  // resolved. Tearing renumbers triangles; the world then moves the probe to the surface node
  // nearest this rest position.
  Vec3 rest_anchor = Vec3::Zero();
  std::uint64_t topology_version = 0;
  bool placed = false;
};

/// A rigid cylinder moved along a track (the tool through a membrane of Grimm 2005). Every surface node
/// inside it is pushed out radially by a penalty force F = stiffness · depth, applied through
/// Body::apply_force once per world step; the tool feels the opposite. A penalty is what every family
/// accepts, but its stiffness adds to the body's: keep stiffness × (the body's compliance at a node)
/// below about 1 for quasi-static bodies, and within the explicit step's limit for dynamic ones.
struct ScriptedTool {
  Vec3 start = Vec3::Zero();        ///< centre of the cylinder at offset zero (unit: m)
  Vec3 axis = Vec3(0.0, 1.0, 0.0);  ///< unit direction of the cylinder axis
  double radius = 0.006;            ///< (unit: m), > 0
  double half_length = 0.1;         ///< half the length along the axis (unit: m), > 0
  double stiffness = 100.0;         ///< penalty per metre of depth (unit: N/m), > 0
  std::vector<Keyframe> track;      ///< offsets of the centre over time

  // State after the last step.
  Vec3 centre = Vec3::Zero();  ///< (unit: m)
  Vec3 force = Vec3::Zero();   ///< total force the bodies exert on the tool (unit: N)
  int contacts = 0;            ///< surface nodes inside the tool
};

/// A scripted blade (a scalpel's edge): the segment from `a` to `b`, moved along `track`. Every world
/// step hands the surface its edge sweeps over the step (from where the track puts it at the step's
/// start to where it puts it at the end) to each body with the Cuttable capability, which cuts there
/// in that step and reports cut events. Bodies without the capability are untouched: a blade cuts, it
/// does not push (use a tool for that).
struct ScriptedBlade {
  Vec3 a = Vec3::Zero();        ///< one end of the edge at offset zero (unit: m)
  Vec3 b = Vec3::Zero();        ///< the other end (unit: m), ≠ a
  std::vector<Keyframe> track;  ///< offsets of the edge over time

  // State after the last step.
  Vec3 edge_a = Vec3::Zero(), edge_b = Vec3::Zero();  ///< the edge's ends (unit: m)
  int bodies_cut = 0;  ///< Cuttable bodies that accepted the last sweep (it reached their bounds)
};

/// A rigid projectile (Milanović's impacts): fired from `start` at time `time` with `velocity`, it
/// accelerates with `acceleration`. Each step every body with the ImpactTarget capability is asked
/// first (in body order); one that absorbs it dents under it and carries it to rest. Otherwise, if
/// the step's travel of its reference point meets another body's surface, that body receives the
/// projectile's momentum as a force mass·|v|/dt along v at the hit point for one step (the surface
/// contract's apply_force), and the projectile stops there. A projectile that meets nothing flies on.
struct ScriptedProjectile {
  Vec3 start = Vec3::Zero();             ///< reference point at launch (unit: m)
  Vec3 velocity = Vec3::Zero();          ///< at launch (unit: m/s)
  Vec3 acceleration = Vec3::Zero();      ///< (unit: m/s²)
  double mass = 1.0;                     ///< (unit: kg)
  double time = 0.0;                     ///< launch time (unit: s)
  std::shared_ptr<const TriMesh> shape;  ///< mesh around the reference point (unit: m); null: a point

  // State.
  Vec3 position = Vec3::Zero();          ///< (unit: m)
  Vec3 current_velocity = Vec3::Zero();  ///< (unit: m/s)
  bool launched = false;
  bool done = false;    ///< absorbed by a target or stopped against a body
  Index hit_body = -1;  ///< the body it hit, -1 while flying
};

/// A point projectile fired from `ray.origin` along `ray.direction` at `speed` (unit: m/s), with
/// `mass` (unit: kg), launched at `time` (unit: s): the viewer's "fire along the mouse ray". Nothing
/// for a zero or non-finite direction or origin, or a speed or mass that is not positive and finite.
std::optional<ScriptedProjectile> projectile_along_ray(const Ray& ray, double speed, double mass,
                                                       double time);

}  // namespace pliant::scene
