// Records the OpenMP parallel regions this test executable runs and how many threads each really got,
// so that a determinism check can prove its two-thread run took the parallel path (a region whose `if`
// clause is false runs with a team of one). Only regions of code linked into the executable (Pliant's) are
// recorded: shared libraries such as CHOLMOD run OpenMP regions of their own, with their own thread count.
// omp_team_probe.cpp wraps libgomp's GOMP_parallel, through which GCC starts every `#pragma omp parallel`
// region; kept in its own file and executable.
#pragma once

namespace pliant::test {

// Starts (forgetting what was seen) or stops recording.
void probe_parallel_regions(bool on);
// Distinct parallel regions (by outlined function) that ran with a team of two or more threads since
// recording last started.
int regions_run_in_parallel();
// Distinct parallel regions entered at all (whatever their team) since recording last started.
int regions_entered();
// Whether the wrapper is in place (GCC's libgomp): false where another OpenMP runtime is linked.
bool parallel_probe_available();

}  // namespace pliant::test
