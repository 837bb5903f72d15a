// The thread policy: who decides the solver team size and the BLAS thread count (core/threads.hpp).
#include "pliant/core/threads.hpp"

#include "scoped_env.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace pliant {
namespace {

using pliant::testing::ScopedEnv;

TEST(ThreadPolicy, CoresDecideWhenNothingIsSet) {
  const ThreadPolicy p = decide_threads({.requested = 0, .omp_env = {}, .blas_env = {}, .cores = 6});
  EXPECT_EQ(p.solver_threads, 6);
  EXPECT_EQ(p.source, "cores");
  EXPECT_EQ(p.blas_threads, 1);  // parallel across solves, never inside them
}

TEST(ThreadPolicy, OmpNumThreadsBeatsCores) {
  const ThreadPolicy p = decide_threads({.requested = 0, .omp_env = 3, .blas_env = {}, .cores = 8});
  EXPECT_EQ(p.solver_threads, 3);
  EXPECT_EQ(p.source, "OMP_NUM_THREADS");
  // Asking for more threads than cores is the user's call, and honoured.
  EXPECT_EQ(decide_threads({.requested = 0, .omp_env = 16, .blas_env = {}, .cores = 2}).solver_threads, 16);
}

TEST(ThreadPolicy, SetThreadsBeatsOmpNumThreads) {
  const ThreadPolicy p = decide_threads({.requested = 5, .omp_env = 3, .blas_env = {}, .cores = 8});
  EXPECT_EQ(p.solver_threads, 5);
  EXPECT_EQ(p.source, "set_threads");
}

TEST(ThreadPolicy, UsersBlasVariableIsLeftAlone) {
  EXPECT_EQ(decide_threads({.requested = 0, .omp_env = {}, .blas_env = 4, .cores = 2}).blas_threads, 0);
  EXPECT_EQ(decide_threads({.requested = 2, .omp_env = 2, .blas_env = 1, .cores = 2}).blas_threads, 0);
  // --threads sizes the solver team only; it does not hand the BLAS threads.
  EXPECT_EQ(decide_threads({.requested = 8, .omp_env = {}, .blas_env = {}, .cores = 8}).blas_threads, 1);
}

TEST(ThreadPolicy, ZeroOrNegativeCoresStillGiveOneThread) {
  EXPECT_EQ(decide_threads({.requested = 0, .omp_env = {}, .blas_env = {}, .cores = 0}).solver_threads, 1);
}

TEST(ParseThreadCount, AcceptsCountsAndOpenMpLists) {
  EXPECT_EQ(parse_thread_count("4"), 4);
  EXPECT_EQ(parse_thread_count(" 3 "), 3);
  EXPECT_EQ(parse_thread_count("4,2"), 4);  // nested-parallelism list: the outer level
}

TEST(ParseThreadCount, RejectsWhatIsNotAPositiveCount) {
  for (const char* bad : {"", "0", "-2", "two", "4x", "1.5", ",3", "99999999999"})
    EXPECT_EQ(parse_thread_count(bad), std::nullopt) << '"' << bad << '"';
}

TEST(ThreadPolicy, ReadsTheEnvironmentAndSetThreads) {
  const ScopedEnv omp("OMP_NUM_THREADS", "3");
  const ScopedEnv blas("OPENBLAS_NUM_THREADS", nullptr);
  const ScopedEnv go("GOTO_NUM_THREADS", nullptr);
  set_threads(0);
  ThreadInputs in = current_thread_inputs();
  EXPECT_EQ(in.omp_env, 3);
  EXPECT_EQ(in.blas_env, std::nullopt);
  EXPECT_GE(in.cores, 1);
  EXPECT_EQ(solver_threads(), 3);
  EXPECT_EQ(thread_policy().blas_threads, 1);

  set_threads(7);  // the CLI's --threads
  EXPECT_EQ(current_thread_inputs().requested, 7);
  EXPECT_EQ(solver_threads(), 7);
  EXPECT_EQ(thread_policy().source, "set_threads");
  set_threads(-1);  // counts as 0: automatic again
  EXPECT_EQ(solver_threads(), 3);
}

TEST(ThreadPolicy, GotoNumThreadsCountsAsTheUsersBlasSetting) {
  const ScopedEnv blas("OPENBLAS_NUM_THREADS", nullptr);
  const ScopedEnv go("GOTO_NUM_THREADS", "2");
  EXPECT_EQ(current_thread_inputs().blas_env, 2);
  EXPECT_EQ(thread_policy().blas_threads, 0);
}

TEST(ThreadPolicy, MalformedEnvironmentCountsAsUnset) {
  const ScopedEnv omp("OMP_NUM_THREADS", "lots");
  set_threads(0);
  const ThreadPolicy p = thread_policy();
  EXPECT_EQ(p.source, "cores");
  EXPECT_EQ(p.solver_threads, current_thread_inputs().cores);
}

}  // namespace
}  // namespace pliant
