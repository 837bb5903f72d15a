// Counts the operator new calls of this test executable while counting is on (alloc_counter.cpp
// replaces the global allocation functions; kept in its own file so that no caller inlines them).
#pragma once

namespace pliant::test {

void count_allocations(bool on);
long allocations_counted();

}  // namespace pliant::test
