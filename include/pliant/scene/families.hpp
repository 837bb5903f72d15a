// The model families this build of Pliant knows (the family registry, DESIGN.md), for help texts,
// the viewer and the Python module. Scene files name a family with the body's "family" key.
#pragma once

#include <string>
#include <vector>

namespace pliant::scene {

/// A registered family as a scene file sees it.
struct FamilyInfo {
  std::string name;               ///< the body's "family" value, e.g. "green"
  std::string summary;            ///< one line: what the family models and whose method it is
  std::vector<std::string> keys;  ///< body keys it reads besides the shared ones
  std::string example_body;       ///< a small body object (JSON, without "name" and "family")
};

/// Every registered family, in registration order.
std::vector<FamilyInfo> registered_families();

}  // namespace pliant::scene
