#include "pliant/linalg/communicator.hpp"

#include <cstdlib>

namespace pliant::linalg {
namespace {

class SingleProcess final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void gather_or(std::span<std::byte>) override {}
  void send_to_root(int, std::span<double>) override {}
  int first_failed(bool ok) override { return ok ? -1 : 0; }
  void broadcast(std::string&, int) override {}
  bool all_equal(std::uint64_t) override { return true; }
};

}  // namespace

Communicator& single_process() {
  static SingleProcess alone;
  return alone;
}

bool launched_by_mpi() {
  // Open MPI's launcher, then the PMIx and PMI conventions other launchers (srun, MPICH's hydra) use.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

}  // namespace pliant::linalg
