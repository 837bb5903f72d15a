#include "pliant/models/fem/assembly/assembly.hpp"

#include "models/fem/fem_test_util.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/linalg/edge_stiffness.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <Eigen/Dense>

#include <cstring>
#include <random>

namespace pliant::fem {
using namespace pliant::materials;  // the materials the elements are tested with
namespace {

using linalg::EdgeStiffness;
using test::box;

// Naive dense assembly from the literal Δᵀ D Δ V kernel: the independent reference.
Eigen::MatrixXd dense_reference(const TetMesh& mesh, std::span<const Material> mats) {
  const auto n = static_cast<Eigen::Index>(mesh.node_count());
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    const Tet& tet = mesh.tets[t];
    const Mat12 Ke = tet_stiffness_reference(tet_gradients(mesh.positions[tet[0]], mesh.positions[tet[1]],
                                                           mesh.positions[tet[2]], mesh.positions[tet[3]]),
                                             mats[mats.size() == 1 ? 0 : t]);
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) K.block<3, 3>(3 * tet[a], 3 * tet[b]) += Ke.block<3, 3>(3 * a, 3 * b);
  }
  return K;
}

TEST(Assembly, MatchesNaiveDenseAssembly) {
  TetMesh mesh = box(Vec3(1.0, 0.5, 0.4), {4, 3, 2}, meshing::CellSplit::five);
  test::jitter_interior(mesh, Vec3(1.0, 0.5, 0.4), 0.125, 0.2);
  const Material m = test::steel();
  const SparseMatrix K = assemble_stiffness(mesh, m);
  const Eigen::MatrixXd R = dense_reference(mesh, std::span(&m, 1));
  EXPECT_LT((Eigen::MatrixXd(K) - R).norm(), 1e-13 * R.norm());
  // The pattern is exactly node-neighbour blocks: 9 (#nodes + 2 #edges) entries.
  EXPECT_EQ(K.nonZeros(), 9 * static_cast<long>(mesh.node_count() + 2 * unique_edges(mesh.tets).size()));
}

TEST(Assembly, PerTetMaterialsMatchNaiveDenseAssembly) {
  TetMesh mesh = box(Vec3(1.0, 1.0, 1.0), {3, 3, 3});
  std::vector<Material> mats(mesh.tet_count());
  for (std::size_t t = 0; t < mats.size(); ++t)
    mats[t] =
        material_from_young_poisson(1e3 * (1.0 + static_cast<double>(t % 7)), 0.1 + 0.05 * (t % 5)).value();
  const SparseMatrix K = assemble_stiffness(mesh, std::span<const Material>(mats));
  const Eigen::MatrixXd R = dense_reference(mesh, mats);
  EXPECT_LT((Eigen::MatrixXd(K) - R).norm(), 1e-13 * R.norm());
}

TEST(Assembly, SparseProductEqualsEdgeStoreProduct) {
  TetMesh mesh = box(Vec3(2.0, 0.5, 0.5), {12, 3, 3}, meshing::CellSplit::five);
  test::jitter_interior(mesh, Vec3(2.0, 0.5, 0.5), 0.16, 0.2);
  const Material m = material_preset("liver").value();
  const SparseMatrix K = assemble_stiffness(mesh, m);
  const EdgeStiffness S = assemble_edge_stiffness(mesh, m);
  EXPECT_EQ(S.edges.size(), unique_edges(mesh.tets).size());
  std::mt19937 rng(5);
  std::normal_distribution<double> nd;
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd u(K.rows());
    for (auto& v : u) v = nd(rng);
    Eigen::VectorXd g;
    S.multiply(u, g);
    const Eigen::VectorXd ref = K * u;
    EXPECT_LT((g - ref).norm(), 1e-12 * ref.norm());
  }
  // And block by block.
  for (std::size_t e = 0; e < S.edges.size(); ++e) {
    const Index i = S.edges[e][0], j = S.edges[e][1];
    const Mat3 Kij = Eigen::MatrixXd(K.block(3 * i, 3 * j, 3, 3));
    ASSERT_LT((Kij - S.off_diagonal[e]).norm(), 1e-12 * (1.0 + Kij.norm()));
  }
}

