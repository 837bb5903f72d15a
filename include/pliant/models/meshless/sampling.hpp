// Phyxel sampling: points inside a closed surface on a regular or jittered lattice (Li et al., patent
// CN102831280, claim 1: walk the bounding box at the spacing, keep the points of non-positive signed
// distance).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/meshless/signed_distance.hpp"

#include <cstdint>
#include <vector>

namespace pliant::meshless {

struct SamplingDef {
  double spacing = 0.01;   ///< lattice spacing s (unit: m), > 0
  double jitter = 0.0;     ///< each lattice point moves uniformly within ±jitter·s/2 per axis, in [0, 1]
  std::uint64_t seed = 1;  ///< jitter stream; the same seed gives the same points on every machine
};

/// Phyxel positions (unit: m): the cell centres of the lattice of spacing s from the surface's lower
/// bounding corner (jittered when asked) whose signed distance is ≤ 0. Regular points are read from the
/// sampled SdfGrid; jittered points are tested exactly. Fails on a bad spacing or jitter, or when no
/// point falls inside.
Result<std::vector<Vec3>> sample_phyxels(const SignedDistance& distance, const SamplingDef& def);

}  // namespace pliant::meshless
