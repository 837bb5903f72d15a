// The meshless family (Müller et al. 2004 MLS elasticity with Li et al.'s precomputed constants and
// driven surface) behind the surface contract: a meshless::MeshlessBody seen as a scene body, built
// from C++ without a scene file, and read-only access to the phyxels behind such a body.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/meshless/meshless_asset.hpp"
#include "pliant/models/meshless/meshless_body.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>

namespace pliant::scene {

/// A scene body named `name` over `asset` (shared: build it with meshless::MeshlessAsset::build, or let
/// pliant::AssetCache share it by MeshlessAsset::key_of) with the per-body settings `def` (substep,
/// scheme, gravity, damping, floor, fixed phyxels; its sampling, mls and binding are the asset's). Fails
/// with one line for a null asset or a setting the body refuses. Its surface is the driven render surface
/// (positions in m); a grab holds the triangle corner nearest the picked point through the phyxels its MLS
/// fit uses, translated with the target; apply_force spreads a force (unit: N) over the triangle's corners by
/// barycentric weight and on to the phyxels by their MLS weights, for the next step. Body::step(dt)
/// covers dt (unit: s) with equal substeps no longer than body.substep(). Fields: "displacement" (m),
/// "volume_change" (det F - 1, dimensionless). Stages: "meshless.solve", "meshless.surface" (unit: ms).
Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const meshless::MeshlessAsset> asset,
                                              meshless::MeshlessBodyDef def);

/// The MeshlessBody behind a meshless-family scene body, or nullptr for a body of another family.
const meshless::MeshlessBody* meshless_body(const Body& body);

}  // namespace pliant::scene
