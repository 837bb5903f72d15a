#include "pliant/render/guides.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::render {

double grid_spacing(double extent) {
  if (!(extent > 0.0) || !std::isfinite(extent)) return 1.0;
  const double raw = extent / 10.0;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double best = decade;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade <= raw * (1.0 + 1e-12)) best = m * decade;
  return best;
}

TriMesh floor_grid(const Aabb& around, double height, double line_width) {
  TriMesh mesh;
  if (around.empty() || !std::isfinite(height)) return mesh;
  const Vec3 e = around.extent();
  const double half = std::max({e.x(), e.z(), around.diagonal(), 1e-9});
  const double spacing = grid_spacing(2.0 * half);
  const Vec3 c = around.centre();
  const double x0 = spacing * std::floor((c.x() - half) / spacing),
               x1 = spacing * std::ceil((c.x() + half) / spacing);
  const double z0 = spacing * std::floor((c.z() - half) / spacing),
               z1 = spacing * std::ceil((c.z() + half) / spacing);
  const double w = 0.5 * line_width;
  const auto strip = [&](const Vec3& a, const Vec3& b, const Vec3& side) {
    const Index n = static_cast<Index>(mesh.positions.size());
    mesh.positions.insert(mesh.positions.end(), {a - w * side, a + w * side, b + w * side, b - w * side});
    // Counter-clockwise seen from above (+Y): outward normals up.
    mesh.triangles.push_back({n, n + 2, n + 1});
    mesh.triangles.push_back({n, n + 3, n + 2});
  };
  const long nx = std::lround((x1 - x0) / spacing), nz = std::lround((z1 - z0) / spacing);
  for (long i = 0; i <= nx; ++i) {
    const double x = x0 + static_cast<double>(i) * spacing;
    strip(Vec3(x, height, z0), Vec3(x, height, z1), Vec3::UnitX());
  }
  for (long k = 0; k <= nz; ++k) {
    const double z = z0 + static_cast<double>(k) * spacing;
    strip(Vec3(x0, height, z), Vec3(x1, height, z), -Vec3::UnitZ());
  }
  return mesh;
}

std::array<Arrow, 3> axes_arrows(const Vec3& origin, double length) {
  std::array<Arrow, 3> axes;
  const Rgb colors[3] = {{0.90f, 0.25f, 0.22f}, {0.35f, 0.80f, 0.30f}, {0.30f, 0.50f, 0.95f}};
  const char* names[3] = {"X", "Y", "Z"};
  for (int a = 0; a < 3; ++a) {
    axes[a].origin = origin;
    axes[a].tip = origin + length * Vec3::Unit(a);
    axes[a].color = colors[a];
    axes[a].radius = length / 40.0;
    axes[a].label = names[a];
  }
  return axes;
}

}  // namespace pliant::render
