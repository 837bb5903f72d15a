// A body's "mesh" object in a scene file: {"file": "beam.msh"} (a volume or surface mesh file) or
// {"shape": "tube", ...parameters of that shape}, one of the procedural shapes of pliant::meshing.
// SceneLimits::max_mesh_elements is checked from a shape's parameters before meshing and from the
// mesh after reading or meshing.
#pragma once

#include "family_registry.hpp"
#include "json_reader.hpp"

#include <cstddef>
#include <filesystem>

namespace pliant::scene::detail {

/// Reads the "mesh" object `m` into in.volume or in.surface; `dir` anchors a relative "file".
/// `max_elements` caps the tetrahedra (volume) or triangles (surface); 0: no cap. Throws
/// JsonReadError naming the JSON pointer on bad input, a mesh file that cannot be read or a mesh
/// over the cap.
void read_mesh(const JsonReader& m, const std::filesystem::path& dir, BodyInputs& in,
               std::size_t max_elements);

/// A rotation, in any of the scene format's three spellings: a unit quaternion [w, x, y, z],
/// {"quaternion": [w, x, y, z]}, or {"axis": [x, y, z], "degrees": a} (any non-zero axis length).
/// A quaternion's norm must be within 1e-3 of 1 (core's quaternion_rotation): one far from unit
/// length is a typo, not a rotation. Meshes ("rotate") and colliders ("rotation") read it here.
Eigen::Quaterniond read_rotation(const JsonReader& r);

}  // namespace pliant::scene::detail
