// The green family's scene body, built in C++ from its asset and def (no scene file needed).
#pragma once

#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_body.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>

namespace pliant::scene {

/// A Green's-function body (Nikitina et al. 2003) behind the surface contract: soft grabs (default
/// radius twice the mean surface edge length at the grabbed node), exact local compliance, applied
/// forces. `asset` is shared and never copied (build it with green::build_green_asset or load it
/// with green::load_green_file); `def` holds the per-body settings. Null asset: returns nullptr.
std::unique_ptr<Body> make_green_scene_body(std::string name, std::shared_ptr<const green::GreenAsset> asset,
                                            green::GreenDef def = {});

}  // namespace pliant::scene
