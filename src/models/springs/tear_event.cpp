#include "pliant/models/springs/tear_event.hpp"

namespace pliant::springs {

const char* tear_kind_name(TearKind kind) {
  switch (kind) {
    case TearKind::hole:
      return "hole";
    case TearKind::propagate:
      return "propagate";
    case TearKind::branch:
      return "branch";
    case TearKind::tear_through:
      return "tear_through";
    case TearKind::deletion:
      return "deletion";
  }
  return "unknown";
}

EventBrief TearEvent::brief() const {
  // The names event listings use (summary.json): the category's prefix, then the kind.
  std::string_view kind_name = "tear_delete";
  switch (kind) {
    case TearKind::hole:
      kind_name = "tear_hole";
      break;
    case TearKind::propagate:
      kind_name = "tear_propagate";
      break;
    case TearKind::branch:
      kind_name = "tear_branch";
      break;
    case TearKind::tear_through:
      kind_name = "tear_through";
      break;
    case TearKind::deletion:
      break;
  }
  return {kind_name, node, position};
}

}  // namespace pliant::springs
