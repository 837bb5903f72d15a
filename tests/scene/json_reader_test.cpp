#include "scene/json_reader.hpp"

#include <gtest/gtest.h>

namespace pliant::scene::detail {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const JsonReadError& e) {
    return e.what();
  }
  return "(no error)";
}

const nlohmann::json kDoc = nlohmann::json::parse(R"({
  "pliant": 1,
  "bodies": [ { "name": "pipe", "material": { "E": "soft", "nu": 0.7 }, "a/b": 3 } ],
  "steps": 2.5
})");

TEST(JsonReader, ErrorsNameFilePointerExpectationAndValue) {
  const JsonReader root = reader_of(kDoc, "scene.json");
  EXPECT_EQ(error_of([&] { root.at("bodies").elements()[0].at("material").at("E").positive(); }),
            "scene.json: /bodies/0/material/E: expected a number > 0, got \"soft\"");
  EXPECT_EQ(error_of([&] {
              root.at("bodies").elements()[0].at("material").at("nu").number_in(-1, 0.5, true, true);
            }),
            "scene.json: /bodies/0/material/nu: expected a number > -1 and < 0.5, got 0.7");
  EXPECT_EQ(error_of([&] { root.at("steps").integer(1, 1000); }),
            "scene.json: /steps: expected an integer in [1, 1000], got 2.5");
  EXPECT_EQ(error_of([&] { root.at("output"); }), "scene.json: /: missing required key \"output\"");
  EXPECT_EQ(error_of([&] { root.at("bodies").elements(2); }),
            "scene.json: /bodies: expected at least 2 elements, got an array of 1");
}

TEST(JsonReader, UnknownKeysAreErrorsWithEscapedPointer) {
  JsonReader body = reader_of(kDoc, "s.json").at("bodies").elements()[0];
  EXPECT_EQ(error_of([&] {
              body.expect_object({"name", "material"});
            }),
            "s.json: /bodies/0/a~1b: unknown key (allowed here: name, material)");
  EXPECT_EQ(error_of([&] { body.expect_object({"name", "material", "a/b"}); }), "(no error)");
}

TEST(JsonReader, ChoicesVectorsAndDefaults) {
  const auto doc = nlohmann::json::parse(R"({"family": "fem", "g": [0, 0, -9.81], "bad": [1, 2]})");
  const JsonReader r = reader_of(doc, "x.json");
  EXPECT_EQ(error_of([&] {
              r.at("family").one_of({"green", "springs"});
            }),
            "x.json: /family: expected one of \"green\", \"springs\", got \"fem\"");
  EXPECT_EQ(r.at("g").vec3(), Vec3(0, 0, -9.81));
  EXPECT_EQ(error_of([&] { r.at("bad").vec3(); }),
            "x.json: /bad: expected an array of 3 numbers, got an array of 2");
  EXPECT_EQ(r.number_or("missing", 4.5), 4.5);
  EXPECT_EQ(r.integer_or("missing", 7, 0, 10), 7);
}

// A key that takes several forms (a region string or an object, say) asks what it holds.
TEST(JsonReader, KindsAndSizes) {
  const auto doc = nlohmann::json::parse(R"({"s": "xmin", "o": {"a": 1, "b": 2}, "a": [1, 2, 3], "n": null,
                                             "t": true, "x": 2})");
  const JsonReader r = reader_of(doc, "k.json");
  EXPECT_TRUE(r.is_object());
  EXPECT_TRUE(r.at("s").is_string());
  EXPECT_FALSE(r.at("s").is_array());
  EXPECT_TRUE(r.at("o").is_object());
  EXPECT_TRUE(r.at("a").is_array());
  EXPECT_TRUE(r.at("n").is_null());
  EXPECT_TRUE(r.at("t").is_boolean());
  EXPECT_TRUE(r.at("x").is_number());
  EXPECT_FALSE(r.at("x").is_string());
  EXPECT_EQ(r.at("o").size(), 2u);
  EXPECT_EQ(r.at("a").size(), 3u);
  EXPECT_EQ(r.at("s").size(), 0u) << "a string has no elements";
  EXPECT_EQ(r.at("o").at("b").pointer(), "/o/b");
  EXPECT_EQ(r.file(), "k.json");
  // The reader names the same value json_of reaches (the scene reader compares names through it).
  EXPECT_EQ(&json_of(r.at("a")), &doc["a"]);
}

}  // namespace
}  // namespace pliant::scene::detail
