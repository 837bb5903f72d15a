// A rigid projectile of the impact family: a point, or a triangle mesh carried by a reference point.
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::impact {

/// What a projectile is and how it starts. It accelerates with `acceleration` until it touches the
/// target; then it decelerates along its contact direction at `contact_deceleration` (0: at
/// |acceleration|, the source's "the acceleration becomes the negative of the initial one") until its
/// speed is zero, and the target's affected points follow its travel scaled by their intensity.
struct Projectile {
  TriMesh shape;                      ///< mesh around `position`; no triangles: a point (unit: m)
  Vec3 position = Vec3::Zero();       ///< reference point at launch (unit: m)
  Vec3 velocity = Vec3::Zero();       ///< at launch (unit: m/s)
  Vec3 acceleration = Vec3::Zero();   ///< while flying (unit: m/s²)
  double mass = 1.0;                  ///< contact force = mass · deceleration (unit: kg)
  double contact_deceleration = 0.0;  ///< while denting; 0: |acceleration| (unit: m/s²)

  bool is_point() const { return shape.triangles.empty(); }
};

/// Where a projectile is in its life.
enum class ProjectilePhase {
  flying,   ///< before contact
  denting,  ///< in contact, decelerating, moving the affected points
  stopped,  ///< came to rest (after a dent, or against a surface too strong to dent)
  passed,   ///< missed the target and left its neighbourhood
};

/// A projectile's current state (unit: m, m/s).
struct ProjectileStatus {
  Vec3 position = Vec3::Zero();
  Vec3 velocity = Vec3::Zero();
  ProjectilePhase phase = ProjectilePhase::flying;
};

}  // namespace pliant::impact
