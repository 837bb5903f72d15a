// Icosphere: the regular icosahedron, each triangle split into four at its edge midpoints, the new
// nodes pushed onto the sphere. Euler's formula V − E + F = 2 holds at every level.
#include "pliant/meshing/icosphere.hpp"

#include "meshing/detail.hpp"

#include <cmath>
#include <unordered_map>

namespace pliant::meshing {

Result<TriMesh> icosphere(const IcosphereDef& def) {
  for (int a = 0; a < 3; ++a) {
    static const char* kField[3] = {"center.x", "center.y", "center.z"};
    if (auto e = detail::require_finite("icosphere", kField[a], def.center[a])) return *e;
  }
  if (auto e = detail::require_positive("icosphere", "radius", def.radius)) return *e;
  if (def.subdivisions < 0 || def.subdivisions > kMaxIcosphereSubdivisions) {
    return Error{"icosphere: subdivisions must be between 0 and " +
                 std::to_string(kMaxIcosphereSubdivisions) + " (got " + std::to_string(def.subdivisions) +
                 ")"};
  }
  // Unit icosahedron: the 12 cyclic permutations of (0, ±1, ±φ).
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> unit = {{-1, phi, 0}, {1, phi, 0}, {-1, -phi, 0}, {1, -phi, 0},
                            {0, -1, phi}, {0, 1, phi}, {0, -1, -phi}, {0, 1, -phi},
                            {phi, 0, -1}, {phi, 0, 1}, {-phi, 0, -1}, {-phi, 0, 1}};
  for (Vec3& p : unit) p.normalize();
  std::vector<Tri> tris = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                           {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                           {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                           {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (Index level = 0; level < def.subdivisions; ++level) {
    std::unordered_map<std::uint64_t, Index> midpoint;
    midpoint.reserve(tris.size() * 3 / 2);
    const auto mid = [&](Index a, Index b) {
      const std::uint64_t key =
          (static_cast<std::uint64_t>(std::min(a, b)) << 32) | static_cast<std::uint32_t>(std::max(a, b));
      const auto [it, inserted] = midpoint.try_emplace(key, static_cast<Index>(unit.size()));
      if (inserted) unit.push_back((unit[a] + unit[b]).normalized());
      return it->second;
    };
    std::vector<Tri> next;
    next.reserve(tris.size() * 4);
    for (const Tri& t : tris) {
      const Index ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({t[1], bc, ab});
      next.push_back({t[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    tris = std::move(next);
  }
  TriMesh mesh;
  mesh.positions.reserve(unit.size());
  for (const Vec3& p : unit) mesh.positions.push_back(def.center + def.radius * p);
  mesh.triangles = std::move(tris);
  return mesh;
}

}  // namespace pliant::meshing
