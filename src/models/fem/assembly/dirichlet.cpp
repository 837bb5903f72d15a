// Dirichlet conditions by elimination, and the rigid-motion check of a constraint set.
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include "linalg/sparse_select.hpp"
#include "pliant/core/topology.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pliant::fem {

namespace {

// A direction for a message: unit length, tiny components zeroed, sign chosen so the largest
// component is positive (an eigenvector's sign is arbitrary).
std::string direction_str(Eigen::Vector3d v) {
  v.normalize();
  Eigen::Index k = 0;
  v.cwiseAbs().maxCoeff(&k);
  if (v[k] < 0) v = -v;
  for (auto& c : v)
    if (std::abs(c) < 1e-9) c = 0.0;
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.3g, %.3g, %.3g)", v.x(), v.y(), v.z());
  return buf;
}

Result<DofMap> make(Index full_size, std::span<const Index> fixed) {
  for (Index d : fixed)
    if (d < 0 || d >= full_size)
      return Error{"dirichlet: fixed DOF " + std::to_string(d) + " is out of range (" +
                   std::to_string(full_size) + " DOFs)"};
  return DofMap::from_fixed_dofs_unchecked(full_size, fixed);
}

}  // namespace

Status check_constraints(const TetMesh& mesh, std::span<const Index> fixed_dofs) {
  const auto n = static_cast<Index>(mesh.node_count());
  std::vector<std::uint8_t> fixed(3 * static_cast<std::size_t>(n), 0);
  for (Index d : fixed_dofs) {
    if (d < 0 || d >= 3 * n)
      return Error{"dirichlet: fixed DOF " + std::to_string(d) + " is out of range (" +
                   std::to_string(3 * n) + " DOFs)"};
    fixed[d] = 1;
  }
  const Components comp = connected_components(n, unique_edges(mesh.tets));
  std::vector<Index> count(comp.count, 0), sample(comp.count, -1);
  std::vector<Vec3> centroid(comp.count, Vec3::Zero());
  std::vector<double> extent(comp.count, 0.0);
  std::vector<Index> free_dofs(comp.count, 0);
  for (Index i = 0; i < n; ++i) {
    const Index c = comp.label[i];
    ++count[c];
    if (sample[c] < 0) sample[c] = i;
    centroid[c] += mesh.positions[i];
    free_dofs[c] += 3 - (fixed[3 * i] + fixed[3 * i + 1] + fixed[3 * i + 2]);
  }
  for (Index c = 0; c < comp.count; ++c) centroid[c] /= count[c];
  for (Index i = 0; i < n; ++i) {
    const Index c = comp.label[i];
    extent[c] = std::max(extent[c], (mesh.positions[i] - centroid[c]).norm());
  }
  // Gram matrix of the six rigid modes restricted to the fixed DOFs, per component. Rotations are
  // scaled by the component's radius so that all six columns have comparable size.
  std::vector<Eigen::Matrix<double, 6, 6>> gram(comp.count, Eigen::Matrix<double, 6, 6>::Zero());
  for (Index i = 0; i < n; ++i) {
    const Index c = comp.label[i];
    const double L = extent[c] > 0.0 ? extent[c] : 1.0;
    const Vec3 r = (mesh.positions[i] - centroid[c]) / L;
    for (int d = 0; d < 3; ++d) {
      if (!fixed[3 * i + d]) continue;
      Eigen::Matrix<double, 6, 1> row = Eigen::Matrix<double, 6, 1>::Zero();
      row[d] = 1.0;
      for (int k = 0; k < 3; ++k) row[3 + k] = Vec3::Unit(k).cross(r)[d];
      gram[c] += row * row.transpose();
    }
  }
  std::vector<std::uint8_t> used(n, 0);
  for (const Tet& t : mesh.tets)
    for (Index v : t) used[v] = 1;
  for (Index c = 0; c < comp.count; ++c) {
    if (free_dofs[c] == 0) continue;  // nothing can move
    const std::string where = "component " + std::to_string(c) + " (" + std::to_string(count[c]) +
                              " nodes, e.g. node " + std::to_string(sample[c]) + ")";
    if (count[c] == 1 && !used[sample[c]])
      return Error{"dirichlet: node " + std::to_string(sample[c]) +
                   " belongs to no tet and is not fixed, so nothing resists its motion; remove it or fix it"};
    if (gram[c].trace() == 0.0)
      return Error{"dirichlet: singular constraints: " + where +
                   " has no fixed node; fix at least 3 non-collinear nodes in every connected part"};
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(gram[c]);
    const double lmax = eig.eigenvalues()[5];
    if (eig.eigenvalues()[0] <= 1e-10 * lmax) {
      const Eigen::Matrix<double, 6, 1> v = eig.eigenvectors().col(0);
      const std::string motion = v.head<3>().norm() >= v.tail<3>().norm()
                                     ? "translation along " + direction_str(v.head<3>())
                                     : "rotation about axis " + direction_str(v.tail<3>());
      return Error{"dirichlet: singular constraints: " + where + " can still move rigidly (" + motion +
                   "); fix at least 3 non-collinear nodes in every connected part"};
    }
  }
  return {};
}

