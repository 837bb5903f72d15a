// Private: rest_factor_pcg's pieces, shared by ImplicitSolver and HybridSolver: the rest-shape factor
// applied in rotated node frames, z = Q A0⁻¹ Qᵀ r, and warm-started CG with a two-term first step.
//
// The preconditioner: A0 = cm M + ck K0 is the system at rest and Q is
// block-diagonal with one rotation per node (FemForceModel::node_rotations). A corotational body turned
// rigidly by R has K = R K0 Rᵀ, so there Q = R makes the preconditioner A's exact inverse; where the
// rotation varies slowly it stays close, and it is SPD for any Q (Q is orthogonal). Without the frames
// CG's iteration count grows with how far the body has turned.
#pragma once

#include "pliant/core/types.hpp"

#include <Eigen/Core>

namespace pliant::linalg::detail {

/// z = Q A0⁻¹ Qᵀ r over r's nodes (3 DOFs each), frame(k) the rotation of node k, solve(b, x) the rest
/// solve x = A0⁻¹ b (a SinglePrecisionFactor's, or a block solve); scratch has r's size.
template <class Solve, class Frame>
void solve_in_frames(const Solve& solve, const Frame& frame, const Eigen::VectorXd& r,
                     Eigen::VectorXd& scratch, Eigen::VectorXd& z) {
  const Eigen::Index nodes = r.size() / 3;
  for (Eigen::Index k = 0; k < nodes; ++k)
    scratch.segment<3>(3 * k) = frame(k).transpose() * r.segment<3>(3 * k);
  solve(scratch, z);
  for (Eigen::Index k = 0; k < nodes; ++k) z.segment<3>(3 * k) = frame(k) * Vec3(z.segment<3>(3 * k));
}

/// Preconditioned CG on A y = b from the warm start y, with apply(p, q): q = A p and precondition(r, z):
/// z ≈ A⁻¹ r (SPD); stops at ‖r‖ ≤ tolerance, after max_iterations or on a breakdown. Returns the
/// iterations and leaves ‖r‖ in *residual; r, z, p, q are scratch of b's size.
///
/// The first iteration minimises ½ yᵀAy - bᵀy over span{y₀, z} (the warm start rescaled too), not only
/// along y₀ + α z as CG does. It takes the products CG's first iteration takes (A y₀, A z), so it costs a
/// few dot products, and its iterate is at least as good in A's norm as CG's first and as a cold start's.
/// It matters with one iteration per step (the fem-dynamic fast path): CG's first iterate keeps all of
/// y₀, and with the plain rest factor an error carried in the warm start grew from step to step until
/// the beam blew up after ~650 steps. The two-term step alone kept the 11.5k-tet beam bounded but not
/// the 57.6k one; the node frames did both. CG then restarts from y₁.
template <class Apply, class Precondition>
int warm_started_pcg(const Apply& apply, const Precondition& precondition, const Eigen::VectorXd& b,
                     Eigen::VectorXd& y, double tolerance, int max_iterations, Eigen::VectorXd& r,
                     Eigen::VectorXd& z, Eigen::VectorXd& p, Eigen::VectorXd& q, double* residual) {
  apply(y, q);
  r = b - q;
  int it = 0;
  double rnorm = r.norm();
  if (rnorm > tolerance && max_iterations > 0) {
    precondition(r, z);
    apply(z, p);  // p = A z, q = A y₀
    const double a11 = y.dot(q), a12 = y.dot(p), a22 = z.dot(p);
    const double b1 = b.dot(y), b2 = b.dot(z);
    const double det = a11 * a22 - a12 * a12;
    double beta = 1.0, alpha = 0.0;
    if (a11 > 0.0 && det > 1e-14 * a11 * a22) {
      beta = (b1 * a22 - b2 * a12) / det;
      alpha = (a11 * b2 - a12 * b1) / det;
    } else if (a22 > 0.0) {  // y₀ = 0 or parallel to z: plain CG's step from y₀
      alpha = z.dot(r) / a22;
    }
    y = beta * y + alpha * z;
    r = b - beta * q - alpha * p;
    rnorm = r.norm();
    ++it;
    if (rnorm > tolerance && it < max_iterations) precondition(r, z);
  }
  p = z;
  double rz = r.dot(z);
  while (rnorm > tolerance && it < max_iterations) {
    apply(p, q);
    const double pq = p.dot(q);
    if (!(pq > 0.0)) break;
    const double alpha = rz / pq;
    y += alpha * p;
    r -= alpha * q;
    rnorm = r.norm();
    ++it;
    if (rnorm <= tolerance || it == max_iterations) break;
    precondition(r, z);
    const double rz_new = r.dot(z);
    p = z + (rz_new / rz) * p;
    rz = rz_new;
  }
  *residual = rnorm;
  return it;
}

}  // namespace pliant::linalg::detail
