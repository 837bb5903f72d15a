// A material in a content key: the assets' keys (fem, modal fem, meshless, green) hash materials the
// same way, so a field added to Material is added to every key here.
#pragma once
#include "pliant/core/hash.hpp"
#include "pliant/materials/material.hpp"

#include <span>

namespace pliant::materials {

/// Adds λ, μ and ρ of `material` to `hash`.
inline Hasher& add_to_hash(Hasher& hash, const Material& material) {
  return hash.add_value(material.lambda).add_value(material.mu).add_value(material.density);
}

/// Adds how many materials there are, then each of them.
inline Hasher& add_to_hash(Hasher& hash, std::span<const Material> materials) {
  hash.add_value(materials.size());
  for (const Material& m : materials) add_to_hash(hash, m);
  return hash;
}

}  // namespace pliant::materials
