// The float copy of a supernodal CHOLMOD factor: its solve against CHOLMOD's double solve (one and
// several right-hand sides, a non-identity ordering, many small and a few large supernodes), and as
// the preconditioner of CG on a clamped beam's stiffness.
#include "pliant/linalg/single_precision_factor.hpp"

#include "models/fem/fem_test_util.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pliant::linalg {
namespace {

// The test systems are the reduced stiffness matrices of fem's clamped beams (fem serves as a fixture).
namespace test = fem::test;
using fem::assemble_stiffness;
using fem::DofMap;

// A 2D grid Laplacian (its separators become large supernodes under the fill-reducing ordering) plus
// 40 isolated unknowns and 20 coupled pairs (one- and two-column supernodes), shifted to be well
// conditioned (eigenvalues in [2, 10]: condition number ≤ 5).
SparseMatrix well_conditioned(int grid) {
  std::vector<Eigen::Triplet<double>> t;
  auto id = [grid](int i, int j) { return i * grid + j; };
  for (int i = 0; i < grid; ++i)
    for (int j = 0; j < grid; ++j) {
      t.emplace_back(id(i, j), id(i, j), 6.0);
      if (i + 1 < grid) {
        t.emplace_back(id(i, j), id(i + 1, j), -1.0);
        t.emplace_back(id(i + 1, j), id(i, j), -1.0);
      }
      if (j + 1 < grid) {
        t.emplace_back(id(i, j), id(i, j + 1), -1.0);
        t.emplace_back(id(i, j + 1), id(i, j), -1.0);
      }
    }
  int k = grid * grid;
  for (int s = 0; s < 40; ++s, ++k) t.emplace_back(k, k, 3.0 + 0.1 * s);
  for (int s = 0; s < 20; ++s, k += 2) {
    t.emplace_back(k, k, 4.0);
    t.emplace_back(k + 1, k + 1, 5.0);
    t.emplace_back(k, k + 1, 1.5);
    t.emplace_back(k + 1, k, 1.5);
  }
  SparseMatrix A(k, k);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

Eigen::MatrixXd right_hand_sides(Eigen::Index n, int count) {
  Eigen::MatrixXd B(n, count);
  for (Eigen::Index i = 0; i < n; ++i)
    for (int c = 0; c < count; ++c)
      B(i, c) = std::sin(0.37 * static_cast<double>(i) + c) + (i % 7 == c ? 2.0 : 0.0);
  return B;
}

TEST(SinglePrecisionFactor, SolveEqualsTheDoubleSolveToFloatAccuracy) {
  const SparseMatrix A = well_conditioned(40);
  auto chol = SparseCholesky::factor(A);
  ASSERT_TRUE(chol.ok()) << chol.message();
  auto single = SinglePrecisionFactor::build(*chol);
  ASSERT_TRUE(single.ok()) << single.message();
  EXPECT_EQ(single->size(), A.rows());
  // The structure the test is about: a real reordering, many narrow and some wide supernodes.
  bool identity = true;
  for (std::size_t k = 0; k < single->permutation().size(); ++k)
    identity = identity && single->permutation()[k] == static_cast<std::int32_t>(k);
  EXPECT_FALSE(identity);
  EXPECT_GT(single->supernodes(), 100);
  EXPECT_GE(single->widest_supernode(), 20);

  const Eigen::MatrixXd B = right_hand_sides(A.rows(), 5);
  const Eigen::MatrixXd exact = chol->solve(B);
  // One right-hand side, into a separate vector and in place.
  const Eigen::VectorXd b = B.col(0);
  Eigen::VectorXd x;
  single->solve(b, x);
  EXPECT_LT((x - exact.col(0)).norm(), 1e-5 * exact.col(0).norm());
  EXPECT_GT((x - exact.col(0)).norm(), 0.0);  // it is computed in float, not copied from the double solve
  Eigen::VectorXd y = b;
  single->solve(y, y);
  EXPECT_EQ((y - x).norm(), 0.0);
  // Several right-hand sides.
  const Eigen::MatrixXd X = single->solve(B);
  for (int c = 0; c < B.cols(); ++c)
    EXPECT_LT((X.col(c) - exact.col(c)).norm(), 1e-5 * exact.col(c).norm()) << "column " << c;
  // The residual of the float solve on A itself.
  EXPECT_LT((A * X - B).norm(), 1e-5 * B.norm());
}

TEST(SinglePrecisionFactor, PreconditionsCgOnAClampedBeamToTightTolerance) {
  const Vec3 size(1.2, 0.3, 0.3);
  TetMesh mesh = test::box(size, {16, 4, 4}, meshing::CellSplit::five);
  test::jitter_interior(mesh, size, 0.075, 0.2);
  const SparseMatrix K = assemble_stiffness(mesh, test::steel());
  const DofMap map = DofMap::from_fixed_nodes(mesh, test::nodes_at(mesh, 0, 0.0)).value();
  const SparseMatrix A = map.restrict_matrix(K);
  Eigen::VectorXd f(K.rows());
  for (Eigen::Index i = 0; i < f.size(); ++i) f[i] = 1e3 * std::sin(0.37 * static_cast<double>(i));
  const Eigen::VectorXd b = map.restrict_vector(f);
  auto chol = SparseCholesky::factor(A);
  ASSERT_TRUE(chol.ok());
  auto single = SinglePrecisionFactor::build(*chol);
  ASSERT_TRUE(single.ok());
  const Eigen::VectorXd exact = chol->solve(b);
  Eigen::VectorXd z;
  single->solve(b, z);
  // A stiff, clamped steel beam: the float solve alone is within float accuracy of the double one (1.3e-7
  // measured), short of 1e-10…
  const double direct_error = (z - exact).norm() / exact.norm();
  EXPECT_LT(direct_error, 1e-5);
  EXPECT_GT(direct_error, 1e-12);
  // …and CG preconditioned by it reaches 1e-10 in two iterations.
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size()), r = b, p = z, q(b.size());
  double rz = r.dot(z);
  int it = 0;
  while (r.norm() > 1e-10 * b.norm() && it < 50) {
    q = A * p;
    const double alpha = rz / p.dot(q);
    x += alpha * p;
    r -= alpha * q;
    single->solve(r, z);
    const double rz_new = r.dot(z);
    p = z + (rz_new / rz) * p;
    rz = rz_new;
    ++it;
  }
  EXPECT_LE(r.norm(), 1e-10 * b.norm());
  EXPECT_LE(it, 3);
  EXPECT_LT((x - exact).norm(), 1e-8 * exact.norm());
  std::printf("beam: %lld DOF, float solve relative error %.2e, CG to 1e-10 in %d iterations\n",
              static_cast<long long>(b.size()), direct_error, it);
}

TEST(SinglePrecisionFactor, RefusesTheSimplicialBackend) {
  auto ldlt = SparseCholesky::factor(well_conditioned(5), CholeskyBackend::eigen_simplicial_ldlt);
  ASSERT_TRUE(ldlt.ok());
  auto single = SinglePrecisionFactor::build(*ldlt);
  ASSERT_FALSE(single.ok());
  EXPECT_NE(single.message().find("eigen_simplicial_ldlt"), std::string::npos);
}

}  // namespace
}  // namespace pliant::linalg
