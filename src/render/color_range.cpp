#include "pliant/render/color_range.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::render {

double color_range_floor(std::string_view unit, double body_size, double magnitude) {
  // Absolute floors: tissue stresses and contact pressures are pascals to megapascals, so a
  // millipascal is far below any result; other units (metres, newtons, ratios) keep a floor that
  // only round-off about zero falls under.
  const double absolute = unit == "Pa" ? 1e-3 : 1e-12;
  double floor = absolute;
  if (std::isfinite(magnitude)) floor = std::max(floor, 1e-9 * std::abs(magnitude));
  // A displacement is round-off (or invisible) when it is below a millionth of the bodies' size.
  if (unit == "m" && std::isfinite(body_size) && body_size > 0.0) floor = std::max(floor, 1e-6 * body_size);
  return floor;
}

ColorRange color_range(double lo, double hi, std::string_view unit, double body_size) {
  if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  const double floor = color_range_floor(unit, body_size, std::max(std::abs(lo), std::abs(hi)));
  // The field's own spread decides: a uniform field (round-off on a constant) is one value too.
  if (hi - lo > floor) return {std::min(lo, 0.0), hi};
  const double value = std::round(0.5 * (lo + hi) / floor) * floor;
  return {value + 0.0, value + 0.0};  // + 0.0: -0 reads 0
}

}  // namespace pliant::render
