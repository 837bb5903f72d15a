#include "static_equilibrium.hpp"

#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pliant::validate {
namespace {

using linalg::SparseMatrix;

// K(x) over all DOFs from the model's element stiffnesses (the ones its implicit solvers use).
SparseMatrix assemble(const fem::FemForceModel& model, const TetMesh& mesh, std::span<const Vec3> x) {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(mesh.tet_count() * 144);
  model.for_each_element_stiffness(x, [&](Index t, const fem::Mat12& K) {
    const Tet& tet = mesh.tets[static_cast<std::size_t>(t)];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            triplets.emplace_back(3 * tet[a] + i, 3 * tet[b] + j, K(3 * a + i, 3 * b + j));
  });
  const auto n = static_cast<Eigen::Index>(3 * mesh.node_count());
  SparseMatrix K(n, n);
  K.setFromTriplets(triplets.begin(), triplets.end());
  return K;
}

Eigen::VectorXd flatten(const std::vector<Vec3>& v) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(3 * v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) out.segment<3>(static_cast<Eigen::Index>(3 * i)) = v[i];
  return out;
}

}  // namespace

Result<StaticSolution> solve_static(const fem::FemForceModel& model, const TetMesh& mesh,
                                    const StaticProblem& problem) {
  const std::size_t n = mesh.node_count();
  if (problem.fixed_dofs.size() != problem.fixed_targets.size())
    return Error{"static equilibrium: fixed DOFs and targets differ in number"};
  const fem::DofMap map =
      fem::DofMap::from_fixed_dofs_unchecked(static_cast<Index>(3 * n), problem.fixed_dofs);
  const Eigen::VectorXd rest = flatten(mesh.positions);
  Eigen::VectorXd target_shift = Eigen::VectorXd::Zero(rest.size());
  for (std::size_t k = 0; k < problem.fixed_dofs.size(); ++k)
    target_shift[problem.fixed_dofs[k]] = problem.fixed_targets[k] - rest[problem.fixed_dofs[k]];
  const bool loaded = problem.loads.size() == rest.size();
  const double extent = std::max(rest.lpNorm<Eigen::Infinity>(), target_shift.lpNorm<Eigen::Infinity>());

  StaticSolution out;
  out.positions = mesh.positions;
  std::vector<Vec3> f(n), zero(n, Vec3::Zero());
  Eigen::VectorXd x = rest;
  const auto to_positions = [&] {
    for (std::size_t i = 0; i < n; ++i) out.positions[i] = x.segment<3>(static_cast<Eigen::Index>(3 * i));
  };
  const auto residual = [&](double load_scale, Eigen::VectorXd& full) {
    to_positions();
    model.forces(out.positions, zero, f);
    full = flatten(f);
    if (loaded) full += load_scale * problem.loads;
  };
  Eigen::VectorXd full;
  for (int step = 1; step <= problem.load_steps; ++step) {
    const double s = double(step) / problem.load_steps, s_previous = double(step - 1) / problem.load_steps;
    // Predictor: prescribed DOFs move to this step's values, the free ones follow linearly.
    to_positions();
    const SparseMatrix K0 = assemble(model, mesh, out.positions);
    const Eigen::VectorXd delta = (s - s_previous) * target_shift;
    Eigen::VectorXd rhs = -map.coupling_matrix(K0) * map.fixed_values(delta);
    if (loaded) rhs += (s - s_previous) * map.restrict_vector(problem.loads);
    auto factor = linalg::SparseCholesky::factor(map.restrict_matrix(K0));
    if (!factor) return Error{"static equilibrium: " + factor.message()};
    x += map.expand(factor->solve(rhs), delta);
    // Corrector: Newton on the free forces.
    bool converged = false;
    for (int it = 0; it < problem.max_iterations; ++it) {
      residual(s, full);
      const Eigen::VectorXd r = map.restrict_vector(full);
      const double scale = std::max(map.fixed_values(full).norm(), loaded ? problem.loads.norm() : 0.0);
      if (r.norm() <= problem.tolerance * std::max(scale, 1e-300)) {
        converged = true;
        break;
      }
      const SparseMatrix K = assemble(model, mesh, out.positions);
      auto newton = linalg::SparseCholesky::factor(map.restrict_matrix(K));
      if (!newton) return Error{"static equilibrium: " + newton.message()};
      const Eigen::VectorXd dx = newton->solve(r);
      x += map.expand(dx);
      ++out.iterations;
      if (!x.allFinite())
        return Error{fmt::format("static equilibrium: non-finite positions at load step {}", step)};
      // A correction at round-off of the body's size: the forces cannot get smaller in floating point.
      if (dx.lpNorm<Eigen::Infinity>() <= 1e-14 * extent) {
        converged = true;
        break;
      }
    }
    if (!converged)
      return Error{
          fmt::format("static equilibrium: Newton did not converge in {} iterations at load step {} of {}",
                      problem.max_iterations, step, problem.load_steps)};
  }
  residual(1.0, full);
  out.forces = f;
  return out;
}

}  // namespace pliant::validate
