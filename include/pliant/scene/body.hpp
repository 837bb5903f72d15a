// The surface contract: how interactions, the viewer and the haptic loop see a deformable body of
// any family (DESIGN.md). Grabs, scripted tools and probes never ask which family they touch.
#pragma once

#include "pliant/core/timing.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/events.hpp"
#include "pliant/scene/grab_id.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// grab_patch's radius meaning "the body's default" (unit: m).
inline constexpr double kDefaultGrabRadius = -1.0;

/// A point on a body's current surface: a triangle and barycentric coordinates (u, v), the point being
/// (1-u-v)·a + u·b + v·c for the triangle's corners a, b, c.
struct SurfacePoint {
  Index triangle = -1;
  double u = 0.0;
  double v = 0.0;
};

/// Whether `p` names one of `triangles` (its index in range); (u, v) is not checked. Every body's grab
/// and force calls start with it: an invalid point grabs nothing and pushes nothing.
inline bool on_surface(const SurfacePoint& p, std::span<const Tri> triangles) {
  return p.triangle >= 0 && static_cast<std::size_t>(p.triangle) < triangles.size();
}

/// A per-surface-node scalar field a body offers for colour maps and output, named once.
struct FieldInfo {
  std::string_view name;  ///< e.g. "displacement", "stress" (static storage)
  std::string_view unit;  ///< e.g. "m", "Pa", "N"
};

/// A field's values copied out (for writers that keep them; the viewer and the haptic loop use
/// Body::fill_field into their own buffers instead).
struct SurfaceField {
  std::string name;
  std::string unit;
  std::vector<double> value;  ///< one value per surface node
};

/// A deformable body seen through the surface contract. Implemented once per family (scene/*_scene_body.cpp).
class Body {
 public:
  virtual ~Body() = default;

  virtual const std::string& name() const = 0;
  /// The family's name: "green", "springs", ...
  virtual std::string_view family() const = 0;

  /// Current surface positions (unit: m), one per surface node: nodes on the surface triangles only,
  /// never a volume's interior nodes.
  virtual std::span<const Vec3> surface_positions() const = 0;
  /// Rest surface positions (unit: m).
  virtual std::span<const Vec3> surface_rest_positions() const = 0;
  /// For each surface node, the family's own node index, when they differ (a volume's interior nodes
  /// are left out of the surface); empty when surface node i is the family's node i.
  virtual std::span<const Index> surface_nodes() const { return {}; }
  /// Surface triangles over the surface nodes, outward normals.
  virtual std::span<const Tri> surface_triangles() const = 0;
  /// Increments whenever surface nodes or triangles are added or re-connected (tearing), so a BVH or
  /// GPU buffer knows to rebuild instead of refit.
  virtual std::uint64_t surface_topology_version() const { return 0; }
  /// The surface nodes the body holds fixed, its supports (a scene's "fixed" regions, or a def's fixed
  /// nodes; not grabs or contacts), ascending, in surface numbering: what the viewer marks. A meshless
  /// body's are the surface vertices fitted only to fixed phyxels. Default: none.
  virtual std::vector<Index> fixed_surface_nodes() const { return {}; }

