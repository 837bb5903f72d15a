// Cylinder contact: inside only within the radius and between the end caps, depth and normal from
// the axis, a fixed normal on the axis, and the surface point at exactly the radius.
#include "pliant/core/cylinder.hpp"

#include <gtest/gtest.h>

#include <random>

namespace pliant {
namespace {

TEST(Cylinder, ContactDepthNormalAndSurfacePoint) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> any(-1.0, 1.0);
  const Cylinder c{Vec3(0.1, -0.2, 0.3), Vec3(1, 2, 2).normalized(), 0.05, 0.2};
  int inside = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p = c.centre + 0.3 * Vec3(any(rng), any(rng), any(rng));
    const Vec3 d = p - c.centre;
    const double along = d.dot(c.axis);
    const Vec3 radial = d - along * c.axis;
    const auto contact = cylinder_contact(c, p);
    const bool in = std::abs(along) <= c.half_length && radial.norm() < c.radius;
    ASSERT_EQ(contact.has_value(), in);
    if (!in) continue;
    ++inside;
    EXPECT_NEAR(contact->along, along, 1e-15);
    EXPECT_NEAR(contact->depth, c.radius - radial.norm(), 1e-15);
    EXPECT_NEAR(contact->normal.norm(), 1.0, 1e-15);
    EXPECT_NEAR(contact->normal.dot(c.axis), 0.0, 1e-12);  // rounding grows as the point nears the axis
    EXPECT_GT(contact->normal.dot(radial), 0.0);
    // The surface point: on the lateral surface, at the same height, straight out from p.
    const Vec3 s = cylinder_surface_point(c, *contact);
    const Vec3 ds = s - c.centre;
    EXPECT_NEAR((ds - ds.dot(c.axis) * c.axis).norm(), c.radius, 1e-15);
    EXPECT_NEAR((s - p).norm(), contact->depth, 1e-15);
  }
  EXPECT_GT(inside, 20);
}

TEST(Cylinder, OnTheAxisTheNormalIsFixedAndEndCapsDoNotPush) {
  const Cylinder c{Vec3(0, 0, 0), Vec3(0, 0, 1), 0.01, 0.1};
  const auto on_axis = cylinder_contact(c, Vec3(0, 0, 0.05));
  ASSERT_TRUE(on_axis.has_value());
  EXPECT_EQ(on_axis->normal, Vec3(0, 0, 1).unitOrthogonal());
  EXPECT_EQ(on_axis->depth, c.radius);
  EXPECT_FALSE(cylinder_contact(c, Vec3(0, 0, 0.1001)).has_value());
  EXPECT_TRUE(cylinder_contact(c, Vec3(0, 0, -0.1)).has_value());   // the cap itself is inside
  EXPECT_FALSE(cylinder_contact(c, Vec3(0.01, 0, 0)).has_value());  // on the lateral surface: outside
}

}  // namespace
}  // namespace pliant
