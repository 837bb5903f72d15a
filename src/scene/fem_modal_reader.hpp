// The fem family's "modal" setting read from a scene file (fem_scene_body.cpp dispatches here).
#pragma once

#include "pliant/materials/material.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/scene/family_registry.hpp"

#include <memory>
#include <vector>

namespace pliant::scene::detail {

/// Builds the modal body of a fem body entry whose "fem" object (`settings`) has a "modal" key;
/// refuses, naming the JSON path, the keys that make no sense with a modal body (a nonlinear element,
/// an integrator, "dt", a solver) and a bad modal object.
/// The fem family's settings table (fem_scene_body.cpp); the modal body reads its "modal" keys through it.
const std::vector<SettingSpec>& fem_settings();

std::unique_ptr<Body> make_fem_modal_body(const JsonReader& settings, const TetMesh& mesh,
                                          std::vector<materials::Material> materials, fem::FemBodyDef def,
                                          const BodyInputs& in);

}  // namespace pliant::scene::detail
