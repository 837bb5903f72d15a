// How any event describes itself for listings (summary files, the CLI, the viewer), whatever family
// emitted it. Event types are plain structs owned by the family that emits them (springs::TearEvent,
// later impact and cut events); each declares its category and a brief():
//
//   struct MyEvent {
//     static constexpr std::string_view category = "my_family.thing";
//     EventBrief brief() const;
//   };
//
// scene::EventLog stores them in one typed array per category.
#pragma once

#include "pliant/core/types.hpp"

#include <string_view>

namespace pliant {

/// The generic view of one event.
struct EventBrief {
  std::string_view kind;         ///< e.g. "tear_hole", "grab_released" (static storage)
  Index node = -1;               ///< surface node involved, -1 if none
  Vec3 position = Vec3::Zero();  ///< where it happened (unit: m)
  /// One number that says how much, named with its unit, e.g. "depth_m", "links_removed",
  /// "relative_residual" (static storage); empty when the event has none.
  std::string_view quantity = {};
  double value = 0.0;  ///< the quantity's value
};

}  // namespace pliant
