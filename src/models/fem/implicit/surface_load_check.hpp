// The check of a body's surface loads, shared by the full body's force model and the modal body, which
// takes its loads per body apart from its asset.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"

#include <cstddef>
#include <span>

namespace pliant::fem {

/// One error line ("fem body: surface load L: ...") for a load with a non-finite pressure or traction or
/// a node outside [0, node_count).
Status check_surface_loads(std::span<const SurfaceLoad> loads, std::size_t node_count);

}  // namespace pliant::fem
