// The contact_pressure field (world.hpp): each node's normal contact force over its area share, the
// lumped (row-sum) surface mass of linear triangles, so that Σ pressure·share is the total normal
// force exactly and a uniform traction on a uniform face reads uniform.
#include "pliant/scene/world.hpp"

#include <algorithm>

namespace pliant::scene {

std::vector<double> World::contact_pressure(Index b) const {
  if (b < 0 || static_cast<std::size_t>(b) >= bodies_.size()) return {};
  const Body& body = *bodies_[static_cast<std::size_t>(b)];
  const auto x = body.surface_positions();
  const auto tris = body.surface_triangles();
  std::vector<double> force(x.size(), 0.0);
  for (const ContactPoint& c : contact_points_) {
    if (c.body == b) {
      // Held against a collider or another body: the node's own normal reaction.
      if (c.node >= 0 && static_cast<std::size_t>(c.node) < x.size())
        force[static_cast<std::size_t>(c.node)] += std::max(0.0, c.normal_force);
    }
    if (c.other_body == b && c.on.triangle >= 0 && static_cast<std::size_t>(c.on.triangle) < tris.size()) {
      // The holding surface (the same body for self-contact) takes the opposite force at a point of one
      // triangle, spread over its corners by the barycentric weights (as Body::apply_force does).
      const Tri& t = tris[static_cast<std::size_t>(c.on.triangle)];
      const double fn = std::max(0.0, c.normal_force);
      const double w[3] = {1.0 - c.on.u - c.on.v, c.on.u, c.on.v};
      for (int k = 0; k < 3; ++k)
        force[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])] += w[k] * fn;
    }
  }
  std::vector<double> share(x.size(), 0.0);
  for (const Tri& t : tris) {
    const Vec3 a = x[static_cast<std::size_t>(t[0])];
    const double third =
        (x[static_cast<std::size_t>(t[1])] - a).cross(x[static_cast<std::size_t>(t[2])] - a).norm() / 6.0;
    for (int k = 0; k < 3; ++k) share[static_cast<std::size_t>(t[static_cast<std::size_t>(k)])] += third;
  }
  std::vector<double> pressure(x.size(), 0.0);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (force[i] > 0.0 && share[i] > 0.0) pressure[i] = force[i] / share[i];
  return pressure;
}

}  // namespace pliant::scene
