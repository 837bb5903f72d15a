// Checked grabs: the surface contract's grab calls with their arguments checked once, for every
// family, so that a point off the surface, a NaN target or a released handle is an error naming the
// argument, not a handle (slot −1) that silently reads zero force. Families implement the unchecked
// virtual calls of Body (which ignore what they cannot use); the World, the viewer, the CLI and the
// Python module go through these.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/body.hpp"

namespace pliant::scene {

/// Slack on the barycentric coordinates of a surface point (dimensionless): a ray hit on a triangle's
/// edge may land a rounding error outside it.
inline constexpr double kBarycentricSlack = 1e-9;

/// Success when `point` lies on the body's current surface: a triangle index in range and finite
/// barycentric coordinates inside it (u ≥ 0, v ≥ 0, u + v ≤ 1, each within kBarycentricSlack); else
/// one line naming "point" and what is wrong.
Status check_surface_point(const Body& body, const SurfacePoint& point);

/// Body::grab_patch with its arguments checked: an error for a point off the surface (above), a NaN
/// radius (unit: m; negative means the body's default), or a point where the body holds nothing (the
/// nodes around it fixed or already held). The id is valid whenever the result is.
Result<GrabId> checked_grab(Body& body, const SurfacePoint& point, double radius = kDefaultGrabRadius);

/// Success when the body holds `id` now (Body::holds); else one line naming "grab": never held,
/// released, or ended by the body (a torn node).
Status check_held(const Body& body, GrabId id);

/// Body::move_grab, refusing a grab not held and a target (unit: m) that is not finite.
Status checked_move_grab(Body& body, GrabId id, const Vec3& target);

/// Body::release, refusing a grab not held (a second release included).
Status checked_release(Body& body, GrabId id);

/// Body::grab_reaction (unit: N), refusing a grab not held instead of reading zero.
Result<Vec3> checked_grab_reaction(const Body& body, GrabId id);

}  // namespace pliant::scene
