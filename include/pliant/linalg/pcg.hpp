// Preconditioned conjugate gradients for the reduced stiffness system A x = b.
//
// CG: Hestenes & Stiefel, J. Res. NBS 49(6), 1952. Preconditioners, as compared by Frank et al. 2001
// in the survey of Huang & Wang (2007): Jacobi (diagonal), 3×3 block-Jacobi (one node's DOFs, meaningful only
// when the reduced system keeps all three components of a node together), SSOR (Axelsson, "Iterative Solution
// Methods", 1994: M = (D + ωL) D⁻¹ (D + ωU) / (ω(2-ω))) and incomplete Cholesky (Eigen's IncompleteCholesky:
// Lin & Moré, SIAM J. Sci. Comput. 21(1), 1999, with AMD ordering).
//
// A PcgSolver is built once per matrix (the matrix is copied, the preconditioner set up) and then
// solves any number of right-hand sides, warm-starting from the x passed in. After the first solve it
// allocates nothing (residual history capacity is reserved to max_iterations + 1), except that the
// incomplete-Cholesky preconditioner uses Eigen temporaries in every application.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/linalg/sparse_matrix.hpp"

#include <Eigen/Core>

#include <memory>
#include <string_view>
#include <vector>

namespace pliant::linalg {

enum class Preconditioner { none, jacobi, block_jacobi, ssor, incomplete_cholesky };

std::string_view to_string(Preconditioner preconditioner);
/// Parses "none", "jacobi", "block_jacobi", "ssor", "ic"/"incomplete_cholesky".
Result<Preconditioner> parse_preconditioner(std::string_view name);

struct PcgSettings {
  Preconditioner preconditioner = Preconditioner::jacobi;
  double relative_tolerance = 1e-6;  ///< stop when ‖b - A x‖ ≤ tol·‖b‖ (dimensionless)
  int max_iterations = 20000;        ///< iteration cap; hitting it gives converged = false
  double ssor_omega = 1.2;           ///< SSOR relaxation ω in (0, 2)
  bool record_history = true;        ///< keep ‖r_k‖/‖b‖ of every iteration
};

struct PcgReport {
  int iterations = 0;
  double relative_residual = 0.0;  ///< final true-recurrence ‖r‖/‖b‖
  bool converged = false;
  std::vector<double> residual_history;  ///< ‖r_k‖/‖b‖ for k = 0..iterations when recorded
  double solve_seconds = 0.0;            ///< wall time of this solve (unit: s)
};

class PcgSolver {
 public:
  /// Copies A (square, symmetric, both triangles stored) and sets up the preconditioner. Fails on a
  /// non-square matrix, a non-positive diagonal entry (singular constraints), a singular 3×3 diagonal
  /// block, a size that is not a multiple of 3 for block-Jacobi, ω outside (0, 2), or a failed
  /// incomplete factorisation.
  static Result<PcgSolver> build(const SparseMatrix& A, const PcgSettings& settings = {});

  PcgSolver(PcgSolver&&) noexcept;
  PcgSolver& operator=(PcgSolver&&) noexcept;
  ~PcgSolver();

  /// Solves A x = b starting from the given x (warm start; pass zeros for a cold start). x is resized
  /// to zeros if its size is wrong. Never throws; a non-finite b or breakdown ends with converged =
  /// false.
  PcgReport solve(const Eigen::VectorXd& b, Eigen::VectorXd& x);
  /// Same, reusing `report` (no allocation once its history has capacity).
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x, PcgReport& report);

  const PcgSettings& settings() const;
  /// Time spent building the preconditioner (unit: s).
  double setup_seconds() const;

 private:
  struct Impl;
  explicit PcgSolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace pliant::linalg
