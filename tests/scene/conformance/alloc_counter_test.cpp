// The allocation counter sees what it must, so that a conformance check of zero allocations can fail:
// Eigen's aligned malloc, the C allocator's entry points, every form of operator new, and allocations
// on other threads. Each allocation below escapes through an empty asm statement, so the compiler
// cannot elide it (it may remove an unused malloc/free or new/delete pair).
#include "scene/conformance/alloc_counter.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <Eigen/Core>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

namespace pliant::test {
namespace {

void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

// Counts the allocations (and bytes) made by `f` alone.
template <class F>
std::pair<long, long long> counted(F&& f) {
  count_allocations(true);
  f();
  count_allocations(false);
  return {allocations_counted(), bytes_counted()};
}

TEST(AllocationCounter, SeesEigenVectors) {
  const auto [n, bytes] = counted([] {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(1000);
    escape(v.data());
  });
  EXPECT_EQ(n, 1) << allocation_counter_method();
  EXPECT_GE(bytes, 8000);
}

TEST(AllocationCounter, SeesTheCAllocator) {
  EXPECT_EQ(counted([] {
              void* p = std::malloc(64);
              escape(p);
              std::free(p);
            }).first,
            1)
      << "malloc, " << allocation_counter_method();
  EXPECT_EQ(counted([] {
              void* p = std::calloc(8, 8);
              escape(p);
              std::free(p);
            }).first,
            1)
      << "calloc";
  void* p = std::malloc(16);
  escape(p);
  const auto grown = counted([&] {
    p = std::realloc(p, 1 << 20);
    escape(p);
  });
  std::free(p);
  EXPECT_EQ(grown.first, 1) << "realloc";
  EXPECT_GE(grown.second, 1 << 20);
  EXPECT_EQ(counted([] {
              void* q = nullptr;
              ASSERT_EQ(posix_memalign(&q, 64, 256), 0);
              escape(q);
              std::free(q);
            }).first,
            1)
      << "posix_memalign";
  EXPECT_EQ(counted([] {
              void* q = std::aligned_alloc(64, 256);
              escape(q);
              std::free(q);
            }).first,
            1)
      << "aligned_alloc";
}

struct alignas(64) Wide {
  double lanes[8];
};

TEST(AllocationCounter, SeesEveryOperatorNew) {
  EXPECT_EQ(counted([] { escape(std::make_unique<int>(7).get()); }).first, 1) << "new";
  EXPECT_EQ(counted([] { escape(std::make_unique<double[]>(100).get()); }).first, 1) << "new[]";
  EXPECT_EQ(counted([] { escape(std::make_unique<Wide>().get()); }).first, 1) << "aligned new";
  EXPECT_EQ(counted([] { escape(std::make_unique<Wide[]>(3).get()); }).first, 1) << "aligned new[]";
  EXPECT_EQ(counted([] {
              Wide* w = new (std::nothrow) Wide;
              escape(w);
              delete w;
            }).first,
            1)
      << "aligned nothrow new";
  EXPECT_EQ(counted([] {
              int* i = new (std::nothrow) int(3);
              escape(i);
              delete i;
            }).first,
            1)
      << "nothrow new";
  EXPECT_EQ(counted([] { escape(std::string(100, 'x').data()); }).first, 1) << "std::string";
}

// OpenMP's worker threads (the solvers' parallel loops) are counted as well as the caller's: the team is
// started first (starting it allocates), then a region whose second thread allocates counts more than
// the same region without.
void parallel_region(bool second_allocates) {
#pragma omp parallel num_threads(2)
  {
    if (second_allocates && omp_get_thread_num() == 1) escape(std::make_unique<double[]>(10).get());
  }
}

TEST(AllocationCounter, SeesOtherThreads) {
  if (omp_get_max_threads() < 2) GTEST_SKIP() << "one OpenMP thread";
  parallel_region(false);
  const long idle = counted([] { parallel_region(false); }).first;
  const long busy = counted([] { parallel_region(true); }).first;
  EXPECT_EQ(busy, idle + 1);
}

// Allocations made inside a shared library are told apart by the call stack: a one-thread OpenMP region
// allocates its team inside libgomp; a malloc of ours is not libgomp's.
TEST(AllocationCounter, AttributesAllocationsToTheLibraryThatMadeThem) {
  // The OpenMP runtime the compiler targets: libgomp for g++, libomp for clang (the sanitizer build).
#if defined(__clang__)
  const char* const runtime = "libomp";
#else
  const char* const runtime = "libgomp";
#endif
  attribute_allocations_to(runtime);
  const long ours = counted([] {
                      void* p = std::malloc(64);
                      escape(p);
                      std::free(p);
                    }).first;
  const long ours_attributed = allocations_attributed();
  std::atomic<int> ran{0};
  const long theirs = counted([&] {
                        for (int k = 0; k < 3; ++k) {
#pragma omp parallel num_threads(1)
                          ran.fetch_add(1);
                        }
                      }).first;
  const long theirs_attributed = allocations_attributed();
  attribute_allocations_to(nullptr);
  EXPECT_EQ(ours, 1);
  EXPECT_EQ(ours_attributed, 0);
  EXPECT_EQ(ran.load(), 3);
  EXPECT_GE(theirs, 1) << runtime << " allocates a team for a one-thread region";
  EXPECT_EQ(theirs_attributed, theirs);
}

TEST(AllocationCounter, CountsNothingWhenOff) {
  count_allocations(true);
  count_allocations(false);
  void* p = std::malloc(64);
  escape(p);
  std::free(p);
  EXPECT_EQ(allocations_counted(), 0);
  EXPECT_EQ(bytes_counted(), 0);
}

}  // namespace
}  // namespace pliant::test
