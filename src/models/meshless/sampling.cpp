#include "pliant/models/meshless/sampling.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>
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

// A sequential SplitMix64 stream.
struct Stream {
  std::uint64_t state;
  double next() {
    state = splitmix(state);
    return unit(state);
  }
};

// Bridson (2007) restricted to signed distance ≤ -margin; `grid` is the SDF sampled at the spacing with
// one node of padding, so it covers the surface's bounding box.
Result<std::vector<Vec3>> sample_poisson(const SignedDistance& distance, const SdfGrid& grid,
                                         const SamplingDef& def) {
  const double s = def.spacing, r = poisson_radius_factor * s, margin = def.margin;
  const Aabb box = distance.bounds();
  // Background grid of cell r/√3: a cell holds at most one point, and points within r of a point lie
  // within two cells of its cell.
  const double cell = r / std::sqrt(3.0);
  std::array<Index, 3> dims{};
  double total = 1.0;
  for (int a = 0; a < 3; ++a) {
    const double n = std::floor(box.extent()[a] / cell) + 1.0;
    total *= n;
    if (total > 1e9)
      return Error{fmt::format("sampling: Poisson-disk spacing {} m gives too fine a grid", s)};
    dims[static_cast<std::size_t>(a)] = static_cast<Index>(n);
  }
  std::vector<Index> owner(static_cast<std::size_t>(total), -1);
  auto cell_of = [&](const Vec3& p) {
    std::array<Index, 3> c{};
    for (int a = 0; a < 3; ++a) {
      const auto au = static_cast<std::size_t>(a);
      c[au] = std::clamp<Index>(static_cast<Index>(std::floor((p[a] - box.min[a]) / cell)), 0, dims[au] - 1);
    }
    return c;
  };
  auto slot = [&](const std::array<Index, 3>& c) {
    return static_cast<std::size_t>(c[0]) +
           static_cast<std::size_t>(dims[0]) *
               (static_cast<std::size_t>(c[1]) + static_cast<std::size_t>(dims[1]) * c[2]);
  };
  std::vector<Vec3> points;
  auto far_from_all = [&](const Vec3& p) {
    const auto c = cell_of(p);
    for (Index k = std::max<Index>(c[2] - 2, 0); k <= std::min<Index>(c[2] + 2, dims[2] - 1); ++k) {
      for (Index j = std::max<Index>(c[1] - 2, 0); j <= std::min<Index>(c[1] + 2, dims[1] - 1); ++j) {
        for (Index i = std::max<Index>(c[0] - 2, 0); i <= std::min<Index>(c[0] + 2, dims[0] - 1); ++i) {
          const Index q = owner[slot({i, j, k})];
          if (q >= 0 && (points[static_cast<std::size_t>(q)] - p).squaredNorm() < r * r) return false;
        }
      }
    }
    return true;
  };
  // Inside test: the grid's trilinear value is within √3 s of the distance (both 1-Lipschitz), so only
  // points near the surface need the exact query.
  const double reach = std::sqrt(3.0) * s;
  auto inside = [&](const Vec3& p) {
    if (!box.contains(p)) return false;
    const double d = grid.interpolate(p);
    if (d > reach - margin) return false;
    if (d < -reach - margin) return true;
    return distance(p) <= -margin;
  };
  std::vector<Index> active;
  auto add = [&](const Vec3& p) {
    const auto id = static_cast<Index>(points.size());
    points.push_back(p);
    owner[slot(cell_of(p))] = id;
    active.push_back(id);
  };
  Stream rng{def.seed};
  std::size_t next_node = 0;
  for (;;) {
    while (!active.empty()) {
      const auto pick = std::min(static_cast<std::size_t>(rng.next() * static_cast<double>(active.size())),
                                 active.size() - 1);
      const Vec3 centre = points[static_cast<std::size_t>(active[pick])];
      bool placed = false;
      for (int t = 0; t < def.candidates && !placed; ++t) {
        // Uniform in the shell r ≤ |d| ≤ 2r: a direction by rejection from the cube, a radius by
        // inverting the shell's volume.
        Vec3 dir;
        do {
          dir = Vec3(2.0 * rng.next() - 1.0, 2.0 * rng.next() - 1.0, 2.0 * rng.next() - 1.0);
        } while (dir.squaredNorm() > 1.0 || dir.squaredNorm() < 1e-12);
        const double radius = r * std::cbrt(1.0 + 7.0 * rng.next());
        const Vec3 p = centre + radius / dir.norm() * dir;
        if (far_from_all(p) && inside(p)) {
          add(p);
          placed = true;
        }
      }
      if (!placed) {
        active[pick] = active.back();
        active.pop_back();
      }
    }
    // Seed again at the next lattice node left uncovered (the first seed, other components, pockets the
    // shells did not reach).
    bool seeded = false;
    for (; next_node < grid.value.size() && !seeded; ++next_node) {
      if (grid.value[next_node] > -margin) continue;
      const auto nx = static_cast<std::size_t>(grid.dims[0]), ny = static_cast<std::size_t>(grid.dims[1]);
      const Vec3 p = grid.node(static_cast<Index>(next_node % nx), static_cast<Index>(next_node / nx % ny),
                               static_cast<Index>(next_node / (nx * ny)));
      if (box.contains(p) && far_from_all(p)) {
        add(p);
        seeded = true;
      }
    }
    if (!seeded) break;
  }
  if (points.empty())
    return Error{
        fmt::format("sampling: no point at signed distance <= -{} m lies inside the surface", margin)};
  return points;
}

}  // namespace

double lattice_node_estimate(const Aabb& box, double spacing) {
  if (!(spacing > 0.0) || !std::isfinite(spacing)) return INFINITY;
  double count = 1.0;
  for (int a = 0; a < 3; ++a) count *= std::floor(std::max(box.extent()[a], 0.0) / spacing) + 1.0;
  return count;
}

Result<std::vector<Vec3>> sample_phyxels(const SignedDistance& distance, const SamplingDef& def) {
  if (const double n = lattice_node_estimate(distance.bounds(), def.spacing);
      std::isfinite(n) && n > kMaxPhyxels) {
    return Error{fmt::format("sampling: about {:.0f} phyxels at a spacing of {} m, above the limit of {:.0f}",
                             n, def.spacing, kMaxPhyxels)};
  }
  if (!(def.jitter >= 0.0 && def.jitter <= 1.0)) {
    return Error{fmt::format("sampling: jitter {} is outside [0, 1]", def.jitter)};
  }
  if (def.kind == SamplingKind::poisson) {
    if (def.jitter != 0.0) return Error{"sampling: jitter applies to lattice sampling, not Poisson-disk"};
    if (def.candidates < 1) return Error{fmt::format("sampling: {} candidates, need >= 1", def.candidates)};
    if (!(def.margin >= 0.0) || !std::isfinite(def.margin))
      return Error{fmt::format("sampling: margin {} m is negative", def.margin)};
    auto grid = sample_sdf_grid(distance, def.spacing, 1);
    if (!grid) return grid.error();
    return sample_poisson(distance, *grid, def);
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
