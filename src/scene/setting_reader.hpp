// Reading a family's body keys through its settings table (pliant/scene/setting_spec.hpp): the
// allowed keys of each object, the type and range checks, their error messages (the JSON pointer
// named, as JsonReader writes them) and the defaults all come from the declarations, so a family's
// reader says only what the values mean to its model.
#pragma once

#include "json_reader.hpp"

#include "pliant/scene/setting_spec.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene::detail {

class SettingsReader {
 public:
  /// `time_step`: the scene's (unit: s), the upper bound of settings declared `max_time_step`.
  SettingsReader(const std::vector<SettingSpec>& table, double time_step)
      : table_(&table), time_step_(time_step) {}

  /// The declaration at `path`; throws std::logic_error when the table has none (a reader asking for
  /// an undeclared key is a programming error, caught by any test that reads that family).
  const SettingSpec& spec(std::string_view path) const;
  /// The keys declared directly under the object at `path` ("" for the body's own keys).
  std::vector<std::string_view> keys_under(std::string_view path) const;
  /// Throws unless `object` is an object whose keys are all declared under `path`.
  void expect_object(const JsonReader& object, std::string_view path) const;

  /// The value at `path` in `parent` (the JSON object at the path's parent), checked against its
  /// declaration; nullopt when absent (a required key throws "missing required key").
  std::optional<JsonReader> find(const JsonReader& parent, std::string_view path) const;

  /// The object at `path` in `parent`, checked; an empty object (every default) when absent.
  JsonReader object(const JsonReader& parent, std::string_view path) const;

  // Values, or the declared default when absent (a key without a constant default throws
  // std::logic_error here: read it with the *_if form and compute the default).
  double number(const JsonReader& parent, std::string_view path) const;
  long long integer(const JsonReader& parent, std::string_view path) const;
  bool boolean(const JsonReader& parent, std::string_view path) const;
  std::string text(const JsonReader& parent, std::string_view path) const;  ///< a choice or string
  Vec3 vec3(const JsonReader& parent, std::string_view path) const;

  // Values only when present.
  std::optional<double> number_if(const JsonReader& parent, std::string_view path) const;
  std::optional<std::string> text_if(const JsonReader& parent, std::string_view path) const;
  std::optional<Vec3> vec3_if(const JsonReader& parent, std::string_view path) const;

 private:
  void check(const JsonReader& value, const SettingSpec& spec) const;
  nlohmann::json fallback(const SettingSpec& spec) const;

  const std::vector<SettingSpec>* table_;
  double time_step_;
};

/// The body keys a table declares (its top-level paths), for FamilyEntry::keys.
std::vector<std::string> body_keys(const std::vector<SettingSpec>& table);

}  // namespace pliant::scene::detail
