#include "pliant/render/camera.hpp"

#include "pliant/core/ray.hpp"
#include "render/test_sphere.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::render {
namespace {

TEST(Camera, BasisIsOrthonormalAndRightHanded) {
  Camera c;
  for (double yaw : {-2.0, 0.0, 0.7, 3.0})
    for (double pitch : {-1.2, 0.0, 0.5}) {
      c.yaw = yaw;
      c.pitch = pitch;
      EXPECT_NEAR(c.forward().norm(), 1.0, 1e-12);
      EXPECT_NEAR(c.right().norm(), 1.0, 1e-12);
      EXPECT_NEAR(c.up().norm(), 1.0, 1e-12);
      EXPECT_NEAR(c.right().dot(c.forward()), 0.0, 1e-12);
      EXPECT_NEAR(c.up().dot(c.forward()), 0.0, 1e-12);
      // right × up = backwards (OpenGL camera looks along its -Z).
      EXPECT_LT((c.right().cross(c.up()) + c.forward()).norm(), 1e-12);
      EXPECT_GT(c.up().y(), 0.0);  // world +Y stays up on screen
      EXPECT_NEAR((c.eye() - c.target).norm(), c.distance, 1e-12);
    }
}

TEST(Camera, RayAndProjectAreInverse) {
  for (bool ortho : {false, true}) {
    Camera c;
    c.orthographic = ortho;
    c.width = 300;
    c.height = 200;
    c.target = Vec3(1, 2, 3);
    c.distance = 4.0;
    for (double px : {0.0, 10.5, 150.0, 299.0})
      for (double py : {0.0, 77.25, 100.0, 199.0}) {
        const Ray r = c.ray(px, py);
        EXPECT_NEAR(r.direction.norm(), 1.0, 1e-12);
        const Vec3 q = c.project(r.at(3.0));
        EXPECT_NEAR(q.x(), px, 1e-9) << ortho;
        EXPECT_NEAR(q.y(), py, 1e-9) << ortho;
      }
  }
}

TEST(Camera, ProjectMatchesViewProjectionMatrices) {
  Camera c;
  c.width = 320;
  c.height = 240;
  c.frame(Aabb{Vec3(-1, -1, -1), Vec3(1, 2, 1)});
  for (bool ortho : {false, true}) {
    c.orthographic = ortho;
    const Vec3 p(0.3, 0.9, -0.4);
    const Eigen::Vector4d clip = c.projection_matrix() * c.view_matrix() * p.homogeneous();
    const double x = clip.x() / clip.w(), y = clip.y() / clip.w(), z = clip.z() / clip.w();
    const Vec3 q = c.project(p);
    EXPECT_NEAR((x + 1) * 0.5 * c.width, q.x(), 1e-9);
    EXPECT_NEAR((1 - y) * 0.5 * c.height, q.y(), 1e-9);
    EXPECT_GT(z, -1.0);  // between the near and far planes
    EXPECT_LT(z, 1.0);
  }
}

TEST(Camera, FrameKeepsTheWholeBoxInView) {
  const Aabb box{Vec3(-0.2, 0.0, 1.0), Vec3(0.6, 0.05, 1.3)};
  for (int w : {100, 400})
    for (bool ortho : {false, true})
      for (double yaw : {0.0, 1.0, 2.5}) {
        Camera c;
        c.width = w;
        c.height = 200;
        c.orthographic = ortho;
        c.yaw = yaw;
        c.frame(box);
        EXPECT_LT((c.target - box.centre()).norm(), 1e-12);
        for (int k = 0; k < 8; ++k) {
          const Vec3 corner((k & 1) ? box.max.x() : box.min.x(), (k & 2) ? box.max.y() : box.min.y(),
                            (k & 4) ? box.max.z() : box.min.z());
          const Vec3 q = c.project(corner);
          EXPECT_GE(q.x(), 0.0);
          EXPECT_LE(q.x(), w);
          EXPECT_GE(q.y(), 0.0);
          EXPECT_LE(q.y(), 200.0);
          EXPECT_GT(q.z(), c.near_plane());
          EXPECT_LT(q.z(), c.far_plane());
        }
      }
}

// A view whose left part is covered by a panel: the box is framed in the free rectangle, its centre
// lands at the rectangle's centre, every corner stays inside it, and the shifted projection still
// agrees with the matrices and with ray() (so picking under the panel-free view is exact).
TEST(Camera, FrameRegionCentresTheBoxInTheFreeRectangle) {
  const Aabb box{Vec3(-0.2, 0.0, 1.0), Vec3(0.6, 0.05, 1.3)};
  const double x0 = 360, y0 = 0, x1 = 1024, y1 = 720;
  for (bool ortho : {false, true})
    for (double yaw : {0.0, 1.0, 2.5}) {
      Camera c;
      c.width = 1024;
      c.height = 720;
      c.orthographic = ortho;
      c.yaw = yaw;
      c.frame_region(box, x0, y0, x1, y1);
      EXPECT_NEAR(c.shift_x, 0.5 * (x0 + x1) - 512.0, 1e-12);
      const Vec3 centre = c.project(box.centre());
      EXPECT_NEAR(centre.x(), 0.5 * (x0 + x1), 1e-9);
      EXPECT_NEAR(centre.y(), 0.5 * (y0 + y1), 1e-9);
      double left = INFINITY, right = -INFINITY;
      for (int k = 0; k < 8; ++k) {
        const Vec3 corner((k & 1) ? box.max.x() : box.min.x(), (k & 2) ? box.max.y() : box.min.y(),
                          (k & 4) ? box.max.z() : box.min.z());
        const Vec3 q = c.project(corner);
        left = std::min(left, q.x());
        right = std::max(right, q.x());
        EXPECT_GE(q.y(), y0);
        EXPECT_LE(q.y(), y1);
        const Eigen::Vector4d clip = c.projection_matrix() * c.view_matrix() * corner.homogeneous();
        EXPECT_NEAR((clip.x() / clip.w() + 1) * 0.5 * c.width, q.x(), 1e-9);
        EXPECT_NEAR((1 - clip.y() / clip.w()) * 0.5 * c.height, q.y(), 1e-9);
        const Vec3 back = c.project(c.ray(q.x(), q.y()).at(1.0));
        EXPECT_NEAR(back.x(), q.x(), 1e-9);
        EXPECT_NEAR(back.y(), q.y(), 1e-9);
      }
      EXPECT_GE(left, x0) << "the panel would cover the body";
      EXPECT_LE(right, x1);
      // Orbiting keeps the box centre where the free rectangle's centre is.
      c.orbit(0.4, 0.2);
      EXPECT_NEAR(c.project(box.centre()).x(), 0.5 * (x0 + x1), 1e-9);
      // frame() is frame_region() over the whole image: no shift.
      c.frame(box);
      EXPECT_EQ(c.shift_x, 0.0);
      EXPECT_EQ(c.shift_y, 0.0);
    }
}

TEST(Camera, CentreRayHitsSphereAtExpectedDistance) {
  const double r = 0.3;
  const TriMesh sphere = test::make_sphere(r, 4, Vec3(0.5, -0.2, 0.1));
  Camera c;
  c.width = 640;
  c.height = 480;
  c.frame(bounding_box(sphere.positions));
  const Ray ray = c.ray(c.width / 2.0, c.height / 2.0);
  double best = INFINITY;
  for (const Tri& t : sphere.triangles)
    if (auto hit = intersect_ray_triangle(ray, sphere.positions[t[0]], sphere.positions[t[1]],
                                          sphere.positions[t[2]]))
      best = std::min(best, hit->t);
  // The nearest surface point along the axis is at distance − r (the polygon lies inside the
  // sphere by at most r·(1 − cos(edge angle / 2)), under 0.1 % at 4 subdivisions).
  EXPECT_NEAR(best, c.distance - r, 2e-3 * r);
}

TEST(Camera, PanMovesThePointUnderTheCursorWithIt) {
  Camera c;
  c.width = 400;
  c.height = 300;
  const Vec3 p = c.target + 0.1 * c.right();  // a point at the target's depth
  const Vec3 before = c.project(p);
  c.pan(25.0, -10.0);
  const Vec3 after = c.project(p);
  EXPECT_NEAR(after.x() - before.x(), 25.0, 1e-9);
  EXPECT_NEAR(after.y() - before.y(), -10.0, 1e-9);
}

TEST(Camera, OrbitClampsPitchAndZoomScalesDistance) {
  Camera c;
  c.orbit(0.0, 10.0);
  EXPECT_LT(c.pitch, M_PI / 2);
  c.orbit(0.0, -20.0);
  EXPECT_GT(c.pitch, -M_PI / 2);
  const double d = c.distance;
  c.zoom(0.5);
  EXPECT_DOUBLE_EQ(c.distance, 0.5 * d);
  c.zoom(-1.0);  // ignored
  EXPECT_DOUBLE_EQ(c.distance, 0.5 * d);
}

}  // namespace
}  // namespace pliant::render
