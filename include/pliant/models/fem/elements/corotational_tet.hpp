// Corotational linear tetrahedron: linear elasticity measured in a frame that rotates with the element
// (stiffness warping, Müller & Gross 2004 "Interactive virtual materials"; Etzmuss, Keckeisen &
// Straßer 2003 "A fast finite element solution for cloth modelling").
//
// With K0 the element's linear stiffness (linear_tet.hpp), X its rest and x its current stacked
// positions, and R the rotation of the element (block-diagonal, the same 3×3 R on each node):
//   f = -R K0 (Rᵀ x - X),    K = R K0 Rᵀ.
// Rigid motions x = Q X + t give R = Q and Rᵀ x - X = Qᵀ t on every node, a translation, which K0 maps
// to zero: no ghost forces under large rotations, unlike the linear element. K is the warped stiffness
// of Müller & Gross, which treats R as constant (it omits ∂R/∂x); it is symmetric positive
// semidefinite, as K0 is, so implicit solves stay well posed, but it is not the exact Jacobian of f.
//
// R is the rotation of the polar decomposition of F = Ds Dm⁻¹ (polar_decomposition.hpp). For an
// inverted element the inversion-safe decomposition of Irving et al. (2004) still gives a proper
// rotation, and Rᵀ x - X then holds a reflection that K0 resists: the force pushes the element back
// through its inversion instead of towards its mirror image.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

namespace pliant::fem {

/// The element's rotation R (det = +1) from Dm⁻¹ (unit: 1/m) and the current stacked positions
/// (12 entries, unit: m), via the inversion-safe polar decomposition of F.
Mat3 corotational_rotation(const Mat3& dm_inverse, const Vec12& positions);

/// Elastic force f = -R K0 (Rᵀ x - X) on the four nodes (unit: N), from the linear stiffness K0
/// (unit: N/m), the rotation R, the rest positions X and current positions x (12 entries each, unit: m).
Vec12 corotational_force(const Mat12& K0, const Mat3& R, const Vec12& rest_positions, const Vec12& positions);

/// Warped stiffness R K0 Rᵀ (unit: N/m), symmetric positive semidefinite.
Mat12 corotational_stiffness(const Mat12& K0, const Mat3& R);

/// Elastic energy ½ (Rᵀ x - X)ᵀ K0 (Rᵀ x - X) (unit: J) of the rotated-back displacement; zero under
/// rigid motions. (Its exact gradient includes ∂R/∂x terms that corotational_force omits.)
double corotational_energy(const Mat12& K0, const Mat3& R, const Vec12& rest_positions,
                           const Vec12& positions);

}  // namespace pliant::fem
