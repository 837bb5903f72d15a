// Private: a rest-shape factor applied in rotated node frames, z = Q A0⁻¹ Qᵀ r, the preconditioner of
// rest_factor_pcg in ImplicitSolver and HybridSolver. A0 = cm M + ck K0 is the system at rest and Q is
// block-diagonal with one rotation per node (FemForceModel::node_rotations). A corotational body turned
// rigidly by R has K = R K0 Rᵀ, so there Q = R makes the preconditioner A's exact inverse; where the
// rotation varies slowly it stays close, and it is SPD for any Q (Q is orthogonal). Without the frames
// CG's iteration count grows with how far the body has turned.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/fem/single_precision_factor.hpp"

#include <Eigen/Core>

namespace pliant::fem::detail {

/// z = Q A0⁻¹ Qᵀ r over r's nodes (3 DOFs each), frame(k) the rotation of node k; scratch has r's size.
template <class Frame>
void solve_in_frames(const SinglePrecisionFactor& factor, const Frame& frame, const Eigen::VectorXd& r,
                     Eigen::VectorXd& scratch, Eigen::VectorXd& z) {
  const Eigen::Index nodes = r.size() / 3;
  for (Eigen::Index k = 0; k < nodes; ++k) scratch.segment<3>(3 * k) = frame(k).transpose() * r.segment<3>(3 * k);
  factor.solve(scratch, z);
  for (Eigen::Index k = 0; k < nodes; ++k) z.segment<3>(3 * k) = frame(k) * Vec3(z.segment<3>(3 * k));
}

}  // namespace pliant::fem::detail
