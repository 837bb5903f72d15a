#include "pliant/render/colormap.hpp"

#include "pliant/render/bitmap_font.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace pliant::render {
namespace {

double luma(const Rgb& c) { return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; }

TEST(ColorMap, ViridisEndpointsAndMonotoneLightness) {
  const Rgb lo = sample(ColorMap::viridis, 0.0), hi = sample(ColorMap::viridis, 1.0);
  EXPECT_NEAR(lo[0], 68 / 255.0, 1e-6);
  EXPECT_NEAR(lo[2], 84 / 255.0, 1e-6);
  EXPECT_NEAR(hi[0], 253 / 255.0, 1e-6);
  EXPECT_NEAR(hi[1], 231 / 255.0, 1e-6);
  // Perceptual uniformity implies lightness rising with the value.
  double previous = -1.0;
  for (int i = 0; i <= 100; ++i) {
    const double l = luma(sample(ColorMap::viridis, i / 100.0));
    EXPECT_GT(l, previous) << i;
    previous = l;
  }
  EXPECT_LT(luma(sample(ColorMap::greys, 0.0)), 1e-9);
  EXPECT_NEAR(luma(sample(ColorMap::greys, 1.0)), 1.0, 1e-6);
}

TEST(ColorMap, ClampsOutOfRangeAndNan) {
  for (ColorMap m : {ColorMap::viridis, ColorMap::turbo, ColorMap::greys, ColorMap::coolwarm}) {
    EXPECT_EQ(sample(m, -3.0), sample(m, 0.0));
    EXPECT_EQ(sample(m, 7.0), sample(m, 1.0));
    EXPECT_EQ(sample(m, std::nan("")), sample(m, 0.0));
    for (int i = 0; i <= 20; ++i)
      for (float c : sample(m, i / 20.0)) {
        EXPECT_GE(c, 0.0f);
        EXPECT_LE(c, 1.0f);
      }
  }
}

TEST(ColorMap, InterpolatesContinuously) {
  // Between neighbouring samples the colour changes by at most the largest table step.
  for (ColorMap m : {ColorMap::viridis, ColorMap::turbo, ColorMap::coolwarm}) {
    for (int i = 0; i < 1000; ++i) {
      const Rgb a = sample(m, i / 1000.0), b = sample(m, (i + 1) / 1000.0);
      for (int k = 0; k < 3; ++k) EXPECT_LT(std::abs(a[k] - b[k]), 0.02f);
    }
  }
}

TEST(ColorMap, NamesRoundTrip) {
  for (ColorMap m : {ColorMap::viridis, ColorMap::turbo, ColorMap::greys, ColorMap::coolwarm}) {
    auto back = color_map_from_name(name(m));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, m);
  }
  auto bad = color_map_from_name("jet");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("viridis"), std::string::npos);
  EXPECT_NE(bad.message().find("'jet'"), std::string::npos);
}

TEST(BitmapFont, NumberGlyphsAreDistinctAndCaseInsensitive) {
  std::set<std::uint16_t> seen;
  for (char c : std::string("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.-+/")) {
    EXPECT_NE(glyph_bits(c), 0) << c;
    EXPECT_TRUE(seen.insert(glyph_bits(c)).second) << c;
    EXPECT_LT(glyph_bits(c), 1u << 15);
  }
  EXPECT_EQ(glyph_bits('e'), glyph_bits('E'));
  EXPECT_EQ(glyph_bits(' '), 0);
  EXPECT_EQ(text_width("1.5"), 11);
}

}  // namespace
}  // namespace pliant::render
