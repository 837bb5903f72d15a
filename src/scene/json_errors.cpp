#include "json_errors.hpp"

#include "pliant/core/escape.hpp"

#include <algorithm>
#include <cstddef>

namespace pliant::scene::detail {
namespace {

// The rest of "invalid JSON..." for a json::exception other than a parse error. nlohmann's
// out_of_range.406 names the token ("number overflow parsing '1e400'") but not where it
// is: find it in the text for a line and column.
std::string number_overflow_message(const std::string& what, std::string_view text) {
  const auto q0 = what.find('\'');
  const auto q1 = q0 == std::string::npos ? q0 : what.find('\'', q0 + 1);
  if (q1 == std::string::npos) return ": " + what;
  const std::string token = what.substr(q0 + 1, q1 - q0 - 1);
  std::string where = ": ";
  if (const auto at = text.find(token); at != std::string_view::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    const auto nl = text.rfind('\n', at);
    const auto column = at - (nl == std::string_view::npos ? 0 : nl + 1) + 1;
    where = " at line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
  }
  return where + "number " + token + " is out of the range of a double (about 1.8e308)";
}

}  // namespace

std::string invalid_json_message(const std::string& file, const nlohmann::json::parse_error& e) {
  // nlohmann reports "[json.exception.parse_error.101] parse error at line 3, column 7: ...".
  std::string what = e.what();
  const auto at = what.find("at line");
  return escape_for_message(file, std::string::npos) + ": invalid JSON " +
         escape_for_message(at != std::string::npos ? what.substr(at) : what, std::string::npos);
}

std::string invalid_json_message(const std::string& file, const nlohmann::json::exception& e,
                                 std::string_view text) {
  // A number beyond the double range (1e400) is out_of_range.406 "number overflow parsing '1e400'".
  return escape_for_message(file, std::string::npos) + ": invalid JSON" +
         escape_for_message(number_overflow_message(e.what(), text), std::string::npos);
}

}  // namespace pliant::scene::detail
