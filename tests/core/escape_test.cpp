// escape_for_message: what every reader uses to echo untrusted bytes in a one-line message.
#include "pliant/core/escape.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pliant {
namespace {

TEST(Escape, KeepsPrintableAsciiAndWellFormedUtf8) {
  EXPECT_EQ(escape_for_message("node 12 (x=1.5e-3)"), "node 12 (x=1.5e-3)");
  EXPECT_EQ(escape_for_message("caf\xc3\xa9 \xe2\x89\xa5 m\xc2\xb3 \xf0\x9f\x99\x82"),
            "caf\xc3\xa9 \xe2\x89\xa5 m\xc2\xb3 \xf0\x9f\x99\x82");
}

TEST(Escape, WritesControlCharactersAndBadBytesAsEscapes) {
  EXPECT_EQ(escape_for_message(std::string("a\nb\rc\td") + '\0' + "e"), "a\\nb\\rc\\td\\0e");
  EXPECT_EQ(escape_for_message("\x07\x1b\x7f"), "\\x07\\x1B\\x7F");
  EXPECT_EQ(escape_for_message("\xff\xfe"), "\\xFF\\xFE");           // never UTF-8
  EXPECT_EQ(escape_for_message("\xc3"), "\\xC3");                    // truncated sequence
  EXPECT_EQ(escape_for_message("\xc0\xaf"), "\\xC0\\xAF");           // overlong '/'
  EXPECT_EQ(escape_for_message("\xed\xa0\x80"), "\\xED\\xA0\\x80");  // a surrogate
  EXPECT_EQ(escape_for_message("\xc2\x85|\xe2\x80\xa8|\xe2\x80\xa9"),
            "\\u0085|\\u2028|\\u2029");  // NEL, LS, PS
}

TEST(Escape, CutsLongTextWithAnEllipsisAndNeverSplitsAnEscape) {
  EXPECT_EQ(escape_for_message(std::string(100, 'x'), 10), std::string(10, 'x') + "...");
  EXPECT_EQ(escape_for_message(std::string(10, 'x'), 10), std::string(10, 'x'));
  EXPECT_EQ(escape_for_message("abcdefghi\n\n", 10), "abcdefghi\\n...");
  const std::string long_hostile(5000, '\x01');
  const std::string shown = escape_for_message(long_hostile);
  EXPECT_LE(shown.size(), 40u + 4u + 3u);
  EXPECT_EQ(shown.substr(shown.size() - 3), "...");
  EXPECT_EQ(escape_for_message(long_hostile, std::string::npos).size(), 4u * 5000u);
  EXPECT_EQ(quoted_for_message("a\nb"), "'a\\nb'");
}

TEST(Escape, OutputIsAlwaysOneLineOfPrintableBytesForEveryByte) {
  for (int b = 0; b < 256; ++b) {
    const std::string out = escape_for_message(std::string(3, static_cast<char>(b)), std::string::npos);
    for (const char c : out) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u != 0x7f && u < 0x80) << "byte " << b << " -> " << out;
    }
  }
}

}  // namespace
}  // namespace pliant
