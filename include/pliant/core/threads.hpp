// One thread-count policy for everything Pliant runs in parallel: the OpenMP teams of its solvers
// and the threads of the BLAS that CHOLMOD calls.
//
// Why: Pliant parallelises across solves (the Green's function precompute gives each OpenMP thread
// its own factor and a share of the right-hand sides). A multi-threaded BLAS under those threads
// oversubscribes the cores, and OpenBLAS's pthread workers busy-wait between calls; on a machine
// whose cores are busy with other work a precompute that takes 38 s ran for over 600 s. So the
// library, not only its launcher scripts, sets the BLAS to one thread and sizes its OpenMP teams
// from the cores this process may use.
//
// Precedence (decide_threads):
//   solver threads: set_threads(n) (the CLI's --threads) > OMP_NUM_THREADS > cores in the affinity mask
//   BLAS threads:   OPENBLAS_NUM_THREADS or GOTO_NUM_THREADS set by the user > 1
// A BLAS other than OpenBLAS is left alone (its thread count cannot be set portably).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pliant {

/// What the thread policy is decided from.
struct ThreadInputs {
  int requested = 0;            ///< set_threads(n) / --threads; 0: not set
  std::optional<int> omp_env;   ///< OMP_NUM_THREADS (its first entry), when set to a valid count
  std::optional<int> blas_env;  ///< OPENBLAS_NUM_THREADS (else GOTO_NUM_THREADS), when set and valid
  int cores = 1;                ///< cores this process may run on (its CPU affinity mask)
};

/// What the library does.
struct ThreadPolicy {
  int solver_threads = 1;  ///< OpenMP team size of parallel solves
  int blas_threads = 1;    ///< threads the BLAS uses inside one solve; 0: left as the user set it
  std::string source;      ///< what decided solver_threads: "set_threads", "OMP_NUM_THREADS" or "cores"
};

/// The policy for given inputs (pure; see the precedence in the header comment).
ThreadPolicy decide_threads(const ThreadInputs& inputs);

/// A thread count from an environment value: "4" or "4,2" (OpenMP's nested list: the first entry).
/// Empty, zero, negative or malformed text gives nothing (the variable counts as unset).
std::optional<int> parse_thread_count(std::string_view text);

/// The inputs now: set_threads, the environment and the affinity mask.
ThreadInputs current_thread_inputs();

/// decide_threads(current_thread_inputs()).
ThreadPolicy thread_policy();

/// Sets the solver thread count for this process (the CLI's --threads); 0 returns to automatic.
/// Wins over OMP_NUM_THREADS. Negative values count as 0.
void set_threads(int threads);

/// thread_policy().solver_threads: the team size every parallel solve uses.
int solver_threads();

/// Sets the BLAS thread count as the policy says, once per process and again after set_threads.
/// Cheap when nothing changed: solvers call it before every factorisation. Thread-safe.
void apply_blas_threads();

/// The BLAS's current thread count (OpenBLAS's openblas_get_num_threads), or nothing when the BLAS
/// in this process is not OpenBLAS.
std::optional<int> blas_threads_in_use();

}  // namespace pliant
