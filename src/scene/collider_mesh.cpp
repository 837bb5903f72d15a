#include "pliant/scene/collider_mesh.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::scene {
namespace {

// A sphere or capsule in the local frame: rings of `segments` vertices from the −y pole to the +y pole,
// the upper hemisphere shifted by +half_length along y and the lower by −half_length (0: a sphere).
TriMesh round_surface(double radius, double half_length, int segments) {
  const int around = std::max(segments, 4);
  const int half_rings = std::max(around / 4, 2);  // rings per hemisphere, pole excluded
  TriMesh m;
  m.positions.push_back(Vec3(0.0, -radius - half_length, 0.0));  // −y pole
  // Rings from the lower pole up: the lower hemisphere's, then the upper's.
  std::vector<int> ring_start;
  for (int hemi = 0; hemi < 2; ++hemi) {
    // A sphere has one equator; a capsule has two, the side between them.
    const int first = hemi == 0 ? 1 : (half_length > 0.0 ? 0 : 1);
    for (int r = first; r <= (hemi == 0 ? half_rings : half_rings - 1); ++r) {
      // Polar angle from −y: φ in (0, π/2] for the lower, [π/2, π) for the upper hemisphere.
      const double phi = hemi == 0 ? 0.5 * M_PI * r / half_rings : 0.5 * M_PI + 0.5 * M_PI * r / half_rings;
      const double y = -radius * std::cos(phi) + (hemi == 0 ? -half_length : half_length);
      const double rr = radius * std::sin(phi);
      ring_start.push_back(static_cast<int>(m.positions.size()));
      for (int k = 0; k < around; ++k) {
        const double a = 2.0 * M_PI * k / around;
        m.positions.push_back(Vec3(rr * std::cos(a), y, rr * std::sin(a)));
      }
    }
  }
  const auto top = static_cast<Index>(m.positions.size());
  m.positions.push_back(Vec3(0.0, radius + half_length, 0.0));  // +y pole
  auto at = [&](std::size_t ring, int k) { return static_cast<Index>(ring_start[ring] + (k % around)); };
  for (int k = 0; k < around; ++k) m.triangles.push_back({0, at(0, k), at(0, k + 1)});
  for (std::size_t r = 0; r + 1 < ring_start.size(); ++r)
    for (int k = 0; k < around; ++k) {
      m.triangles.push_back({at(r, k), at(r + 1, k), at(r + 1, k + 1)});
      m.triangles.push_back({at(r, k), at(r + 1, k + 1), at(r, k + 1)});
    }
  const std::size_t last = ring_start.size() - 1;
  for (int k = 0; k < around; ++k) m.triangles.push_back({top, at(last, k + 1), at(last, k)});
  return m;
}

TriMesh box_surface(const Vec3& h) {
  TriMesh m;
  for (int i = 0; i < 8; ++i)
    m.positions.push_back(Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
  // Two outward triangles per face (corners by their bits x = 1, y = 2, z = 4).
  static constexpr int kQuads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                       {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : kQuads) {
    m.triangles.push_back({q[0], q[1], q[2]});
    m.triangles.push_back({q[0], q[2], q[3]});
  }
  return m;
}

}  // namespace

TriMesh collider_surface(const Collider& collider, const Pose& at, const Aabb& around, int segments) {
  TriMesh m;
  switch (collider.shape) {
    case ColliderShape::plane: {
      const Vec3 n = at.direction_to_world(collider.normal).normalized();
      const Vec3 o = at.position;
      const Vec3 c0 = around.empty() ? o : around.centre();
      const Vec3 c = c0 - (c0 - o).dot(n) * n;
      const double half = around.empty() || !(around.diagonal() > 0.0) ? 1.0 : 0.6 * around.diagonal();
      const Vec3 u = n.unitOrthogonal(), v = n.cross(u);
      m.positions = {c + half * (-u - v), c + half * (u - v), c + half * (u + v), c + half * (-u + v)};
      m.triangles = {{0, 1, 2}, {0, 2, 3}};  // counter-clockwise about n: facing out of the solid
      return m;
    }
    case ColliderShape::sphere:
      m = round_surface(collider.radius, 0.0, segments);
      break;
    case ColliderShape::capsule:
      m = round_surface(collider.radius, collider.half_length, segments);
      break;
    case ColliderShape::box:
      m = box_surface(collider.half_extents);
      break;
    case ColliderShape::mesh:
      if (collider.mesh) m = collider.mesh->mesh();
      break;
  }
  for (Vec3& p : m.positions) p = at.to_world(p);
  return m;
}

}  // namespace pliant::scene
