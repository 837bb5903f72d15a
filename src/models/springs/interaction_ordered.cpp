// Interaction-ordered integration (Brown et al. 2001), see the header.
#include "pliant/models/springs/interaction_ordered.hpp"

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

std::vector<Index> breadth_first_order(const SpringMesh& mesh, std::span<const Index> sources) {
  std::vector<Index> order;
  std::vector<char> seen;
  breadth_first_order(mesh, sources, order, seen);
  return order;
}

void breadth_first_order(const SpringMesh& mesh, std::span<const Index> sources, std::vector<Index>& order,
                         std::vector<char>& seen) {
  const std::size_t n = mesh.position.size();
  seen.assign(n, 0);
  order.clear();
  order.reserve(n);
  for (Index s : sources) {
    if (s < 0 || at(s) >= n || seen[at(s)]) continue;
    seen[at(s)] = 1;
    order.push_back(s);
  }
  for (std::size_t head = 0; head < order.size(); ++head) {
    const Index v = order[head];
    for (Index s : mesh.node_springs.of(v)) {
      const Index w = mesh.other_end(s, v);
      if (!seen[at(w)]) {
        seen[at(w)] = 1;
        order.push_back(w);
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!seen[i]) order.push_back(static_cast<Index>(i));
}

void interaction_ordered_step(SpringMesh& mesh, std::span<const Index> order, double dt, const Loads& loads) {
  const bool has_external = loads.external.size() == mesh.position.size();
  for (Index v : order) {
    const std::size_t i = at(v);
    if (mesh.inv_mass[i] == 0.0) continue;
    Vec3 f = mesh.mass[i] * (loads.gravity - loads.mass_damping * mesh.velocity[i]);
    if (has_external) f += loads.external[i];
    for (Index s : mesh.node_springs.of(v)) {
      const Index w = mesh.other_end(s, v);
      f += spring_force(mesh.position[i], mesh.position[at(w)], mesh.velocity[i], mesh.velocity[at(w)],
                        mesh.stiffness[at(s)], mesh.damping[at(s)], mesh.rest_length[at(s)]);
    }
    mesh.velocity[i] += dt * mesh.inv_mass[i] * f;
    mesh.position[i] += dt * mesh.velocity[i];
  }
}

}  // namespace pliant::springs
