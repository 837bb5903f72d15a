// Scripted interactions: grabs that follow a trajectory, and force probes. They act on bodies only
// through the surface contract (body.hpp), so they work on every family.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/scene/body.hpp"

#include <vector>

namespace pliant::scene {

/// A keyframe of a scripted motion: at time t the handle is displaced by `offset` from where it was
/// grabbed. Between keyframes the offset is interpolated linearly; after the last it stays.
struct Keyframe {
  double t = 0.0;              ///< (unit: s)
  Vec3 offset = Vec3::Zero();  ///< (unit: m)
};

/// Offset at time t of a keyframe track (sorted by t).
Vec3 offset_at(const std::vector<Keyframe>& track, double t);

/// Grabs a surface point at `start` and moves it along `track`; released at `release` (if > start).
struct ScriptedGrab {
  Index body = 0;
  SurfacePoint point;
  double start = 0.0;     ///< (unit: s)
  double release = -1.0;  ///< (unit: s); ≤ start: held to the end
  std::vector<Keyframe> track;

  // State.
  GrabId id;
  Vec3 anchor = Vec3::Zero();  ///< position at the moment of grabbing (unit: m)
  bool done = false;
};

/// Applies a force at a surface point while start ≤ t < end, ramped linearly over `ramp`.
struct ForceProbe {
  Index body = 0;
  SurfacePoint point;
  Vec3 force = Vec3::Zero();  ///< full force (unit: N)
  double start = 0.0;         ///< (unit: s)
  double end = 1e300;         ///< (unit: s)
  double ramp = 0.0;          ///< time to reach the full force (unit: s)
};

}  // namespace pliant::scene
