// Line plots: curves y(x) over one shared x on linear axes (a time series), drawn on a Canvas with
// ticks at 1, 2 or 5 times a power of ten, a light grid, axis labels and a legend of the curves in
// the built-in 3×5 font. `pliant run --render` plots a scene's reaction forces with it.
#pragma once

#include "pliant/render/image.hpp"

#include <span>
#include <string>
#include <vector>

namespace pliant::render {

struct PlotCurve {
  std::string label;      ///< its legend entry
  std::vector<double> y;  ///< one value per x; a non-finite value breaks the line there
};

struct LinePlotDef {
  std::string title;    ///< above the frame
  std::string x_label;  ///< e.g. "TIME (S)"
  std::string y_label;  ///< e.g. "FORCE (N)"
  int width = 800;      ///< pixels, ≥ 200
  int height = 480;     ///< pixels, ≥ 150
};

/// The plot of `curves` over `x` (each curve as long as x; a longer one is cut, a shorter one ends
/// early). The y axis always includes 0; an empty or constant range is widened to a unit span. Curves
/// take the colours of a fixed 8-colour palette in order (the ninth repeats the first).
Image line_plot(const LinePlotDef& def, std::span<const double> x, std::span<const PlotCurve> curves);

/// The tick spacing for a span: 1, 2 or 5 times a power of ten, giving about `ticks` intervals.
double nice_tick(double span, int ticks = 5);

}  // namespace pliant::render
