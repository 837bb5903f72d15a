// Canvas: drawing on an Image on the CPU, without GL: pixels, dots, lines and text in the built-in
// 3×5 font. The 2-D plots (`pliant validate --plots`, the force plot of `pliant run --render`) are
// drawn with it, so they need no display and no EGL.
#pragma once

#include "pliant/render/image.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace pliant::render {

/// An opaque 8-bit sRGB colour.
using Rgb8 = std::array<std::uint8_t, 3>;

struct Canvas {
  Image image;

  /// A white canvas of width × height pixels.
  static Canvas blank(int width, int height);

  /// Sets pixel (x, y) (x right, y down from the top-left corner); outside the image: nothing.
  void set(int x, int y, Rgb8 c);
  /// A filled square of side 2·radius + 1 pixels centred on (x, y).
  void dot(int x, int y, Rgb8 c, int radius);
  /// A line from (x0, y0) to (x1, y1) (Bresenham), `radius` pixels thick either side.
  void line(int x0, int y0, int x1, int y1, Rgb8 c, int radius = 0);
  /// Text in the 3×5 font (bitmap_font.hpp), each font pixel `scale` pixels square, its top-left
  /// corner at (x, y).
  void text(int x, int y, std::string_view s, Rgb8 c, int scale = 2);
};

}  // namespace pliant::render
