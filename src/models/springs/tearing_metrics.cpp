#include "pliant/models/springs/tearing_metrics.hpp"

#include "tearing_queries.hpp"

#include <vector>

namespace pliant::springs {

using detail::rest_area;
using detail::u;

double total_rest_area(const SpringMesh& mesh) {
  double a = 0.0;
  for (Index t = 0; t < mesh.triangle_count(); ++t) a += rest_area(mesh, t);
  return a;
}

Index triangle_components(const SpringMesh& mesh) {
  const Index n = mesh.triangle_count();
  std::vector<Index> parent(u(n));
  for (Index i = 0; i < n; ++i) parent[u(i)] = i;
  auto find = [&](Index x) {
    while (parent[u(x)] != x) {
      parent[u(x)] = parent[u(parent[u(x)])];
      x = parent[u(x)];
    }
    return x;
  };
  Index components = n;
  for (const auto& st : mesh.spring_triangles) {
    if (st[0] < 0 || st[1] < 0) continue;
    const Index a = find(st[0]), b = find(st[1]);
    if (a != b) {
      parent[u(a)] = b;
      --components;
    }
  }
  return components;
}

}  // namespace pliant::springs
