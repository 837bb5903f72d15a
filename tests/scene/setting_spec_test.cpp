// The families' settings tables (pliant/scene/setting_spec.hpp) against themselves and against the
// scene reader: every declared key and value is one the reader accepts, every undeclared key and
// out-of-range value one it refuses with the JSON path named, and the allowed keys its errors list are
// the declared ones. (docs/scene-format.md is checked against the tables in scene_format_doc_test.cpp.)
#include "pliant/scene/setting_spec.hpp"
#include "pliant/scene/families.hpp"
#include "pliant/scene/scene_file.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

using nlohmann::json;

// A one-body scene of `family` from its example body, with `value` set at `path` below the body. A
// path inside a nested object (three segments or more: "fem/modal/modes") starts from an empty family
// object, so that the example's other keys do not decide the error (a modal body refuses
// "integrator"); the required keys beside the path get a valid value (a choice its first, a number its
// least, an object without declared keys a region string: a hybrid body's "operational").
std::string scene_with(const FamilyInfo& family, const std::string& path, const json& value) {
  json body = json::parse(family.example_body);
  body["name"] = "b";
  body["family"] = family.name;
  const std::size_t first = path.find('/');
  if (first != std::string::npos && path.find('/', first + 1) != std::string::npos)
    body[path.substr(0, first)] = json::object();
  for (const SettingSpec& s : family_settings(family.name)) {
    const std::string parent(setting_parent(s));
    if (!s.required || s.path == path || parent.empty() || path.rfind(parent + "/", 0) != 0) continue;
    json filler = "xmax";
    if (s.type == SettingType::choice) filler = std::string(s.choices.front());
    if (s.type == SettingType::number) filler = std::max(s.min, 1.0);
    if (s.type == SettingType::integer) filler = static_cast<std::int64_t>(std::max(s.min, 1.0));
    body[json::json_pointer("/" + std::string(s.path))] = filler;
  }
  body[json::json_pointer("/" + path)] = value;
  return json{{"pliant", 1}, {"time_step", 0.01}, {"steps", 1}, {"bodies", json::array({body})}}.dump();
}

// The message of loading it ("" when it loads).
std::string load_error(const FamilyInfo& family, const std::string& path, const json& value) {
  Result<Scene> scene = parse_scene(scene_with(family, path, value), "t.json");
  return scene.ok() ? std::string() : std::string(scene.message());
}

bool numeric(const SettingSpec& s) { return s.type == SettingType::number || s.type == SettingType::integer; }

TEST(SettingSpec, TablesAreWellFormed) {
  for (const FamilyInfo& f : registered_families()) {
    const std::vector<SettingSpec> table = family_settings(f.name);
    ASSERT_FALSE(table.empty()) << f.name;
    std::set<std::string> paths, objects, top;
    for (const SettingSpec& s : table) {
      SCOPED_TRACE(f.name + ": " + std::string(s.path));
      EXPECT_TRUE(paths.insert(std::string(s.path)).second) << "declared twice";
      const std::string parent(setting_parent(s));
      if (parent.empty()) {
        top.insert(std::string(s.path));
      } else {
        EXPECT_TRUE(objects.count(parent)) << "its parent object is not declared before it";
      }
      if (s.type == SettingType::object) objects.insert(std::string(s.path));
      EXPECT_FALSE(s.help.empty());
      EXPECT_LE(s.min, s.max);
      if (s.required) {
        EXPECT_TRUE(s.fallback.empty()) << "a required key has no default";
      }
      if (s.type == SettingType::choice) {
        EXPECT_FALSE(s.choices.empty());
      }
      if (s.fallback.empty()) continue;
      const json d = json::parse(s.fallback);
      switch (s.type) {
        case SettingType::choice:
          ASSERT_TRUE(d.is_string());
          EXPECT_NE(std::find(s.choices.begin(), s.choices.end(), d.get<std::string>()), s.choices.end());
          break;
        case SettingType::number:
        case SettingType::integer: {
          ASSERT_TRUE(d.is_number());
          if (s.type == SettingType::integer) {
            EXPECT_TRUE(d.is_number_integer());
          }
          const double x = d.get<double>();
          EXPECT_TRUE(s.min_open ? x > s.min : x >= s.min) << "the default is below the range";
          EXPECT_TRUE(s.max_open ? x < s.max : x <= s.max) << "the default is above the range";
          break;
        }
        case SettingType::boolean:
          EXPECT_TRUE(d.is_boolean());
          break;
        case SettingType::vec3:
          EXPECT_TRUE(d.is_array() && d.size() == 3);
          break;
        default:
          ADD_FAILURE() << "a " << to_string(s.type) << " has no constant default";
      }
    }
    // The body keys the family adds (registered_families, Python's families()) are the table's.
    EXPECT_EQ(std::set<std::string>(f.keys.begin(), f.keys.end()), top) << f.name;
  }
}

