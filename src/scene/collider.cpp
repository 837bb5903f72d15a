#include "pliant/scene/collider.hpp"

#include "pose_track_check.hpp"

#include <cmath>
#include <limits>
#include <string>

namespace pliant::scene {

std::string_view collider_shape_name(ColliderShape shape) {
  switch (shape) {
    case ColliderShape::plane:
      return "plane";
    case ColliderShape::sphere:
      return "sphere";
    case ColliderShape::capsule:
      return "capsule";
    case ColliderShape::box:
      return "box";
    case ColliderShape::mesh:
      return "mesh";
  }
  return "plane";
}

SurfaceDistance Collider::distance(const Pose& at, const Vec3& p, double max_distance_squared) const {
  const Vec3 q = at.to_local(p);
  SurfaceDistance d;
  switch (shape) {
    case ColliderShape::plane:
      d = plane_distance(normal, q);
      break;
    case ColliderShape::sphere:
      d = sphere_distance(radius, q);
      break;
    case ColliderShape::capsule:
      d = capsule_distance(radius, half_length, q);
      break;
    case ColliderShape::box:
      d = box_distance(half_extents, q);
      break;
    case ColliderShape::mesh: {
      const std::optional<SurfaceDistance> m = mesh ? mesh->query(q, max_distance_squared) : std::nullopt;
      if (!m) return {std::numeric_limits<double>::infinity(), p, Vec3::UnitZ()};
      d = *m;
      break;
    }
  }
  return {d.distance, at.to_world(d.point), at.direction_to_world(d.normal)};
}

Aabb Collider::bounds(const Pose& at) const {
  Aabb local;
  switch (shape) {
    case ColliderShape::plane: {
      const double inf = std::numeric_limits<double>::infinity();
      return {Vec3::Constant(-inf), Vec3::Constant(inf)};
    }
    case ColliderShape::sphere:
      local = {Vec3::Constant(-radius), Vec3::Constant(radius)};
      break;
    case ColliderShape::capsule:
      local = {Vec3(-radius, -radius - half_length, -radius), Vec3(radius, radius + half_length, radius)};
      break;
    case ColliderShape::box:
      local = {-half_extents, half_extents};
      break;
    case ColliderShape::mesh:
      if (mesh) local = mesh->bounds();
      break;
  }
  if (local.empty()) return local;
  // The rotated box's corners bound the rotated solid.
  Aabb out;
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner((c & 1) ? local.max.x() : local.min.x(), (c & 2) ? local.max.y() : local.min.y(),
                      (c & 4) ? local.max.z() : local.min.z());
    out.extend(at.to_world(corner));
  }
  return out;
}

namespace detail {

namespace {

Status check_pose(const Pose& p, const std::string& where) {
  if (!p.position.allFinite()) return Error{where + "position must be finite"};
  if (!p.rotation.coeffs().allFinite() || std::abs(p.rotation.norm() - 1.0) > 1e-9)
    return Error{where + "rotation must be a unit quaternion"};
  return {};
}

}  // namespace

Status check_pose_track(const Pose& pose, const std::vector<PoseKey>& track, const std::string& who) {
  if (Status s = check_pose(pose, who); !s.ok()) return s;
  for (std::size_t k = 0; k < track.size(); ++k) {
    const std::string where = who + "track key " + std::to_string(k) + ": ";
    if (!std::isfinite(track[k].t)) return Error{where + "time must be finite"};
    if (k > 0 && !(track[k].t > track[k - 1].t)) return Error{where + "times must increase"};
    if (Status s = check_pose(track[k].pose, where); !s.ok()) return s;
  }
  return {};
}

}  // namespace detail

Status validate(const Collider& c) {
  const std::string who = "collider \"" + c.name + "\": ";
  const auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  switch (c.shape) {
    case ColliderShape::plane:
      if (!c.normal.allFinite() || std::abs(c.normal.norm() - 1.0) > 1e-9)
        return Error{who + "normal must be a unit vector"};
      break;
    case ColliderShape::sphere:
      if (!positive(c.radius)) return Error{who + "radius must be > 0 m"};
      break;
    case ColliderShape::capsule:
      if (!positive(c.radius)) return Error{who + "radius must be > 0 m"};
      if (!std::isfinite(c.half_length) || c.half_length < 0.0)
        return Error{who + "half_length must be ≥ 0 m"};
      break;
    case ColliderShape::box:
      if (!c.half_extents.allFinite() || !(c.half_extents.array() > 0.0).all())
        return Error{who + "half extents must be > 0 m"};
      break;
    case ColliderShape::mesh:
      if (!c.mesh) return Error{who + "no mesh"};
      break;
  }
  if (Status s = detail::check_pose_track(c.pose, c.track, who); !s.ok()) return s;
  if (!std::isfinite(c.friction) || c.friction < 0.0) return Error{who + "friction must be ≥ 0"};
  if (!positive(c.margin)) return Error{who + "margin must be > 0 m"};
  return {};
}

}  // namespace pliant::scene
