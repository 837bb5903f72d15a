// Progress lines on stderr while something long is built (a Green body precomputes its response for
// tens of seconds, with no percentage reaching the command line): "building WHAT..." at once, then,
// when `ticks` is set, "  still building WHAT: 5 s" every 5 s (every 15 s after the first 30 s, since
// a big body on a busy machine takes minutes) until the ticker is destroyed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace pliant::cli {

class ProgressTicker {
 public:
  /// `ticks`: print the elapsed-time lines (for a terminal; scripts want stable output).
  explicit ProgressTicker(std::string what, bool ticks = true) : what_(std::move(what)) {
    std::fprintf(stderr, "building %s...\n", what_.c_str());
    std::fflush(stderr);
    if (!ticks) return;
    thread_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      int seconds = 0;
      while (!wake_.wait_for(lock, std::chrono::seconds(seconds < 30 ? 5 : 15), [this] { return done_; })) {
        seconds += seconds < 30 ? 5 : 15;
        std::fprintf(stderr, "  still building %s: %d s\n", what_.c_str(), seconds);
      }
    });
  }
  ~ProgressTicker() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
  }
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace pliant::cli
