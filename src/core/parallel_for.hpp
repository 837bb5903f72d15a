// parallel_for: a loop over [0, n) on `threads` OpenMP threads, or a plain loop when threads ≤ 1.
//
// Why not `#pragma omp parallel for if (n > threshold)`: GCC's libgomp allocates a team for every
// parallel region and keeps only teams of two or more threads for reuse, so a region that runs on one
// thread (its `if` clause false, or num_threads(1)) mallocs and frees its team each time. Below the
// families' parallel thresholds that was an allocation per loop per step, where steps after warm-up must
// not allocate (the conformance suite counts malloc). Skipping the region when one thread would run it
// costs nothing and changes no result: body(i) is the same computation either way, and every loop that
// uses this writes each i's result to its own place (no reduction), so any team gives the same bits.
#pragma once

namespace pliant {

/// body(i) for i in [0, n) (any integer type), statically scheduled over `threads` threads when threads > 1.
template <class Int, class Body>
void parallel_for(Int n, int threads, Body&& body) {
  if (threads <= 1) {
    for (Int i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (Int i = 0; i < n; ++i) body(i);
}

/// The same with schedule(dynamic, chunk), for iterations of uneven cost.
template <class Int, class Body>
void parallel_for_dynamic(Int n, int threads, int chunk, Body&& body) {
  if (threads <= 1) {
    for (Int i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for schedule(dynamic, chunk) num_threads(threads)
  for (Int i = 0; i < n; ++i) body(i);
}

}  // namespace pliant
