// Keyframe tracks: linear between keys, held at both ends and for NaN, the same for a track stored as
// keyframes and as parallel arrays, and exact at the keys.
#include "pliant/core/track.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace pliant {
namespace {

struct Key {
  double t;
  Vec3 value;
};

Vec3 at_keys(const std::vector<Key>& keys, double t) {
  return track_value(
      keys.size(), [&](std::size_t k) { return keys[k].t; }, [&](std::size_t k) { return keys[k].value; }, t);
}

TEST(Track, LinearBetweenKeysAndHeldOutside) {
  const Track track{{0.0, 1.0, 3.0}, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 2, 0)}};
  EXPECT_EQ(track.at(-5.0), Vec3(0, 0, 0));
  EXPECT_EQ(track.at(0.0), Vec3(0, 0, 0));
  EXPECT_EQ(track.at(1.0), Vec3(1, 0, 0));  // exact at a key
  EXPECT_EQ(track.at(3.0), Vec3(1, 2, 0));
  EXPECT_EQ(track.at(7.0), Vec3(1, 2, 0));
  EXPECT_EQ(track.at(std::numeric_limits<double>::quiet_NaN()), Vec3(1, 2, 0));
  EXPECT_TRUE(track.at(0.25).isApprox(Vec3(0.25, 0, 0)));
  EXPECT_TRUE(track.at(2.5).isApprox(Vec3(1, 1.5, 0)));
  EXPECT_EQ(Track{}.at(1.0), Vec3::Zero());
}

TEST(Track, KeyframesAndParallelArraysAgreeBitForBit) {
  std::vector<Key> keys;
  Track track;
  for (int k = 0; k < 40; ++k) {
    const double t = 0.1 * k + 0.01 * std::sin(k);
    const Vec3 v(std::cos(0.3 * k), std::sin(0.7 * k), 0.05 * k);
    keys.push_back({t, v});
    track.times.push_back(t);
    track.positions.push_back(v);
  }
  for (double t = -0.5; t < 4.5; t += 0.0137) {
    EXPECT_EQ(at_keys(keys, t), track.at(t)) << "t = " << t;
    // Against a linear search for the pair around t.
    std::size_t b = 1;
    while (b < keys.size() && !(t < keys[b].t)) ++b;
    if (t <= keys.front().t || b == keys.size()) continue;
    const double s = (t - keys[b - 1].t) / (keys[b].t - keys[b - 1].t);
    EXPECT_EQ(track.at(t), Vec3((1.0 - s) * keys[b - 1].value + s * keys[b].value)) << "t = " << t;
  }
}

TEST(Track, RepeatedTimesJumpAtTheRepeatedKey) {
  const Track track{{0.0, 1.0, 1.0, 2.0}, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(5, 0, 0), Vec3(6, 0, 0)}};
  EXPECT_TRUE(track.at(0.5).isApprox(Vec3(0.5, 0, 0)));
  EXPECT_EQ(track.at(1.0), Vec3(5, 0, 0));  // from the key time on, the later value
  EXPECT_TRUE(track.at(1.5).isApprox(Vec3(5.5, 0, 0)));
}

}  // namespace
}  // namespace pliant
