// Colour ranges with a floor: the range a field's colour map spans, decided once for PNG frames and
// the viewer alike.
//
// A body at rest has a displacement of round-off (0 ... 3e-17 m) and a stress of round-off too; a map
// stretched over such a range paints noise as if it were a result. Below a floor the field is drawn
// as one colour and the colour bar shows one value: for a length, a millionth of the bodies' size;
// for any other unit, a billionth of the field's own magnitude, never below an absolute floor for
// its unit (a millipascal for a stress or pressure).
#pragma once

#include <string_view>

namespace pliant::render {

/// The values a colour map spans (unit: the field's). single(): one value, one colour.
struct ColorRange {
  double min = 0.0;
  double max = 0.0;
  bool single() const { return !(max > min); }
};

/// The smallest spread a field of `unit` shows as a gradient (unit: the field's): 1e-6 of
/// `body_size` for a length ("m"; body_size in m, ≤ 0 or NaN when unknown), else 1e-9 of `magnitude`
/// (the field's largest |value|), and never below the unit's absolute floor (1e-3 for "Pa", 1e-12
/// for other units).
double color_range_floor(std::string_view unit, double body_size, double magnitude);

/// The colour range of a field whose finite values lie in [lo, hi] (lo > hi, or NaN: no value; the
/// range is then [0, 0]). When the spread hi − lo is below color_range_floor, the range is one value:
/// the field's middle rounded to a multiple of the floor (so round-off about 0 reads 0, and a uniform
/// field its value). Otherwise it starts at 0 unless the field is negative somewhere (magnitudes read
/// from 0) and ends at hi.
ColorRange color_range(double lo, double hi, std::string_view unit, double body_size);

}  // namespace pliant::render
