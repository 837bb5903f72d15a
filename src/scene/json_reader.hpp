// Typed, path-aware reading of scene JSON. Every accessor checks the type and range of what it reads
// and, on failure, throws JsonReadError whose message names the file and the RFC 6901 JSON pointer of
// the offending value, what was expected and what was found:
//   scene.json: /bodies/0/material/E: expected a number > 0, got "soft"
// Objects list the keys they accept (`expect_keys`), so a misspelt key is an error, not a silent
// default. The scene loader converts the exception into a Result at its boundary.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pliant::scene::detail {

struct JsonReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class JsonReader {
 public:
  JsonReader(const nlohmann::json& value, std::string file, std::string pointer = "")
      : value_(&value), file_(std::move(file)), pointer_(std::move(pointer)) {}

  const nlohmann::json& json() const { return *value_; }
  /// The JSON pointer of this value ("" for the root, "/bodies/0" ...).
  const std::string& pointer() const { return pointer_; }

  /// Throws unless this is an object whose keys are all in `allowed`.
  void expect_object(std::initializer_list<std::string_view> allowed) const {
    expect_object(std::vector<std::string_view>(allowed));
  }
  void expect_object(const std::vector<std::string_view>& allowed) const;
  bool has(std::string_view key) const;
  /// A required member (this must be an object).
  JsonReader at(std::string_view key) const;
  std::optional<JsonReader> find(std::string_view key) const;
  /// Array elements (throws unless this is an array; min_size checked).
  std::vector<JsonReader> elements(std::size_t min_size = 0) const;

  double number() const;
  double number_in(double lo, double hi, bool lo_open = false, bool hi_open = false) const;
  double positive() const { return number_in(0.0, kInf, true); }
  double non_negative() const { return number_in(0.0, kInf); }
  long long integer(long long lo, long long hi) const;
  bool boolean() const;
  std::string string() const;
  std::string one_of(std::initializer_list<std::string_view> choices) const {
    return one_of(std::vector<std::string_view>(choices));
  }
  std::string one_of(const std::vector<std::string_view>& choices) const;
  Vec3 vec3() const;

  // Optional members with defaults.
  double number_or(std::string_view key, double fallback) const;
  double positive_or(std::string_view key, double fallback) const;
  long long integer_or(std::string_view key, long long fallback, long long lo, long long hi) const;
  bool boolean_or(std::string_view key, bool fallback) const;
  std::string string_or(std::string_view key, std::string fallback) const;

  /// Throws JsonReadError "FILE: POINTER: expected WHAT, got VALUE".
  [[noreturn]] void fail_expected(std::string_view what) const;
  /// Throws JsonReadError "FILE: POINTER: MESSAGE".
  [[noreturn]] void fail(std::string_view message) const;

  static constexpr double kInf = 1e300;

 private:
  const nlohmann::json* value_;
  std::string file_;
  std::string pointer_;
};

/// The value of `result`, or throws JsonReadError at `where` with the result's one-line error.
template <class T>
T take(Result<T> result, const JsonReader& where) {
  if (!result.ok()) where.fail(result.message());
  return std::move(result).value();
}

/// Short rendering of a JSON value for messages (strings quoted, long values cut).
std::string describe(const nlohmann::json& value);

}  // namespace pliant::scene::detail
