// Regular hexagonal disc cut from the triangular lattice.
#include "pliant/meshing/hex_disc.hpp"

#include "meshing/detail.hpp"

#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace pliant::meshing {

namespace {

// Axial lattice coordinates (q, r): position q·e1 + r·e2 with e1 = (1, 0), e2 = (½, √3/2). The hexagon of
// n rings is max(|q|, |r|, |q + r|) ≤ n.
int ring_of(long long q, long long r) {
  return static_cast<int>(std::max({std::llabs(q), std::llabs(r), std::llabs(q + r)}));
}

}  // namespace

Result<TriMesh> hex_disc(const HexDiscDef& def) {
  for (int a = 0; a < 3; ++a) {
    static const char* kField[3] = {"center.x", "center.y", "center.z"};
    if (auto e = detail::require_finite("hexdisc", kField[a], def.center[a])) return *e;
  }
  if (auto e = detail::require_positive("hexdisc", "radius", def.radius)) return *e;
  if (auto e = detail::require_at_least("hexdisc", "rings", def.rings, 1)) return *e;
  const long long n = def.rings;
  if (auto e = detail::require_element_budget("hexdisc", 6.0L * n * n)) return *e;

  // Number nodes ring by ring (centre first), walking each ring counter-clockwise from its corner on
  // the +x axis: six sides of n steps along the lattice directions.
  static constexpr int kStep[6][2] = {{-1, 1}, {-1, 0}, {0, -1}, {1, -1}, {1, 0}, {0, 1}};
  const double h = def.radius / static_cast<double>(n);
  TriMesh mesh;
  mesh.positions.reserve(static_cast<std::size_t>(3 * n * (n + 1) + 1));
  std::unordered_map<long long, Index> index;
  const auto key = [&](long long q, long long r) { return (q + n) * (2 * n + 1) + (r + n); };
  const auto add = [&](long long q, long long r) {
    index.emplace(key(q, r), static_cast<Index>(mesh.positions.size()));
    const double x = static_cast<double>(q) + 0.5 * static_cast<double>(r);
    const double y = std::sqrt(3.0) / 2.0 * static_cast<double>(r);
    mesh.positions.push_back(def.center + h * Vec3(x, y, 0.0));
  };
  add(0, 0);
  for (long long ring = 1; ring <= n; ++ring) {
    long long q = ring, r = 0;
    for (const auto& step : kStep) {
      for (long long s = 0; s < ring; ++s) {
        add(q, r);
        q += step[0];
        r += step[1];
      }
    }
  }
  // Each lattice point (q, r) anchors the "up" triangle (q,r),(q+1,r),(q,r+1) and the "down" triangle
  // (q+1,r),(q+1,r+1),(q,r+1), both counter-clockwise; keep those whose three nodes are in the disc
  // (a down triangle can lie in the disc while its anchor does not).
  const auto in = [&](long long q, long long r) { return ring_of(q, r) <= n; };
  const auto at = [&](long long q, long long r) { return index.at(key(q, r)); };
  mesh.triangles.reserve(static_cast<std::size_t>(6 * n * n));
  for (long long q = -n - 1; q <= n; ++q) {
    for (long long r = -n - 1; r <= n; ++r) {
      if (in(q, r) && in(q + 1, r) && in(q, r + 1))
        mesh.triangles.push_back({at(q, r), at(q + 1, r), at(q, r + 1)});
      if (in(q + 1, r) && in(q + 1, r + 1) && in(q, r + 1)) {
        mesh.triangles.push_back({at(q + 1, r), at(q + 1, r + 1), at(q, r + 1)});
      }
    }
  }
  return mesh;
}

}  // namespace pliant::meshing
