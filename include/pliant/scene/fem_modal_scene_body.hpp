// A modally reduced FEM body behind the surface contract: the fem family's "modal" setting.
//
// Linear elasticity about the rest shape, reduced to its lowest r vibration modes (Pentland &
// Williams 1989; Hauser, Shen & O'Brien 2003; reviewed by Huang & Wang 2007), optionally
// reconstructed with modal warping (Choi & Ko 2005) so that rotations do not inflate the body. Its run
// time is fem::ModalFemBody (models/fem/modal/modal_fem_body.hpp).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/fem/modal/modal_fem_asset.hpp"
#include "pliant/models/fem/modal/modal_fem_body.hpp"
#include "pliant/scene/body.hpp"

#include <memory>
#include <string>

namespace pliant::scene {

/// A scene body named `name`, a fem::ModalFemBody of `asset` (shared, never written; build it with
/// fem::ModalFemAsset::build or take it from AssetCache) with the per-body settings `def` (step dt in s,
/// damping α in 1/s and β in s, gravity in m/s², surface loads in Pa, warping). Its surface is
/// the mesh's boundary, reconstructed per step; a grab ties the soft patch picked around the point (the
/// free surface nodes within the radius that connect to the handle over the surface; default radius
/// twice the mean surface edge length at the handle) by stiff springs to its target (see
/// fem::ModalFemBody); apply_force projects the force (unit: N) of the next step, spread over the
/// triangle's corners by barycentric weight, on the modes. Fields: "displacement" (m), "speed" (m/s, of
/// the linear reconstruction). Stages: "fem.modal_step", "fem.reconstruct" (unit: ms). Events:
/// fem::FemSolverWarning (a state no longer finite) and released grabs. It offers InteriorOutput: the
/// full reconstruction, computed only when asked. Steps never throw and allocate nothing after the first.
/// Fails with one line for a null asset or a def the body refuses.
Result<std::unique_ptr<Body>> make_scene_body(std::string name,
                                              std::shared_ptr<const fem::ModalFemAsset> asset,
                                              fem::ModalFemDef def);

/// The ModalFemBody behind a modal fem body, or nullptr for any other body.
const fem::ModalFemBody* fem_modal_body(const Body& body);

}  // namespace pliant::scene
