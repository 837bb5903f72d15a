#include "pliant/render/camera.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::render {

Vec3 Camera::forward() const {
  return -Vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
}
Vec3 Camera::eye() const { return target - distance * forward(); }
Vec3 Camera::right() const { return Vec3(std::cos(yaw), 0.0, -std::sin(yaw)); }
Vec3 Camera::up() const { return right().cross(forward()); }

double Camera::near_plane() const {
  // Content lies within scene_radius of the target (2× leaves room for panning and deformation);
  // the floor keeps the depth range finite when the eye is inside the content.
  return std::max(distance - 2.0 * scene_radius, 1e-3 * std::max(distance, scene_radius));
}
double Camera::far_plane() const { return distance + 2.0 * scene_radius; }

Eigen::Matrix4d Camera::view_matrix() const {
  const Vec3 r = right(), u = up(), f = forward(), e = eye();
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = r.transpose();
  m.block<1, 3>(1, 0) = u.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m(0, 3) = -r.dot(e);
  m(1, 3) = -u.dot(e);
  m(2, 3) = f.dot(e);
  return m;
}

Eigen::Matrix4d Camera::projection_matrix() const {
  const double n = near_plane(), f = far_plane();
  const double t = std::tan(0.5 * fov_y);
  Eigen::Matrix4d p = Eigen::Matrix4d::Zero();
  if (orthographic) {
    const double hh = distance * t, hw = hh * aspect();
    p(0, 0) = 1.0 / hw;
    p(1, 1) = 1.0 / hh;
    p(2, 2) = -2.0 / (f - n);
    p(2, 3) = -(f + n) / (f - n);
    p(3, 3) = 1.0;
    // The shift moves every point by the same normalised device offset.
    p(0, 3) = 2.0 * shift_x / width;
    p(1, 3) = -2.0 * shift_y / height;
  } else {
    p(0, 0) = 1.0 / (t * aspect());
    p(1, 1) = 1.0 / t;
    p(2, 2) = (f + n) / (n - f);
    p(2, 3) = 2.0 * f * n / (n - f);
    p(3, 2) = -1.0;
    // Off-axis: x_ndc = p00·x / -z + 2·shift_x / width, since w = -z (and likewise for y, down).
    p(0, 2) = -2.0 * shift_x / width;
    p(1, 2) = 2.0 * shift_y / height;
  }
  return p;
}

Ray Camera::ray(double px, double py) const {
  const double x = 2.0 * (px - shift_x) / width - 1.0;
  const double y = 1.0 - 2.0 * (py - shift_y) / height;
  const double t = std::tan(0.5 * fov_y);
  if (orthographic) {
    const double hh = distance * t, hw = hh * aspect();
    return Ray{eye() + x * hw * right() + y * hh * up(), forward()};
  }
  const Vec3 d = forward() + x * t * aspect() * right() + y * t * up();
  return Ray{eye(), d.normalized()};
}

Vec3 Camera::project(const Vec3& world) const {
  const Vec3 c = world - eye();
  const double depth = c.dot(forward());
  double sx = c.dot(right()), sy = c.dot(up());
  const double t = std::tan(0.5 * fov_y);
  const double scale = orthographic ? distance * t : depth * t;
  const double x = sx / (scale * aspect()), y = sy / scale;
  return {(x + 1.0) * 0.5 * width + shift_x, (1.0 - y) * 0.5 * height + shift_y, depth};
}

void Camera::frame(const Aabb& box, double margin) { frame_region(box, 0.0, 0.0, width, height, margin); }

void Camera::frame_region(const Aabb& box, double x0, double y0, double x1, double y1, double margin) {
  if (box.empty()) return;
  x0 = std::clamp(x0, 0.0, static_cast<double>(width));
  x1 = std::clamp(x1, 0.0, static_cast<double>(width));
  y0 = std::clamp(y0, 0.0, static_cast<double>(height));
  y1 = std::clamp(y1, 0.0, static_cast<double>(height));
  if (!(x1 - x0 >= 1.0 && y1 - y0 >= 1.0)) {
    x0 = y0 = 0.0;
    x1 = width;
    y1 = height;
  }
  shift_x = 0.5 * (x0 + x1) - 0.5 * width;
  shift_y = 0.5 * (y0 + y1) - 0.5 * height;
  const double r = std::max(0.5 * box.diagonal(), 1e-9);
  // The region's half angles: the view's vertical half extent tan(fov_y / 2) spans height / 2 pixels.
  const double t = std::tan(0.5 * fov_y);
  const double half_y = std::atan(t * (y1 - y0) / height);
  const double half_x = std::atan(t * (x1 - x0) / height);
  const double half = std::min(half_y, half_x);
  target = box.centre();
  scene_radius = r;
  // Perspective: the cone of half angle `half` touches a sphere of radius margin·r at distance
  // margin·r / sin(half). Orthographic: the view half extent distance·tan(half) must reach margin·r.
  distance = orthographic ? margin * r / std::tan(half) : margin * r / std::sin(half);
}

void Camera::orbit(double d_yaw, double d_pitch) {
  yaw = std::remainder(yaw + d_yaw, 2.0 * M_PI);
  pitch = std::clamp(pitch + d_pitch, -1.55, 1.55);
}

void Camera::pan(double dx_pixels, double dy_pixels) {
  const double metres_per_pixel = 2.0 * distance * std::tan(0.5 * fov_y) / height;
  target += metres_per_pixel * (-dx_pixels * right() + dy_pixels * up());
}

void Camera::zoom(double factor) {
  if (factor > 0.0 && std::isfinite(factor))
    distance = std::clamp(distance * factor, 1e-6 * scene_radius, 1e3 * scene_radius);
}

}  // namespace pliant::render
