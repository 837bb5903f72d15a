// The spring network as a dynamics::ForceModel, and the stable explicit-Euler step of a network.
#include "pliant/models/springs/integrator.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace pliant::springs {

void SpringForceModel::forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const {
  accumulate_forces(mesh_, x, v, loads_, f);
}

void SpringForceModel::add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                             std::span<Vec3> y) const {
  springs::add_stiffness_product(mesh_, x, p, scale, y);
}

void SpringForceModel::add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                           std::span<Vec3> y) const {
  springs::add_damping_product(mesh_, x, p, scale, y);
}

void SpringForceModel::add_jacobi_diagonal(std::span<const Vec3>, double beta_k, double beta_d,
                                           std::span<double> diagonal) const {
  for (std::size_t s = 0; s < mesh_.spring_nodes.size(); ++s) {
    const double d = beta_k * mesh_.stiffness[s] + beta_d * mesh_.damping[s];
    diagonal[static_cast<std::size_t>(mesh_.spring_nodes[s][0])] += d;
    diagonal[static_cast<std::size_t>(mesh_.spring_nodes[s][1])] += d;
  }
}

double explicit_euler_stable_step(const SpringMesh& mesh, double mass_damping) {
  const std::size_t n = mesh.position.size();
  std::vector<double> bound(n, 0.0);
  double beta_min = std::numeric_limits<double>::infinity(), beta_max = 0.0;
  for (std::size_t s = 0; s < mesh.rest_length.size(); ++s) {
    const auto a = static_cast<std::size_t>(mesh.spring_nodes[s][0]);
    const auto b = static_cast<std::size_t>(mesh.spring_nodes[s][1]);
    const double k = mesh.stiffness[s];
    if (!(k > 0.0)) continue;
    // A fixed node is no degree of freedom: its spring adds to the diagonal block only.
    const bool both_free = mesh.inv_mass[a] != 0.0 && mesh.inv_mass[b] != 0.0;
    const double coupling = both_free ? k / std::sqrt(mesh.mass[a] * mesh.mass[b]) : 0.0;
    bound[a] += k / mesh.mass[a] + coupling;
    bound[b] += k / mesh.mass[b] + coupling;
    beta_min = std::min(beta_min, mesh.damping[s] / k);
    beta_max = std::max(beta_max, mesh.damping[s] / k);
  }
  double w2_max = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (mesh.inv_mass[i] != 0.0) w2_max = std::max(w2_max, bound[i]);
  }
  double h = std::numeric_limits<double>::infinity();
  if (!(w2_max > 0.0)) return h;
  // Modes on a logarithmic grid down to 1e-8 ω²_max: the limit α/ω² + β of an underdamped mode falls
  // with ω, that of an overdamped one (2/|λ_max|) too, so the worst case sits at the top; the grid
  // also covers the crossover between the two.
  constexpr int kSamples = 400;
  for (const double beta : {beta_min, beta_max}) {
    for (int i = 0; i <= kSamples; ++i) {
      const double w2 = w2_max * std::pow(10.0, -8.0 * i / kSamples);
      h = std::min(h, explicit_euler_critical_step(w2, mass_damping + beta * w2, 1.0));
      if (h == 0.0) return 0.0;
    }
  }
  return h;
}

}  // namespace pliant::springs
