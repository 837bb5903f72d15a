// Result<T> and Status: a failed result's value access throws with the one-line message.
#include "pliant/core/result.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pliant {
namespace {

Result<int> parse_positive(int x) {
  if (x <= 0) return Error{"x: expected a number > 0, got " + std::to_string(x)};
  return x;
}

TEST(Result, ValueOfSuccess) {
  Result<int> r = parse_positive(3);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 3);
  EXPECT_EQ(r.value(), 3);
  EXPECT_THROW((void)r.error(), std::logic_error);
}

TEST(Result, ValueOfFailureThrowsTheMessage) {
  Result<int> r = parse_positive(-2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "x: expected a number > 0, got -2");
  for (int access = 0; access < 3; ++access) {
    try {
      if (access == 0) (void)r.value();
      if (access == 1) (void)*r;
      if (access == 2) (void)std::move(r).value();
      FAIL() << "no exception for access " << access;
    } catch (const BadResultAccess& e) {
      EXPECT_STREQ(e.what(), "x: expected a number > 0, got -2");
    }
  }
}

TEST(Result, ArrowOnFailureThrows) {
  Result<std::vector<int>> r = Error{"mesh.obj:3: bad vertex"};
  EXPECT_THROW((void)r->size(), BadResultAccess);
  // A BadResultAccess is a std::runtime_error, so a generic handler prints the message.
  try {
    (void)r->size();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "mesh.obj:3: bad vertex");
  }
}

TEST(Status, ValueThrowsOnlyOnError) {
  Status good;
  EXPECT_NO_THROW(good.value());
  EXPECT_THROW((void)good.error(), std::logic_error);
  Status bad = Error{"scene.json: /steps: expected an integer >= 0"};
  try {
    bad.value();
    FAIL() << "no exception";
  } catch (const BadResultAccess& e) {
    EXPECT_STREQ(e.what(), "scene.json: /steps: expected an integer >= 0");
  }
}

}  // namespace
}  // namespace pliant
