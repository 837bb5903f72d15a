// Counts the heap allocations of this test executable, on every thread, while counting is on.
//
// It sees every way in: the C allocator (malloc, calloc, realloc, reallocarray, aligned_alloc,
// posix_memalign, memalign, valloc, pvalloc: Eigen's aligned_malloc, CHOLMOD and OpenMP come in here)
// and every form of operator new (plain, array, sized, aligned, nothrow). alloc_counter.cpp replaces
// these functions for the executable (glibc forwards to __libc_malloc and its siblings); kept in its
// own file so that no caller inlines them. Under AddressSanitizer, which owns malloc, it installs the
// sanitizer's malloc hook instead, which the sanitizer's allocator calls for every allocation.
#pragma once

#include <cstddef>

namespace pliant::test {

// Starts (resetting the counts) or stops counting.
void count_allocations(bool on);
// Allocations counted since counting last started.
long allocations_counted();
// Bytes requested by those allocations (unit: byte).
long long bytes_counted();
// Also counts apart the allocations whose call stack passes through a shared library whose path
// contains `library` (e.g. "libcholmod"; nullptr: none): an allocation inside a dependency, that a
// conformance check may allow, told from one of ours. Costs a stack walk per counted allocation.
void attribute_allocations_to(const char* library);
// Allocations counted since counting last started that came through that library.
long allocations_attributed();
// How this build counts: "malloc replacement" or "sanitizer malloc hook".
const char* allocation_counter_method();

}  // namespace pliant::test
