// Colour ranges with a floor: round-off is one colour, a real spread is a gradient, and the floor
// follows the body's size for lengths and the field's own magnitude otherwise.
#include "pliant/render/color_range.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::render {
namespace {

TEST(ColorRange, RoundOffAboutZeroIsOneValueZero) {
  // The new user's body at rest: 0 ... 3e-17 m on a 10 cm body.
  const ColorRange r = color_range(0.0, 3e-17, "m", 0.1);
  EXPECT_TRUE(r.single());
  EXPECT_EQ(r.min, 0.0);
  EXPECT_EQ(r.max, 0.0);
  EXPECT_FALSE(std::signbit(color_range(-2e-17, 1e-17, "m", 0.1).min));  // reads "0", not "-0"
}

TEST(ColorRange, ARealDisplacementIsAGradientFromZero) {
  const ColorRange r = color_range(1e-4, 2e-3, "m", 0.1);
  EXPECT_FALSE(r.single());
  EXPECT_EQ(r.min, 0.0);  // magnitudes read from 0
  EXPECT_EQ(r.max, 2e-3);
  // A signed field keeps its negative end.
  const ColorRange s = color_range(-0.2, 0.1, "1", 0.1);
  EXPECT_EQ(s.min, -0.2);
  EXPECT_EQ(s.max, 0.1);
}

TEST(ColorRange, TheLengthFloorFollowsTheBodysSize) {
  // 1e-8 m is a gradient on a 1 mm body (1e-5 of it) and one colour on a 100 m one (1e-10 of it).
  EXPECT_FALSE(color_range(0.0, 1e-8, "m", 1e-3).single());
  EXPECT_TRUE(color_range(0.0, 1e-8, "m", 100.0).single());
  EXPECT_DOUBLE_EQ(color_range_floor("m", 0.5, 0.0), 5e-7);
}

TEST(ColorRange, OtherUnitsFollowTheFieldsMagnitudeAndAnAbsoluteFloor) {
  // A uniform stress of 1 kPa with round-off on top: one value, 1000 Pa.
  const ColorRange r = color_range(1000.0 - 1e-10, 1000.0 + 1e-10, "Pa", 0.1);
  EXPECT_TRUE(r.single());
  EXPECT_NEAR(r.min, 1000.0, 1e-9);
  // A stress of round-off about zero: below the pascal floor's millipascal.
  EXPECT_TRUE(color_range(0.0, 1e-9, "Pa", 0.1).single());
  EXPECT_FALSE(color_range(0.0, 0.5, "Pa", 0.1).single());
  EXPECT_DOUBLE_EQ(color_range_floor("N", 0.1, 1e6), 1e-3);
  EXPECT_DOUBLE_EQ(color_range_floor("N", 0.1, 0.0), 1e-12);
}

TEST(ColorRange, NoFiniteValueIsZero) {
  const ColorRange r = color_range(INFINITY, -INFINITY, "m", 0.1);
  EXPECT_TRUE(r.single());
  EXPECT_EQ(r.min, 0.0);
  EXPECT_TRUE(color_range(NAN, 1.0, "m", 0.1).single());
}

}  // namespace
}  // namespace pliant::render
