#include "pliant/models/fem/assembly/dirichlet.hpp"

#include "models/fem/fem_test_util.hpp"
#include "pliant/core/region.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

namespace pliant::fem {
namespace {
using linalg::CholeskyBackend;
using linalg::SparseCholesky;

using test::box;

TEST(Dirichlet, ReducedSystemMatchesDenseElimination) {
  const TetMesh mesh = box(Vec3(1, 0.4, 0.4), {5, 2, 2});
  const SparseMatrix K = assemble_stiffness(mesh, test::steel());
  const auto clamp = test::nodes_at(mesh, 0, 0.0);
  auto map = DofMap::from_fixed_nodes(mesh, clamp);
  ASSERT_TRUE(map.ok()) << map.message();
  EXPECT_EQ(map->fixed_size(), 3 * static_cast<Index>(clamp.size()));
  EXPECT_EQ(map->free_size() + map->fixed_size(), map->full_size());

  // Prescribed displacement b on the clamp, loads f everywhere: compare with the dense partitioned
  // solve u_f = K_ff⁻¹ (f_f - K_fc b) built independently from the dense K.
  Eigen::VectorXd f = Eigen::VectorXd::LinSpaced(K.rows(), -1e6, 2e6);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(K.rows());
  for (Index v : clamp) b.segment<3>(3 * v) = Vec3(1e-4, -2e-4, 3e-5) + 1e-4 * mesh.positions[v];
  const Eigen::MatrixXd Kd(K);
  const auto& fr = map->free_dofs();
  const auto& fx = map->fixed_dofs();
  Eigen::MatrixXd Aff(fr.size(), fr.size()), Afc(fr.size(), fx.size());
  for (std::size_t i = 0; i < fr.size(); ++i) {
    for (std::size_t j = 0; j < fr.size(); ++j) Aff(i, j) = Kd(fr[i], fr[j]);
    for (std::size_t j = 0; j < fx.size(); ++j) Afc(i, j) = Kd(fr[i], fx[j]);
  }
  EXPECT_LT((Eigen::MatrixXd(map->restrict_matrix(K)) - Aff).norm(), 1e-12 * Aff.norm());
  EXPECT_LT((Eigen::MatrixXd(map->coupling_matrix(K)) - Afc).norm(), 1e-12 * Afc.norm());
  const Eigen::VectorXd rhs = map->reduced_rhs(K, f, b);
  const Eigen::VectorXd expected_rhs = map->restrict_vector(f) - Afc * map->fixed_values(b);
  EXPECT_LT((rhs - expected_rhs).norm(), 1e-12 * expected_rhs.norm());

  auto chol = SparseCholesky::factor(map->restrict_matrix(K));
  ASSERT_TRUE(chol.ok());
  const Eigen::VectorXd u = map->expand(chol->solve(rhs), b);
  // Equilibrium at free DOFs, prescribed values at fixed ones, reactions balance the loads.
  const Eigen::VectorXd residual = K * u - f;
  EXPECT_LT(map->restrict_vector(residual).norm(), 1e-8 * f.norm());
  EXPECT_EQ(map->fixed_values(u), map->fixed_values(b));
  const Eigen::VectorXd reactions = map->reactions(K, u, f);
  EXPECT_LT((reactions - map->fixed_values(residual)).norm(), 1e-9 * f.norm());
  // Global balance: Σ external loads + Σ reactions... K u sums to zero over all DOFs per direction.
  for (int d = 0; d < 3; ++d) {
    double total = 0.0;
    for (Index i = d; i < K.rows(); i += 3) total += f[i];
    for (std::size_t k = 0; k < fx.size(); ++k)
      if (fx[k] % 3 == d) total += reactions[k];
    EXPECT_NEAR(total, 0.0, 1e-7 * f.norm());
  }
}

TEST(Dirichlet, RejectsSingularConstraintSets) {
  const TetMesh mesh = box(Vec3(1, 1, 1), {3, 3, 3});
  // No fixed node at all.
  auto none = DofMap::from_fixed_nodes(mesh, std::vector<Index>{});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("no fixed node"), std::string::npos) << none.message();
  // Two nodes: a rotation about their line stays free.
  auto two = DofMap::from_fixed_nodes(mesh, std::vector<Index>{0, 63});
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.message().find("rotation"), std::string::npos) << two.message();
  // Three collinear nodes (along the x edge of the box): still a rotation.
  auto line = DofMap::from_fixed_nodes(mesh, std::vector<Index>{0, 1, 2, 3});
  ASSERT_FALSE(line.ok());
  EXPECT_NE(line.message().find("rotation about axis (1, 0, 0)"), std::string::npos) << line.message();
  // Three non-collinear nodes: fine.
  EXPECT_TRUE(DofMap::from_fixed_nodes(mesh, std::vector<Index>{0, 3, 12}).ok());
  // Only the z components of a whole face: sliding in x and y stays free.
  std::vector<Index> dofs;
  for (Index v : test::nodes_at(mesh, 2, 0.0)) dofs.push_back(3 * v + 2);
  auto roller = DofMap::from_fixed_dofs(mesh, dofs);
  ASSERT_FALSE(roller.ok());
  EXPECT_NE(roller.message().find("can still move rigidly"), std::string::npos) << roller.message();
  // Add x and y at two nodes of that face and a third constraint: the standard 3-2-1 support.
  dofs.push_back(3 * 0 + 0);
  dofs.push_back(3 * 0 + 1);
  dofs.push_back(3 * 3 + 1);
  EXPECT_TRUE(DofMap::from_fixed_dofs(mesh, dofs).ok());
  // Out-of-range node.
  EXPECT_NE(DofMap::from_fixed_nodes(mesh, std::vector<Index>{5000}).message().find("out of range"),
            std::string::npos);
}