  /// Starts a grab at a surface point, holding it where it is now. A family with soft grabs holds
  /// a patch of its default radius (grab_patch with kDefaultGrabRadius).
  virtual GrabId grab(const SurfacePoint& point) = 0;
  /// Starts a soft grab: every surface node within `radius` (unit: m) of the point, connected to it
  /// over the surface, held where it is now and moved rigidly (in translation) with the handle; the
  /// reaction is summed over the patch. Radius 0: a single node; kDefaultGrabRadius (negative): the
  /// body's default (Green bodies: twice the mean surface edge length at the point). A family
  /// without soft grabs (soft_grabs() false) holds a single point whatever the radius. An invalid
  /// point or a NaN radius grabs nothing (an invalid id).
  virtual GrabId grab_patch(const SurfacePoint& point, double /*radius*/) { return grab(point); }
  /// Whether grab_patch honours its radius.
  virtual bool soft_grabs() const { return false; }
  /// Surface nodes a grab holds (the handle node first), for drawing the patch; empty if unknown.
  virtual std::span<const Index> grab_nodes(GrabId /*id*/) const { return {}; }
  /// Whether `id` is a grab this body holds now: false for an invalid id or a released one (ids are
  /// per body: pass each body its own). The default asks grab_nodes, so a family that does not list its
  /// grab's nodes overrides this. The checked calls (checked_grab.hpp) refuse a grab that is not held.
  virtual bool holds(GrabId id) const { return !grab_nodes(id).empty(); }
  /// Moves a grab's target; the body follows in its next step (unit: m).
  virtual void move_grab(GrabId id, const Vec3& target) = 0;
  virtual void release(GrabId id) = 0;
  /// Force the body exerts on the grabbing tool, after the last step (unit: N). A haptic device
  /// renders this.
  virtual Vec3 grab_reaction(GrabId id) const = 0;
  /// Local compliance at a grab, ∂(displacement)/∂(force) (unit: m/N): lets the haptic loop update
  /// forces between steps (exact for a linear Green body, for a soft grab the compliance of its
  /// handle with the whole patch moving rigidly; an estimate for others, zero if unknown).
  virtual Mat3 grab_compliance(GrabId /*id*/) const { return Mat3::Zero(); }
  /// Stiffness of a set of grabs moved together in translation, the other grabs held: ∂(Σ of their
  /// reactions)/∂(common move of their targets) (unit: N/m), symmetric ≤ 0. Lets the haptic loop
  /// update an instrument's contact force between steps: exact for a linear Green body (the held
  /// nodes' capacitance system, James & Pai 1999: −S C⁻¹ Sᵀ), zero where the family has no
  /// compliance (the World then estimates a secant stiffness). Allocates: call it after a step, not in
  /// one.
  virtual Mat3 grab_set_stiffness(std::span<const GrabId> /*ids*/) const { return Mat3::Zero(); }

  /// Whether rigid colliders hold this body's surface nodes (contact.hpp): true for a body whose grabs
  /// hold a node in its own solve. A body whose grabs mean something else (the impact family's pull
  /// dents a rigid surface) answers false and takes no contact response.
  virtual bool takes_contact() const { return true; }

  /// Adds an external force at a surface point for the next step (unit: N).
  virtual void apply_force(const SurfacePoint& point, const Vec3& force) = 0;

  /// Advances by dt (unit: s), recording its named stages in `profile`. Never throws.
  virtual void step(double dt, Profile& profile) = 0;

  /// Events of the last step, typed per category (events.hpp); valid until the next step.
  virtual const EventLog& events() const;
  /// The fields this body offers, fixed for its lifetime.
  virtual std::span<const FieldInfo> fields() const = 0;
  /// Writes field `index` (into fields()) for every surface node into `out`, whose size must be
  /// surface_positions().size(); allocates nothing. An index out of range, or a wrong size, writes
  /// nothing.
  virtual void fill_field(std::size_t index, std::span<double> out) const = 0;
  /// Stable hash of the state, for determinism tests.
  virtual std::uint64_t state_hash() const = 0;
};

/// Every field of a body, copied out (allocates: for output writers, not per frame).
std::vector<SurfaceField> copy_fields(const Body& body);

/// The index of the field named `name` in body.fields(), or -1.
int find_field(const Body& body, std::string_view name);

/// The surface nodes (surface numbering: index s of surface_to_volume) whose volume node
/// surface_to_volume[s] is one of `volume_nodes` (any order), ascending.
std::vector<Index> surface_nodes_among(std::span<const Index> surface_to_volume,
                                       std::span<const Index> volume_nodes);

/// An optional capability of a body (capabilities.hpp: Cuttable, ImpactTarget, InteriorOutput), or nullptr:
/// interactions query it and never ask which family they touch.
template <class Capability>
Capability* capability(Body& body) {
  return dynamic_cast<Capability*>(&body);
}
template <class Capability>
const Capability* capability(const Body& body) {
  return dynamic_cast<const Capability*>(&body);
}

/// The position of a surface point on the given positions.
inline Vec3 point_on(std::span<const Vec3> positions, std::span<const Tri> triangles, const SurfacePoint& p) {
  const Tri& t = triangles[static_cast<std::size_t>(p.triangle)];
  return (1.0 - p.u - p.v) * positions[t[0]] + p.u * positions[t[1]] + p.v * positions[t[2]];
}

}  // namespace pliant::scene
