// Static equilibrium of a FEM body with prescribed displacement components, by Newton's method with
// load stepping: the verification problems' solver for large deformations.
//
// fem::ImplicitSolver's quasi-static scheme fixes whole nodes; uniaxial stretch needs rollers (one
// component of a node prescribed, the others free), so this solver takes prescribed DOFs. Each load
// step moves the prescribed DOFs a fraction further towards their targets and predicts the free ones
// by the linearised response (K_ff δu_f = −K_fc δu_c, the elimination of Nikitina et al. 2003), then
// iterates K_ff(x) δ = f_f(x) with the model's (positive semidefinite) element stiffnesses until the
// free forces are below a relative tolerance. Corotational stiffness omits ∂R/∂x, so Newton converges
// linearly there; the hyperelastic tangents are exact away from compression.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"

#include <vector>

namespace pliant::validate {

/// What to solve.
struct StaticProblem {
  /// Prescribed DOFs (3·node + component) and their target positions (unit: m), same length.
  std::vector<Index> fixed_dofs;
  std::vector<double> fixed_targets;
  /// External node forces, 3·#nodes (unit: N), scaled with the load steps; empty for none.
  Eigen::VectorXd loads;
  int load_steps = 10;       ///< steps from rest to the targets and full loads
  int max_iterations = 60;   ///< Newton iterations per step
  double tolerance = 1e-11;  ///< ‖f_free‖ ≤ tolerance · ‖f_fixed‖ (the reactions' scale)
};

/// The equilibrium found.
struct StaticSolution {
  std::vector<Vec3> positions;  ///< #nodes (unit: m)
  std::vector<Vec3> forces;     ///< internal elastic node forces at the solution (unit: N)
  int iterations = 0;           ///< Newton iterations, all steps
};

/// Solves; fails with one line when a factorisation fails or Newton does not converge.
Result<StaticSolution> solve_static(const fem::FemForceModel& model, const TetMesh& mesh,
                                    const StaticProblem& problem);

}  // namespace pliant::validate
