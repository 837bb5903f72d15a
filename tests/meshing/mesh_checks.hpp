// Independent checks of procedural meshes shared by the meshing tests: orientation, volume, closed and
// outward boundaries, triangle angles, edge use counts.
#pragma once

#include "pliant/core/geometry.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/tri_mesh.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace pliant::meshing::test {

struct VolumeStats {
  double total = 0;    // m³
  double min = 1e300;  // smallest tet volume (m³)
};

inline VolumeStats tet_volumes(const TetMesh& mesh) {
  VolumeStats s;
  for (const Tet& t : mesh.tets) {
    const double v =
        signed_volume(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]], mesh.positions[t[3]]);
    s.total += v;
    s.min = std::min(s.min, v);
  }
  return s;
}

/// Σ over triangles of area · (n · x) / 3 = ∫ x · n dA / 3: the enclosed volume by the divergence
/// theorem when the surface is closed and oriented outward (independent of the tets).
inline double flux_volume(const TriMesh& surface) {
  double v = 0;
  for (const Tri& t : surface.triangles) {
    const Vec3& a = surface.positions[t[0]];
    v += area_vector(a, surface.positions[t[1]], surface.positions[t[2]]).dot(a) / 3.0;
  }
  return v;
}

/// Each directed edge used once and its reverse used once: a closed, consistently oriented surface.
inline bool closed_and_consistent(const std::vector<Tri>& tris) {
  std::map<std::pair<Index, Index>, int> directed;
  for (const Tri& t : tris) {
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  }
  for (const auto& [e, n] : directed) {
    if (n != 1) return false;
    const auto rev = directed.find({e.second, e.first});
    if (rev == directed.end() || rev->second != 1) return false;
  }
  return true;
}

/// Smallest and largest interior angle over all triangles (unit: degrees).
inline std::pair<double, double> angle_range(const TriMesh& mesh) {
  double lo = 180, hi = 0;
  for (const Tri& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const Vec3 u = mesh.positions[t[(k + 1) % 3]] - mesh.positions[t[k]];
      const Vec3 w = mesh.positions[t[(k + 2) % 3]] - mesh.positions[t[k]];
      const double a = std::atan2(u.cross(w).norm(), u.dot(w)) * 180.0 / std::numbers::pi;
      lo = std::min(lo, a);
      hi = std::max(hi, a);
    }
  }
  return {lo, hi};
}

/// Smallest z component of the unnormalised triangle normals: > 0 when all are counter-clockwise from +z.
inline double min_normal_z(const TriMesh& mesh) {
  double lo = 1e300;
  for (const Tri& t : mesh.triangles) {
    lo = std::min(lo, area_vector(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]]).z());
  }
  return lo;
}

inline double total_area(const TriMesh& mesh) {
  double a = 0;
  for (const Tri& t : mesh.triangles) {
    a += area_vector(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]]).norm();
  }
  return a;
}

/// Number of triangles using each undirected edge (keys with first < second).
inline std::map<std::pair<Index, Index>, int> edge_use(const std::vector<Tri>& tris) {
  std::map<std::pair<Index, Index>, int> use;
  for (const Tri& t : tris) {
    for (int k = 0; k < 3; ++k) {
      const Index a = t[k], b = t[(k + 1) % 3];
      ++use[{std::min(a, b), std::max(a, b)}];
    }
  }
  return use;
}

}  // namespace pliant::meshing::test
