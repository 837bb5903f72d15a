#include "setting_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pliant::scene::detail {

const SettingSpec& SettingsReader::spec(std::string_view path) const {
  for (const SettingSpec& s : *table_) {
    if (s.path == path) return s;
  }
  throw std::logic_error("setting \"" + std::string(path) + "\" is not declared in its family's table");
}

std::vector<std::string_view> SettingsReader::keys_under(std::string_view path) const {
  std::vector<std::string_view> keys;
  for (const SettingSpec& s : *table_) {
    if (setting_parent(s) == path) keys.push_back(setting_key(s));
  }
  return keys;
}

void SettingsReader::expect_object(const JsonReader& object, std::string_view path) const {
  object.expect_object(keys_under(path));
}

void SettingsReader::check(const JsonReader& v, const SettingSpec& s) const {
  switch (s.type) {
    case SettingType::number: {
      double hi = s.max;
      bool hi_open = s.max_open;
      if (s.max_time_step && time_step_ <= hi) {
        hi = time_step_;
        hi_open = false;
      }
      const double lo = s.min <= -kSettingUnbounded ? -JsonReader::kInf : s.min;
      v.number_in(lo, hi >= kSettingUnbounded ? JsonReader::kInf : hi, s.min_open, hi_open);
      break;
    }
    case SettingType::integer: {
      constexpr double kMax = 9.2e18;  // within long long
      const double lo = std::max(s.min, -kMax), hi = std::min(s.max, kMax);
      v.integer(static_cast<long long>(lo) + (s.min_open ? 1 : 0),
                static_cast<long long>(hi) - (s.max_open ? 1 : 0));
      break;
    }
    case SettingType::boolean:
      v.boolean();
      break;
    case SettingType::choice:
      v.one_of(s.choices);
      break;
    case SettingType::string:
      v.string();
      break;
    case SettingType::vec3:
      v.vec3();
      break;
    case SettingType::object: {
      // Declared children: the object's keys come from the table. Without any, the family's code
      // reads (and checks) it.
      const std::vector<std::string_view> keys = keys_under(s.path);
      if (!keys.empty()) v.expect_object(keys);
      break;
    }
    case SettingType::array:
      break;
  }
}

nlohmann::json SettingsReader::fallback(const SettingSpec& s) const {
  if (s.fallback.empty())
    throw std::logic_error("setting \"" + std::string(s.path) + "\" has no constant default");
  return nlohmann::json::parse(s.fallback);
}

std::optional<JsonReader> SettingsReader::find(const JsonReader& parent, std::string_view path) const {
  const SettingSpec& s = spec(path);
  const std::string_view key = setting_key(s);
  if (!parent.has(key)) {
    if (s.required) parent.at(key);  // throws "missing required key"
    return std::nullopt;
  }
  JsonReader v = parent.at(key);
  check(v, s);
  return v;
}

JsonReader SettingsReader::object(const JsonReader& parent, std::string_view path) const {
  if (auto v = find(parent, path)) return *v;
  static const nlohmann::json empty = nlohmann::json::object();
  return reader_of(empty, "", parent.pointer() + "/" + std::string(setting_key(spec(path))));
}

double SettingsReader::number(const JsonReader& parent, std::string_view path) const {
  if (auto v = number_if(parent, path)) return *v;
  return fallback(spec(path)).get<double>();
}

std::optional<double> SettingsReader::number_if(const JsonReader& parent, std::string_view path) const {
  if (auto v = find(parent, path)) return v->number();
  return std::nullopt;
}

long long SettingsReader::integer(const JsonReader& parent, std::string_view path) const {
  if (auto v = find(parent, path)) return json_of(*v).get<long long>();
  return fallback(spec(path)).get<long long>();
}

bool SettingsReader::boolean(const JsonReader& parent, std::string_view path) const {
  if (auto v = find(parent, path)) return v->boolean();
  return fallback(spec(path)).get<bool>();
}

std::string SettingsReader::text(const JsonReader& parent, std::string_view path) const {
  if (auto v = text_if(parent, path)) return *v;
  return fallback(spec(path)).get<std::string>();
}

std::optional<std::string> SettingsReader::text_if(const JsonReader& parent, std::string_view path) const {
  if (auto v = find(parent, path)) return v->string();
  return std::nullopt;
}

Vec3 SettingsReader::vec3(const JsonReader& parent, std::string_view path) const {
  if (auto v = vec3_if(parent, path)) return *v;
  const nlohmann::json j = fallback(spec(path));
  return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()};
}

std::optional<Vec3> SettingsReader::vec3_if(const JsonReader& parent, std::string_view path) const {
  if (auto v = find(parent, path)) return v->vec3();
  return std::nullopt;
}

std::vector<std::string> body_keys(const std::vector<SettingSpec>& table) {
  std::vector<std::string> keys;
  for (const SettingSpec& s : table) {
    if (setting_parent(s).empty()) keys.emplace_back(s.path);
  }
  return keys;
}

}  // namespace pliant::scene::detail
