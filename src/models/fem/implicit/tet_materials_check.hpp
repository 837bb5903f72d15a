// The materials check shared by fem::FemForceModel::build and fem::FemAsset::build, so that a body
// built through either fails with the same one line.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/materials/material.hpp"

#include <cstddef>
#include <span>
#include <string>

namespace pliant::fem::detail {

// One material, or one per tet, each valid; the message starts "fem body: ".
inline Status check_tet_materials(std::span<const materials::Material> materials, std::size_t tet_count) {
  if (materials.size() != 1 && materials.size() != tet_count)
    return Error{"fem body: " + std::to_string(materials.size()) + " materials for " +
                 std::to_string(tet_count) + " tets (give 1 or one per tet)"};
  for (std::size_t i = 0; i < materials.size(); ++i)
    if (auto ok = materials::validate(materials[i]); !ok)
      return Error{"fem body: material " + std::to_string(i) + ": " + ok.message()};
  return {};
}

}  // namespace pliant::fem::detail
