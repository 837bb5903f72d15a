// The modal reconstruction kernel (packed row panels, baseline SSE2 and AVX2 + FMA versions) against a
// plain double product, on sizes that are and are not multiples of the panel and vector widths, and
// split over threads.
#include "linalg/panel_gemv.hpp"
#include "core/cpu_dispatch.hpp"
#include "pliant/core/threads.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace pliant::linalg::detail {
namespace {

// |y_i - (A x)_i| ≤ cols · ε_T · Σ_j |A_ij x_j| (plus the rounding of A and x to T for float) for
// every row, and nothing written past `rows`.
template <class T, class Kernel>
void expect_matches_reference(Eigen::Index rows, Eigen::Index cols, Kernel kernel) {
  SCOPED_TRACE(testing::Message() << rows << " x " << cols << (sizeof(T) == 4 ? " float" : " double"));
  const Eigen::MatrixXd a = Eigen::MatrixXd::Random(rows, cols);
  const Eigen::VectorXd xd = Eigen::VectorXd::Random(cols);
  Eigen::Matrix<T, Eigen::Dynamic, 1> x = xd.cast<T>();
  const std::vector<T> panels = pack_panels<T>(a);
  ASSERT_EQ(panels.size() % static_cast<std::size_t>(panel_rows<T> * cols), 0u);
  ASSERT_GE(panels.size(), static_cast<std::size_t>(rows * cols));
  constexpr double sentinel = -12345.0;
  std::vector<double> y(static_cast<std::size_t>(rows) + 40, sentinel);
  kernel(panels.data(), rows, cols, x.data(), y.data());
  const Eigen::VectorXd ref = a * xd, bound = a.cwiseAbs() * xd.cwiseAbs();
  const double eps = std::numeric_limits<T>::epsilon();
  for (Eigen::Index i = 0; i < rows; ++i)
    ASSERT_LE(std::abs(y[static_cast<std::size_t>(i)] - ref[i]), (cols + 2) * eps * bound[i]) << "row " << i;
  for (std::size_t i = static_cast<std::size_t>(rows); i < y.size(); ++i) ASSERT_EQ(y[i], sentinel);
}

template <class T>
void check_all_sizes() {
  for (Eigen::Index rows : {1, 3, 7, 15, 16, 17, 31, 32, 33, 95, 250})
    for (Eigen::Index cols : {1, 2, 5, 50}) {
      expect_matches_reference<T>(rows, cols, [](auto... args) { panel_gemv_baseline(args...); });
      expect_matches_reference<T>(rows, cols, [](auto... args) { panel_gemv(args...); });
      if (cpu::has_avx2_fma())
        expect_matches_reference<T>(rows, cols, [](auto... args) { panel_gemv_avx2(args...); });
    }
}

TEST(PanelGemv, FloatVersionsMatchAPlainProduct) { check_all_sizes<float>(); }
TEST(PanelGemv, DoubleVersionsMatchAPlainProduct) { check_all_sizes<double>(); }

// From 64 panels on the product is split over the solver threads by contiguous panel ranges: it matches
// the plain product and gives the same bits on 1, 2 and 3 threads (ranges that do not split evenly).
template <class T>
void check_threaded() {
  constexpr Eigen::Index p = panel_rows<T>;
  for (Eigen::Index rows : {64 * p, 64 * p + 5, 97 * p - 3}) {
    const Eigen::Index cols = 50;
    set_threads(2);
    expect_matches_reference<T>(rows, cols, [](auto... args) { panel_gemv(args...); });
    const Eigen::MatrixXd a = Eigen::MatrixXd::Random(rows, cols);
    const Eigen::Matrix<T, Eigen::Dynamic, 1> x = Eigen::VectorXd::Random(cols).cast<T>();
    const std::vector<T> panels = pack_panels<T>(a);
    std::vector<double> y1(static_cast<std::size_t>(rows)), y(y1.size());
    set_threads(1);
    panel_gemv(panels.data(), rows, cols, x.data(), y1.data());
    for (int threads : {2, 3}) {
      set_threads(threads);
      panel_gemv(panels.data(), rows, cols, x.data(), y.data());
      EXPECT_EQ(y, y1) << rows << " rows, " << threads << " threads";
    }
  }
  set_threads(0);
}

TEST(PanelGemv, ThreadedProductMatchesAndIsTheSameOnAnyTeam) {
  check_threaded<float>();
  check_threaded<double>();
}

// IEEE binary16: every half converts to float and back to itself (NaNs stay NaN), and a float converts
// to the nearest half (ties to even), checked against the neighbouring halves.
TEST(PanelGemv, HalfConversionRoundTripsAndRoundsToNearest) {
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const auto half = static_cast<std::uint16_t>(h);
    const float f = half_to_float(half);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(half_to_float(float_to_half(f))));
      continue;
    }
    ASSERT_EQ(float_to_half(f), half) << std::hex << h;
  }
  EXPECT_EQ(half_to_float(0x3c00), 1.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));         // the smallest subnormal
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);                      // rounds past the largest finite: infinity
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // a tie rounds to even
  std::uint32_t state = 12345;
  for (int k = 0; k < 20000; ++k) {
    state = state * 1664525u + 1013904223u;
    const float f = std::ldexp(static_cast<float>(state >> 8) / 16777216.0f - 0.5f, (k % 40) - 30);
    const std::uint16_t h = float_to_half(f);
    const double err = std::abs(static_cast<double>(half_to_float(h)) - f);
    for (int step : {-1, 1}) {
      const auto neighbour =
          static_cast<std::uint16_t>((h & 0x7fffu) == 0 && step < 0 ? (h ^ 0x8000u) + 1 : h + step);
      const float g = half_to_float(neighbour);
      if (!std::isfinite(g)) continue;
      ASSERT_LE(err, std::abs(static_cast<double>(g) - f)) << f;
    }
  }
}

