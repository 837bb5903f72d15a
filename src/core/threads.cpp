// The thread policy (see threads.hpp). OpenBLAS is reached through dlsym, so the library links and
// runs with any BLAS (reference BLAS, BLIS, MKL): without OpenBLAS there is nothing to set.
#include "pliant/core/threads.hpp"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace pliant {
namespace {

std::atomic<int> g_requested{0};
std::mutex g_blas_mutex;
int g_blas_applied = -1;  // the count last set (guarded by g_blas_mutex); -1: not yet
std::atomic<bool> g_blas_current{false};

using SetThreads = void (*)(int);
using GetThreads = int (*)();

struct OpenBlas {
  SetThreads set = nullptr;
  GetThreads get = nullptr;
};

const OpenBlas& openblas() {
  static const OpenBlas api = [] {
    OpenBlas a;
    a.set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    a.get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    return a;
  }();
  return api;
}

std::optional<int> env_count(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return parse_thread_count(v);
}

int affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

std::optional<int> parse_thread_count(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  const auto comma = text.find(',');
  if (comma != std::string_view::npos) text = text.substr(0, comma);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n < 1) return std::nullopt;
  return n;
}

ThreadPolicy decide_threads(const ThreadInputs& in) {
  ThreadPolicy p;
  if (in.requested > 0) {
    p.solver_threads = in.requested;
    p.source = "set_threads";
  } else if (in.omp_env) {
    p.solver_threads = *in.omp_env;
    p.source = "OMP_NUM_THREADS";
  } else {
    p.solver_threads = std::max(1, in.cores);
    p.source = "cores";
  }
  // Parallelism is across solves: BLAS threads under them only oversubscribe (and OpenBLAS's
  // workers spin). A user who set the BLAS's own variable keeps what they asked for.
  p.blas_threads = in.blas_env ? 0 : 1;
  return p;
}

ThreadInputs current_thread_inputs() {
  ThreadInputs in;
  in.requested = g_requested.load(std::memory_order_relaxed);
  in.omp_env = env_count("OMP_NUM_THREADS");
  in.blas_env = env_count("OPENBLAS_NUM_THREADS");
  if (!in.blas_env) in.blas_env = env_count("GOTO_NUM_THREADS");
  in.cores = affinity_cores();
  return in;
}

ThreadPolicy thread_policy() { return decide_threads(current_thread_inputs()); }

void set_threads(int threads) {
  g_requested.store(std::max(0, threads), std::memory_order_relaxed);
  g_blas_current.store(false, std::memory_order_release);
}

int solver_threads() { return thread_policy().solver_threads; }

void apply_blas_threads() {
  if (g_blas_current.load(std::memory_order_acquire)) return;
  const std::lock_guard lock(g_blas_mutex);
  const int want = thread_policy().blas_threads;
  const OpenBlas& api = openblas();
  if (want > 0 && api.set && want != g_blas_applied) api.set(want);
  g_blas_applied = want;
  g_blas_current.store(true, std::memory_order_release);
}

std::optional<int> blas_threads_in_use() {
  const OpenBlas& api = openblas();
  if (!api.get) return std::nullopt;
  return api.get();
}

}  // namespace pliant
