// Optional capabilities of a body beyond the surface contract. A family that supports one derives
// its scene body from the interface as well as from Body; interactions (a blade, a projectile) ask
// with scene::capability<Cuttable>(body) and skip bodies that answer nullptr, never naming a family.
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

namespace pliant::scene {

/// A blade's cutting edge over one step: the segment (a0, b0) at the step's start swept to (a1, b1)
/// at its end; the surface it sweeps is the cut (unit: m).
struct BladeSweep {
  Vec3 a0 = Vec3::Zero(), b0 = Vec3::Zero();
  Vec3 a1 = Vec3::Zero(), b1 = Vec3::Zero();
};

/// A body that a blade can cut (the meshless family; FEM's hybrid cut region).
class Cuttable {
 public:
  virtual ~Cuttable() = default;
  /// Cuts along the swept blade in the next step; what was cut is reported as the family's cut
  /// events. Returns false if the sweep is degenerate (zero area) or misses the body's bounds.
  virtual bool cut(const BladeSweep& blade) = 0;
};

/// A rigid projectile as a target sees it during one step.
struct ProjectileState {
  Vec3 position = Vec3::Zero();    ///< a reference point of the projectile (unit: m)
  Vec3 velocity = Vec3::Zero();    ///< (unit: m/s)
  double mass = 0.0;               ///< (unit: kg)
  double radius = 0.0;             ///< bounding radius around position, 0 for a point (unit: m)
  const TriMesh* shape = nullptr;  ///< its mesh around position (unit: m), nullptr for a point
};

/// A body that projectiles dent (the impact family).
class ImpactTarget {
 public:
  virtual ~ImpactTarget() = default;
  /// Lets the projectile act on the body during the next step of length dt (unit: s); returns the
  /// projectile's velocity change over the step (unit: m/s), zero if it missed.
  virtual Vec3 impact(const ProjectileState& projectile, double dt) = 0;
};

}  // namespace pliant::scene
