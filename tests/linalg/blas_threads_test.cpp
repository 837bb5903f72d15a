// The solvers set the BLAS CHOLMOD calls to one thread themselves (core/threads.hpp), so a program that
// never exported OPENBLAS_NUM_THREADS does not oversubscribe; a user's own setting is left alone.
#include "pliant/core/threads.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"

#include <dlfcn.h>
#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace pliant::linalg {
namespace {

using pliant::testing::ScopedEnv;

// A 1D Laplacian with a diagonal shift: SPD, enough to run a CHOLMOD factorisation.
SparseMatrix laplacian(Eigen::Index n) {
  std::vector<Eigen::Triplet<double>> t;
  for (Eigen::Index i = 0; i < n; ++i) {
    t.emplace_back(i, i, 2.5);
    if (i > 0) t.emplace_back(i, i - 1, -1.0);
    if (i + 1 < n) t.emplace_back(i, i + 1, -1.0);
  }
  SparseMatrix A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

using SetThreads = void (*)(int);

// Sets OpenBLAS to `n` threads behind the library's back; false when there is no OpenBLAS or it
// cannot run that many (a one-core machine).
bool force_openblas_threads(int n) {
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (!set) return false;
  set(n);
  return blas_threads_in_use() == n;
}

TEST(BlasThreads, FactorSetsOpenBlasToOneThread) {
  const ScopedEnv blas("OPENBLAS_NUM_THREADS", nullptr);
  const ScopedEnv go("GOTO_NUM_THREADS", nullptr);
  if (!force_openblas_threads(2)) GTEST_SKIP() << "no OpenBLAS with 2 threads in this process";
  set_threads(0);  // the policy is re-applied after a change
  ASSERT_TRUE(SparseCholesky::factor(laplacian(50)).ok());
  EXPECT_EQ(blas_threads_in_use(), 1);
}

TEST(BlasThreads, UsersOpenBlasVariableWins) {
  const ScopedEnv blas("OPENBLAS_NUM_THREADS", "2");
  if (!force_openblas_threads(2)) GTEST_SKIP() << "no OpenBLAS with 2 threads in this process";
  set_threads(0);
  auto f = SparseCholesky::factor(laplacian(50));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(blas_threads_in_use(), 2);
  // And the solve is still right with two BLAS threads: A x = b for x = 1.
  const SparseMatrix A = laplacian(50);
  const Eigen::VectorXd x = f->solve(Eigen::VectorXd(A * Eigen::VectorXd::Ones(50)));
  EXPECT_LT((x - Eigen::VectorXd::Ones(50)).norm(), 1e-12);
  force_openblas_threads(1);
  set_threads(0);
}

}  // namespace
}  // namespace pliant::linalg
