// Phyxel sampling: points inside a closed surface on a regular or jittered lattice (Li et al., patent
// CN102831280, claim 1: walk the bounding box at the spacing, keep the points of non-positive signed
// distance), or Poisson-disk points (Bridson 2007, "Fast Poisson disk sampling in arbitrary
// dimensions": dart throwing around active points with a background grid).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/meshless/signed_distance.hpp"

#include <cstdint>
#include <vector>

namespace pliant::meshless {

enum class SamplingKind {
  lattice,  ///< cell centres of a lattice of spacing s, optionally jittered
  poisson,  ///< Poisson-disk points at least r = poisson_radius_factor · s apart (Bridson 2007)
};

/// r / s of Poisson-disk sampling. Bridson's sampling with 30 candidates packs balls of diameter r at a
/// volume fraction φ ≈ 0.31, n = 6φ/(π r³) points per unit volume; r = 0.84 s makes that 1/s³, the
/// lattice's (measured: a sphere 40 spacings across gets 33,193 points against the lattice's 33,208), so
/// the same mass ρ s³ per phyxel gives about the same total mass.
inline constexpr double poisson_radius_factor = 0.84;

struct SamplingDef {
  double spacing = 0.01;   ///< lattice spacing s (unit: m), > 0
  double jitter = 0.0;     ///< each lattice point moves uniformly within ±jitter·s/2 per axis, in [0, 1]
  std::uint64_t seed = 1;  ///< jitter and Poisson-disk stream; the same seed gives the same points everywhere
  SamplingKind kind = SamplingKind::lattice;
  int candidates = 30;  ///< Poisson-disk: candidates tried around an active point before it retires, ≥ 1
  double margin = 0.0;  ///< Poisson-disk: points keep signed distance ≤ -margin (unit: m), ≥ 0
};

/// Most phyxels a body may have. Sampling's own work (the signed-distance grid: one exact distance
/// query and 8 bytes per lattice node) and the MLS body built on it grow with the lattice count, and
/// a 4 cm cube at a spacing of 0.1 mm (64 M lattice nodes) took 25-60 s and 1.2 GB before being
/// refused, while 29 M phyxels exhausted 8 GB: so the count is estimated from the bounding box and
/// the spacing (lattice_node_estimate) and refused before anything is sampled.
inline constexpr double kMaxPhyxels = 4'000'000;

/// Lattice nodes of spacing `spacing` (unit: m) over `box`: the product over the axes of
/// floor(extent / spacing) + 1. An upper bound on the lattice phyxels (and, within the Poisson-disk
/// packing's 1/s³ density, on its points), and the size of the signed-distance grid sampling fills.
/// Infinite for a non-positive or non-finite spacing.
double lattice_node_estimate(const Aabb& box, double spacing);

/// Phyxel positions (unit: m). Lattice: the cell centres of the lattice of spacing s from the surface's
/// lower bounding corner (jittered when asked) whose signed distance is ≤ 0; regular points are read
/// from the sampled SdfGrid, jittered points are tested exactly. Poisson-disk: points with signed
/// distance ≤ -margin, every pair at least r = poisson_radius_factor · s apart, grown from seeds by
/// Bridson's dart throwing (k candidates uniform in the shell [r, 2r] around a random active point);
/// when no active point is left, every lattice node at signed distance ≤ -margin with no point within r
/// seeds again, so each component is filled and no such node is farther than r from a point. Fails on a
/// bad spacing, jitter, candidate count or margin, jitter with Poisson-disk, when no point falls inside,
/// or, before any sampling, when lattice_node_estimate of the surface's box exceeds kMaxPhyxels.
Result<std::vector<Vec3>> sample_phyxels(const SignedDistance& distance, const SamplingDef& def);

}  // namespace pliant::meshless
