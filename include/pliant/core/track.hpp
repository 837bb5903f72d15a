// Keyframe tracks: a value known at increasing times, interpolated linearly between them and held
// constant before the first and after the last. One interpolation serves every recorded motion: the
// scene's scripted grabs and tools (keyframes of offsets) and the springs family's tool and flap
// paths (times and positions).
#pragma once

#include "pliant/core/types.hpp"

#include <cstddef>
#include <vector>

namespace pliant {

/// The value of a track of `count` keys at time t (unit: s). Key k is at time time_at(k) (unit: s,
/// non-decreasing in k) with value value_at(k) (a Vec3 in the caller's unit). Before the first key:
/// the first value; at or after the last key, or for a NaN t: the last value; no keys: zero. In
/// between, with keys a and b the pair around t (time_a ≤ t < time_b), (1 − s)·value_a + s·value_b
/// with s = (t − time_a)/(time_b − time_a). O(log count). The accessors let one function read a track
/// stored as an array of keyframes or as parallel arrays of times and values.
template <class TimeAt, class ValueAt>
Vec3 track_value(std::size_t count, TimeAt time_at, ValueAt value_at, double t) {
  if (count == 0) return Vec3::Zero();
  if (t <= time_at(std::size_t{0})) return value_at(std::size_t{0});
  // The first key later than t (an upper bound); none (t at or past the end, or NaN): the last value.
  std::size_t lo = 1, hi = count;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (t < time_at(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  if (lo == count) return value_at(count - 1);
  const double ta = time_at(lo - 1);
  const double s = (t - ta) / (time_at(lo) - ta);
  return (1.0 - s) * value_at(lo - 1) + s * value_at(lo);
}

/// A recorded path as parallel arrays: positions at increasing times.
struct Track {
  std::vector<double> times;    ///< non-decreasing (unit: s)
  std::vector<Vec3> positions;  ///< one per time (unit: m)

  /// Position at time t (unit: m), see track_value; keys beyond the shorter array are ignored.
  Vec3 at(double t) const {
    const std::size_t n = times.size() < positions.size() ? times.size() : positions.size();
    return track_value(
        n, [this](std::size_t k) { return times[k]; }, [this](std::size_t k) { return positions[k]; }, t);
  }
};

}  // namespace pliant
