// docs/scene-format.md stays true: every complete scene in a ```json block loads and steps, every
// interaction in a ```jsonc block loads and steps inside the first of those scenes, and the error
// messages quoted in the ```text block under "## Errors" are ones the bad-scene corpus really gives.
#include "pliant/scene/families.hpp"
#include "pliant/scene/scene_file.hpp"
#include "pliant/scene/setting_spec.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

struct Block {
  std::string language;
  std::string text;
  int line = 0;  // of the opening fence, for messages
};

std::vector<Block> fenced_blocks(const std::string& markdown) {
  std::vector<Block> blocks;
  std::istringstream in(markdown);
  std::string line;
  int number = 0;
  Block* open = nullptr;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      if (open) {
        open = nullptr;
      } else {
        blocks.push_back({line.substr(3), "", number});
        open = &blocks.back();
      }
    } else if (open) {
      open->text += line + "\n";
    }
  }
  EXPECT_EQ(open, nullptr) << "unclosed code block";
  return blocks;
}

std::vector<Block> doc_blocks() {
  std::ifstream in(std::string(PLIANT_DOCS_DIR) + "/scene-format.md");
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << "cannot read docs/scene-format.md";
  return fenced_blocks(s.str());
}

// Loads the scene and takes two steps; returns false (with a test failure) when it does not load.
bool loads_and_steps(const std::string& json, const std::string& where) {
  Result<Scene> scene = parse_scene(json, "doc.json");
  EXPECT_TRUE(scene.ok()) << where << ": " << scene.message();
  if (!scene.ok()) return false;
  World& world = *scene->world;
  world.step();
  world.step();
  for (std::size_t b = 0; b < world.body_count(); ++b) {
    for (const Vec3& x : world.body(static_cast<Index>(b)).surface_positions()) {
      EXPECT_TRUE(x.allFinite()) << where;
    }
  }
  return true;
}

TEST(SceneFormatDoc, CompleteScenesLoadAndStep) {
  int scenes = 0;
  for (const Block& b : doc_blocks()) {
    if (b.language != "json") continue;
    const auto doc = nlohmann::json::parse(b.text, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << "docs/scene-format.md:" << b.line << ": not JSON";
    if (loads_and_steps(b.text, "docs/scene-format.md:" + std::to_string(b.line))) ++scenes;
  }
  EXPECT_GE(scenes, 1);
}

TEST(SceneFormatDoc, InteractionFragmentsLoadInTheFirstScene) {
  const auto blocks = doc_blocks();
  nlohmann::json base;
  for (const Block& b : blocks) {
    if (b.language == "json") {
      base = nlohmann::json::parse(b.text);
      break;
    }
  }
  ASSERT_TRUE(base.is_object());
  int fragments = 0;
  for (const Block& b : blocks) {
    if (b.language != "jsonc") continue;
    const std::string where = "docs/scene-format.md:" + std::to_string(b.line);
    auto fragment = nlohmann::json::parse(b.text, nullptr, false);
    if (fragment.is_discarded()) {
      // A `"key": value` member: valid JSON once wrapped in an object.
      EXPECT_FALSE(nlohmann::json::parse("{" + b.text + "}", nullptr, false).is_discarded()) << where;
      continue;
    }
    ASSERT_TRUE(fragment.is_object() && fragment.contains("type")) << where;
    nlohmann::json scene = base;
    scene["interactions"] = nlohmann::json::array({fragment});
    if (loads_and_steps(scene.dump(), where)) ++fragments;
  }
  EXPECT_GE(fragments, 3);  // grab, probe, tool
}

// Every error quoted under "## Errors" is the message (less the file name) that some scene of the
// bad-scene corpus really gives.
TEST(SceneFormatDoc, QuotedErrorsAreRealMessages) {
  const std::filesystem::path dir = std::filesystem::path(PLIANT_TESTS_DATA_DIR) / "bad_scenes";
  std::vector<std::string> messages;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    Result<Scene> scene = load_scene(entry.path());
    ASSERT_FALSE(scene.ok()) << entry.path();
    const std::string prefix = entry.path().string() + ": ";
    ASSERT_EQ(scene.message().rfind(prefix, 0), 0u) << scene.message();
    messages.push_back(scene.message().substr(prefix.size()));
  }
  ASSERT_GE(messages.size(), 20u);
  int quoted = 0;
  for (const Block& b : doc_blocks()) {
    if (b.language != "text" || b.text.rfind("scene.json: ", 0) != 0) continue;
    std::istringstream lines(b.text);
    std::string line;
    while (std::getline(lines, line)) {
      ++quoted;
      ASSERT_EQ(line.rfind("scene.json: ", 0), 0u) << line;
      const std::string quote = line.substr(12);
      EXPECT_NE(std::find(messages.begin(), messages.end(), quote), messages.end())
          << "docs/scene-format.md:" << b.line << ": no bad scene gives: " << quote;
    }
  }
  EXPECT_GE(quoted, 5);
}

// Each family's section carries its settings table exactly as the declarations render it
// (settings_markdown): a key, type, unit, default, range or help line changed in the code and not in
// the docs, or the other way round, fails here with the table to paste.
TEST(SceneFormatDoc, FamilySettingsTablesMatchTheDeclarations) {
  std::ifstream in(std::string(PLIANT_DOCS_DIR) + "/scene-format.md");
  std::stringstream s;
  s << in.rdbuf();
  const std::string doc = s.str();
  for (const FamilyInfo& f : registered_families()) {
    const std::string heading = "## Family `" + f.name + "`";
    const std::size_t at = doc.find(heading);
    ASSERT_NE(at, std::string::npos) << "docs/scene-format.md has no section " << heading;
    const std::size_t end = doc.find("\n## ", at + 1);
    const std::string section = doc.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const std::string expected = settings_markdown(f.name);
    EXPECT_NE(section.find("\n" + expected), std::string::npos)
        << "docs/scene-format.md, " << heading
        << ": the settings table differs from the family's declarations; it should read:\n"
        << expected;
  }
}

}  // namespace
}  // namespace pliant::scene
