#include "omp_team_probe.hpp"

#include <dlfcn.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace {
using Outlined = void (*)(void*);
using GompParallel = void (*)(Outlined, void*, unsigned, unsigned);

std::atomic<bool> g_probing{false};
std::atomic<bool> g_called{false};
std::mutex g_mutex;
std::vector<Outlined> g_entered, g_parallel;  // distinct outlined functions

void remember(std::vector<Outlined>& seen, Outlined fn) {
  if (std::find(seen.begin(), seen.end(), fn) == seen.end()) seen.push_back(fn);
}

// The region's body, run by every thread of the team: the first thread records the team's size.
struct Trampoline {
  Outlined fn;
  void* data;
};
void run_recorded(void* p) {
  const auto* t = static_cast<const Trampoline*>(p);
  if (omp_get_thread_num() == 0) {
    const std::lock_guard lock(g_mutex);
    remember(g_entered, t->fn);
    if (omp_get_num_threads() > 1) remember(g_parallel, t->fn);
  }
  t->fn(t->data);
}
// Whether the outlined function is Pliant's (linked into this executable), not a shared library's:
// CHOLMOD's OpenMP regions call GOMP_parallel too, with their own thread count.
bool in_this_executable(Outlined fn) {
  Dl_info mine, its;
  return dladdr(reinterpret_cast<void*>(&run_recorded), &mine) != 0 &&
         dladdr(reinterpret_cast<void*>(fn), &its) != 0 && mine.dli_fbase == its.dli_fbase;
}
}  // namespace

// GCC lowers `#pragma omp parallel` (and `parallel for`) to this libgomp call; the executable's definition
// takes the place of libgomp's for every object linked into it and forwards to the real one.
extern "C" void GOMP_parallel(Outlined fn, void* data, unsigned num_threads, unsigned flags) {
  static const auto real = reinterpret_cast<GompParallel>(dlsym(RTLD_NEXT, "GOMP_parallel"));
  g_called = true;
  if (!g_probing.load(std::memory_order_relaxed) || !in_this_executable(fn))
    return real(fn, data, num_threads, flags);
  Trampoline t{fn, data};
  real(&run_recorded, &t, num_threads, flags);
}

namespace pliant::test {
void probe_parallel_regions(bool on) {
  const std::lock_guard lock(g_mutex);
  if (on) {
    g_entered.clear();
    g_parallel.clear();
  }
  g_probing = on;
}
int regions_run_in_parallel() {
  const std::lock_guard lock(g_mutex);
  return static_cast<int>(g_parallel.size());
}
int regions_entered() {
  const std::lock_guard lock(g_mutex);
  return static_cast<int>(g_entered.size());
}
bool parallel_probe_available() {
  g_called = false;
  std::atomic<int> ran{0};
#pragma omp parallel num_threads(1)
  ran.fetch_add(1);  // a region with a body: GCC drops an empty one
  return g_called.load() && ran.load() == 1;
}
}  // namespace pliant::test
