// Condensation of a linear system onto its surface DOFs (Bro-Nielsen & Cotin, "Real-time volumetric
// deformable models for surgery simulation using finite elements and condensation", Eurographics
// 1996; survey of Huang & Wang (2007), technique 5).
//
// With the DOFs split into surface s and interior i,
//     [K_ss K_si; K_is K_ii] [u_s; u_i] = [f_s; f_i],
// eliminating the interior gives the dense surface system K*_ss u_s = f*_s with
//     K*_ss = K_ss - K_si K_ii⁻¹ K_is,   f*_s = f_s - K_si K_ii⁻¹ f_i,
// and the interior follows when needed: u_i = K_ii⁻¹ (f_i - K_is u_s). K*_ss is dense and
// surface-sized (8·n_s² bytes); building it costs n_s sparse solves with K_ii (done as blocks).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/linalg/sparse_matrix.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <span>
#include <vector>

namespace pliant::linalg {

class Condensation {
 public:
  /// Condenses the SPD matrix A (typically a reduced stiffness) onto `surface` (indices into A's
  /// rows, any order, no duplicates; they become the order of u_s). Fails on bad indices, an
  /// interior block that is not positive definite, or a condensed matrix that is not.
  static Result<Condensation> build(const SparseMatrix& A, std::span<const Eigen::Index> surface,
                                    CholeskyBackend backend = CholeskyBackend::cholmod_supernodal);

  /// Surface indices (into A), in u_s order.
  const std::vector<Eigen::Index>& surface() const { return surface_; }
  /// Interior indices (into A), ascending.
  const std::vector<Eigen::Index>& interior() const { return interior_; }
  /// The condensed dense matrix K*_ss (unit: that of A).
  const Eigen::MatrixXd& condensed_matrix() const { return condensed_; }

  /// f*_s = f_s - K_si K_ii⁻¹ f_i for a full-size (A-sized) load.
  Eigen::VectorXd condense_rhs(const Eigen::VectorXd& f) const;
  /// u_s = K*_ss⁻¹ f*_s (dense Cholesky of K*_ss, factored at build).
  Eigen::VectorXd solve_surface(const Eigen::VectorXd& condensed_rhs) const;
  /// u_i = K_ii⁻¹ (f_i - K_is u_s).
  Eigen::VectorXd recover_interior(const Eigen::VectorXd& f, const Eigen::VectorXd& u_surface) const;
  /// condense_rhs and recover_interior into caller buffers (`out` resized): bit-identical, and after the
  /// first call they allocate nothing, for a step that must not. They share scratch vectors kept in this
  /// object, so, like SparseCholesky, not for concurrent calls on one object.
  void condense_rhs(const Eigen::VectorXd& f, Eigen::VectorXd& out) const;
  void recover_interior(const Eigen::VectorXd& f, const Eigen::VectorXd& u_surface,
                        Eigen::VectorXd& out) const;
  /// The whole solution, A-sized: surface and interior put back in place.
  Eigen::VectorXd solve(const Eigen::VectorXd& f) const;

 private:
  Condensation(std::vector<Eigen::Index> surface, std::vector<Eigen::Index> interior, SparseMatrix k_si,
               SparseCholesky interior_factor, Eigen::MatrixXd condensed);

  std::vector<Eigen::Index> surface_;
  std::vector<Eigen::Index> interior_;
  SparseMatrix k_si_;  // surface rows, interior columns
  SparseCholesky interior_factor_;
  Eigen::MatrixXd condensed_;
  Eigen::LLT<Eigen::MatrixXd> condensed_factor_;
  mutable Eigen::VectorXd interior_load_, interior_solution_;  // scratch of the overloads with `out`
};

}  // namespace pliant::linalg
