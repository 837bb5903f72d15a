// Reading a material the way scene files write it, for tools that edit scene JSON (the viewer, the
// Python module): the same keys, defaults and error messages as the scene file reader.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/scene/json_reader.hpp"

#include <string_view>

namespace pliant::scene {

/// Parses `json_text`, a scene file's "material" object ({"preset": NAME} | {"E": Pa, "nu": 1} |
/// {"lambda": Pa, "mu": Pa}, optional "density" in kg/m³). Errors read "WHERE: POINTER: what",
/// `where` naming the source (a file name) and `pointer` the object's JSON pointer.
Result<materials::Material> material_from_json(std::string_view json_text,
                                               std::string_view where = "material",
                                               std::string_view pointer = "/material");

/// Reads a scene file's "material" object inside a family's factory (pliant/scene/family_registry.hpp):
/// the same keys, defaults and errors as the built-in families. Throws JsonReadError on bad input.
materials::Material read_material(const JsonReader& material);

}  // namespace pliant::scene
