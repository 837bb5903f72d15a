#include "pliant/render/bitmap_font.hpp"

namespace pliant::render {

// Each glyph is written in octal, one digit per row from the top, the digit's three bits being the
// row's pixels from left to right: '0' = 075557 is 111 / 101 / 101 / 101 / 111.
std::uint16_t glyph_bits(char c) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  static constexpr std::uint16_t kDigits[10] = {075557, 026227, 071747, 071317, 055711,
                                                074717, 074757, 071122, 075757, 075717};
  static constexpr std::uint16_t kLetters[26] = {
      025755, 065656, 034443, 065556, 074647, 074644, 034553, 055755, 072227, 011152, 055655, 044447, 057755,
      065555, 025552, 065644, 025563, 065655, 034216, 072222, 055557, 055552, 055775, 055255, 055222, 071247};
  if (c >= '0' && c <= '9') return kDigits[c - '0'];
  if (c >= 'A' && c <= 'Z') return kLetters[c - 'A'];
  switch (c) {
    case '.':
      return 000002;
    case '-':
      return 000700;
    case '+':
      return 002720;
    case '/':
      return 011244;
    case ':':
      return 002020;
    case '%':
      return 051245;
    case '(':
      return 012221;
    case ')':
      return 042224;
    case '=':
      return 007070;
    default:
      return 0;
  }
}

}  // namespace pliant::render
