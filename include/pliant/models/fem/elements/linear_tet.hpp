// Linear (4-node, constant-strain) tetrahedron kernels: shape gradients, strain, stress, stiffness.
//
// Nikitina et al. (2003, "linear FEM with precomputed Green's functions"): with S_k the outward
// area vector of the face opposite node k and V > 0 the volume, N_k(x) = 1 - S_k·(x - x_k)/(3V), so
// ∇N_k = -S_k/(3V). The strain-displacement operator Δ (6×12) is built from these gradients and the
// element stiffness is K_tet = Δᵀ D Δ V (Zienkiewicz & Taylor, The Finite Element Method, vol. 1).
// Because Σ S_k = 0, translations and infinitesimal rotations give zero strain: K_tet has exactly six
// zero eigenvalues (the rigid motions) for a non-degenerate tet.
//
// Free functions without hidden state; DOF order is (u0x, u0y, u0z, u1x, ..., u3z).
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"

#include <Eigen/Core>

#include <array>

namespace pliant::fem {

using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using StrainOperator = Eigen::Matrix<double, 6, 12>;

/// Shape-function gradients of a tetrahedron, and its volume.
struct TetGradients {
  std::array<Vec3, 4> grad;  ///< ∇N_k (unit: 1/m)
  double volume = 0.0;       ///< signed volume V (unit: m³); > 0 for a positively oriented tet
};

/// ∇N_k = -S_k/(3V) from the face area vectors of core geometry. The caller checks volume > 0
/// (assembly does, naming the tet); for V = 0 the gradients are not finite.
TetGradients tet_gradients(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3);

/// Strain-displacement operator Δ (6×12): ε = Δ u_e with Voigt strain (εxx, εyy, εzz, 2εxy, 2εxz,
/// 2εyz) and element displacement u_e (unit: 1/m).
StrainOperator strain_operator(const TetGradients& g);

/// Element stiffness K_tet = Δᵀ D Δ V (unit: N/m), written block-wise without forming Δ:
/// K_ab = V (λ ∇N_a ∇N_bᵀ + μ ∇N_b ∇N_aᵀ + μ (∇N_a·∇N_b) I).
Mat12 tet_stiffness(const TetGradients& g, const materials::Material& material);
/// Convenience overload from the four rest positions (unit: m).
Mat12 tet_stiffness(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3,
                    const materials::Material& material);

/// Element stiffness as the literal product Δᵀ D Δ V. Slower; kept as the independent reference
/// that tests compare `tet_stiffness` against.
Mat12 tet_stiffness_reference(const TetGradients& g, const materials::Material& material);

/// One 3×3 block K_ab (a, b in 0..3) of the element stiffness (unit: N/m).
Mat3 tet_stiffness_block(const TetGradients& g, const materials::Material& material, int a, int b);

/// Constant strain of the element for nodal displacements u_e (dimensionless, Voigt order above).
Vec6 tet_strain(const TetGradients& g, const Vec12& element_displacement);

/// Stress σ = D ε (unit: Pa), Voigt order (σxx, σyy, σzz, σxy, σxz, σyz).
Vec6 tet_stress(const Vec6& strain, const materials::Material& material);

/// Von Mises equivalent stress of a Voigt stress (unit: Pa).
double von_mises(const Vec6& stress);

}  // namespace pliant::fem
