// Line plots on the CPU canvas: ticks at 1, 2 or 5 times a power of ten, and a curve drawn in its
// palette colour where its values put it (a rising line: coloured pixels low on the left and high on
// the right), on a white background.
#include "pliant/render/line_plot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace pliant::render {
namespace {

TEST(LinePlot, NiceTicksAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(nice_tick(1.0), 0.2);
  EXPECT_DOUBLE_EQ(nice_tick(10.0), 2.0);
  EXPECT_DOUBLE_EQ(nice_tick(0.3), 0.1);
  EXPECT_DOUBLE_EQ(nice_tick(7e-6), 2e-6);
  EXPECT_DOUBLE_EQ(nice_tick(0.0), 1.0);  // an empty span: a unit step
  EXPECT_DOUBLE_EQ(nice_tick(NAN), 1.0);
}

// Pixels of exactly the first palette colour (Tableau blue) in columns [x0, x1).
int blue_pixels(const Image& image, int x0, int x1, int* mean_y) {
  int n = 0;
  long long sum_y = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = x0; x < x1; ++x) {
      const std::uint8_t* p = image.pixel(x, y);
      if (p[0] == 31 && p[1] == 119 && p[2] == 180) ++n, sum_y += y;
    }
  *mean_y = n > 0 ? static_cast<int>(sum_y / n) : -1;
  return n;
}

TEST(LinePlot, ARisingCurveIsDrawnLowOnTheLeftAndHighOnTheRight) {
  std::vector<double> t;
  PlotCurve rising{"grab:0", {}};
  for (int i = 0; i <= 50; ++i) {
    t.push_back(0.02 * i);
    rising.y.push_back(3.0 * 0.02 * i);  // 0 to 3 N over 1 s
  }
  LinePlotDef def;
  def.title = "TEST";
  const std::vector<PlotCurve> curves{rising};
  const Image image = line_plot(def, t, curves);
  ASSERT_EQ(image.width, 800);
  ASSERT_EQ(image.height, 480);
  EXPECT_EQ(image.rgba.size(), 800u * 480u * 4u);
  int left_y = 0, right_y = 0;
  // The plot area spans x in [90, 780); the legend sits top right, so look left of it.
  EXPECT_GT(blue_pixels(image, 100, 200, &left_y), 50);
  EXPECT_GT(blue_pixels(image, 450, 550, &right_y), 50);
  EXPECT_GT(left_y, right_y + 100) << "image y grows downwards: the rising curve ends higher up";
  // The corners are background white.
  const std::uint8_t* corner = image.pixel(799, 479);
  EXPECT_EQ(corner[0], 255);
  EXPECT_EQ(corner[1], 255);
  EXPECT_EQ(corner[2], 255);
}

TEST(LinePlot, NonFiniteValuesAndEmptyInputDrawNoCurve) {
  const std::vector<double> t{0.0, 1.0};
  const std::vector<PlotCurve> curves{{"nan", {NAN, NAN}}};
  const Image image = line_plot({}, t, curves);
  int y = 0;
  EXPECT_EQ(blue_pixels(image, 100, 550, &y), 0);  // left of the legend
  const Image empty = line_plot({}, {}, {});
  EXPECT_EQ(empty.width, 800);
}

}  // namespace
}  // namespace pliant::render
