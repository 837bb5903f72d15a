#include "pliant/core/surface_picker.hpp"

namespace pliant {

void SurfacePicker::update(std::size_t i, std::span<const Vec3> positions, std::span<const Tri> triangles,
                           std::uint64_t topology_version) {
  Surface& s = surfaces_[i];
  s.positions.assign(positions.begin(), positions.end());
  if (s.topology != topology_version || s.triangles.size() != triangles.size() ||
      s.bvh.triangle_count() != triangles.size()) {
    s.triangles.assign(triangles.begin(), triangles.end());
    s.bvh.build(s.positions, s.triangles);
    s.topology = topology_version;
  } else {
    s.bvh.refit(s.positions);  // a changed node count rebuilds inside refit
  }
}

void SurfacePicker::invalidate() {
  for (Surface& s : surfaces_) s.topology = ~std::uint64_t{0};
}

std::optional<SurfaceHit> SurfacePicker::pick(const Ray& ray, double t_max) const {
  std::optional<SurfaceHit> best;
  for (std::size_t i = 0; i < surfaces_.size(); ++i) {
    auto hit = surfaces_[i].bvh.raycast(ray, best ? best->hit.t : t_max);
    if (hit && (!best || hit->t < best->hit.t)) best = SurfaceHit{i, *hit};  // ties: the first surface
  }
  return best;
}

}  // namespace pliant
