// Small meshes for the impact tests: a square plate and a UV sphere.
#pragma once

#include "pliant/core/tri_mesh.hpp"

#include <cmath>
#include <numbers>

namespace pliant::impact::testing {

/// Plate [0, size]² at z = 0 with n × n cells (two triangles each).
inline TriMesh plate(int n, double size) {
  TriMesh m;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) m.positions.emplace_back(size * i / n, size * j / n, 0.0);
  auto id = [n](int i, int j) { return static_cast<Index>(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      m.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      m.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return m;
}

/// UV sphere of `radius` around the origin, `rings` latitude bands and `segments` longitudes.
inline TriMesh sphere(double radius, int rings, int segments) {
  TriMesh m;
  m.positions.emplace_back(0, 0, -radius);
  for (int r = 1; r < rings; ++r) {
    const double th = std::numbers::pi * r / rings;
    for (int s = 0; s < segments; ++s) {
      const double ph = 2 * std::numbers::pi * s / segments;
      m.positions.emplace_back(radius * std::sin(th) * std::cos(ph), radius * std::sin(th) * std::sin(ph),
                               -radius * std::cos(th));
    }
  }
  m.positions.emplace_back(0, 0, radius);
  const auto top = static_cast<Index>(m.positions.size() - 1);
  auto id = [segments](int r, int s) { return static_cast<Index>(1 + (r - 1) * segments + (s % segments)); };
  for (int s = 0; s < segments; ++s) m.triangles.push_back({0, id(1, s + 1), id(1, s)});
  for (int r = 1; r < rings - 1; ++r)
    for (int s = 0; s < segments; ++s) {
      m.triangles.push_back({id(r, s), id(r, s + 1), id(r + 1, s + 1)});
      m.triangles.push_back({id(r, s), id(r + 1, s + 1), id(r + 1, s)});
    }
  for (int s = 0; s < segments; ++s) m.triangles.push_back({id(rings - 1, s), id(rings - 1, s + 1), top});
  return m;
}

}  // namespace pliant::impact::testing
