// Modal warping (Choi & Ko 2005): large rotations for a linear modal body without inflation.
//
// A linear mode shape moves every point along a straight line, so a rotated part of the body (a
// bending cantilever's tip, a spinning free body) stretches: a rigid rotation by θ becomes a scaling by
// √(1 + θ²). Choi & Ko track, per node i, the infinitesimal rotation of the linear field,
// θᵢ = ½ ∇×u = Wᵢ q (Wᵢ, 3×r, the half-curl of each mode at the node, precomputed), and integrate the
// modal velocity in the rotating frame, u̇ᵢ = R(θᵢ) Φᵢ q̇. Assuming each node's rotation grows about a
// fixed axis while q goes from 0 to its value (their approximation), the integral has the closed form
//     uᵢ = J(θᵢ) Φᵢ q,     J(θ) = ∫₀¹ exp(s[θ]×) ds = I + (1 - cos|θ|)/|θ|² [θ]× + (|θ| - sin|θ|)/|θ|³ [θ]×².
// What it approximates: rotations are exact for rigid motions (J(θ)[θ]× = exp([θ]×) - I, so a rigid
// linear field becomes an exact rigid motion with zero strain), bending with rotations about a fixed
// axis is well captured, but the result depends on q only (path independence is assumed), strains
// stay linear (no stiffening), and a node's rotation is the mean of the piecewise-constant curl
// around it. For small q, J = I + O(|θ|) and the warped displacement equals the linear one to first
// order.
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"

#include <Eigen/Core>

namespace pliant::fem {

/// W, 3·#nodes × r: rows 3i..3i+2 hold ½ ∇×φⱼ at node i for each mode column j of `shapes`
/// (3·#nodes × r, displacement per unit amplitude), the volume-weighted mean over the tets around
/// node i of each tet's constant half-curl (unit: rad per unit amplitude). Zero rows for nodes in no
/// tet. The mesh must pass check_fem_mesh (assembly.hpp).
Eigen::MatrixXd modal_rotation_field(const TetMesh& mesh, const Eigen::MatrixXd& shapes);

/// J(θ) = ∫₀¹ exp(s[θ]×) ds for a rotation vector θ (unit: rad); series near θ = 0.
Mat3 modal_warp_matrix(const Vec3& theta);

/// J(θ) u without forming J: u + a θ×u + b θ×(θ×u) (a = (1 - cos|θ|)/|θ|², b = (|θ| - sin|θ|)/|θ|³).
Vec3 modal_warp(const Vec3& theta, const Vec3& u);

/// exp([θ]×), the rotation by |θ| about θ (Rodrigues; unit of θ: rad).
Mat3 rotation_from_vector(const Vec3& theta);

}  // namespace pliant::fem