// Every declared choice value and every declared default is accepted where it is declared: an error,
// if the example body with it does not load for another reason, never names that key.
TEST(SettingSpec, ReaderAcceptsEveryDeclaredValue) {
  for (const FamilyInfo& f : registered_families()) {
    for (const SettingSpec& s : family_settings(f.name)) {
      std::vector<json> values;
      if (s.type == SettingType::choice)
        for (std::string_view c : s.choices) values.emplace_back(std::string(c));
      else if (!s.fallback.empty())
        values.push_back(json::parse(s.fallback));
      const std::string pointer = "/bodies/0/" + std::string(s.path);
      for (const json& v : values) {
        const std::string message = load_error(f, std::string(s.path), v);
        EXPECT_EQ(message.find(pointer + ": expected"), std::string::npos) << message;
        EXPECT_EQ(message.find(pointer + ": unknown key"), std::string::npos) << message;
      }
    }
  }
}

// A key no table declares is refused in every declared object, naming exactly the declared keys; a
// value out of its declared range or choices is refused naming its path.
TEST(SettingSpec, ReaderRefusesWhatIsNotDeclared) {
  for (const FamilyInfo& f : registered_families()) {
    const std::vector<SettingSpec> table = family_settings(f.name);
    for (const SettingSpec& s : table) {
      SCOPED_TRACE(f.name + ": " + std::string(s.path));
      const std::string pointer = "/bodies/0/" + std::string(s.path);
      std::string allowed;
      for (const SettingSpec& o : table)
        if (setting_parent(o) == s.path)
          allowed += (allowed.empty() ? "" : ", ") + std::string(setting_key(o));
      if (s.type == SettingType::object && !allowed.empty()) {
        const std::string message = load_error(f, std::string(s.path) + "/not_a_setting", 1);
        EXPECT_NE(message.find(pointer + "/not_a_setting: unknown key (allowed here: " + allowed + ")"),
                  std::string::npos)
            << message;
      }
      if (s.type == SettingType::choice) {
        const std::string message = load_error(f, std::string(s.path), "not_a_choice");
        EXPECT_NE(message.find(pointer + ": expected one of"), std::string::npos) << message;
      }
      if (numeric(s) && s.min > -kSettingUnbounded) {
        const std::string message = load_error(f, std::string(s.path), s.min_open ? s.min : s.min - 1.0);
        EXPECT_NE(message.find(pointer + ": expected a"), std::string::npos) << message;
      }
      if (numeric(s) && s.max < kSettingUnbounded) {
        const std::string message = load_error(f, std::string(s.path), s.max_open ? s.max : s.max + 1.0);
        EXPECT_NE(message.find(pointer + ": expected a"), std::string::npos) << message;
      }
    }
  }
}

// Every declared key is read, whatever its type: a value of the wrong JSON type is refused naming its
// path (a declared key the reader forgot would load silently).
TEST(SettingSpec, ReaderReadsEveryDeclaredKey) {
  for (const FamilyInfo& f : registered_families()) {
    for (const SettingSpec& s : family_settings(f.name)) {
      SCOPED_TRACE(f.name + ": " + std::string(s.path));
      json wrong;
      switch (s.type) {
        case SettingType::number:
        case SettingType::integer:
        case SettingType::boolean:
        case SettingType::vec3:
          wrong = "not a value";
          break;
        case SettingType::choice:
        case SettingType::string:
          wrong = json::array({1, 2});
          break;
        case SettingType::object:
        case SettingType::array:
          wrong = 7;
          break;
      }
      const std::string message = load_error(f, std::string(s.path), wrong);
      EXPECT_NE(message.find("/bodies/0/" + std::string(s.path) + ": expected"), std::string::npos)
          << message;
    }
  }
}

}  // namespace
}  // namespace pliant::scene