TEST(Dirichlet, EveryComponentNeedsItsOwnSupport) {
  TetMesh a = box(Vec3(1, 1, 1), {2, 2, 2});
  TetMesh mesh = a;  // two disjoint cubes
  const auto offset = static_cast<Index>(a.node_count());
  for (const Vec3& x : a.positions) mesh.positions.push_back(x + Vec3(3, 0, 0));
  for (Tet t : a.tets) mesh.tets.push_back({t[0] + offset, t[1] + offset, t[2] + offset, t[3] + offset});
  const auto face = test::nodes_at(mesh, 0, 0.0);  // only the first cube's face
  auto r = DofMap::from_fixed_nodes(mesh, face);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("component 1"), std::string::npos) << r.message();
  auto both = face;
  for (Index v : test::nodes_at(mesh, 0, 3.0)) both.push_back(v);
  EXPECT_TRUE(DofMap::from_fixed_nodes(mesh, both).ok());
  // An unused node (in no tet) that is left free is an error too.
  mesh.positions.push_back(Vec3(9, 9, 9));
  auto stray = DofMap::from_fixed_nodes(mesh, both);
  ASSERT_FALSE(stray.ok());
  EXPECT_NE(stray.message().find("belongs to no tet"), std::string::npos) << stray.message();
}

TEST(Dirichlet, SupportsSelectedByCoreRegions) {
  const TetMesh mesh = box(Vec3(1, 0.2, 0.2), {5, 1, 1});
  // The left face, written as a user would on the command line: 4 nodes, a valid clamp.
  const auto face = select_nodes(mesh.positions, parse_region("xmin").value());
  EXPECT_EQ(face.size(), 4u);
  auto map = DofMap::from_fixed_nodes(mesh, face);
  ASSERT_TRUE(map.ok()) << map.message();
  EXPECT_EQ(map->fixed_size(), 12);
  // One edge of that face only (2 collinear nodes): rejected.
  const auto edge = select_nodes(mesh.positions, parse_region("box:0,0,0,0,0.2,0").value());
  EXPECT_EQ(edge.size(), 2u);
  EXPECT_FALSE(DofMap::from_fixed_nodes(mesh, edge).ok());
}

TEST(Dirichlet, SingularMatrixIsAnErrorNotNaN) {
  const TetMesh mesh = box(Vec3(1, 1, 1), {2, 2, 2});
  const SparseMatrix K = assemble_stiffness(mesh, test::steel());
  // Bypass the check: fixing two nodes leaves a rotation, and both factorisations must say so.
  const DofMap map = DofMap::from_fixed_dofs_unchecked(3 * static_cast<Index>(mesh.node_count()),
                                                       std::vector<Index>{0, 1, 2, 78, 79, 80});
  for (auto backend : {CholeskyBackend::cholmod_supernodal, CholeskyBackend::eigen_simplicial_ldlt}) {
    auto chol = SparseCholesky::factor(map.restrict_matrix(K), backend);
    EXPECT_FALSE(chol.ok()) << to_string(backend);
  }
}

}  // namespace
}  // namespace pliant::fem
