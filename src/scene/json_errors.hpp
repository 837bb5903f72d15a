// One-line messages for scene JSON text that nlohmann cannot parse, made from its exceptions: the
// file, "invalid JSON", and where (line and column) the fault is when that can be found.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace pliant::scene::detail {

/// "FILE: invalid JSON at line L, column C: WHAT" for a parse error (nlohmann names the place).
std::string invalid_json_message(const std::string& file, const nlohmann::json::parse_error& e);

/// "FILE: invalid JSON at line L, column C: number TOKEN is out of the range of a double ..." for
/// another exception nlohmann threw while parsing `text` (a number beyond the double range, which
/// nlohmann reports without a place: the token is looked up in `text`).
std::string invalid_json_message(const std::string& file, const nlohmann::json::exception& e,
                                 std::string_view text);

}  // namespace pliant::scene::detail
