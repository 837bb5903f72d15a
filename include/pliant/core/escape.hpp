// Rendering untrusted text (bytes from a file, JSON strings, file names) for a one-line message.
//
// Every reader and the scene loader echo what they found ("expected a number, found 'abc'"); the
// echoed bytes may be anything. escape_for_message keeps printable ASCII and well-formed UTF-8 as
// they are, writes the common control characters as C escapes (\n \r \t \0), every other control
// character, DEL, C1 control, line separator and malformed UTF-8 byte as \xNN (bytes) or \uNNNN
// (code points), and cuts long text with "...", so a message is always exactly one line of bounded
// length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pliant {

/// `text` made safe for a one-line message, cut to about `max_chars` characters of output (escapes
/// count by their length) with "..." appended when something was cut. `max_chars` = npos: no cut.
std::string escape_for_message(std::string_view text, std::size_t max_chars = 40);

/// escape_for_message(text, max_chars) in single quotes: 'abc', '\x07\x01...'.
std::string quoted_for_message(std::string_view text, std::size_t max_chars = 40);

/// A number as a message shows it: nine significant digits ("%.9g"), "nan" and "inf" as such.
std::string number_for_message(double value);

}  // namespace pliant
