// Collider: a rigid shape that the World's bodies touch (a table, an instrument, an organ's rigid
// surroundings): a shape with its sizes, a pose, how it moves (fixed or a keyframe track of poses), a
// friction coefficient and a contact margin. Its distance queries are core's kernels
// (shape_distance.hpp, mesh_distance.hpp) in the collider's local frame.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/mesh_distance.hpp"
#include "pliant/core/pose.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/shape_distance.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene {

enum class ColliderShape { plane, sphere, capsule, box, mesh };

/// The scene files' name of a shape ("plane", "sphere", ...).
std::string_view collider_shape_name(ColliderShape shape);

struct Collider {
  std::string name;
  ColliderShape shape = ColliderShape::plane;
  /// Plane: the unit outward normal in the local frame; the solid is the half-space behind the
  /// plane through the pose's position.
  Vec3 normal = Vec3::UnitZ();
  double radius = 0.05;       ///< sphere and capsule (unit: m), > 0
  double half_length = 0.05;  ///< capsule: half the length of its axis segment, along local y (unit: m), ≥ 0
  Vec3 half_extents = Vec3::Constant(0.05);  ///< box (unit: m), each > 0
  /// Mesh: the rigid surface in the local frame (closed: signed exactly; open: one-sided by its
  /// triangles' normals, see MeshDistance).
  std::shared_ptr<const MeshDistance> mesh;
  Pose pose;                   ///< where it is when it has no track (unit: m)
  std::vector<PoseKey> track;  ///< keyframes of poses (times in s); empty: fixed at `pose`
  double friction = 0.5;       ///< Coulomb coefficient μ (dimensionless, ≥ 0)
  double margin = 5e-4;        ///< contact thickness added to the body's (unit: m), > 0

  /// The pose at time t (unit: s).
  Pose pose_at(double t) const { return pliant::pose_at(track, t, pose); }
  /// Signed distance from world point p with the collider at `at` (world frame), see SurfaceDistance.
  /// A mesh point farther than sqrt(max_distance_squared) (unit: m²) from it gives distance +∞.
  SurfaceDistance distance(const Pose& at, const Vec3& p,
                           double max_distance_squared = std::numeric_limits<double>::infinity()) const;
  /// World bounding box of the solid at `at` (unit: m); a plane is unbounded (infinite box).
  Aabb bounds(const Pose& at) const;
};

/// Checks sizes, pose, track, friction and margin; the error is one line naming the bad value.
Status validate(const Collider& collider);

}  // namespace pliant::scene
