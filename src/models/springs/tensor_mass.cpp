// Tensor-mass bodies: fem's edge store of the linear-tetrahedron stiffness on a SpringMesh, integrated by
// pliant::dynamics.
#include "pliant/models/springs/tensor_mass.hpp"

#include "pliant/models/fem/assembly/assembly.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pliant::springs {

Result<TensorMass> TensorMass::build(const SpringMesh& mesh, const materials::Material& material) {
  if (mesh.tets.empty()) return Error{"tensor-mass: the mesh has no tetrahedra (build it from a TetMesh)"};
  const TetMesh rest{.positions = mesh.rest_position, .tets = mesh.tets};
  if (auto ok = fem::check_fem_mesh(rest); !ok) return Error{"tensor-mass: " + ok.message()};
  TensorMass tm;
  tm.stiffness_ = fem::assemble_edge_stiffness(rest, material);
  return tm;
}

void TensorMass::add_forces(const SpringMesh& mesh, std::span<Vec3> force) const {
  stiffness_.add_product(mesh.position, -1.0, force, mesh.rest_position);
}

double TensorMass::omega_squared_bound(const SpringMesh& mesh) const {
  // Gershgorin on M^(-1/2) K M^(-1/2) with spectral norms of the 3×3 blocks (bounded by Frobenius).
  const std::vector<Mat3>& node = stiffness_.diagonal;
  std::vector<double> row(node.size(), 0.0);
  for (std::size_t i = 0; i < node.size(); ++i) row[i] = node[i].norm() / mesh.mass[i];
  for (std::size_t e = 0; e < stiffness_.edges.size(); ++e) {
    const auto a = static_cast<std::size_t>(stiffness_.edges[e][0]);
    const auto b = static_cast<std::size_t>(stiffness_.edges[e][1]);
    if (mesh.inv_mass[a] == 0.0 || mesh.inv_mass[b] == 0.0) continue;  // fixed: no coupling DOF
    const double c = stiffness_.off_diagonal[e].norm() / std::sqrt(mesh.mass[a] * mesh.mass[b]);
    row[a] += c;
    row[b] += c;
  }
  double w2 = 0.0;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (mesh.inv_mass[i] != 0.0) w2 = std::max(w2, row[i]);
  }
  return w2;
}

void TensorMass::step(SpringMesh& mesh, double dt, const Loads& loads) {
  if (integrator_.def().dt != dt) {
    dynamics::IntegratorDef def = integrator_.def();
    def.dt = dt;
    integrator_.set_def(def);
  }
  integrator_.step(TensorMassForceModel(*this, mesh, loads), mesh.position, mesh.velocity);
}

void TensorMassForceModel::forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const {
  load_forces(mesh_, v, loads_, f);
  model_.stiffness().add_product(x, -1.0, f, mesh_.rest_position);
}

void TensorMassForceModel::add_stiffness_product(std::span<const Vec3>, std::span<const Vec3> p, double scale,
                                                 std::span<Vec3> y) const {
  model_.stiffness().add_product(p, scale, y);
}

void TensorMassForceModel::add_damping_product(std::span<const Vec3>, std::span<const Vec3>, double,
                                               std::span<Vec3>) const {}

void TensorMassForceModel::add_jacobi_diagonal(std::span<const Vec3>, double beta_k, double,
                                               std::span<double> diagonal) const {
  const std::vector<Mat3>& node = model_.stiffness().diagonal;
  for (std::size_t i = 0; i < node.size(); ++i) diagonal[i] += beta_k * node[i].trace() / 3.0;
}

}  // namespace pliant::springs
