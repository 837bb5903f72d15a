// fit_rotation_from_moments: recovers a known rotation and refuses degenerate handle sets.
#include "pliant/models/green/green_body.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

namespace pliant::green {
namespace {

TEST(RotationFit, RecoversKnownRotationOfScatteredPoints) {
  const Mat3 R = Eigen::AngleAxisd(1.1, Vec3(0.3, -0.5, 0.8).normalized()).toRotationMatrix();
  const Vec3 t(0.4, -2.0, 1.5);
  double n = 0;
  Vec3 sp = Vec3::Zero(), sq = Vec3::Zero();
  Mat3 spq = Mat3::Zero();
  for (int k = 0; k < 7; ++k) {
    const Vec3 p(std::sin(1.3 * k), std::cos(0.7 * k + 1), 0.2 * k * k - 1);
    const Vec3 q = R * p + t;
    n += 1;
    sp += p;
    sq += q;
    spq += p * q.transpose();
  }
  Mat3 fitted;
  ASSERT_TRUE(fit_rotation_from_moments(n, sp, sq, spq, fitted));
  EXPECT_LT((fitted - R).norm(), 1e-12);
  EXPECT_NEAR(fitted.determinant(), 1.0, 1e-12);
}

TEST(RotationFit, CollinearOrTooFewPointsGiveIdentity) {
  Mat3 fitted;
  // Two points.
  EXPECT_FALSE(fit_rotation_from_moments(2, Vec3(1, 0, 0), Vec3(0, 1, 0), Mat3::Identity(), fitted));
  EXPECT_TRUE(fitted.isIdentity());
  // Three collinear points on the x axis, moved along y.
  double n = 0;
  Vec3 sp = Vec3::Zero(), sq = Vec3::Zero();
  Mat3 spq = Mat3::Zero();
  for (int k = 0; k < 3; ++k) {
    const Vec3 p(k, 0, 0), q(0, k, 0);
    n += 1;
    sp += p;
    sq += q;
    spq += p * q.transpose();
  }
  EXPECT_FALSE(fit_rotation_from_moments(n, sp, sq, spq, fitted));
  EXPECT_TRUE(fitted.isIdentity());
}

}  // namespace
}  // namespace pliant::green
