// The handle of a grab a body holds.
#pragma once

#include <cstdint>

namespace pliant::scene {

/// Handle of a grab held by a body ({slot, generation}: a released handle never aliases a new grab).
struct GrabId {
  std::int32_t slot = -1;
  std::uint32_t generation = 0;
  bool valid() const { return slot >= 0; }
  friend bool operator==(const GrabId&, const GrabId&) = default;
};

}  // namespace pliant::scene