// Halves: A scaled per column by its largest magnitude s_j, each entry rounded to within 2⁻¹¹ of itself
// (the unit roundoff of 11 significant bits; 2⁻²⁵ s_j absolute in the subnormals), summed in float:
// |y_i - (A x)_i| ≤ Σ_j (2⁻¹¹ |A_ij| + 2⁻²⁴ s_j) |x_j| + (cols + 2) ε_float Σ_j |A_ij x_j|.
TEST(PanelGemv, HalfVersionsMatchAPlainProductWithinTheirRounding) {
  for (Eigen::Index rows : {1, 7, 63, 64, 65, 250, 64 * 64 + 5})
    for (Eigen::Index cols : {1, 5, 50}) {
      SCOPED_TRACE(testing::Message() << rows << " x " << cols);
      Eigen::MatrixXd a = Eigen::MatrixXd::Random(rows, cols);
      for (Eigen::Index j = 0; j < cols; ++j) a.col(j) *= std::pow(10.0, static_cast<double>(j % 7) - 3.0);
      const Eigen::VectorXd xd = Eigen::VectorXd::Random(cols);
      Eigen::VectorXf scales;
      const std::vector<std::uint16_t> panels = pack_panels_half(a, scales);
      ASSERT_EQ(panels.size() % static_cast<std::size_t>(panel_rows<std::uint16_t> * cols), 0u);
      const Eigen::VectorXf x = (xd.cast<float>().array() * scales.array()).matrix();
      const Eigen::VectorXd ref = a * xd;
      Eigen::VectorXd bound =
          std::ldexp(1.0, -11) * (a.cwiseAbs() * xd.cwiseAbs()) +
          (cols + 2) * std::numeric_limits<float>::epsilon() * (a.cwiseAbs() * xd.cwiseAbs());
      for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index j = 0; j < cols; ++j)
          bound[i] += std::ldexp(1.0, -24) * scales[j] * std::abs(xd[j]);
      const auto check = [&](auto kernel) {
        constexpr double sentinel = -12345.0;
        std::vector<double> y(static_cast<std::size_t>(rows) + 40, sentinel);
        kernel(panels.data(), rows, cols, x.data(), y.data());
        for (Eigen::Index i = 0; i < rows; ++i)
          ASSERT_LE(std::abs(y[static_cast<std::size_t>(i)] - ref[i]), bound[i]) << "row " << i;
        for (std::size_t i = static_cast<std::size_t>(rows); i < y.size(); ++i) ASSERT_EQ(y[i], sentinel);
      };
      check([](auto... args) { panel_gemv_baseline(args...); });
      check([](auto... args) { panel_gemv(args...); });
      if (cpu::has_avx2_f16c()) check([](auto... args) { panel_gemv_avx2(args...); });
    }
}

TEST(PanelGemv, PackingPadsTheLastPanelWithZeros) {
  Eigen::MatrixXd a(3, 2);
  a << 1, 2, 3, 4, 5, 6;
  const std::vector<double> p = pack_panels<double>(a);
  ASSERT_EQ(p.size(), static_cast<std::size_t>(2 * panel_rows<double>));
  EXPECT_EQ(p[0], 1.0);
  EXPECT_EQ(p[2], 5.0);
  EXPECT_EQ(p[3], 0.0);
  EXPECT_EQ(p[static_cast<std::size_t>(panel_rows<double>)], 2.0);
}

}  // namespace
}  // namespace pliant::linalg::detail
