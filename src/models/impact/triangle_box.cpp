#include "pliant/models/impact/triangle_box.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace pliant::impact {

bool triangle_overlaps_box(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& centre,
                           const Vec3& half) {
  const std::array<Vec3, 3> v{a - centre, b - centre, c - centre};
  // Box face normals: the triangle's bounding box against the box.
  for (int k = 0; k < 3; ++k) {
    const double lo = std::min({v[0][k], v[1][k], v[2][k]});
    const double hi = std::max({v[0][k], v[1][k], v[2][k]});
    if (lo > half[k] || hi < -half[k]) return false;
  }
  const std::array<Vec3, 3> edge{v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  // Triangle normal: the box's projection radius against the plane offset.
  const Vec3 n = edge[0].cross(edge[1]);
  const double r = half.dot(n.cwiseAbs());
  if (std::abs(n.dot(v[0])) > r) return false;
  // The nine cross products of box axes and triangle edges.
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) {
      const Vec3 axis = Vec3::Unit(k).cross(edge[j]);
      const double p0 = axis.dot(v[0]), p1 = axis.dot(v[1]), p2 = axis.dot(v[2]);
      const double rad = half.dot(axis.cwiseAbs());
      if (std::min({p0, p1, p2}) > rad || std::max({p0, p1, p2}) < -rad) return false;
    }
  }
  return true;
}

}  // namespace pliant::impact
