#include "pliant/render/line_plot.hpp"

#include "pliant/render/bitmap_font.hpp"
#include "pliant/render/canvas.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pliant::render {
namespace {

constexpr Rgb8 kBlack{0, 0, 0}, kGrid{225, 225, 225};
// Tableau 10's first eight: distinct in hue and readable on white.
constexpr Rgb8 kPalette[8] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                              {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127}};

// A tick value as short text: "0", "0.5", "1.5E-05".
std::string tick_label(double v, double step) {
  if (std::abs(v) < 1e-9 * step) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

}  // namespace

double nice_tick(double span, int ticks) {
  if (!(span > 0.0) || !std::isfinite(span)) return 1.0;
  const double raw = span / std::max(ticks, 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * power >= raw) return m * power;
  return 10.0 * power;
}

Image line_plot(const LinePlotDef& def, std::span<const double> x, std::span<const PlotCurve> curves) {
  const int W = std::max(def.width, 200), H = std::max(def.height, 150);
  constexpr int left = 90, right = 20, top = 36, bottom = 56;
  Canvas c = Canvas::blank(W, H);
  // Ranges over the finite data; y always includes 0 (forces and magnitudes read against it).
  double x0 = INFINITY, x1 = -INFINITY, y0 = 0.0, y1 = 0.0;
  for (double v : x)
    if (std::isfinite(v)) x0 = std::min(x0, v), x1 = std::max(x1, v);
  for (const PlotCurve& curve : curves)
    for (std::size_t i = 0; i < std::min(curve.y.size(), x.size()); ++i)
      if (std::isfinite(curve.y[i])) y0 = std::min(y0, curve.y[i]), y1 = std::max(y1, curve.y[i]);
  if (!(x1 > x0)) x0 = std::isfinite(x0) ? x0 : 0.0, x1 = x0 + 1.0;
  if (!(y1 > y0)) y1 = y0 + 1.0;
  const double xs = nice_tick(x1 - x0), ys = nice_tick(y1 - y0);
  // Whole ticks around the data; the slack keeps a rounding error (60 steps of 1/60 s ending at
  // 1.0000000000000007 s) from adding a tick interval.
  constexpr double slack = 1e-9;
  x0 = std::floor(x0 / xs + slack) * xs, x1 = std::ceil(x1 / xs - slack) * xs;
  y0 = std::floor(y0 / ys + slack) * ys, y1 = std::ceil(y1 / ys - slack) * ys;
  const auto px = [&](double v) {
    return left + static_cast<int>(std::lround((v - x0) / (x1 - x0) * (W - left - right)));
  };
  const auto py = [&](double v) {
    return H - bottom - static_cast<int>(std::lround((v - y0) / (y1 - y0) * (H - top - bottom)));
  };
  for (int k = 0; x0 + k * xs <= x1 + 1e-9 * xs; ++k) {
    const double v = x0 + k * xs;
    c.line(px(v), top, px(v), H - bottom, kGrid);
    c.line(px(v), H - bottom, px(v), H - bottom + 8, kBlack);
    const std::string s = tick_label(v, xs);
    c.text(px(v) - text_width(s), H - bottom + 14, s, kBlack);
  }
  for (int k = 0; y0 + k * ys <= y1 + 1e-9 * ys; ++k) {
    const double v = y0 + k * ys;
    c.line(left, py(v), W - right, py(v), kGrid);
    c.line(left - 8, py(v), left, py(v), kBlack);
    const std::string s = tick_label(v, ys);
    c.text(left - 12 - 2 * text_width(s), py(v) - 5, s, kBlack);
  }
  c.text(W / 2 - text_width(def.x_label), H - 18, def.x_label, kBlack);
  c.text(8, 8, def.y_label, kBlack);
  c.text(W / 2 - text_width(def.title), 8, def.title, kBlack);
  c.line(left, top, left, H - bottom, kBlack, 1);
  c.line(left, H - bottom, W - right, H - bottom, kBlack, 1);
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const PlotCurve& curve = curves[k];
    const Rgb8 colour = kPalette[k % 8];
    const std::size_t n = std::min(curve.y.size(), x.size());
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (std::isfinite(curve.y[i]) && std::isfinite(curve.y[i + 1]) && std::isfinite(x[i]) &&
          std::isfinite(x[i + 1]))
        c.line(px(x[i]), py(curve.y[i]), px(x[i + 1]), py(curve.y[i + 1]), colour, 1);
    if (n == 1 && std::isfinite(curve.y[0]) && std::isfinite(x[0]))
      c.dot(px(x[0]), py(curve.y[0]), colour, 2);
    // Legend, top right, one entry per curve.
    const int ly = top + 8 + 16 * static_cast<int>(k);
    c.line(W - right - 200, ly + 4, W - right - 180, ly + 4, colour, 1);
    c.text(W - right - 172, ly, curve.label, colour);
  }
  return c.image;
}

}  // namespace pliant::render
