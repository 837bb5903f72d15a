#include "pliant/core/mesh_transform.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pliant {
namespace {

// Compared with transforms worked out by hand, not with Eigen's own composition.
TEST(MeshTransform, UnitsScaleRotateTranslateInThatOrder) {
  MeshTransform t;
  t.metres_per_unit = *metres_per_unit("cm");
  t.scale = Vec3(2, 1, 3);
  t.rotation = *axis_angle_rotation(Vec3(0, 0, 5), 90);  // any length: the axis is normalised
  t.translate = Vec3(1, 0, -1);
  // (100, 50, 10) cm -> (1, 0.5, 0.1) m -> scaled (2, 0.5, 0.3) -> 90° about z: (-0.5, 2, 0.3)
  // -> translated (0.5, 2, -0.7).
  const Vec3 p = t.apply(Vec3(100, 50, 10));
  EXPECT_NEAR(p.x(), 0.5, 1e-15);
  EXPECT_NEAR(p.y(), 2.0, 1e-15);
  EXPECT_NEAR(p.z(), -0.7, 1e-15);
  EXPECT_FALSE(t.is_identity());
  EXPECT_TRUE(MeshTransform{}.is_identity());
}

TEST(MeshTransform, QuaternionEqualsAxisAngle) {
  // 120° about (1,1,1): the cyclic permutation x -> y -> z -> x, quaternion (1/2)(1, 1, 1, 1).
  const auto q = quaternion_rotation(0.5, 0.5, 0.5, 0.5);
  const auto a = axis_angle_rotation(Vec3(1, 1, 1), 120);
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE(a.ok());
  MeshTransform t;
  t.rotation = *q;
  const Vec3 p = t.apply(Vec3(1, 2, 3));
  EXPECT_NEAR((p - Vec3(3, 1, 2)).norm(), 0, 1e-15);
  t.rotation = *a;
  EXPECT_NEAR((t.apply(Vec3(1, 2, 3)) - Vec3(3, 1, 2)).norm(), 0, 1e-14);
  // Rounded to four digits, a 90° quaternion about x still reads (and is normalised).
  const auto rounded = quaternion_rotation(0.7071, 0.7071, 0, 0);
  ASSERT_TRUE(rounded.ok());
  EXPECT_NEAR(rounded->norm(), 1, 1e-15);
  t.rotation = *rounded;
  EXPECT_NEAR((t.apply(Vec3(0, 1, 0)) - Vec3(0, 0, 1)).norm(), 0, 1e-12);
}

TEST(MeshTransform, UnitsAndPositions) {
  EXPECT_EQ(*metres_per_unit("m"), 1.0);
  EXPECT_EQ(*metres_per_unit("cm"), 0.01);
  EXPECT_EQ(*metres_per_unit("mm"), 0.001);
  EXPECT_FALSE(metres_per_unit("inch"));
  EXPECT_FALSE(metres_per_unit("M"));
  std::vector<Vec3> points{Vec3(1, 2, 3), Vec3(-4, 0, 0.5)};
  MeshTransform t;
  t.metres_per_unit = 0.001;
  t.translate = Vec3(0, 0, 1);
  transform_positions(points, t);
  EXPECT_EQ(points[0], Vec3(0.001, 0.002, 1.003));
  EXPECT_EQ(points[1], Vec3(-0.004, 0, 1.0005));
}

TEST(MeshTransform, BadValuesSayWhatIsWrong) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(axis_angle_rotation(Vec3::Zero(), 30).message().find("zero vector"), std::string::npos);
  EXPECT_NE(axis_angle_rotation(Vec3(nan, 0, 1), 30).message().find("non-finite"), std::string::npos);
  EXPECT_NE(axis_angle_rotation(Vec3(0, 0, 1), nan).message().find("angle"), std::string::npos);
  EXPECT_NE(quaternion_rotation(1, 0, 0, 0.5).message().find("norm 1.118"), std::string::npos);
  EXPECT_NE(quaternion_rotation(0, 0, 0, 0).message().find("norm 0"), std::string::npos);
  EXPECT_NE(quaternion_rotation(nan, 0, 0, 0).message().find("non-finite"), std::string::npos);
  EXPECT_TRUE(check_scale(Vec3(1, 2, 0.5)).ok());
  EXPECT_NE(check_scale(Vec3(1, 0, 1)).message().find("scale factor y is 0"), std::string::npos);
  EXPECT_NE(check_scale(Vec3(1, 1, -2)).message().find("scale factor z is -2"), std::string::npos);
  EXPECT_NE(check_scale(Vec3(nan, 1, 1)).message().find("scale factor x is nan"), std::string::npos);
}

}  // namespace
}  // namespace pliant
