// A tiny built-in 3×5 pixel font (digits, A-Z and . - + / : % ( ) =) for colour-bar values and
// arrow labels, so rendered frames carry numbers without a font library or texture atlas.
#pragma once

#include <cstdint>
#include <string_view>

namespace pliant::render {

/// Glyph cell size in font pixels: 3 wide and 5 tall, drawn with one blank column between glyphs.
inline constexpr int kGlyphWidth = 3;
inline constexpr int kGlyphHeight = 5;

/// The glyph's 15 bits, row by row from the top, each row's bits from left (bit 2) to right (bit 0):
/// bit (4 - row) * 3 + (2 - column). Lower-case letters use the upper-case glyph; characters without
/// a glyph (and space) are blank.
std::uint16_t glyph_bits(char c);

/// Width of `text` in font pixels (4 per character, minus the trailing gap).
inline int text_width(std::string_view text) {
  return text.empty() ? 0 : static_cast<int>(text.size()) * 4 - 1;
}

}  // namespace pliant::render
