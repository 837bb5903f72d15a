// Pose: where a rigid shape is, a position and a rotation (unit quaternion), and keyframe tracks of
// poses. Rigid colliders carry one; a track moves them (positions linearly, rotations by spherical
// linear interpolation, Shoemake 1985).
#pragma once

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

/// The unit quaternion of (w, x, y, z), or nothing when an entry is not finite or its norm is below
/// 1e-12 (a zero quaternion names no rotation).
inline std::optional<Eigen::Quaterniond> normalized_quaternion(double w, double x, double y, double z) {
  const Eigen::Quaterniond q(w, x, y, z);
  if (!q.coeffs().allFinite()) return std::nullopt;
  const double n = q.norm();
  if (!(n > 1e-12)) return std::nullopt;
  return Eigen::Quaterniond(q.coeffs() / n);
}

/// The rotation by `degrees` (unit: degree) about `axis` (any length > 1e-12), or nothing when the
/// axis is zero or an entry is not finite.
inline std::optional<Eigen::Quaterniond> axis_angle_degrees(const Vec3& axis, double degrees) {
  if (!axis.allFinite() || !std::isfinite(degrees)) return std::nullopt;
  const double n = axis.norm();
  if (!(n > 1e-12)) return std::nullopt;
  return Eigen::Quaterniond(Eigen::AngleAxisd(degrees * M_PI / 180.0, axis / n));
}

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
