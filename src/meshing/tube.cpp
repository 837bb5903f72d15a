// Thick-walled tube: a structured (radius, angle, z) lattice whose cells are right prisms over planar
// trapezoids, each split into six tets (Kuhn's triangulation, which conforms across every cell face
// including the angular seam because the split of a face depends only on the face's own two axes).
#include "pliant/meshing/tube.hpp"

#include "meshing/detail.hpp"

#include <cmath>
#include <numbers>

namespace pliant::meshing {

double tube_polygonal_volume(const TubeDef& def) {
  const double n = def.segments_around;
  const double polygon =
      0.5 * n * std::sin(2.0 * std::numbers::pi / n);  // area of the unit-circumradius n-gon
  return def.length * polygon * (def.outer_radius * def.outer_radius - def.inner_radius * def.inner_radius);
}

Result<TetMesh> tube_mesh(const TubeDef& def) {
  if (auto e = detail::require_positive("tube", "inner_radius", def.inner_radius)) return *e;
  if (auto e = detail::require_positive("tube", "outer_radius", def.outer_radius)) return *e;
  if (auto e = detail::require_positive("tube", "length", def.length)) return *e;
  if (def.inner_radius >= def.outer_radius) {
    return Error{"tube: inner_radius must be less than outer_radius (got " + detail::num(def.inner_radius) +
                 " ≥ " + detail::num(def.outer_radius) + ")"};
  }
  if (auto e = detail::require_at_least("tube", "segments_around", def.segments_around, 3)) return *e;
  if (auto e = detail::require_at_least("tube", "segments_along", def.segments_along, 1)) return *e;
  if (auto e = detail::require_at_least("tube", "segments_through", def.segments_through, 1)) return *e;
  const long long na = def.segments_around, nz = def.segments_along, nr = def.segments_through;
  if (auto e = detail::require_element_budget("tube", static_cast<long double>(na) * nz * nr * 6)) return *e;

  // Node (r, a, z): radial layer r in [0, nr], angle a in [0, na) (periodic), layer z in [0, nz].
  const auto id = [&](long long r, long long a, long long z) {
    return static_cast<Index>(r + (nr + 1) * ((a % na) + na * z));
  };
  TetMesh mesh;
  mesh.positions.reserve(static_cast<std::size_t>((nr + 1) * na * (nz + 1)));
  for (long long z = 0; z <= nz; ++z) {
    const double zc = def.length * static_cast<double>(z) / static_cast<double>(nz);
    for (long long a = 0; a < na; ++a) {
      const double angle = 2.0 * std::numbers::pi * static_cast<double>(a) / static_cast<double>(na);
      const double c = std::cos(angle), s = std::sin(angle);
      for (long long r = 0; r <= nr; ++r) {
        const double t = static_cast<double>(r) / static_cast<double>(nr);
        const double radius =
            r == nr ? def.outer_radius : def.inner_radius + t * (def.outer_radius - def.inner_radius);
        mesh.positions.emplace_back(radius * c, radius * s, zc);
      }
    }
  }
  // (radius, angle, z) is a right-handed parameterisation (e_r × e_θ = e_z), so the lattice orientation
  // is the physical one. The unwrapped angle index keeps the orientation right across the seam.
  mesh.tets.reserve(static_cast<std::size_t>(na * nz * nr * 6));
  std::array<Index, 8> node;
  std::array<detail::LatticePoint, 8> point;
  for (long long z = 0; z < nz; ++z) {
    for (long long a = 0; a < na; ++a) {
      for (long long r = 0; r < nr; ++r) {
        for (int v = 0; v < 8; ++v) {
          const int dr = v & 1, da = (v >> 1) & 1, dz = (v >> 2) & 1;
          node[v] = id(r + dr, a + da, z + dz);
          point[v] = {dr, da, dz};
        }
        detail::split_cell(node, point, CellSplit::six, false, mesh.tets);
      }
    }
  }
  return mesh;
}

}  // namespace pliant::meshing
