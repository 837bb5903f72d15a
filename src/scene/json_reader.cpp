#include "json_reader.hpp"

#include "pliant/core/escape.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace pliant::scene::detail {
namespace {

// RFC 6901: '~' becomes "~0" and '/' becomes "~1" inside a reference token. Control characters and
// malformed bytes are escaped (\n, \x01) so that a message naming the pointer stays on one line.
std::string escape_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return escape_for_message(out, std::string::npos);
}

std::string format_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

}  // namespace

std::string describe(const nlohmann::json& value) {
  std::string s;
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array of " + std::to_string(value.size());
    default:
      s = value.dump();
      break;
  }
  // dump() already writes control characters as JSON escapes; this also cuts long values.
  return escape_for_message(s, 40);
}

}  // namespace pliant::scene::detail

namespace pliant::scene {
namespace {
using detail::describe;
using detail::escape_token;
using detail::format_number;
const nlohmann::json& J(const void* v) { return *static_cast<const nlohmann::json*>(v); }
}  // namespace

void JsonReader::fail(std::string_view message) const {
  // Messages echo user content (names, paths, other readers' errors): whatever it holds, the line
  // stays one line.
  throw JsonReadError(escape_for_message(file_, std::string::npos) + ": " +
                      (pointer_.empty() ? std::string("/") : pointer_) + ": " +
                      escape_for_message(message, std::string::npos));
}

void JsonReader::fail_expected(std::string_view what) const {
  fail("expected " + std::string(what) + ", got " + describe(J(value_)));
}

void JsonReader::expect_object(const std::vector<std::string_view>& allowed) const {
  if (!J(value_).is_object()) fail_expected("an object");
  for (const auto& [key, v] : J(value_).items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      JsonReader(&v, file_, pointer_ + "/" + escape_token(key))
          .fail("unknown key (allowed here: " + list + ")");
    }
  }
}

bool JsonReader::has(std::string_view key) const {
  return J(value_).is_object() && J(value_).contains(std::string(key));
}

JsonReader JsonReader::at(std::string_view key) const {
  if (!J(value_).is_object()) fail_expected("an object");
  const auto it = J(value_).find(std::string(key));
  if (it == J(value_).end()) fail("missing required key \"" + std::string(key) + "\"");
  return JsonReader(&*it, file_, pointer_ + "/" + escape_token(key));
}

bool JsonReader::is_null() const { return J(value_).is_null(); }
bool JsonReader::is_boolean() const { return J(value_).is_boolean(); }
bool JsonReader::is_number() const { return J(value_).is_number(); }
bool JsonReader::is_string() const { return J(value_).is_string(); }
bool JsonReader::is_array() const { return J(value_).is_array(); }
bool JsonReader::is_object() const { return J(value_).is_object(); }
std::size_t JsonReader::size() const {
  return J(value_).is_array() || J(value_).is_object() ? J(value_).size() : 0;
}

std::optional<JsonReader> JsonReader::find(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return at(key);
}

std::vector<JsonReader> JsonReader::elements(std::size_t min_size) const {
  if (!J(value_).is_array()) fail_expected("an array");
  if (J(value_).size() < min_size)
    fail_expected("at least " + std::to_string(min_size) + (min_size == 1 ? " element" : " elements"));
  std::vector<JsonReader> out;
  out.reserve(J(value_).size());
  for (std::size_t i = 0; i < J(value_).size(); ++i) {
    out.push_back(JsonReader(&J(value_)[i], file_, pointer_ + "/" + std::to_string(i)));
  }
  return out;
}

double JsonReader::number() const {
  if (!J(value_).is_number()) fail_expected("a number");
  const double x = J(value_).get<double>();
  if (!std::isfinite(x)) fail_expected("a finite number");
  return x;
}

double JsonReader::number_in(double lo, double hi, bool lo_open, bool hi_open) const {
  std::string what = "a number";
  if (lo > -kInf) what += (lo_open ? " > " : " >= ") + format_number(lo);
  if (hi < kInf)
    what += (lo > -kInf ? " and" : "") + std::string(hi_open ? " < " : " <= ") + format_number(hi);
  if (!J(value_).is_number()) fail_expected(what);
  const double x = J(value_).get<double>();
  const bool ok = std::isfinite(x) && (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  if (!ok) fail_expected(what);
  return x;
}

long long JsonReader::integer(long long lo, long long hi) const {
  const std::string what = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!J(value_).is_number_integer()) fail_expected(what);
  long long x = 0;
  if (J(value_).is_number_unsigned()) {
    const auto u = J(value_).get<unsigned long long>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) fail_expected(what);
    x = static_cast<long long>(u);
  } else {
    x = J(value_).get<long long>();
  }
  if (x < lo || x > hi) fail_expected(what);
  return x;
}

bool JsonReader::boolean() const {
  if (!J(value_).is_boolean()) fail_expected("true or false");
  return J(value_).get<bool>();
}

std::string JsonReader::string() const {
  if (!J(value_).is_string()) fail_expected("a string");
  return J(value_).get<std::string>();
}

std::string JsonReader::one_of(const std::vector<std::string_view>& choices) const {
  std::string list;
  for (std::string_view c : choices) list += (list.empty() ? "" : ", ") + ("\"" + std::string(c) + "\"");
  if (!J(value_).is_string()) fail_expected("one of " + list);
  const std::string s = J(value_).get<std::string>();
  for (std::string_view c : choices) {
    if (c == s) return s;
  }
  fail_expected("one of " + list);
}

Vec3 JsonReader::vec3() const {
  if (!J(value_).is_array() || J(value_).size() != 3) fail_expected("an array of 3 numbers");
  const auto e = elements();
  return {e[0].number(), e[1].number(), e[2].number()};
}

double JsonReader::number_or(std::string_view key, double fallback) const {
  const auto v = find(key);
  return v ? v->number() : fallback;
}
double JsonReader::positive_or(std::string_view key, double fallback) const {
  const auto v = find(key);
  return v ? v->positive() : fallback;
}
long long JsonReader::integer_or(std::string_view key, long long fallback, long long lo, long long hi) const {
  const auto v = find(key);
  return v ? v->integer(lo, hi) : fallback;
}
bool JsonReader::boolean_or(std::string_view key, bool fallback) const {
  const auto v = find(key);
  return v ? v->boolean() : fallback;
}
std::string JsonReader::string_or(std::string_view key, std::string fallback) const {
  const auto v = find(key);
  return v ? v->string() : fallback;
}

}  // namespace pliant::scene
