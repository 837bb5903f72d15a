// Solid ball from a structured cube grid mapped radially onto the ball (a "cube-to-sphere" blend).
#include "pliant/meshing/ball.hpp"

#include "meshing/detail.hpp"

#include <cmath>

namespace pliant::meshing {

namespace {

// Scale c of the undistorted cube at the centre relative to the ball. Along a ray the map is
// |f| = r·((1 − s)·c·‖p‖ + s²) for the cube level s = ‖p‖∞, monotone for c < 2/√3. Measured minimum
// dihedral angles at resolutions 4 / 8 / 32: c = 0.6: 29° / 26° / 24°; c = 0.85: 38° / 34° / 31°;
// c = 1.0: 39° / 34° / 30° (maximum dihedral 123°); c = 1.1: down to 20°. 0.85 is the best compromise.
constexpr double kCenterScale = 0.85;

Vec3 map_to_ball(const Vec3& p) {
  const double s = p.cwiseAbs().maxCoeff();
  if (s == 0.0) return Vec3::Zero();
  const double norm = p.norm();
  return p * ((1.0 - s) * kCenterScale + s * s / norm);
}

}  // namespace

Result<TetMesh> ball_mesh(const BallDef& def) {
  for (int a = 0; a < 3; ++a) {
    static const char* kField[3] = {"center.x", "center.y", "center.z"};
    if (auto e = detail::require_finite("ball", kField[a], def.center[a])) return *e;
  }
  if (auto e = detail::require_positive("ball", "radius", def.radius)) return *e;
  if (auto e = detail::require_at_least("ball", "resolution", def.resolution, 2)) return *e;
  if (def.resolution % 2 != 0) {
    return Error{"ball: resolution must be even (got " + std::to_string(def.resolution) + ")"};
  }
  const long long n = def.resolution, half = n / 2;
  if (auto e = detail::require_element_budget("ball", static_cast<long double>(n) * n * n * 6)) return *e;

  const auto id = [&](long long i, long long j, long long k) {
    return static_cast<Index>(i + (n + 1) * (j + (n + 1) * k));
  };
  TetMesh mesh;
  mesh.positions.reserve(static_cast<std::size_t>((n + 1) * (n + 1) * (n + 1)));
  for (long long k = 0; k <= n; ++k) {
    for (long long j = 0; j <= n; ++j) {
      for (long long i = 0; i <= n; ++i) {
        // Integer arithmetic keeps the grid exactly symmetric: p = (2i − n)/n.
        const Vec3 p(static_cast<double>(2 * i - n), static_cast<double>(2 * j - n),
                     static_cast<double>(2 * k - n));
        mesh.positions.push_back(def.center + def.radius * map_to_ball(p / static_cast<double>(n)));
      }
    }
  }
  mesh.tets.reserve(static_cast<std::size_t>(n * n * n * 6));
  std::array<Index, 8> node;
  std::array<detail::LatticePoint, 8> point;
  for (long long k = 0; k < n; ++k) {
    for (long long j = 0; j < n; ++j) {
      for (long long i = 0; i < n; ++i) {
        // Mirror the local axes in the negative half of each axis so local vertex 0 is the cell corner
        // nearest the centre: the Kuhn diagonal then points outwards and every tet keeps that inner
        // corner, which is never on the sphere.
        const bool fx = i < half, fy = j < half, fz = k < half;
        for (int v = 0; v < 8; ++v) {
          const int a = v & 1, b = (v >> 1) & 1, c = (v >> 2) & 1;
          const long long gi = i + (fx ? 1 - a : a), gj = j + (fy ? 1 - b : b), gk = k + (fz ? 1 - c : c);
          node[v] = id(gi, gj, gk);
          point[v] = {static_cast<int>(gi), static_cast<int>(gj), static_cast<int>(gk)};
        }
        detail::split_cell(node, point, CellSplit::six, false, mesh.tets);
      }
    }
  }
  return mesh;
}

}  // namespace pliant::meshing
