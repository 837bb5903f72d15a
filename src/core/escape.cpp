#include "pliant/core/escape.hpp"

#include <cstdint>
#include <cstdio>

namespace pliant {
namespace {

// Length of the well-formed UTF-8 sequence starting at text[i] (2 to 4 bytes, RFC 3629: no overlong
// forms, no surrogates, at most U+10FFFF), or 0 when the bytes there are not one. Its code point in
// `cp`.
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0Fu;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07u;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;  // overlong, range
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;                                           // surrogate
  return n;
}

}  // namespace

std::string escape_for_message(std::string_view text, std::size_t max_chars) {
  std::string out;
  out.reserve(text.size() < 64 ? text.size() : 64);
  for (std::size_t i = 0; i < text.size();) {
    if (out.size() >= max_chars) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    char buf[16];
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c == '\n' || c == '\r' || c == '\t' || c == '\0') {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : "\\0";
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    const std::size_t n = c >= 0x80 ? utf8_sequence(text, i, cp) : 0;
    if (n == 0) {  // control character, DEL or a byte that is not UTF-8
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
      ++i;
    } else if (cp < 0xA0 || cp == 0x2028 || cp == 0x2029 || cp == 0x85 || cp == 0xFEFF) {
      // C1 controls and Unicode line/paragraph separators would break or hide parts of the line.
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
      out += buf;
      i += n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string quoted_for_message(std::string_view text, std::size_t max_chars) {
  return "'" + escape_for_message(text, max_chars) + "'";
}

std::string number_for_message(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

}  // namespace pliant
