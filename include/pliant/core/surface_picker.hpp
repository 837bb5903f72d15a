// SurfacePicker: ray picking over several deforming surfaces (the bodies of a world, the surfaces
// of the viewer). One TriangleBvh per surface, rebuilt when that surface's topology version, node
// count or triangle count changes and refitted otherwise, so a pick after a step costs a refit
// (O(#triangles), no allocation) plus a logarithmic raycast.
#pragma once

#include "pliant/core/bvh.hpp"
#include "pliant/core/ray.hpp"
#include "pliant/core/types.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace pliant {

/// The closest surface a ray hits.
struct SurfaceHit {
  std::size_t surface = 0;  ///< which surface (the index given to update())
  RayHit hit;               ///< triangle, barycentric (u, v) and ray parameter t
};

class SurfacePicker {
 public:
  /// Sets the number of surfaces; new ones start empty.
  void resize(std::size_t surfaces) { surfaces_.resize(surfaces); }
  std::size_t size() const { return surfaces_.size(); }
  /// Brings surface i up to date with its current positions (unit: m) and triangles.
  void update(std::size_t i, std::span<const Vec3> positions, std::span<const Tri> triangles,
              std::uint64_t topology_version);
  /// Forgets every tree (the caller's surfaces were replaced wholesale).
  void invalidate();
  /// The closest hit over all surfaces with t in [0, t_max].
  std::optional<SurfaceHit> pick(const Ray& ray,
                                 double t_max = std::numeric_limits<double>::infinity()) const;

 private:
  struct Surface {
    TriangleBvh bvh;
    std::uint64_t topology = ~std::uint64_t{0};
    std::vector<Vec3> positions;
    std::vector<Tri> triangles;
  };
  std::vector<Surface> surfaces_;
};

}  // namespace pliant