Result<DofMap> DofMap::from_fixed_nodes(const TetMesh& mesh, std::span<const Index> fixed_nodes) {
  const auto n = static_cast<Index>(mesh.node_count());
  std::vector<Index> dofs;
  dofs.reserve(3 * fixed_nodes.size());
  for (Index v : fixed_nodes) {
    if (v < 0 || v >= n)
      return Error{"dirichlet: fixed node " + std::to_string(v) + " is out of range (" + std::to_string(n) +
                   " nodes)"};
    for (int d = 0; d < 3; ++d) dofs.push_back(3 * v + d);
  }
  return from_fixed_dofs(mesh, dofs);
}

Result<DofMap> DofMap::from_fixed_dofs(const TetMesh& mesh, std::span<const Index> fixed_dofs) {
  if (auto s = check_constraints(mesh, fixed_dofs); !s) return s.error();
  return make(3 * static_cast<Index>(mesh.node_count()), fixed_dofs);
}

DofMap DofMap::from_fixed_dofs_unchecked(Index full_size, std::span<const Index> fixed_dofs) {
  DofMap m;
  std::vector<std::uint8_t> fixed(full_size, 0);
  for (Index d : fixed_dofs)
    if (d >= 0 && d < full_size) fixed[d] = 1;
  m.reduced_index_.assign(full_size, -1);
  for (Index d = 0; d < full_size; ++d) {
    if (fixed[d]) {
      m.fixed_dofs_.push_back(d);
    } else {
      m.reduced_index_[d] = static_cast<Index>(m.free_dofs_.size());
      m.free_dofs_.push_back(d);
    }
  }
  return m;
}

SparseMatrix DofMap::restrict_matrix(const SparseMatrix& K) const {
  return linalg::select_submatrix(K, reduced_index_, free_size(), free_dofs_);
}

SparseMatrix DofMap::coupling_matrix(const SparseMatrix& K) const {
  return linalg::select_submatrix(K, reduced_index_, free_size(), fixed_dofs_);
}

Eigen::VectorXd DofMap::restrict_vector(const Eigen::VectorXd& full) const {
  Eigen::VectorXd r(free_size());
  for (Index k = 0; k < free_size(); ++k) r[k] = full[free_dofs_[k]];
  return r;
}

Eigen::VectorXd DofMap::fixed_values(const Eigen::VectorXd& full) const {
  Eigen::VectorXd r(fixed_size());
  for (Index k = 0; k < fixed_size(); ++k) r[k] = full[fixed_dofs_[k]];
  return r;
}

Eigen::VectorXd DofMap::expand(const Eigen::VectorXd& reduced) const {
  Eigen::VectorXd full = Eigen::VectorXd::Zero(full_size());
  for (Index k = 0; k < free_size(); ++k) full[free_dofs_[k]] = reduced[k];
  return full;
}

Eigen::VectorXd DofMap::expand(const Eigen::VectorXd& reduced, const Eigen::VectorXd& prescribed_full) const {
  Eigen::VectorXd full = expand(reduced);
  for (Index d : fixed_dofs_) full[d] = prescribed_full[d];
  return full;
}

Eigen::VectorXd DofMap::reduced_rhs(const SparseMatrix& K, const Eigen::VectorXd& f_full,
                                    const Eigen::VectorXd& prescribed_full) const {
  Eigen::VectorXd rhs = restrict_vector(f_full);
  for (Index d : fixed_dofs_) {
    const double b = prescribed_full[d];
    if (b == 0.0) continue;
    for (SparseMatrix::InnerIterator it(K, d); it; ++it) {
      const Index r = reduced_index_[it.row()];
      if (r >= 0) rhs[r] -= it.value() * b;  // K symmetric: column d holds K_{row, d}
    }
  }
  return rhs;
}

Eigen::VectorXd DofMap::reactions(const SparseMatrix& K, const Eigen::VectorXd& u_full,
                                  const Eigen::VectorXd& f_full) const {
  Eigen::VectorXd r(fixed_size());
  for (Index k = 0; k < fixed_size(); ++k) {
    const Index d = fixed_dofs_[k];
    double s = -f_full[d];
    for (SparseMatrix::InnerIterator it(K, d); it; ++it) s += it.value() * u_full[it.row()];  // symmetric K
    r[k] = s;
  }
  return r;
}

}  // namespace pliant::fem
