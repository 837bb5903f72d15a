// Shapes drawn beside the bodies: the rigid cylinders of scripted tools. The viewer and the CLI's
// PNG frames (`pliant run --render`) mesh them with the same code, so a tool looks the same in both.
#pragma once

#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/render/frame.hpp"

#include <span>
#include <vector>

namespace pliant::render {

/// A rigid cylinder, e.g. a scene's scripted tool.
struct Cylinder {
  Vec3 centre = Vec3::Zero();  ///< midpoint of the axis segment (unit: m)
  Vec3 axis = Vec3::UnitY();   ///< axis direction (normalised here; zero: +Y)
  double radius = 0.0;         ///< (unit: m), > 0
  double half_length = 0.0;    ///< half its length along the axis (unit: m), > 0
};

/// Colour of tools: a steel grey, apart from the colour maps' hues.
inline constexpr Rgb kToolColor = {0.62f, 0.66f, 0.72f};

/// The closed surface of `c`: `sides` (≥ 3) rim vertices at each end, the side as 2·sides triangles
/// and each end cap as a fan around its centre (2·sides + 2 nodes, 4·sides triangles), oriented with
/// outward normals.
TriMesh cylinder_mesh(const Cylinder& c, int sides = 24);

/// Meshes tools for a Frame, which borrows its arrays: this object owns them until the next call.
class CylinderMeshes {
 public:
  /// Appends one surface per cylinder (flat-shaded tool grey, no field) to `frame`.
  void add_to(Frame& frame, std::span<const Cylinder> cylinders, int sides = 24);

 private:
  std::vector<TriMesh> meshes_;
};

/// Colour of rigid colliders: a slate blue, apart from the tool grey and the colour maps.
inline constexpr Rgb kColliderColor = {0.42f, 0.50f, 0.66f};
/// Colour of contact points and contact force arrows: an orange that stands out on the colliders.
inline constexpr Rgb kContactColor = {1.00f, 0.55f, 0.10f};

/// Colour of grab markers and their reaction arrows: a magenta apart from the colour maps, the tool
/// grey, the collider blue and the contact orange.
inline constexpr Rgb kGrabColor = {0.90f, 0.25f, 0.85f};

/// Colour of interior points (phyxels, nodes): a light teal, apart from the tool grey.
inline constexpr Rgb kPointColor = {0.45f, 0.85f, 0.80f};

/// Points drawn as small octahedra of the given radius (unit: m), one per point (6 nodes and 8
/// outward triangles each), appended to `out`.
void append_point_glyphs(std::span<const Vec3> points, double radius, TriMesh& out);

/// Meshes point clouds for a Frame, which borrows its arrays: this object owns them until the next call.
class PointGlyphs {
 public:
  /// Appends one flat-shaded surface of octahedra (radius in m) for all `clouds` to `frame`.
  void add_to(Frame& frame, std::span<const std::span<const Vec3>> clouds, double radius);

 private:
  TriMesh mesh_;
};

/// Rigid colliders and held contact points for a Frame, which borrows their arrays: this object owns
/// the meshes until the next add_to. The CLI's PNG frames and the viewer draw contact alike with it.
class ContactShapes {
 public:
  /// Appends the colliders' surfaces (kColliderColor) and the contact points as octahedra of `radius`
  /// (unit: m; kContactColor) to `frame`, flat-shaded; empty meshes are skipped.
  void add_to(Frame& frame, std::vector<TriMesh> colliders, std::span<const Vec3> points, double radius);

 private:
  std::vector<TriMesh> colliders_;
  TriMesh points_;
};

}  // namespace pliant::render
