// RenderMesh: a separate, usually finer, surface drawn in place of a body's simulation surface (an
// organ's textured scan over a coarse simulation mesh: SOFA's mappings, iMSTK's visual meshes). It is
// embedded once, at rest, and follows the body every step through the surface contract and the body's
// capabilities, never naming a family:
//   - by the body's own fit, when it offers one (FitsSurfaces: the meshless family's MLS fit over its
//     phyxels, exact under affine motion);
//   - in a body with SimulationTets (fem): each vertex by barycentric coordinates in the tet that
//     contains it at rest, or, outside the mesh, in the tet under the nearest boundary face (the same
//     coordinates extrapolated). Positions are then an affine function of the tet's nodes, so any affine
//     motion of the body (translation, rotation, stretch, shear) moves the render mesh exactly.
//   - in any other body: each vertex by the nearest point of the rest surface (triangle and barycentric
//     weights) plus its offset in that triangle's orthonormal frame (one edge, the normal and their
//     cross product), which turns with the triangle. Exact for rigid motion; under deformation the offset
//     follows the triangle's rotation, not its stretch, so a render mesh close to the surface (the usual
//     case) follows best.
// Surface fields (displacement, stress) reach the render vertices through the nearest rest-surface
// point in both cases. A change of the body's surface_topology_version() (a cut, a tear) embeds the
// rest mesh again against the new topology, from the render mesh's rest positions.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/scene/body.hpp"
#include "pliant/scene/capabilities.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::scene {

class RenderMesh {
 public:
  /// How the vertices are embedded.
  enum class Embedding { fitted, tets, surface_frames };
  /// "fitted", "tets" or "surface_frames".
  static std::string_view embedding_name(Embedding e);

  /// Embeds `mesh` (unit: m, in the scene frame, where the body is at rest) in `body`. Fails with one
  /// line when the mesh has no triangles, names a node it lacks, holds a non-finite position, or lies
  /// mostly away from the body: a vertex farther from the body's rest surface than the body's size (the
  /// diagonal of its rest bounding box) is a wrong unit or transform, never what was meant; the line
  /// gives the distance and the body's size.
  static Result<RenderMesh> embed(const Body& body, TriMesh mesh);

  /// Moves the vertices to where the body is now; embeds again first when the body's surface topology
  /// changed. No allocation unless it embeds again.
  void update(const Body& body);

  /// The render mesh at rest, as given (unit: m).
  const TriMesh& rest() const { return rest_; }
  /// Current vertex positions (unit: m), as of the last update().
  std::span<const Vec3> positions() const { return x_; }
  std::span<const Tri> triangles() const { return rest_.triangles; }
  Embedding embedding() const { return embedding_; }
  /// Largest distance of a vertex from the body's rest surface when embedded (unit: m), for reports.
  double max_offset() const { return max_offset_; }

  /// Per render vertex, a surface field of the body (one value per surface node, as Body::fill_field
  /// fills) interpolated at the vertex's nearest rest-surface point; `out` has one entry per vertex.
  void sample_surface_field(std::span<const double> surface_values, std::span<double> out) const;

 private:
  struct TetWeights {
    Tet nodes{};
    std::array<double, 4> w{};
  };
  struct SurfaceSample {
    Tri nodes{};
    Vec3 w = Vec3::Zero();       // barycentric weights of the nearest point
    Vec3 offset = Vec3::Zero();  // the vertex in the triangle's frame (frames embedding only)
  };
  Status embed_in(const Body& body);

  std::unique_ptr<SurfaceFit> fit_;
  TriMesh rest_;
  std::vector<Vec3> x_;
  Embedding embedding_ = Embedding::surface_frames;
  std::vector<TetWeights> tet_;
  std::vector<SurfaceSample> surface_;
  std::uint64_t topology_version_ = 0;
  double max_offset_ = 0.0;
};

}  // namespace pliant::scene
