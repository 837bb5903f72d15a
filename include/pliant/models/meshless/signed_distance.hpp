// Signed distance to a closed triangle surface (negative inside) and its sampled grid: the first step
// of sampling a body into phyxels (Li et al., patent CN102831280, claim 1).
//
// The distance comes from the surface BVH's nearest point q; the sign is that of (p - q)·n, with n the
// angle-weighted pseudonormal of the feature q lies on (face, edge or vertex). Bærentzen & Aanæs (2005)
// show this sign is right everywhere for a closed, consistently oriented manifold surface.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/bvh.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <array>
#include <vector>

namespace pliant::meshless {

/// Exact signed distance to a closed surface. Queries are const and thread-safe.
class SignedDistance {
 public:
  /// Builds from a closed, outward-oriented surface (every edge shared by exactly two triangles).
  /// Fails with a one-line message on an empty surface, an open or non-manifold edge or a triangle of
  /// zero area.
  static Result<SignedDistance> build(const TriMesh& surface);

  /// Signed distance from p to the surface (unit: m): negative inside, positive outside.
  double operator()(const Vec3& p) const;
  /// Bounding box of the surface (unit: m).
  Aabb bounds() const { return bvh_.bounds(); }

 private:
  TriMesh surface_;
  TriangleBvh bvh_;
  std::vector<Vec3> face_normal_;                 // unit normal per triangle
  std::vector<Vec3> vertex_normal_;               // angle-weighted pseudonormal per node
  std::vector<std::array<Vec3, 3>> edge_normal_;  // per triangle, edge (t[e], t[e+1]): sum of both faces
};

/// A signed distance sampled on a regular grid of nodes origin + (i, j, k)·cell, x fastest.
struct SdfGrid {
  Vec3 origin = Vec3::Zero();          ///< position of node (0, 0, 0) (unit: m)
  double cell = 0.0;                   ///< node spacing (unit: m)
  std::array<Index, 3> dims{0, 0, 0};  ///< nodes per axis
  std::vector<double> value;           ///< signed distance per node (unit: m), negative inside

  std::size_t index(Index i, Index j, Index k) const {
    return static_cast<std::size_t>(i) +
           static_cast<std::size_t>(dims[0]) *
               (static_cast<std::size_t>(j) + static_cast<std::size_t>(dims[1]) * k);
  }
  Vec3 node(Index i, Index j, Index k) const { return origin + cell * Vec3(i, j, k); }
  /// Trilinear interpolation at p, clamped to the grid (unit: m).
  double interpolate(const Vec3& p) const;
};

/// Samples `distance` on the grid whose nodes are the cell centres of a lattice of `cell` (unit: m,
/// > 0) starting at the surface's lower bounding corner, extended by `pad` nodes on every side.
/// Fails on a non-positive or non-finite cell or more than 2^31 nodes.
Result<SdfGrid> sample_sdf_grid(const SignedDistance& distance, double cell, Index pad = 1);

}  // namespace pliant::meshless
