// The event of a grab letting go, the same in every family's model and in the scene's event log.
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/grab_id.hpp"
#include "pliant/core/types.hpp"

#include <string_view>

namespace pliant {

/// A grab let go: released by its owner, or dropped by the body (its node was torn away).
struct GrabReleased {
  static constexpr std::string_view category = "grab";
  GrabId id;                     ///< the handle that was released
  Index node = -1;               ///< the surface node (vertex) it held, -1 if it no longer exists
  Vec3 position = Vec3::Zero();  ///< where (unit: m)
  EventBrief brief() const { return {"grab_released", node, position}; }
};

}  // namespace pliant
