#include "pliant/models/meshless/sampling.hpp"

#include <fmt/format.h>
#include <cmath>

namespace pliant::meshless {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a portable stream, unlike std's distributions.
std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace

Result<std::vector<Vec3>> sample_phyxels(const SignedDistance& distance, const SamplingDef& def) {
  if (!(def.jitter >= 0.0 && def.jitter <= 1.0)) {
    return Error{fmt::format("sampling: jitter {} is outside [0, 1]", def.jitter)};
  }
  auto grid = sample_sdf_grid(distance, def.spacing, 0);
  if (!grid) return grid.error();
  std::vector<Vec3> points;
  const double s = def.spacing;
  for (Index k = 0; k < grid->dims[2]; ++k) {
    for (Index j = 0; j < grid->dims[1]; ++j) {
      for (Index i = 0; i < grid->dims[0]; ++i) {
        const std::size_t id = grid->index(i, j, k);
        if (def.jitter == 0.0) {
          if (grid->value[id] <= 0.0) points.push_back(grid->node(i, j, k));
          continue;
        }
        // A point farther outside than the jitter can reach stays outside: skip the exact query.
        if (grid->value[id] > 0.5 * std::sqrt(3.0) * def.jitter * s) continue;
        std::uint64_t state = splitmix(def.seed ^ splitmix(id));
        Vec3 offset;
        for (int a = 0; a < 3; ++a) {
          state = splitmix(state);
          offset[a] = (unit(state) - 0.5) * def.jitter * s;
        }
        const Vec3 p = grid->node(i, j, k) + offset;
        if (distance(p) <= 0.0) points.push_back(p);
      }
    }
  }
  if (points.empty())
    return Error{fmt::format("sampling: no lattice point of spacing {} m lies inside the surface", s)};
  return points;
}

}  // namespace pliant::meshless
