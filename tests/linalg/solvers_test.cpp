#include "models/fem/fem_test_util.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/linalg/condensation.hpp"
#include "pliant/linalg/pcg.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

namespace pliant::linalg {
namespace {

// The test systems are the reduced stiffness matrices of fem's clamped beams (fem serves as a fixture).
namespace test = fem::test;
using fem::assemble_stiffness;
using fem::DofMap;

// A clamped, jittered beam with a mixed load: the reduced SPD system shared by the solver tests.
struct Problem {
  TetMesh mesh;
  SparseMatrix K;
  DofMap map;
  SparseMatrix A;
  Eigen::VectorXd b;
};

Problem make_problem(std::array<Index, 3> cells = {12, 3, 3}) {
  const Vec3 size(1.2, 0.3, 0.3);
  Problem p;
  p.mesh = test::box(size, cells, meshing::CellSplit::five);
  test::jitter_interior(p.mesh, size, 0.1, 0.2);
  p.K = assemble_stiffness(p.mesh, test::steel());
  p.map = DofMap::from_fixed_nodes(p.mesh, test::nodes_at(p.mesh, 0, 0.0)).value();
  p.A = p.map.restrict_matrix(p.K);
  Eigen::VectorXd f(p.K.rows());
  for (Eigen::Index i = 0; i < f.size(); ++i)
    f[i] = 1e3 * std::sin(0.37 * static_cast<double>(i)) + (i % 3 == 2 ? -5e3 : 0.0);
  p.b = p.map.restrict_vector(f);
  return p;
}

TEST(SparseCholesky, BackendsAgreeAndSolveTheSystem) {
  const Problem p = make_problem();
  auto cm = SparseCholesky::factor(p.A, CholeskyBackend::cholmod_supernodal);
  auto ld = SparseCholesky::factor(p.A, CholeskyBackend::eigen_simplicial_ldlt);
  ASSERT_TRUE(cm.ok()) << cm.message();
  ASSERT_TRUE(ld.ok()) << ld.message();
  const Eigen::VectorXd x1 = cm->solve(p.b), x2 = ld->solve(p.b);
  EXPECT_LT((p.A * x1 - p.b).norm(), 1e-10 * p.b.norm());
  EXPECT_LT((x1 - x2).norm(), 1e-9 * x1.norm());
  EXPECT_GT(cm->factor_nonzeros(), p.A.nonZeros() / 2);
  EXPECT_EQ(cm->size(), p.A.rows());
  // The wide-supernode variant: same solution, also after a refactorisation with new values.
  auto wide = SparseCholesky::factor(p.A, CholeskyBackend::cholmod_supernodal_wide);
  ASSERT_TRUE(wide.ok()) << wide.message();
  EXPECT_EQ(wide->backend(), CholeskyBackend::cholmod_supernodal_wide);
  EXPECT_LT((wide->solve(p.b) - x1).norm(), 1e-9 * x1.norm());
  const SparseMatrix A2 = 2.0 * p.A;
  ASSERT_TRUE(wide->refactor(A2).ok());
  EXPECT_LT((wide->solve(p.b) - 0.5 * x1).norm(), 1e-9 * x1.norm());
}

// The simplicial CHOLMOD backend and the AMD-or-METIS ordering choice: the same solution (also refactored
// and for a block of right-hand sides), and fewest_nonzeros never keeps more fill than the automatic choice.
TEST(SparseCholesky, SimplicialBackendAndOrderingChoiceSolveTheSystem) {
  const Problem p = make_problem();
  const Eigen::VectorXd x = SparseCholesky::factor(p.A).value().solve(p.b);
  auto simplicial = SparseCholesky::factor(p.A, CholeskyBackend::cholmod_simplicial);
  ASSERT_TRUE(simplicial.ok()) << simplicial.message();
  EXPECT_EQ(simplicial->backend(), CholeskyBackend::cholmod_simplicial);
  EXPECT_EQ(to_string(CholeskyBackend::cholmod_simplicial), "cholmod_simplicial");
  EXPECT_LT((simplicial->solve(p.b) - x).norm(), 1e-9 * x.norm());
  ASSERT_TRUE(simplicial->refactor(4.0 * p.A).ok());
  EXPECT_LT((simplicial->solve(p.b) - 0.25 * x).norm(), 1e-9 * x.norm());
  Eigen::MatrixXd B(p.A.rows(), 2);
  B << p.b, 2.0 * p.b;
  EXPECT_LT((simplicial->solve(B).col(1) - 0.5 * x).norm(), 1e-9 * x.norm());
  const SparseMatrix negative = -1.0 * p.A;
  EXPECT_FALSE(SparseCholesky::factor(negative, CholeskyBackend::cholmod_simplicial).ok());

  auto automatic =
      SparseCholesky::factor(p.A, CholeskyBackend::cholmod_supernodal, CholeskyOrdering::automatic);
  auto fewest =
      SparseCholesky::factor(p.A, CholeskyBackend::cholmod_supernodal, CholeskyOrdering::fewest_nonzeros);
  ASSERT_TRUE(automatic.ok() && fewest.ok());
  EXPECT_LE(fewest->factor_nonzeros(), automatic->factor_nonzeros());
  EXPECT_LT((fewest->solve(p.b) - x).norm(), 1e-9 * x.norm());
}

TEST(SparseCholesky, BlockSolveEqualsColumnSolves) {
  const Problem p = make_problem({6, 2, 2});
  auto chol = SparseCholesky::factor(p.A);
  ASSERT_TRUE(chol.ok());
  Eigen::MatrixXd B(p.A.rows(), 7);
  for (int c = 0; c < 7; ++c) B.col(c) = p.b * (c + 1) + Eigen::VectorXd::Unit(p.A.rows(), 5 * c) * 1e4;
  const Eigen::MatrixXd X = chol->solve(B);
  for (int c = 0; c < 7; ++c)
    EXPECT_LT((X.col(c) - chol->solve(Eigen::VectorXd(B.col(c)))).norm(), 1e-12 * X.col(c).norm());
  EXPECT_FALSE(SparseCholesky::factor(SparseMatrix(3, 4)).ok());
  EXPECT_FALSE(SparseCholesky::factor(SparseMatrix()).ok());
}

TEST(Pcg, EveryPreconditionerMatchesCholesky) {
  const Problem p = make_problem();
  const Eigen::VectorXd exact = SparseCholesky::factor(p.A).value().solve(p.b);
  int unpreconditioned = 0;
  for (auto pc : {Preconditioner::none, Preconditioner::jacobi, Preconditioner::block_jacobi,
                  Preconditioner::ssor, Preconditioner::incomplete_cholesky}) {
    PcgSettings s;
    s.preconditioner = pc;
    s.relative_tolerance = 1e-12;
    auto solver = PcgSolver::build(p.A, s);
    ASSERT_TRUE(solver.ok()) << to_string(pc) << ": " << solver.message();
    Eigen::VectorXd x = Eigen::VectorXd::Zero(p.A.rows());
    const PcgReport r = solver->solve(p.b, x);
    EXPECT_TRUE(r.converged) << to_string(pc);
    EXPECT_LT((x - exact).norm(), 1e-8 * exact.norm()) << to_string(pc);
    // The reported residual is the true one (up to recurrence drift) and the history is complete.
    EXPECT_LT((p.A * x - p.b).norm() / p.b.norm(), 1e-10) << to_string(pc);
    ASSERT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations + 1));
    EXPECT_NEAR(r.residual_history.front(), 1.0, 1e-12);
    EXPECT_EQ(r.residual_history.back(), r.relative_residual);
    if (pc == Preconditioner::none) unpreconditioned = r.iterations;
    if (pc == Preconditioner::ssor || pc == Preconditioner::incomplete_cholesky) {
      EXPECT_LT(r.iterations, unpreconditioned) << to_string(pc);
    }
  }
}

