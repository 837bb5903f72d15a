// The checks a rigid shape's pose and keyframe track share (colliders, instruments).
#pragma once

#include "pliant/core/pose.hpp"

#include <string>
#include <vector>

namespace pliant::scene::detail {

/// Finite positions, unit quaternions, finite key times that increase. Messages start with `who`
/// (e.g. `collider "table": `) and name the key.
Status check_pose_track(const Pose& pose, const std::vector<PoseKey>& track, const std::string& who);

}  // namespace pliant::scene::detail
