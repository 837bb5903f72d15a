#include "pliant/meshing/rect_membrane.hpp"

#include "meshing/detail.hpp"

namespace pliant::meshing {

Result<TriMesh> rect_membrane(const RectMembraneDef& def) {
  if (auto e = detail::require_finite("rect", "origin.x", def.origin.x())) return *e;
  if (auto e = detail::require_finite("rect", "origin.y", def.origin.y())) return *e;
  if (auto e = detail::require_positive("rect", "size.x", def.size.x())) return *e;
  if (auto e = detail::require_positive("rect", "size.y", def.size.y())) return *e;
  if (auto e = detail::require_at_least("rect", "cells_x", def.cells_x, 1)) return *e;
  if (auto e = detail::require_at_least("rect", "cells_y", def.cells_y, 1)) return *e;
  const long long nx = def.cells_x, ny = def.cells_y;
  if (auto e = detail::require_element_budget("rect", static_cast<long double>(nx) * ny * 2)) return *e;

  TriMesh mesh;
  const auto id = [&](long long i, long long j) { return static_cast<Index>(i + (nx + 1) * j); };
  mesh.positions.reserve(static_cast<std::size_t>((nx + 1) * (ny + 1)));
  for (long long j = 0; j <= ny; ++j) {
    for (long long i = 0; i <= nx; ++i) {
      mesh.positions.emplace_back(
          def.origin.x() + def.size.x() * static_cast<double>(i) / static_cast<double>(nx),
          def.origin.y() + def.size.y() * static_cast<double>(j) / static_cast<double>(ny), 0.0);
    }
  }
  mesh.triangles.reserve(static_cast<std::size_t>(2 * nx * ny));
  for (long long j = 0; j < ny; ++j) {
    for (long long i = 0; i < nx; ++i) {
      const Index a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if (def.alternate_diagonals && ((i + j) & 1) != 0) {
        mesh.triangles.push_back({a, b, d});  // diagonal b-d
        mesh.triangles.push_back({b, c, d});
      } else {
        mesh.triangles.push_back({a, b, c});  // diagonal a-c
        mesh.triangles.push_back({a, c, d});
      }
    }
  }
  return mesh;
}

}  // namespace pliant::meshing
