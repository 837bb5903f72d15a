// The dynamic FEM family (fem::FemBody) behind the surface contract, built from C++ without a scene
// file, and read-only access to the FemBody behind such a body for tests, output and tools.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/fem/fem_asset.hpp"
#include "pliant/models/fem/fem_body.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>

namespace pliant::scene {

/// A scene body named `name`: a fem::FemBody over `asset` (rest mesh in m, materials; shared, never
/// changed: build it with fem::FemAsset::build, or take it from pliant::AssetCache) with `def` (the
/// force model's def and the stepping, units on their fields). Fails with one line on a null asset or a
/// def fem::FemBody::build refuses. Its surface is the mesh's boundary; grabs are soft patches (the free
/// surface nodes within the radius of the picked point that connect to it over the surface; default radius
/// twice the mean surface edge length at the handle) held kinematically and moved with the handle; a grab's
/// reaction is the sum of the body's forces on its nodes after the step (elastic, damping, gravity);
/// apply_force spreads a force (unit: N) over a triangle's corners by barycentric weight for the next step.
/// Fields: "displacement" (m), "speed" (m/s), "von_mises" (Pa, the volume-weighted mean over the tets around
/// each surface node). Stages: "fem.solve", "fem.reaction" (unit: ms). Events: fem::FemSolverWarning,
/// fem::FemCutEvent and released grabs. Steps never throw; after the first step they allocate nothing with
/// the pcg solver and the explicit integrators (CHOLMOD allocates inside its factorisations and solves).
///
/// A hybrid body (non-empty step_def().operational) has the Cuttable capability: a blade's sweep cuts
/// its operational tets (fem::FemBody::cut), surface_topology_version() grows and a fem::FemCutEvent is
/// emitted in the next step. A cut allocates and moves the body onto a private copy of the rest data (the
/// shared asset is left unchanged); a sweep that misses allocates nothing. Other FEM bodies are not
/// Cuttable.
Result<std::unique_ptr<Body>> make_scene_body(std::string name, std::shared_ptr<const fem::FemAsset> asset,
                                              fem::FemDef def);

/// The FemBody behind a fem-family body, or nullptr for a body of another family (or a modal one).
const fem::FemBody* fem_body(const Body& body);

}  // namespace pliant::scene
