// Spring forces and Jacobian products. One pass over the springs, scattering into both ends.
#include "pliant/models/springs/forces.hpp"

#include <algorithm>

namespace pliant::springs {
namespace {
std::size_t at(Index i) { return static_cast<std::size_t>(i); }
}  // namespace

void load_forces(const SpringMesh& mesh, std::span<const Vec3> v, const Loads& loads, std::span<Vec3> force) {
  const std::size_t n = mesh.position.size();
  const bool has_external = loads.external.size() == n;
  for (std::size_t i = 0; i < n; ++i) {
    force[i] = mesh.mass[i] * (loads.gravity - loads.mass_damping * v[i]);
    if (has_external) force[i] += loads.external[i];
  }
}

void accumulate_forces(const SpringMesh& mesh, std::span<const Vec3> x, std::span<const Vec3> v,
                       const Loads& loads, std::span<Vec3> force) {
  load_forces(mesh, v, loads, force);
  const std::size_t e = mesh.spring_nodes.size();
  for (std::size_t s = 0; s < e; ++s) {
    const auto [a, b] = mesh.spring_nodes[s];
    const Vec3 f = spring_force(x[at(a)], x[at(b)], v[at(a)], v[at(b)], mesh.stiffness[s], mesh.damping[s],
                                mesh.rest_length[s]);
    force[at(a)] += f;
    force[at(b)] -= f;
  }
}

void add_stiffness_product(const SpringMesh& mesh, std::span<const Vec3> x, std::span<const Vec3> p,
                           double scale, std::span<Vec3> y) {
  const std::size_t e = mesh.spring_nodes.size();
  for (std::size_t s = 0; s < e; ++s) {
    const auto [a, b] = mesh.spring_nodes[s];
    const Vec3 d = x[at(b)] - x[at(a)];
    const double l = d.norm();
    if (!(l > 0.0)) continue;
    const Vec3 n = d / l;
    const double k = mesh.stiffness[s];
    const double transverse = std::max(0.0, k * (1.0 - mesh.rest_length[s] / l));
    const Vec3 dp = p[at(a)] - p[at(b)];
    // K_s (p_a - p_b) with K_s = k n nᵀ + transverse (I - n nᵀ): the Hessian block of ½k(l - l0)².
    const double axial = n.dot(dp);
    const Vec3 kd = scale * (k * axial * n + transverse * (dp - axial * n));
    y[at(a)] += kd;
    y[at(b)] -= kd;
  }
}

void add_damping_product(const SpringMesh& mesh, std::span<const Vec3> x, std::span<const Vec3> p,
                         double scale, std::span<Vec3> y) {
  const std::size_t e = mesh.spring_nodes.size();
  for (std::size_t s = 0; s < e; ++s) {
    const auto [a, b] = mesh.spring_nodes[s];
    const Vec3 d = x[at(b)] - x[at(a)];
    const double l = d.norm();
    if (!(l > 0.0)) continue;
    const Vec3 n = d / l;
    const Vec3 cd = scale * mesh.damping[s] * n.dot(p[at(a)] - p[at(b)]) * n;
    y[at(a)] += cd;
    y[at(b)] -= cd;
  }
}

double spring_energy(const SpringMesh& mesh) {
  double energy = 0.0;
  for (Index s = 0; s < mesh.spring_count(); ++s) {
    const double dl = mesh.length(s) - mesh.rest_length[at(s)];
    energy += 0.5 * mesh.stiffness[at(s)] * dl * dl;
  }
  return energy;
}

double kinetic_energy(const SpringMesh& mesh) {
  double energy = 0.0;
  for (std::size_t i = 0; i < mesh.position.size(); ++i)
    if (mesh.inv_mass[i] != 0.0) energy += 0.5 * mesh.mass[i] * mesh.velocity[i].squaredNorm();
  return energy;
}

}  // namespace pliant::springs
