#include "pliant/meshing/uv_sphere.hpp"

#include "meshing/detail.hpp"

#include <cmath>
#include <numbers>

namespace pliant::meshing {

Result<TriMesh> uv_sphere(const UvSphereDef& def) {
  for (int k = 0; k < 3; ++k)
    if (auto e = detail::require_finite("uv_sphere", "center", def.center[k])) return *e;
  if (auto e = detail::require_positive("uv_sphere", "radius", def.radius)) return *e;
  if (auto e = detail::require_at_least("uv_sphere", "rings", def.rings, 2)) return *e;
  if (auto e = detail::require_at_least("uv_sphere", "segments", def.segments, 3)) return *e;
  const long long rings = def.rings, segments = def.segments;
  if (auto e =
          detail::require_element_budget("uv_sphere", static_cast<long double>(segments) * (rings - 1) * 2))
    return *e;

  TriMesh m;
  const double r = def.radius;
  m.positions.reserve(static_cast<std::size_t>(2 + (rings - 1) * segments));
  m.positions.push_back(def.center + Vec3(0, 0, -r));
  for (long long i = 1; i < rings; ++i) {
    const double th = std::numbers::pi * static_cast<double>(i) / static_cast<double>(rings);
    for (long long s = 0; s < segments; ++s) {
      const double ph = 2 * std::numbers::pi * static_cast<double>(s) / static_cast<double>(segments);
      m.positions.push_back(def.center + Vec3(r * std::sin(th) * std::cos(ph),
                                              r * std::sin(th) * std::sin(ph), -r * std::cos(th)));
    }
  }
  m.positions.push_back(def.center + Vec3(0, 0, r));
  const auto top = static_cast<Index>(m.positions.size() - 1);
  // Node of ring i (1 .. rings − 1) and segment s (taken modulo segments).
  const auto id = [segments](long long i, long long s) {
    return static_cast<Index>(1 + (i - 1) * segments + s % segments);
  };
  m.triangles.reserve(static_cast<std::size_t>(2 * segments * (rings - 1)));
  for (long long s = 0; s < segments; ++s) m.triangles.push_back({0, id(1, s + 1), id(1, s)});
  for (long long i = 1; i < rings - 1; ++i) {
    for (long long s = 0; s < segments; ++s) {
      m.triangles.push_back({id(i, s), id(i, s + 1), id(i + 1, s + 1)});
      m.triangles.push_back({id(i, s), id(i + 1, s + 1), id(i + 1, s)});
    }
  }
  for (long long s = 0; s < segments; ++s)
    m.triangles.push_back({id(rings - 1, s), id(rings - 1, s + 1), top});
  return m;
}

}  // namespace pliant::meshing
