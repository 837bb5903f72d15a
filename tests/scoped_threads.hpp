// Test helper: sets the library's solver thread count (set_threads, the CLI's --threads) for one
// scope and restores the previous setting after.
#pragma once

#include "pliant/core/threads.hpp"

namespace pliant::testing {

class ScopedThreads {
 public:
  explicit ScopedThreads(int threads) : saved_(current_thread_inputs().requested) { set_threads(threads); }
  ~ScopedThreads() { set_threads(saved_); }
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;

 private:
  int saved_;
};

}  // namespace pliant::testing
