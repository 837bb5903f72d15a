// Wall-clock timing: a stopwatch and a profile of named stages (the step of every body and of the
// world is a fixed sequence of named, timed stages; see docs/architecture.md).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace pliant {

/// Monotonic stopwatch.
class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  void reset() { start_ = Clock::now(); }
  /// Elapsed time since construction or reset (unit: s).
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  /// Elapsed time (unit: ms).
  double ms() const { return seconds() * 1e3; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

/// Times of the last step's stages, in the order they ran. Stage names are stable identifiers
/// ("apply_interactions", "solve", ...) so tools can compare runs.
struct Profile {
  struct Stage {
    std::string name;
    double ms = 0.0;  ///< duration of the stage in the last step (unit: ms)
  };
  std::vector<Stage> stages;

  /// Records `ms` under `name`, reusing the slot when the name is already present (no allocation
  /// after the first step).
  void record(std::string_view name, double ms) {
    for (Stage& s : stages) {
      if (s.name == name) {
        s.ms = ms;
        return;
      }
    }
    stages.push_back({std::string(name), ms});
  }
  double total_ms() const {
    double t = 0;
    for (const Stage& s : stages) t += s.ms;
    return t;
  }
};

}  // namespace pliant
