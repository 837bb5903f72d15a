// Private: base64 (RFC 4648, standard alphabet, '=' padding) for VTU data arrays.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pliant::io::detail {

/// Appends the base64 encoding of `bytes` to `out`.
void base64_encode(std::string_view bytes, std::string& out);

/// Decodes `text` (length a multiple of 4, no whitespace). On a bad character or bad padding returns
/// nullopt and sets `bad_at` to the offending character's index.
std::optional<std::string> base64_decode(std::string_view text, std::size_t& bad_at);

/// Number of base64 characters that encode `bytes` bytes (with padding).
inline std::size_t base64_length(std::size_t bytes) { return (bytes + 2) / 3 * 4; }

}  // namespace pliant::io::detail
