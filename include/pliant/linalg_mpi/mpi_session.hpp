// MpiSession: MPI for a process started by an MPI launcher, a single process otherwise.
//
// The optional component pliant::linalg_mpi (CMake PLIANT_WITH_MPI, Open MPI from Debian) joins
// Pliant to an existing distributed engine rather than writing one: `mpirun -np N pliant precompute
// ...` starts N processes, each of which opens a session; the session's communicator then splits
// the work (linalg/communicator.hpp). Started without a launcher, the session does not initialise
// MPI at all and its communicator is linalg::single_process(), so the same binary runs either way.
#pragma once

#include "pliant/linalg/communicator.hpp"

#include <memory>

namespace pliant::linalg {

class MpiSession {
 public:
  /// Initialises MPI (MPI_THREAD_FUNNELED: only the thread that opened the session calls MPI; OpenMP
  /// workers never do) when launched_by_mpi(); otherwise does nothing.
  MpiSession();
  /// Finalises MPI if this session initialised it.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  /// Whether MPI was initialised (launched by MPI).
  bool active() const { return impl_ != nullptr; }
  /// MPI_COMM_WORLD when active, else single_process().
  Communicator& communicator();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pliant::linalg
