// The one reader of a scene file's "material" object (every family that takes a material uses it).
#pragma once

#include "json_reader.hpp"

#include "pliant/materials/material.hpp"

namespace pliant::scene::detail {

/// {"preset": NAME} | {"E": Pa, "nu": 1} | {"lambda": Pa, "mu": Pa}, each with an optional
/// "density" (kg/m³). Throws JsonReadError naming the JSON pointer on bad input.
materials::Material read_material(const JsonReader& material);

}  // namespace pliant::scene::detail
