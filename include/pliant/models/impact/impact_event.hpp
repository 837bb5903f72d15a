// The event a dent target emits when a projectile touches it.
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/types.hpp"

#include <string_view>

namespace pliant::impact {

/// A projectile touched the target (emitted once, at the step of first contact).
struct ImpactEvent {
  static constexpr std::string_view category = "impact";
  Index projectile = -1;         ///< projectile id, as DentTarget::launch returned it
  Index node = -1;               ///< target node nearest the contact point
  Vec3 position = Vec3::Zero();  ///< contact point (unit: m)
  Vec3 normal = Vec3::Zero();    ///< unit surface normal there, facing the projectile
  double depth = 0.0;            ///< final dent depth at the deepest point, 0 if nothing dents (unit: m)
  Index affected_points = 0;     ///< target nodes that move
  double force = 0.0;            ///< contact force, mass · deceleration (unit: N)
  EventBrief brief() const { return {"impact", node, position, "depth_m", depth}; }
};

}  // namespace pliant::impact
