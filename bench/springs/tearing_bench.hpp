// The tearing benchmark: cost of one tearing step against spring count, deletion tearing vs
// area-preserving tearing (Grimm 2005, figure 3.9 / table D.3), on regular hexagonal discs.
#pragma once

#include "bench.hpp"

#include <nlohmann/json.hpp>

namespace pliant::bench {

/// Runs the tearing benchmark; also registered alone as `pliant bench tearing`, and embedded by the
/// springs "membranes" benchmark under "tearing". Returns
/// {"rows": [{"rings", "nodes", "springs", "triangles", "deletion_us", "area_preserving_us",
///            "area_preserving_idle_us", "deletion_idle_us"}], ...}: the *_us figures are mean
/// microseconds per tearing step that tears (idle: a step that finds nothing to tear).
nlohmann::json tearing_benchmark(const Context& context);

}  // namespace pliant::bench
