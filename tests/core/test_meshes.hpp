// Small hand-built meshes for the core tests (the procedural meshers live in another module).
#pragma once

#include "pliant/core/geometry.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace pliant::test {

/// A structured box of nx·ny·nz cubes of edge h, each split into 6 tets along its main diagonal
/// (Freudenthal/Kuhn split, conforming between neighbours), every tet positively oriented.
inline TetMesh structured_box(int nx, int ny, int nz, double h = 1.0, Vec3 origin = Vec3::Zero()) {
  TetMesh m;
  const auto node = [&](int i, int j, int k) {
    return static_cast<Index>((k * (ny + 1) + j) * (nx + 1) + i);
  };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) m.positions.push_back(origin + h * Vec3(i, j, k));
  const std::array<std::array<int, 3>, 6> perms = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (const auto& p : perms) {
          std::array<int, 3> c = {i, j, k};
          Tet t;
          t[0] = node(c[0], c[1], c[2]);
          for (int s = 0; s < 3; ++s) {
            ++c[p[s]];
            t[s + 1] = node(c[0], c[1], c[2]);
          }
          const auto& x = m.positions;
          if (signed_volume(x[t[0]], x[t[1]], x[t[2]], x[t[3]]) < 0) std::swap(t[2], t[3]);
          m.tets.push_back(t);
        }
  return m;
}

/// A regular tetrahedron with unit edges, positively oriented.
inline TetMesh regular_tet() {
  TetMesh m;
  m.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, std::sqrt(3.0) / 2, 0),
                 Vec3(0.5, std::sqrt(3.0) / 6, std::sqrt(2.0 / 3.0))};
  m.tets = {{0, 1, 2, 3}};
  return m;
}

/// An octahedron-based icosphere-like closed surface: the octahedron subdivided `levels` times and
/// projected on the unit sphere, outward normals.
inline TriMesh sphere_surface(int levels) {
  TriMesh m;
  m.positions = {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)};
  m.triangles = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  for (int l = 0; l < levels; ++l) {
    std::vector<Tri> next;
    std::vector<std::pair<std::pair<Index, Index>, Index>> mids;
    const auto mid = [&](Index a, Index b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      for (const auto& [k, v] : mids)
        if (k == key) return v;
      m.positions.push_back((m.positions[a] + m.positions[b]).normalized());
      mids.push_back({key, static_cast<Index>(m.positions.size() - 1)});
      return mids.back().second;
    };
    for (const Tri& t : m.triangles) {
      const Index ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({ab, t[1], bc});
      next.push_back({ca, bc, t[2]});
      next.push_back({ab, bc, ca});
    }
    m.triangles = std::move(next);
  }
  return m;
}

}  // namespace pliant::test
