// The impact family (Milanović's permanent dents, models/impact) behind the surface contract: a
// impact::DentTarget seen as a scene body and as a scene::ImpactTarget, built from C++ without a
// scene file, and read-only access to the target behind such a body for tests and tools.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/impact/dent_asset.hpp"
#include "pliant/models/impact/dent_target.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>

namespace pliant::scene {

/// How an impact body answers the surface contract and projectiles.
struct ImpactBodyDef {
  double grab_stiffness = 1000.0;         ///< grab reaction per metre from rest (unit: N/m)
  double projectile_deceleration = 50.0;  ///< of a projectile it absorbs while denting (unit: m/s²)
  impact::DentThreading threading = {};   ///< threads of the ray casts and weights (see DentThreading)
};

/// A scene body named `name` that drives an impact::DentTarget of `asset` (shared: the body copies the
/// surface and its structures on its first dent or grab, never writing to the asset; build it with
/// impact::DentAsset::build or take it from AssetCache) and `def` (stiffness in N/m, deceleration in
/// m/s², threading). Its surface is the target's mesh. A grab moves
/// the held node to its target (permanently, like a dent pulled by hand: nodes within the falloff
/// radius φ of the node follow by f of their distance) and reacts with -grab_stiffness·(node -
/// rest); apply_force is ignored (the body is rigid except for dents). As a scene::ImpactTarget,
/// a projectile whose step segment meets the surface is absorbed: the body dents under it over the
/// next steps (DentTarget's model, at def.projectile_deceleration) and impact() returns the
/// projectile's whole velocity as its change. Events: impact::ImpactEvent ("impact") and grab
/// releases. Stage recorded: "impact.step" (unit: ms). Fails with one line for a null asset.
Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const impact::DentAsset> asset,
                                              ImpactBodyDef def = {});

/// The DentTarget behind an impact-family scene body, or nullptr for a body of another family.
const impact::DentTarget* impact_target(const Body& body);

}  // namespace pliant::scene
