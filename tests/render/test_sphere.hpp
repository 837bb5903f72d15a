// A tiny icosphere for the rendering tests: an icosahedron whose triangles are split into four
// `levels` times, new nodes pushed onto the sphere. Kept here so the render tests need no meshing module.
#pragma once

#include "pliant/core/tri_mesh.hpp"

#include <cmath>
#include <map>
#include <utility>

namespace pliant::render::test {

inline TriMesh make_sphere(double radius, int levels, const Vec3& centre = Vec3::Zero()) {
  const double g = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> p = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                         {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  for (Vec3& v : p) v.normalize();
  std::vector<Tri> t = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                        {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                        {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<Index, Index>, Index> middle;
    const auto mid = [&](Index a, Index b) {
      const auto key = std::minmax(a, b);
      auto [it, inserted] = middle.try_emplace({key.first, key.second}, static_cast<Index>(p.size()));
      if (inserted) p.push_back((p[a] + p[b]).normalized());
      return it->second;
    };
    std::vector<Tri> next;
    for (const Tri& f : t) {
      const Index ab = mid(f[0], f[1]), bc = mid(f[1], f[2]), ca = mid(f[2], f[0]);
      next.insert(next.end(), {Tri{f[0], ab, ca}, Tri{f[1], bc, ab}, Tri{f[2], ca, bc}, Tri{ab, bc, ca}});
    }
    t = std::move(next);
  }
  TriMesh mesh;
  for (const Vec3& v : p) mesh.positions.push_back(centre + radius * v);
  mesh.triangles = std::move(t);
  return mesh;
}

}  // namespace pliant::render::test
