// The handle of a grab a body holds, the same type in every family's model and in the scene layer.
#pragma once

#include <cstdint>

namespace pliant {

/// Handle of a grab held by a body: {slot, generation}. A slot is reused after its grab is released,
/// with the next generation, so a released handle never aliases a new grab (GrabSlots).
struct GrabId {
  std::int32_t slot = -1;        ///< -1: no grab
  std::uint32_t generation = 0;  ///< the slot's use this handle names, from 1
  bool valid() const { return slot >= 0; }
  friend bool operator==(const GrabId&, const GrabId&) = default;
};

}  // namespace pliant
