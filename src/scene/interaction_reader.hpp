// A scene file's "interactions": scripted grabs, force probes and scripted tools. Grabs and probes
// name their body and attach at the surface node nearest a given point; grabs and tools move along
// keyframe tracks.
#pragma once

#include "json_reader.hpp"

#include <filesystem>

#include "pliant/scene/world.hpp"

namespace pliant::scene::detail {

/// Reads one element of "interactions" ({"type": "grab" | "probe" | "tool", ...}) and adds it to
/// `world`, whose bodies must already be there. Throws JsonReadError naming the JSON pointer on bad
/// input.
void read_interaction(const JsonReader& r, World& world, const std::filesystem::path& directory = {});

}  // namespace pliant::scene::detail
