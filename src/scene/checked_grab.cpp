#include "pliant/scene/checked_grab.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pliant::scene {

Status check_surface_point(const Body& body, const SurfacePoint& point) {
  const auto n = static_cast<long long>(body.surface_triangles().size());
  if (point.triangle < 0 || point.triangle >= n)
    return Error{fmt::format("point: triangle {} is not on body \"{}\" (its surface has triangles 0..{})",
                             point.triangle, body.name(), n - 1)};
  if (!std::isfinite(point.u) || !std::isfinite(point.v))
    return Error{fmt::format("point: barycentric (u, v) = ({}, {}) is not finite", point.u, point.v)};
  if (point.u < -kBarycentricSlack || point.v < -kBarycentricSlack ||
      point.u + point.v > 1.0 + kBarycentricSlack)
    return Error{fmt::format(
        "point: barycentric (u, v) = ({}, {}) is outside triangle {} (needs u ≥ 0, v ≥ 0, u + v ≤ 1)",
        point.u, point.v, point.triangle)};
  return {};
}

Result<GrabId> checked_grab(Body& body, const SurfacePoint& point, double radius) {
  if (Status s = check_surface_point(body, point); !s.ok()) return s.error();
  if (std::isnan(radius))
    return Error{"radius: NaN (give metres, or a negative number for the body's default)"};
  const GrabId id = body.grab_patch(point, radius);
  // The family's own refusals: every node it could hold there is fixed or held by another grab (or
  // by contact).
  if (!id.valid())
    return Error{fmt::format(
        "point: body \"{}\" can hold nothing at triangle {} (its nodes there are fixed or already held)",
        body.name(), point.triangle)};
  return id;
}

Status check_held(const Body& body, GrabId id) {
  if (!id.valid()) return Error{"grab: an invalid handle (slot -1): it never held anything"};
  if (!body.holds(id))
    return Error{
        fmt::format("grab: body \"{}\" does not hold grab (slot {}, generation {}): released, "
                    "ended by the body, or never its own",
                    body.name(), id.slot, id.generation)};
  return {};
}

Status checked_move_grab(Body& body, GrabId id, const Vec3& target) {
  if (Status s = check_held(body, id); !s.ok()) return s;
  if (!target.allFinite())
    return Error{fmt::format("target: [{}, {}, {}] m is not finite", target.x(), target.y(), target.z())};
  body.move_grab(id, target);
  return {};
}

Status checked_release(Body& body, GrabId id) {
  if (Status s = check_held(body, id); !s.ok()) return s;
  body.release(id);
  return {};
}

Result<Vec3> checked_grab_reaction(const Body& body, GrabId id) {
  if (Status s = check_held(body, id); !s.ok()) return s.error();
  return body.grab_reaction(id);
}

}  // namespace pliant::scene
