// Typed, path-aware reading of a scene file's JSON, as a family's factory sees its body's keys (the
// family registry, pliant/scene/family_registry.hpp). Every accessor checks the type and range of what
// it reads and, on failure, throws JsonReadError whose message names the file and the RFC 6901 JSON
// pointer of the offending value, what was expected and what was found:
//   scene.json: /bodies/0/material/E: expected a number > 0, got "soft"
// Objects list the keys they accept (`expect_object`), so a misspelt key is an error, not a silent
// default. The scene loader turns the exception into a Result at its boundary.
//
// The JSON library stays private: a reader holds an opaque pointer to the parsed document, so a family
// built out of tree needs neither nlohmann/json nor its version to match Pliant's, and Pliant may change
// its parser without breaking families. The document outlives every reader of a scene load.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/types.hpp"

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pliant::scene {

namespace detail {
struct JsonAccess;
}

/// A bad value in a scene file: one line "FILE: POINTER: what was wrong".
struct JsonReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One value of a parsed scene document, with the file and JSON pointer that errors name. Cheap to
/// copy; valid while the scene loader runs (a family's factory must not keep it).
class JsonReader {
 public:
  /// The JSON pointer of this value ("" for the root, "/bodies/0" ...).
  const std::string& pointer() const { return pointer_; }
  /// The file errors name.
  const std::string& file() const { return file_; }

  /// Throws unless this is an object whose keys are all in `allowed` (the error lists them).
  void expect_object(std::initializer_list<std::string_view> allowed) const {
    expect_object(std::vector<std::string_view>(allowed));
  }
  void expect_object(const std::vector<std::string_view>& allowed) const;
  /// Whether this is an object holding `key`.
  bool has(std::string_view key) const;
  /// A required member (throws unless this is an object holding it).
  JsonReader at(std::string_view key) const;
  /// An optional member (nullopt when absent or when this is not an object).
  std::optional<JsonReader> find(std::string_view key) const;
  /// Array elements (throws unless this is an array of at least min_size elements).
  std::vector<JsonReader> elements(std::size_t min_size = 0) const;

  // What this value is, for keys that accept several forms (a name or an object, say).
  bool is_null() const;
  bool is_boolean() const;
  bool is_number() const;
  bool is_string() const;
  bool is_array() const;
  bool is_object() const;
  /// Elements of an array or members of an object; 0 otherwise.
  std::size_t size() const;

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
  /// An array of 3 numbers (in whatever unit the key documents).
  Vec3 vec3() const;

  // Optional members with defaults.
  double number_or(std::string_view key, double fallback) const;
  double positive_or(std::string_view key, double fallback) const;
  long long integer_or(std::string_view key, long long fallback, long long lo, long long hi) const;
  bool boolean_or(std::string_view key, bool fallback) const;
  std::string string_or(std::string_view key, std::string fallback) const;

  /// Throws JsonReadError "FILE: POINTER: expected WHAT, got VALUE".
  [[noreturn]] void fail_expected(std::string_view what) const;
  /// Throws JsonReadError "FILE: POINTER: MESSAGE" (the message is escaped onto one line).
  [[noreturn]] void fail(std::string_view message) const;

  /// "No bound" for number_in.
  static constexpr double kInf = 1e300;

 private:
  friend struct detail::JsonAccess;
  // `value` points to the parser's value type; only the scene library's sources know which.
  JsonReader(const void* value, std::string file, std::string pointer)
      : value_(value), file_(std::move(file)), pointer_(std::move(pointer)) {}
  const void* value_;
  std::string file_;
  std::string pointer_;
};

/// The value of `result`, or throws JsonReadError at `where` with the result's one-line error.
template <class T>
T take(Result<T> result, const JsonReader& where) {
  if (!result.ok()) where.fail(result.message());
  return std::move(result).value();
}

}  // namespace pliant::scene
