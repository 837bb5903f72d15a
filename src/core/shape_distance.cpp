#include "pliant/core/shape_distance.hpp"

#include <algorithm>
#include <cmath>

namespace pliant {

SurfaceDistance plane_distance(const Vec3& normal, const Vec3& p) {
  const double d = normal.dot(p);
  return {d, p - d * normal, normal};
}

SurfaceDistance sphere_distance(double radius, const Vec3& p) {
  const double r = p.norm();
  const Vec3 n = r > 1e-300 ? Vec3(p / r) : Vec3::UnitZ();
  return {r - radius, radius * n, n};
}

SurfaceDistance capsule_distance(double radius, double half_length, const Vec3& p) {
  const double along = std::clamp(p.y(), -half_length, half_length);
  const Vec3 c(0.0, along, 0.0);
  const Vec3 d = p - c;
  const double r = d.norm();
  // The fixed x direction on the axis, so the result does not depend on rounding.
  const Vec3 n = r > 1e-12 * radius ? Vec3(d / r) : Vec3::UnitX();
  return {r - radius, c + radius * n, n};
}

SurfaceDistance box_distance(const Vec3& h, const Vec3& p) {
  const Vec3 q = p.cwiseAbs() - h;
  if ((q.array() <= 0.0).all()) {
    // Inside: out through the nearest face.
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (q[k] > q[axis]) axis = k;
    Vec3 n = Vec3::Zero();
    n[axis] = p[axis] >= 0.0 ? 1.0 : -1.0;
    Vec3 point = p;
    point[axis] = n[axis] * h[axis];
    return {q[axis], point, n};
  }
  const Vec3 point = p.cwiseMax(-h).cwiseMin(h);
  const Vec3 d = p - point;
  const double r = d.norm();
  return {r, point, d / r};
}

}  // namespace pliant
