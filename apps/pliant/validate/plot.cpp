// Convergence plots of `pliant validate --plots DIR`: |error| against h on log-log axes, one PNG per
// refinement series. The frame spans whole decades, with a tick, a light grid line and a label (1E-2)
// per decade in the render layer's 3×5 pixel font; blue squares joined by a line are the meshes, the
// red line the fitted order through their centroid, labelled with its value. The numbers themselves
// are in the JSON's "series".
#include "validation.hpp"

#include "pliant/io/atomic_file.hpp"

#if PLIANT_HAS_RENDER
#include "pliant/render/bitmap_font.hpp"
#include "pliant/render/canvas.hpp"
#include "pliant/render/image.hpp"

#endif

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace pliant::validate {
#if PLIANT_HAS_RENDER
namespace {

using render::Canvas;
using Rgb = render::Rgb8;

constexpr Rgb kBlack{0, 0, 0}, kGrid{225, 225, 225}, kBlue{31, 87, 180}, kRed{200, 40, 40};

std::string decade(double d) { return fmt::format("1E{}", static_cast<int>(std::lround(d))); }

render::Image plot(const std::string& name, const Series& s, double order) {
  constexpr int W = 640, H = 480, left = 60, right = 20, top = 20, bottom = 50;
  Canvas c = Canvas::blank(W, H);
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < s.h.size(); ++i) {
    lx.push_back(std::log10(s.h[i]));
    ly.push_back(std::log10(std::max(std::abs(s.error[i]), 1e-300)));
  }
  const double x0 = std::floor(*std::min_element(lx.begin(), lx.end()));
  const double x1 = std::max(x0 + 1.0, std::ceil(*std::max_element(lx.begin(), lx.end())));
  const double y0 = std::floor(*std::min_element(ly.begin(), ly.end()));
  const double y1 = std::max(y0 + 1.0, std::ceil(*std::max_element(ly.begin(), ly.end())));
  const auto px = [&](double v) {
    return left + static_cast<int>(std::lround((v - x0) / (x1 - x0) * (W - left - right)));
  };
  const auto py = [&](double v) {
    return H - bottom - static_cast<int>(std::lround((v - y0) / (y1 - y0) * (H - top - bottom)));
  };
  for (double d = x0; d <= x1 + 1e-9; d += 1.0) {  // decades of h
    c.line(px(d), top, px(d), H - bottom, kGrid);
    c.line(px(d), H - bottom, px(d), H - bottom + 8, kBlack);
    c.text(px(d) - render::text_width(decade(d)), H - bottom + 14, decade(d), kBlack);
  }
  for (double d = y0; d <= y1 + 1e-9; d += 1.0) {  // decades of |error|
    c.line(left, py(d), W - right, py(d), kGrid);
    c.line(left - 8, py(d), left, py(d), kBlack);
    c.text(left - 12 - 2 * render::text_width(decade(d)), py(d) - 5, decade(d), kBlack);
  }
  c.text(W / 2 - 40, H - 18, "H (M)", kBlack);
  c.text(left + 6, 4, "ERROR (RELATIVE)", kBlack);
  std::string title;
  for (char ch : name) title += ch == '_' ? ' ' : ch;
  c.text(left + 170, 4, title, kBlack);
  c.line(left, top, left, H - bottom, kBlack, 1);
  c.line(left, H - bottom, W - right, H - bottom, kBlack, 1);
  if (std::isfinite(order)) {  // fitted line through the centroid, over the data's span of h
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < lx.size(); ++i) mx += lx[i] / lx.size(), my += ly[i] / ly.size();
    const double a = *std::min_element(lx.begin(), lx.end()), b = *std::max_element(lx.begin(), lx.end());
    c.line(px(a), py(my + order * (a - mx)), px(b), py(my + order * (b - mx)), kRed, 1);
  }
  for (std::size_t i = 0; i + 1 < lx.size(); ++i)
    c.line(px(lx[i]), py(ly[i]), px(lx[i + 1]), py(ly[i + 1]), kBlue);
  for (std::size_t i = 0; i < lx.size(); ++i) c.dot(px(lx[i]), py(ly[i]), kBlue, 4);
  // Legend, top right: a blue marker (meshes) over a red segment (fitted order).
  c.dot(W - right - 170, top + 15, kBlue, 4);
  c.text(W - right - 150, top + 10, "MESHES", kBlue);
  c.line(W - right - 180, top + 35, W - right - 160, top + 35, kRed, 1);
  c.text(W - right - 150, top + 30, std::isfinite(order) ? fmt::format("ORDER {:.2f}", order) : "ORDER -",
         kRed);
  return c.image;
}

}  // namespace
#endif

Result<std::vector<std::filesystem::path>> write_plots(const std::vector<Problem>& problems,
                                                       const std::filesystem::path& directory) {
#if !PLIANT_HAS_RENDER
  (void)problems;
  return Error{fmt::format(
      "validate: this pliant was built without the render layer, so it cannot write PNG plots to {}",
      directory.string())};
#else
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec)
    return Error{
        fmt::format("validate: cannot create the plot directory {}: {}", directory.string(), ec.message())};
  std::vector<std::filesystem::path> written;
  for (const Problem& p : problems) {
    if (p.series.h.size() < 2) continue;
    auto png = render::encode_png(plot(p.name, p.series, p.order.value_or(std::nan(""))));
    if (!png) return Error{png.message()};
    const std::filesystem::path file = directory / (p.name + ".png");
    if (Status s = io::write_file_atomically(file, *png); !s.ok()) return Error{s.message()};
    written.push_back(file);
  }
  return written;
#endif
}

}  // namespace pliant::validate
