// The scripted instruments of a world as cylinders to draw: each tool as itself, each blade's edge as a
// thin rod. The headless renderer and the viewer draw the same shapes from this one list.
#pragma once

#include "pliant/core/types.hpp"

#include <vector>

namespace pliant::scene {

class World;

/// A cylinder standing for an instrument.
struct ToolCylinder {
  Vec3 centre = Vec3::Zero();  ///< (unit: m)
  Vec3 axis = Vec3::UnitY();   ///< unit axis
  double radius = 0.0;         ///< (unit: m)
  double half_length = 0.0;    ///< half its length along the axis (unit: m)
  Vec3 force = Vec3::Zero();   ///< force the bodies exert on it (unit: N); zero for a blade
};

/// The world's tools, then its blades, in their order. Before the first step a tool is shown at its
/// first keyframe (the world places tools during a step); a blade's rod is 2 % of its half length thick.
std::vector<ToolCylinder> tool_cylinders(const World& world);

}  // namespace pliant::scene
