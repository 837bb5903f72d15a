// Inline queries on a SpringMesh's springs and triangles that the tearing sources share
// (area-preserving tearing, deletion tearing, the tearing metrics).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

#include <cstddef>

namespace pliant::springs::detail {

inline std::size_t u(Index i) { return static_cast<std::size_t>(i); }

inline int tri_count(const SpringMesh& m, Index s) {
  const auto& st = m.spring_triangles[u(s)];
  return (st[0] >= 0 ? 1 : 0) + (st[1] >= 0 ? 1 : 0);
}

// The two springs of triangle t that end at node n: (n -> next) and (prev -> n).
inline void springs_at(const SpringMesh& m, Index t, Index n, Index& s_out, Index& s_in) {
  const Tri& tn = m.tri_nodes[u(t)];
  const auto& ts = m.tri_springs[u(t)];
  int k = tn[0] == n ? 0 : (tn[1] == n ? 1 : 2);
  s_out = ts[u(k)];
  s_in = ts[u((k + 2) % 3)];
}

inline Index other_triangle(const SpringMesh& m, Index s, Index t) {
  const auto& st = m.spring_triangles[u(s)];
  return st[0] == t ? st[1] : st[0];
}

inline double rest_area(const SpringMesh& m, Index t) {
  const Tri& tn = m.tri_nodes[u(t)];
  const Vec3& a = m.rest_position[u(tn[0])];
  return 0.5 * (m.rest_position[u(tn[1])] - a).cross(m.rest_position[u(tn[2])] - a).norm();
}

inline double relative_length(const SpringMesh& m, Index s) { return m.length(s) / m.rest_length[u(s)]; }

}  // namespace pliant::springs::detail
