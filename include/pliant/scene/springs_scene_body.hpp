// The mass-spring family (Grimm 2005) behind the surface contract: a springs::SpringsBody seen as a
// scene body, built from C++ without a scene file, and read-only access to the mass-spring state
// behind such a body for tests, analysis and tools that need more than the surface contract (the
// consistency rules of a torn membrane, node stresses, which nodes a grab holds). Interactions never
// need the accessors.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/springs_asset.hpp"
#include "pliant/models/springs/springs_body.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>

namespace pliant::scene {

/// A scene body named `name` that drives a springs::SpringsBody made from `asset` (the initial network:
/// rest positions in m, springs, masses in kg, fixed nodes; shared, never changed: the body copies its
/// mesh once, and tearing changes only that copy; build it with springs::SpringsAsset::build, or
/// through AssetCache::global() to share it) and `def` (per-body settings, units in SpringsBodyDef).
/// Fails with one line for a null asset or a def the body refuses (springs::SpringsBody::build). Its
/// surface is the whole SpringMesh (positions in
/// m, every node a surface node, the mesh's triangles); a grab holds the triangle corner nearest the
/// picked point; apply_force spreads a force (unit: N) over the triangle's corners by barycentric
/// weight for the next step; its events are the body's tears and released grabs. Body::step(dt)
/// covers the world's time step dt (unit: s) with substeps of body.def().method.dt (unit: s) for the
/// dynamic methods, lround(dt / method.dt) of them: pick a method dt that divides the world's step and
/// is stable for the mesh (springs::explicit_euler_stable_step; a scene file's reader rounds and
/// checks it). Stages recorded: "springs.interaction", "springs.solve", "springs.tear" (unit: ms).
Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const springs::SpringsAsset> asset,
                                              springs::SpringsBodyDef def);

/// The SpringsBody behind a springs-family scene body, or nullptr for a body of another family.
const springs::SpringsBody* springs_body(const Body& body);

/// The SpringMesh of a springs-family body, or nullptr for a body of another family. Valid until the
/// body's next step (tearing may reallocate its arrays).
const springs::SpringMesh* springs_mesh(const Body& body);

}  // namespace pliant::scene
