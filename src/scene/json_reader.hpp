// The scene library's side of the public JsonReader (pliant/scene/json_reader.hpp): making readers over
// a parsed nlohmann::json document and reaching the document behind one. Family readers use only the
// public interface; the scene file reader and the readers of World-owned keys may use this too.
#pragma once

#include "pliant/scene/json_reader.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace pliant::scene::detail {

using scene::JsonReader;
using scene::JsonReadError;
using scene::take;

struct JsonAccess {
  static JsonReader make(const nlohmann::json& value, std::string file, std::string pointer) {
    return JsonReader(&value, std::move(file), std::move(pointer));
  }
  static const nlohmann::json& json(const JsonReader& r) {
    return *static_cast<const nlohmann::json*>(r.value_);
  }
};

/// A reader over `value` (which must outlive it), naming `file` and `pointer` in its errors.
inline JsonReader reader_of(const nlohmann::json& value, std::string file, std::string pointer = "") {
  return JsonAccess::make(value, std::move(file), std::move(pointer));
}
/// The value behind a reader.
inline const nlohmann::json& json_of(const JsonReader& r) { return JsonAccess::json(r); }

/// Short rendering of a JSON value for messages (strings quoted, long values cut).
std::string describe(const nlohmann::json& value);

}  // namespace pliant::scene::detail
