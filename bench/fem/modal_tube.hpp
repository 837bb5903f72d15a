// The modal figures of `pliant bench fem-modal` (modal_tube.cpp), shared with `pliant bench fem-dynamic`'s
// "modal" object.
#pragma once

#include "bench.hpp"

namespace pliant::bench {

/// The 10k-node tube's 50 modes (eigen-solve seconds) and its modal step with ~5k surface nodes (µs per
/// step, with and without warping, double and float output); with context.quick a 2k-node tube, 10 modes,
/// 200 steps. The JSON `pliant bench fem-modal` writes.
nlohmann::json fem_modal_figures(const Context& context);

}  // namespace pliant::bench
