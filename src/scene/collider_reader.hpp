// The scene file's contact keys: the top-level "colliders" array, a body's "contact" object and the
// top-level "contact_solver" object (docs/scene-format.md, "Contact").
#pragma once

#include "json_reader.hpp"

#include "pliant/scene/collider.hpp"
#include "pliant/scene/contact.hpp"
#include "pliant/scene/instrument.hpp"

#include <cstddef>
#include <filesystem>

namespace pliant::scene::detail {

/// Reads one element of "colliders"; `directory` anchors a mesh file, whose "mesh" object is a body's
/// (units, transform, notices) and whose triangles `max_elements` caps (0: no cap). Throws JsonReadError
/// naming the JSON pointer on bad input (a non-finite pose, a zero quaternion or axis, a size ≤ 0, μ < 0, a
/// margin ≤ 0, an empty or unreadable mesh, a track whose times do not increase).
Collider read_collider(const JsonReader& r, const std::filesystem::path& directory, std::size_t max_elements);

/// Reads one element of "instruments": {"name", "type": "probe", "radius": m > 0, "length": m ≥ 0,
/// "position", "rotation", "track", "device": bool, "friction": μ ≥ 0, "margin": m > 0}. Throws
/// JsonReadError naming the JSON pointer on bad input (an unknown type, a non-finite pose, a size out of
/// range, a track whose times do not increase).
Instrument read_instrument(const JsonReader& r);

/// Reads a body's "contact" object: {"enabled": bool, "friction": μ ≥ 0, "margin": m > 0}.
BodyContact read_body_contact(const JsonReader& r);

/// Reads "contact_solver": {"tolerance": in (0, 1], "relaxation": in (0, 1]}.
ContactSolverDef read_contact_solver(const JsonReader& r);

}  // namespace pliant::scene::detail
