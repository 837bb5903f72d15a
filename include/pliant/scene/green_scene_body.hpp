// The green family's scene body, built in C++ from its asset and def (no scene file needed).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_body.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pliant::scene {

/// Loads a Green body carries throughout (a precomputed load response each, see green::GreenBody).
struct GreenLoads {
  /// A uniform body-force density (unit: N/m³, world frame): for gravity, density × g.
  Vec3 body_force = Vec3::Zero();
  /// A pressure on a set of surface triangles (indices into the asset's surface).
  struct Pressure {
    std::vector<Index> triangles;
    double value = 0.0;  ///< (unit: Pa), positive pushes the surface in
  };
  std::vector<Pressure> pressures;
};

/// A Green's-function body (Nikitina et al. 2003) behind the surface contract: soft grabs (default
/// radius twice the mean surface edge length at the grabbed node), exact local compliance, applied
/// forces, gravity and pressures. `asset` is shared and never copied: build it with
/// green::build_green_asset or load it with green::load_green_file, and share it between bodies (or
/// through pliant::AssetCache by green::asset_key); `def` holds the per-body settings, `loads` what the
/// body carries throughout. Fails with one line for a null asset or a pressure load the body refuses
/// (no triangle, one out of range, zero area). Every family has a factory of this shape (DESIGN.md,
/// "asset, def, state"): make_scene_body(name, asset, def).
Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const green::GreenAsset> asset,
                                              green::GreenDef def = {}, const GreenLoads& loads = {});
/// The asset behind a green-family scene body (shared with every body built from it), or nullptr for a
/// body of another family.
std::shared_ptr<const green::GreenAsset> green_asset(const Body& body);
}  // namespace pliant::scene
