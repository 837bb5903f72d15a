// Pose: where a rigid shape is, a position and a rotation (unit quaternion), and keyframe tracks of
// poses. Rigid colliders carry one; a track moves them (positions linearly, rotations by spherical
// linear interpolation, Shoemake 1985).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/track.hpp"
#include "pliant/core/types.hpp"

#include <cmath>
#include <optional>
#include <vector>

namespace pliant {

/// A rigid transform x_world = rotation · x_local + position.
struct Pose {
  Vec3 position = Vec3::Zero();                                  ///< (unit: m)
  Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();  ///< unit quaternion

  Vec3 to_world(const Vec3& local) const { return rotation * local + position; }
  Vec3 to_local(const Vec3& world) const { return rotation.conjugate() * (world - position); }
  /// A direction (no translation) from local to world.
  Vec3 direction_to_world(const Vec3& local) const { return rotation * local; }
  Vec3 direction_to_local(const Vec3& world) const { return rotation.conjugate() * world; }
};

/// The rotation of `degrees` about `axis` (any non-zero length). Fails on a zero or non-finite axis or
/// a non-finite angle, saying which.
Result<Eigen::Quaterniond> axis_angle_rotation(const Vec3& axis, double degrees);

/// The rotation of the quaternion [w, x, y, z]. Its norm must be within 1e-3 of 1 (values rounded
/// to four digits pass) and it is then normalised; other norms and non-finite entries fail, saying
/// which: a quaternion far from unit length is a typo, not a rotation.
Result<Eigen::Quaterniond> quaternion_rotation(double w, double x, double y, double z);

/// A pose at a time: one key of a pose track.
struct PoseKey {
  double t = 0.0;  ///< (unit: s)
  Pose pose;
};

/// The pose of a track at time t (unit: s): held before the first and after the last key; positions
/// interpolated linearly, rotations by slerp between the two keys around t (the shorter arc). An
/// empty track gives `fallback`.
inline Pose pose_at(const std::vector<PoseKey>& track, double t, const Pose& fallback) {
  if (track.empty()) return fallback;
  Pose out;
  out.position = track_value(
      track.size(), [&](std::size_t k) { return track[k].t; },
      [&](std::size_t k) { return track[k].pose.position; }, t);
  if (!(t > track.front().t)) {
    out.rotation = track.front().pose.rotation;
    return out;
  }
  std::size_t k = 1;
  while (k < track.size() && !(t < track[k].t)) ++k;
  if (k == track.size()) {
    out.rotation = track.back().pose.rotation;
    return out;
  }
  const double s = (t - track[k - 1].t) / (track[k].t - track[k - 1].t);
  out.rotation = track[k - 1].pose.rotation.slerp(s, track[k].pose.rotation).normalized();
  return out;
}

}  // namespace pliant