TEST(Pcg, WarmStartFromTheSolutionNeedsNoIteration) {
  const Problem p = make_problem({6, 2, 2});
  PcgSettings s;
  s.relative_tolerance = 1e-10;
  auto solver = PcgSolver::build(p.A, s).value();
  Eigen::VectorXd x = Eigen::VectorXd::Zero(p.A.rows());
  const PcgReport cold = solver.solve(p.b, x);
  ASSERT_TRUE(cold.converged);
  PcgReport warm;
  solver.solve(p.b, x, warm);
  EXPECT_TRUE(warm.converged);
  EXPECT_EQ(warm.iterations, 0);
  // A slightly changed load from the previous solution converges faster than from zero.
  const Eigen::VectorXd b2 = p.b * 1.01;
  Eigen::VectorXd x2 = x, x0 = Eigen::VectorXd::Zero(p.A.rows());
  EXPECT_LT(solver.solve(b2, x2).iterations, solver.solve(b2, x0).iterations);
  // Zero right-hand side: zero solution at once.
  Eigen::VectorXd z = x;
  EXPECT_TRUE(solver.solve(Eigen::VectorXd::Zero(p.A.rows()), z).converged);
  EXPECT_EQ(z.norm(), 0.0);
}

TEST(Pcg, RejectsBadSettingsAndReportsNonConvergence) {
  const Problem p = make_problem({4, 1, 1});
  PcgSettings s;
  s.preconditioner = Preconditioner::ssor;
  s.ssor_omega = 2.0;
  EXPECT_FALSE(PcgSolver::build(p.A, s).ok());
  s = {};
  s.relative_tolerance = 0.0;
  EXPECT_FALSE(PcgSolver::build(p.A, s).ok());
  s = {};
  s.max_iterations = 3;
  auto solver = PcgSolver::build(p.A, s).value();
  Eigen::VectorXd x;
  const PcgReport r = solver.solve(p.b, x);
  EXPECT_FALSE(r.converged);
  EXPECT_EQ(r.iterations, 3);
  SparseMatrix neg = p.A;
  neg.coeffRef(0, 0) = -1.0;
  EXPECT_FALSE(PcgSolver::build(neg, {}).ok());
  EXPECT_TRUE(parse_preconditioner("ic").ok());
  EXPECT_FALSE(parse_preconditioner("amg").ok());
}

