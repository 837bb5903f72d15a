// The built-in families' side of the public registry (pliant/scene/family_registry.hpp). Adding a family
// NAME in tree takes its folder under src/models/NAME, its scene adapter (src/scene/NAME_scene_body.cpp
// defining `FamilyEntry NAME_family()` in this namespace), its tests (tests/models/NAME), its viewer
// panel (apps/viewer/panels/NAME_panel.cpp) and its name in PLIANT_FAMILIES (src/CMakeLists.txt), the
// one registration line: CMake generates the list the registry reads. A static library drops
// self-registering objects nobody references, so built-in registration is explicit.
#pragma once

#include "pliant/scene/family_registry.hpp"

namespace pliant::scene::detail {

using scene::BodyFactory;
using scene::BodyInputs;
using scene::family_entries;
using scene::FamilyEntry;
using scene::find_family;
using scene::register_family;

}  // namespace pliant::scene::detail
