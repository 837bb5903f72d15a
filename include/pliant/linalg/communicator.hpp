// Communicator: the processes one computation is split across.
//
// A precomputation that runs on several processes (MPI ranks, the optional pliant::linalg_mpi
// component) asks this interface who it is, how many there are, and moves results to rank 0; one
// that runs alone uses single_process(), on which every operation is the identity. Nothing here
// names MPI, so the families that split work (green's precomputation) build and test without it.
//
// Every call is collective: each rank of the communicator must make the same calls in the same
// order, or the job hangs (as with MPI itself).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace pliant::linalg {

class Communicator {
 public:
  virtual ~Communicator() = default;

  /// This process's number, in [0, size()).
  virtual int rank() const = 0;
  /// How many processes share the work (≥ 1).
  virtual int size() const = 0;

  /// Rank 0 receives the bitwise OR over ranks of `bytes`; the other ranks' `bytes` are left as they
  /// were. When each value was written by exactly one rank and is all-zero bits on the others, rank 0
  /// ends with every rank's values bit for bit (a sum would turn −0 into +0).
  virtual void gather_or(std::span<std::byte> bytes) = 0;
  /// Sends `values` from rank `from` to rank 0, which receives them into its own `values` (same
  /// length on both). Only ranks `from` and 0 take part; from == 0 does nothing.
  virtual void send_to_root(int from, std::span<double> values) = 0;
  /// The lowest rank whose `ok` is false, or -1 when every rank is ok (so ranks can stop together).
  virtual int first_failed(bool ok) = 0;
  /// Every rank receives rank `from`'s `text`.
  virtual void broadcast(std::string& text, int from) = 0;
  /// True when every rank passed the same value (e.g. a hash of the inputs each rank read).
  virtual bool all_equal(std::uint64_t value) = 0;
};

/// The communicator of a process that works alone (rank 0 of 1).
Communicator& single_process();

/// True when a launcher (mpirun/mpiexec of Open MPI, or a PMI/PMIx launcher such as Slurm's srun)
/// started this process: its environment names a rank. Known without MPI, so that a build without
/// it can refuse to run as N unaware copies.
bool launched_by_mpi();

}  // namespace pliant::linalg
