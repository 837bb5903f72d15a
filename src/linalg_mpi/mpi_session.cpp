#include "pliant/linalg_mpi/mpi_session.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace pliant::linalg {
namespace {

// MPI counts are int: long arrays go in pieces.
constexpr std::size_t kChunk = std::size_t{1} << 28;

int as_count(std::size_t n) { return static_cast<int>(n); }

class WorldCommunicator final : public Communicator {
 public:
  WorldCommunicator() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void gather_or(std::span<std::byte> bytes) override {
    for (std::size_t first = 0; first < bytes.size(); first += kChunk) {
      const int n = as_count(std::min(kChunk, bytes.size() - first));
      std::byte* data = bytes.data() + first;
      if (rank_ == 0)
        MPI_Reduce(MPI_IN_PLACE, data, n, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD);
      else
        MPI_Reduce(data, nullptr, n, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD);
    }
  }

  void send_to_root(int from, std::span<double> values) override {
    if (from == 0 || (rank_ != 0 && rank_ != from)) return;
    constexpr int kTag = 17;
    for (std::size_t first = 0; first < values.size(); first += kChunk) {
      const int n = as_count(std::min(kChunk, values.size() - first));
      if (rank_ == from)
        MPI_Send(values.data() + first, n, MPI_DOUBLE, 0, kTag, MPI_COMM_WORLD);
      else
        MPI_Recv(values.data() + first, n, MPI_DOUBLE, from, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }

  int first_failed(bool ok) override {
    int mine = ok ? size_ : rank_, lowest = size_;
    MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return lowest == size_ ? -1 : lowest;
  }

  void broadcast(std::string& text, int from) override {
    std::uint64_t n = text.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, from, MPI_COMM_WORLD);
    text.resize(static_cast<std::size_t>(n));
    for (std::size_t first = 0; first < text.size(); first += kChunk)
      MPI_Bcast(text.data() + first, as_count(std::min(kChunk, text.size() - first)), MPI_CHAR, from,
                MPI_COMM_WORLD);
  }

  bool all_equal(std::uint64_t value) override {
    std::uint64_t low = 0, high = 0;
    MPI_Allreduce(&value, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&value, &high, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return low == high;
  }

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace

struct MpiSession::Impl {
  WorldCommunicator world;
};

MpiSession::MpiSession() {
  if (!launched_by_mpi()) return;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  impl_ = std::make_unique<Impl>();
}

MpiSession::~MpiSession() {
  if (!impl_) return;
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Finalize();
}

Communicator& MpiSession::communicator() {
  if (impl_) return impl_->world;
  return single_process();
}

}  // namespace pliant::linalg
