#include "pliant/scene/setting_spec.hpp"

#include "family_registry.hpp"

#include <fmt/format.h>

#include <cmath>

namespace pliant::scene {

std::string_view to_string(SettingType type) {
  switch (type) {
    case SettingType::number:
      return "number";
    case SettingType::integer:
      return "integer";
    case SettingType::boolean:
      return "boolean";
    case SettingType::choice:
      return "choice";
    case SettingType::string:
      return "string";
    case SettingType::vec3:
      return "vec3";
    case SettingType::object:
      return "object";
    case SettingType::array:
      return "array";
  }
  return "?";
}

std::string_view setting_key(const SettingSpec& spec) {
  const std::size_t slash = spec.path.rfind('/');
  return slash == std::string_view::npos ? spec.path : spec.path.substr(slash + 1);
}

std::string_view setting_parent(const SettingSpec& spec) {
  const std::size_t slash = spec.path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : spec.path.substr(0, slash);
}

namespace {

// A bound as the docs write it: integral values in full (1000000, not 1e+06).
std::string bound(double x) {
  if (std::abs(x) < 1e16 && x == std::floor(x)) return fmt::format("{:.0f}", x);
  return fmt::format("{:g}", x);
}

}  // namespace

std::string setting_range_text(const SettingSpec& s) {
  if (s.type != SettingType::number && s.type != SettingType::integer) return {};
  const bool has_lo = s.min > -kSettingUnbounded;
  const bool has_hi = s.max < kSettingUnbounded || s.max_time_step;
  const std::string hi = !s.max_time_step            ? bound(s.max)
                         : s.max < kSettingUnbounded ? "min(" + bound(s.max) + ", time_step)"
                                                     : std::string("time_step");
  const bool hi_open = s.max_open && !s.max_time_step;
  if (has_lo && has_hi)
    return fmt::format("{}{}, {}{}", s.min_open ? '(' : '[', bound(s.min), hi, hi_open ? ')' : ']');
  if (has_lo) return fmt::format("{} {}", s.min_open ? ">" : "≥", bound(s.min));
  if (has_hi) return fmt::format("{} {}", hi_open ? "<" : "≤", hi);
  return {};
}

std::string setting_type_text(const SettingSpec& s) {
  std::string out;
  if (s.type == SettingType::choice) {
    for (std::string_view c : s.choices) out += fmt::format("{}`\"{}\"`", out.empty() ? "" : ", ", c);
  } else if (s.type == SettingType::vec3) {
    out = "[x, y, z]";
  } else {
    out = std::string(to_string(s.type));
  }
  if (s.required) out += ", required";
  return out;
}

std::vector<SettingSpec> family_settings(std::string_view family) {
  const detail::FamilyEntry* f = detail::find_family(family);
  return f ? f->settings : std::vector<SettingSpec>{};
}

std::string settings_markdown(std::string_view family) {
  const detail::FamilyEntry* f = detail::find_family(family);
  if (!f) return {};
  std::string out =
      "| key | type | unit | default | range | meaning |\n"
      "|---|---|---|---|---|---|\n";
  for (const SettingSpec& s : f->settings) {
    const std::string fallback = !s.fallback.empty()    ? fmt::format("`{}`", s.fallback)
                                 : !s.otherwise.empty() ? std::string(s.otherwise)
                                 : s.required           ? std::string()
                                                        : std::string("none");
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", s.path, setting_type_text(s), s.unit, fallback,
                       setting_range_text(s), s.help);
  }
  return out;
}

}  // namespace pliant::scene
