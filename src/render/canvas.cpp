#include "pliant/render/canvas.hpp"

#include "pliant/render/bitmap_font.hpp"

#include <cstdlib>

namespace pliant::render {

Canvas Canvas::blank(int width, int height) {
  Canvas c;
  c.image.width = width;
  c.image.height = height;
  c.image.rgba.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4, 255);
  return c;
}

void Canvas::set(int x, int y, Rgb8 c) {
  if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
  std::uint8_t* p = image.pixel(x, y);
  p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
}

void Canvas::dot(int x, int y, Rgb8 c, int radius) {
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) set(x + dx, y + dy, c);
}

void Canvas::line(int x0, int y0, int x1, int y1, Rgb8 c, int radius) {
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    dot(x0, y0, c, radius);
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) err += dy, x0 += sx;
    if (e2 <= dx) err += dx, y0 += sy;
  }
}

void Canvas::text(int x, int y, std::string_view s, Rgb8 c, int scale) {
  for (char ch : s) {
    const std::uint16_t bits = glyph_bits(ch);
    for (int row = 0; row < kGlyphHeight; ++row)
      for (int col = 0; col < kGlyphWidth; ++col)
        if (bits >> ((4 - row) * 3 + (2 - col)) & 1)
          for (int dy = 0; dy < scale; ++dy)
            for (int dx = 0; dx < scale; ++dx) set(x + col * scale + dx, y + row * scale + dy, c);
    x += 4 * scale;
  }
}

}  // namespace pliant::render
