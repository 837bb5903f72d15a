// The phyxel point cloud file: one vertex cell per phyxel and the documented fields.
#include "pliant/scene/phyxel_output.hpp"

#include "models/meshless/shapes.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace pliant::scene {
namespace {

using meshless::MlsBody;
namespace test = meshless::test;

TEST(PhyxelOutput, WritesAPointCloudWithItsFields) {
  const MlsBody body = test::box_body(Vec3::Zero(), Vec3(0.03, 0.02, 0.02), 0.01);
  std::vector<Vec3> x = body.rest;
  for (Vec3& p : x) p.x() *= 1.1;
  const auto path = std::filesystem::temp_directory_path() / "pliant_phyxels_test.vtu";
  ASSERT_TRUE(write_phyxels_vtu(path, body, x).ok());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  EXPECT_NE(s.find("NumberOfPoints=\"12\" NumberOfCells=\"12\""), std::string::npos);
  for (const char* field : {"displacement", "strain", "stress", "volume_change", "volume"}) {
    EXPECT_NE(s.find(std::string("Name=\"") + field + "\""), std::string::npos) << field;
  }
  std::filesystem::remove(path);
  EXPECT_FALSE(write_phyxels_vtu(path, body, std::span<const Vec3>(x).first(3)).ok());
}

}  // namespace
}  // namespace pliant::scene