TEST(Condensation, SurfaceSolutionEqualsFullSolve) {
  const Problem p = make_problem({8, 3, 3});
  // Surface = free DOFs of boundary nodes (reduced indices), in a scrambled order.
  const BoundarySurface surface = extract_boundary(p.mesh);
  std::vector<Eigen::Index> surf;
  for (Index dof : p.map.free_dofs())
    if (surface.surface_node[dof / 3] >= 0) surf.push_back(p.map.reduced_index(dof));
  std::reverse(surf.begin(), surf.end());
  ASSERT_GT(surf.size(), 0u);
  ASSERT_LT(surf.size(), static_cast<std::size_t>(p.A.rows()));
  auto cond = Condensation::build(p.A, surf);
  ASSERT_TRUE(cond.ok()) << cond.message();
  EXPECT_EQ(cond->condensed_matrix().rows(), static_cast<Eigen::Index>(surf.size()));
  const Eigen::VectorXd exact = SparseCholesky::factor(p.A).value().solve(p.b);
  const Eigen::VectorXd us = cond->solve_surface(cond->condense_rhs(p.b));
  for (std::size_t k = 0; k < surf.size(); ++k)
    ASSERT_NEAR(us[k], exact[surf[k]], 1e-9 * exact.cwiseAbs().maxCoeff());
  const Eigen::VectorXd u = cond->solve(p.b);
  EXPECT_LT((u - exact).norm(), 1e-9 * exact.norm());
  // K*_ss is the Schur complement: symmetric, and equal to the inverse of (A⁻¹)_ss.
  const Eigen::MatrixXd& S = cond->condensed_matrix();
  EXPECT_LT((S - S.transpose()).norm(), 1e-12 * S.norm());
  const Eigen::MatrixXd Ainv = Eigen::MatrixXd(p.A).inverse();
  Eigen::MatrixXd Ainv_ss(surf.size(), surf.size());
  for (std::size_t i = 0; i < surf.size(); ++i)
    for (std::size_t j = 0; j < surf.size(); ++j) Ainv_ss(i, j) = Ainv(surf[i], surf[j]);
  EXPECT_LT((S * Ainv_ss - Eigen::MatrixXd::Identity(surf.size(), surf.size())).norm(),
            1e-7 * std::sqrt(surf.size()));
}

TEST(Condensation, RejectsBadSurfaceLists) {
  const Problem p = make_problem({4, 1, 1});
  EXPECT_FALSE(Condensation::build(p.A, std::vector<Eigen::Index>{}).ok());
  EXPECT_FALSE(Condensation::build(p.A, std::vector<Eigen::Index>{0, 0}).ok());
  EXPECT_FALSE(Condensation::build(p.A, std::vector<Eigen::Index>{p.A.rows()}).ok());
  // Everything on the surface: K* is A itself.
  std::vector<Eigen::Index> all(p.A.rows());
  for (Eigen::Index i = 0; i < p.A.rows(); ++i) all[i] = i;
  auto cond = Condensation::build(p.A, all);
  ASSERT_TRUE(cond.ok());
  EXPECT_LT((cond->condensed_matrix() - Eigen::MatrixXd(p.A)).norm(),
            1e-12 * cond->condensed_matrix().norm());
}

}  // namespace
}  // namespace pliant::linalg
