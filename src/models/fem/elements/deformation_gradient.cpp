// Deformation gradient kernels of the linear tetrahedron; see deformation_gradient.hpp.
#include "pliant/models/fem/elements/deformation_gradient.hpp"

#include "pliant/models/fem/assembly/assembly.hpp"

#include <Eigen/LU>

namespace pliant::fem {

Result<TetRestShape> build_rest_shape(const TetMesh& mesh) {
  if (auto s = check_fem_mesh(mesh); !s) return s.error();
  TetRestShape rest;
  rest.dm_inverse.resize(mesh.tet_count());
  rest.volume.resize(mesh.tet_count());
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    const Tet& tet = mesh.tets[t];
    const Mat3 Dm = edge_matrix(mesh.positions[tet[0]], mesh.positions[tet[1]], mesh.positions[tet[2]],
                                mesh.positions[tet[3]]);
    rest.dm_inverse[t] = Dm.inverse();
    rest.volume[t] = Dm.determinant() / 6.0;
  }
  return rest;
}

Mat3 edge_matrix(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3) {
  Mat3 D;
  D.col(0) = p1 - p0;
  D.col(1) = p2 - p0;
  D.col(2) = p3 - p0;
  return D;
}

Mat3 edge_matrix(const Vec12& x) {
  return edge_matrix(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
}

Mat3 deformation_gradient(const Mat3& dm_inverse, const Vec12& positions) {
  return edge_matrix(positions) * dm_inverse;
}

Eigen::Matrix<double, 3, 4> shape_gradients(const Mat3& dm_inverse) {
  // F = Σ_k x_k ∇N_kᵀ: ∇N_k for k ≥ 1 is row k-1 of Dm⁻¹, and ∇N_0 = -Σ_k≥1 ∇N_k (partition of unity).
  Eigen::Matrix<double, 3, 4> G;
  G.rightCols<3>() = dm_inverse.transpose();
  G.col(0) = -G.rightCols<3>().rowwise().sum();
  return G;
}

Mat9x12 deformation_gradient_jacobian(const Mat3& dm_inverse) {
  // F(i, j) = Σ_k x_k(i) ∇N_k(j), so ∂F(i, j)/∂x_k(i) = ∇N_k(j) and every other entry is zero.
  const Eigen::Matrix<double, 3, 4> G = shape_gradients(dm_inverse);
  Mat9x12 J = Mat9x12::Zero();
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) J(3 * j + i, 3 * k + i) = G(j, k);
  return J;
}

}  // namespace pliant::fem