// add_product accumulates scale · K (u - u0) over 3-vectors, against the sparse assembly.
TEST(Assembly, EdgeStoreAddProductAccumulatesScaledDisplacementProduct) {
  TetMesh mesh = box(Vec3(1.0, 0.4, 0.4), {5, 2, 2}, meshing::CellSplit::five);
  test::jitter_interior(mesh, Vec3(1.0, 0.4, 0.4), 0.2, 0.2);
  const Material m = material_preset("liver").value();
  const SparseMatrix K = assemble_stiffness(mesh, m);
  const EdgeStiffness S = assemble_edge_stiffness(mesh, m);
  const std::size_t n = mesh.node_count();
  std::mt19937 rng(11);
  std::normal_distribution<double> nd;
  std::vector<Vec3> u(n), u0(n), y0(n);
  for (std::size_t i = 0; i < n; ++i) {
    u[i] = Vec3(nd(rng), nd(rng), nd(rng));
    u0[i] = Vec3(nd(rng), nd(rng), nd(rng));
  }
  const auto flat = [](const std::vector<Vec3>& v) {
    Eigen::VectorXd out(3 * static_cast<Eigen::Index>(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i) out.segment<3>(3 * static_cast<Eigen::Index>(i)) = v[i];
    return out;
  };
  const double scale = -0.37;
  const Eigen::VectorXd ku = K * flat(u), kd = K * (flat(u) - flat(u0));
  for (auto& v : y0) v = ku.cwiseAbs().maxCoeff() * Vec3(nd(rng), nd(rng), nd(rng));  // a prior sum
  std::vector<Vec3> y = y0;
  S.add_product(u, scale, y);
  EXPECT_LT((flat(y) - flat(y0) - scale * ku).norm(), 1e-12 * ku.norm());
  y = y0;
  S.add_product(u, scale, y, u0);
  EXPECT_LT((flat(y) - flat(y0) - scale * kd).norm(), 1e-12 * kd.norm());
}

TEST(Assembly, BitIdenticalForAnyThreadCountAndOnReuse) {
  TetMesh mesh = box(Vec3(1.0, 1.0, 1.0), {8, 8, 8});
  test::jitter_interior(mesh, Vec3(1, 1, 1), 0.125, 0.2);
  auto assembler = StiffnessAssembler::build(mesh);
  ASSERT_TRUE(assembler.ok());
  const Material m = test::steel();
  const int saved = omp_get_max_threads();
  SparseMatrix K1, K4;
  omp_set_num_threads(1);
  assembler->assemble(mesh, m, K1);
  omp_set_num_threads(4);
  assembler->assemble(mesh, m, K4);
  omp_set_num_threads(saved);
  ASSERT_EQ(K1.nonZeros(), K4.nonZeros());
  EXPECT_EQ(0, std::memcmp(K1.valuePtr(), K4.valuePtr(), sizeof(double) * K1.nonZeros()));
  // Reassembling into the same matrix reuses its storage and gives the same values.
  const double* storage = K4.valuePtr();
  assembler->assemble(mesh, m, K4);
  EXPECT_EQ(storage, K4.valuePtr());
  EXPECT_EQ(0, std::memcmp(K1.valuePtr(), K4.valuePtr(), sizeof(double) * K1.nonZeros()));
}

// Patch test (Irons): an affine displacement must produce its constant strain exactly in every
// element and zero nodal force at every interior node (all element forces cancel).
TEST(Assembly, PatchTest) {
  const Vec3 size(1.0, 0.8, 0.6);
  TetMesh mesh = box(size, {5, 4, 3}, meshing::CellSplit::five);
  test::jitter_interior(mesh, size, 0.2, 0.25);
  ASSERT_TRUE(check_fem_mesh(mesh).ok());
  const Material m = material_from_young_poisson(1e5, 0.35).value();
  Mat3 F;
  F << 1e-3, 2e-4, -3e-4, 5e-4, -2e-3, 1e-4, -4e-4, 6e-4, 3e-3;
  Eigen::VectorXd u(3 * mesh.node_count());
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    u.segment<3>(3 * i) = F * mesh.positions[i] + Vec3(0.1, -0.2, 0.05);
  Vec6 expected;
  expected << F(0, 0), F(1, 1), F(2, 2), F(0, 1) + F(1, 0), F(0, 2) + F(2, 0), F(1, 2) + F(2, 1);
  for (const Tet& t : mesh.tets) {
    const TetGradients g =
        tet_gradients(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]], mesh.positions[t[3]]);
    Vec12 ue;
    for (int a = 0; a < 4; ++a) ue.segment<3>(3 * a) = u.segment<3>(3 * t[a]);
    ASSERT_LT((tet_strain(g, ue) - expected).cwiseAbs().maxCoeff(), 1e-10);
  }
  const Eigen::VectorXd f = nodal_forces(assemble_stiffness(mesh, m), u);
  const BoundarySurface surface = extract_boundary(mesh);
  double boundary_max = 0.0, interior_max = 0.0;
  int interior_nodes = 0;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    const double fi = f.segment<3>(3 * i).norm();
    if (surface.surface_node[i] >= 0) {
      boundary_max = std::max(boundary_max, fi);
    } else {
      interior_max = std::max(interior_max, fi);
      ++interior_nodes;
    }
  }
  EXPECT_GT(interior_nodes, 10);
  EXPECT_GT(boundary_max, 1.0);  // the boundary carries the traction σ·n
  EXPECT_LT(interior_max, 1e-10 * boundary_max);
}

TEST(Assembly, RejectsBadMeshesNamingTheTet) {
  TetMesh mesh = box(Vec3(1, 1, 1), {1, 1, 1});
  TetMesh bad = mesh;
  std::swap(bad.tets[2][0], bad.tets[2][1]);
  auto r = StiffnessAssembler::build(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("tet 2 is inverted"), std::string::npos) << r.message();
  bad = mesh;
  bad.tets[3][2] = 99;
  EXPECT_NE(check_fem_mesh(bad).message().find("tet 3 references node 99"), std::string::npos);
  bad = mesh;
  bad.tets[1][3] = bad.tets[1][0];
  EXPECT_FALSE(check_fem_mesh(bad).ok());
  bad = mesh;
  bad.positions[bad.tets[0][3]] = bad.positions[bad.tets[0][0]] * 0.5 + bad.positions[bad.tets[0][1]] * 0.5;
  EXPECT_FALSE(check_fem_mesh(bad).ok());
  EXPECT_FALSE(check_fem_mesh(TetMesh{}).ok());
  EXPECT_EQ(assemble_stiffness(TetMesh{}, test::steel()).rows(), 0);
}

}  // namespace
}  // namespace pliant::fem
