#include "pliant/models/springs/tensor_mass.hpp"

#include "pliant/models/fem/linear_tet.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pliant::springs {

Result<TensorMass> TensorMass::build(const SpringMesh& mesh, const materials::Material& material) {
  if (mesh.tets.empty()) return Error{"tensor-mass: the mesh has no tetrahedra (build it from a TetMesh)"};
  TensorMass tm;
  tm.node_.assign(mesh.position.size(), Mat3::Zero());
  tm.edge_.assign(mesh.rest_length.size(), Mat3::Zero());
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const Tet& t = mesh.tets[e];
    const auto& X = mesh.rest_position;
    const fem::TetGradients g =
        fem::tet_gradients(X[static_cast<std::size_t>(t[0])], X[static_cast<std::size_t>(t[1])],
                           X[static_cast<std::size_t>(t[2])], X[static_cast<std::size_t>(t[3])]);
    if (!(g.volume > 0.0) || !std::isfinite(g.volume)) {
      return Error{fmt::format("tensor-mass: tet {} is inverted or flat (volume {:.3g} m³)", e, g.volume)};
    }
    for (int a = 0; a < 4; ++a) {
      tm.node_[static_cast<std::size_t>(t[a])] += fem::tet_stiffness_block(g, material, a, a);
      for (int b = a + 1; b < 4; ++b) {
        Index spring = -1;
        for (Index s : mesh.node_springs.of(t[a])) {
          if (mesh.other_end(s, t[a]) == t[b]) spring = s;
        }
        if (spring < 0)
          return Error{fmt::format("tensor-mass: edge {}-{} of tet {} has no spring", t[a], t[b], e)};
        const bool forward = mesh.spring_nodes[static_cast<std::size_t>(spring)][0] == t[a];
        const Mat3 k = fem::tet_stiffness_block(g, material, forward ? a : b, forward ? b : a);
        tm.edge_[static_cast<std::size_t>(spring)] += k;
      }
    }
  }
  return tm;
}

void TensorMass::add_forces(const SpringMesh& mesh, std::span<Vec3> force) const {
  const std::size_t n = node_.size();
  for (std::size_t i = 0; i < n; ++i) force[i] -= node_[i] * (mesh.position[i] - mesh.rest_position[i]);
  for (std::size_t s = 0; s < edge_.size(); ++s) {
    const auto a = static_cast<std::size_t>(mesh.spring_nodes[s][0]);
    const auto b = static_cast<std::size_t>(mesh.spring_nodes[s][1]);
    const Vec3 ua = mesh.position[a] - mesh.rest_position[a];
    const Vec3 ub = mesh.position[b] - mesh.rest_position[b];
    force[a] -= edge_[s] * ub;
    force[b] -= edge_[s].transpose() * ua;
  }
}

double TensorMass::omega_squared_bound(const SpringMesh& mesh) const {
  // Gershgorin on M^(-1/2) K M^(-1/2) with spectral norms of the 3×3 blocks (bounded by Frobenius).
  std::vector<double> row(node_.size(), 0.0);
  for (std::size_t i = 0; i < node_.size(); ++i) row[i] = node_[i].norm() / mesh.mass[i];
  for (std::size_t s = 0; s < edge_.size(); ++s) {
    const auto a = static_cast<std::size_t>(mesh.spring_nodes[s][0]);
    const auto b = static_cast<std::size_t>(mesh.spring_nodes[s][1]);
    if (mesh.inv_mass[a] == 0.0 || mesh.inv_mass[b] == 0.0) continue;  // fixed: no coupling DOF
    const double c = edge_[s].norm() / std::sqrt(mesh.mass[a] * mesh.mass[b]);
    row[a] += c;
    row[b] += c;
  }
  double w2 = 0.0;
  for (std::size_t i = 0; i < node_.size(); ++i) {
    if (mesh.inv_mass[i] != 0.0) w2 = std::max(w2, row[i]);
  }
  return w2;
}

void TensorMass::step(SpringMesh& mesh, double dt, const Loads& loads) {
  const std::size_t n = mesh.position.size();
  force_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    force_[i] = mesh.mass[i] * (loads.gravity - loads.mass_damping * mesh.velocity[i]);
    if (!loads.external.empty()) force_[i] += loads.external[i];
  }
  add_forces(mesh, force_);
  for (std::size_t i = 0; i < n; ++i) {
    if (mesh.inv_mass[i] == 0.0) continue;
    mesh.velocity[i] += dt * mesh.inv_mass[i] * force_[i];
    mesh.position[i] += dt * mesh.velocity[i];
  }
}

}  // namespace pliant::springs
