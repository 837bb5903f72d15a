// Deformation gradient of a linear (4-node) tetrahedron: the rest-shape inverse Dm⁻¹, F = Ds Dm⁻¹ and
// its constant derivative dF/dx.
//
// With rest positions X_k and current positions x_k, Dm = [X1-X0, X2-X0, X3-X0] and
// Ds = [x1-x0, x2-x0, x3-x0]; the affine map X -> x of the element has gradient F = Ds Dm⁻¹ (Sifakis &
// Barbič 2012, "FEM simulation of 3D deformable solids", §4). Equivalently F = Σ_k x_k ∇N_kᵀ with the
// shape-function gradients of linear_tet.hpp: ∇N_k (k ≥ 1) is row k-1 of Dm⁻¹ and ∇N_0 = -Σ the others.
// F is linear in x, so dF/dx is a constant 9×12 matrix that depends on Dm⁻¹ only; element forces and
// stiffnesses of any hyperelastic energy density Ψ(F) follow from it by the chain rule:
//   f = -V (dF/dx)ᵀ vec P,   K = -∂f/∂x = V (dF/dx)ᵀ (∂P/∂F) (dF/dx),
// with V the rest volume and P = ∂Ψ/∂F the first Piola-Kirchhoff stress.
//
// Conventions: vec is column-major (vec(F)[3j + i] = F(i, j), Eigen's storage order of Mat3); element
// vectors stack the four nodes (x0x, x0y, x0z, x1x, ..., x3z), as in linear_tet.hpp.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"  // Vec12, Mat12

#include <Eigen/Core>

#include <vector>

namespace pliant::fem {

using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat9 = Eigen::Matrix<double, 9, 9>;
using Mat9x12 = Eigen::Matrix<double, 9, 12>;

/// Rest data of every tet of a mesh, one plain array per field (#tets entries each), computed once.
struct TetRestShape {
  std::vector<Mat3> dm_inverse;  ///< Dm⁻¹ per tet (unit: 1/m)
  std::vector<double> volume;    ///< rest volume V per tet (unit: m³), > 0
};

/// Dm⁻¹ and V of every tet. Fails with check_fem_mesh's one-line message (naming the tet) on a mesh
/// with bad indices, non-finite positions, or inverted or degenerate tets.
Result<TetRestShape> build_rest_shape(const TetMesh& mesh);

/// The edge matrix [p1-p0, p2-p0, p3-p0] of four points (unit: m): Dm of rest positions, Ds of current.
Mat3 edge_matrix(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3);
/// The edge matrix of stacked element positions (12 entries, unit: m).
Mat3 edge_matrix(const Vec12& positions);

/// F = Ds Dm⁻¹ (dimensionless) from Dm⁻¹ (unit: 1/m) and the element's current positions (unit: m).
Mat3 deformation_gradient(const Mat3& dm_inverse, const Vec12& positions);

/// dF/dx (unit: 1/m), the constant 9×12 matrix with vec(F) = (dF/dx) x for stacked positions x.
Mat9x12 deformation_gradient_jacobian(const Mat3& dm_inverse);

/// Shape-function gradients ∇N_0..∇N_3 (unit: 1/m) as the columns of a 3×4 matrix, from Dm⁻¹.
Eigen::Matrix<double, 3, 4> shape_gradients(const Mat3& dm_inverse);

}  // namespace pliant::fem
