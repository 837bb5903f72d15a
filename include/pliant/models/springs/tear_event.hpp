// What a membrane tear did: the event both tearings (tearing_area.hpp, tearing_deletion.hpp) report,
// as an array valid until the next step (no callbacks).
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/types.hpp"

#include <cstdint>
#include <string_view>

namespace pliant::springs {

/// What a tear did.
enum class TearKind : std::uint8_t {
  hole,          ///< a new hole at an inner node
  propagate,     ///< an existing crack grew from its tip (crack seed)
  branch,        ///< a crack started at an edge node that is not a crack tip (branching / border crack)
  tear_through,  ///< a crack reached an edge: the end node was split so rule 5 holds again
  deletion,      ///< deletion tearing removed an over-stretched spring
};

/// Name of a kind ("hole", "propagate", "branch", "tear_through", "deletion").
const char* tear_kind_name(TearKind kind);

/// One tear, readable after the step (and, through a springs scene body, an event of category "tear").
struct TearEvent {
  static constexpr std::string_view category = "tear";
  Index node = -1;  ///< the node that tore (deletion: the spring's first end after compaction, -1 if removed)
  Index new_node = -1;  ///< the copy made of it (-1 for deletion)
  Index spring = -1;    ///< the crack spring (deletion: -1, the spring no longer exists)
  TearKind kind = TearKind::hole;
  Vec3 position = Vec3::Zero();  ///< where (the node's, or the spring midpoint's, current position) (unit: m)
  /// Kind ("tear_hole", "tear_propagate", "tear_branch", "tear_through", "tear_delete"), node, position.
  EventBrief brief() const;
};

}  // namespace pliant::springs
