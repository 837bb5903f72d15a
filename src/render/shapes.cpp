#include "pliant/render/shapes.hpp"

#include <algorithm>
#include <cmath>

namespace pliant::render {

TriMesh cylinder_mesh(const Cylinder& c, int sides) {
  sides = std::max(sides, 3);
  const Vec3 axis = c.axis.norm() > 0.0 ? Vec3(c.axis.normalized()) : Vec3::UnitY();
  // (u, v, axis) is a right-handed frame, so the rim below runs counter-clockwise about +axis.
  const Vec3 u = axis.unitOrthogonal(), v = axis.cross(u);
  TriMesh m;
  m.positions.resize(static_cast<std::size_t>(2 * sides + 2));
  for (int k = 0; k < sides; ++k) {
    const double a = 2.0 * M_PI * k / sides;
    const Vec3 rim = c.radius * (std::cos(a) * u + std::sin(a) * v);
    m.positions[static_cast<std::size_t>(2 * k)] = c.centre + rim - c.half_length * axis;
    m.positions[static_cast<std::size_t>(2 * k + 1)] = c.centre + rim + c.half_length * axis;
  }
  const Index bottom = 2 * sides, top = 2 * sides + 1;
  m.positions[static_cast<std::size_t>(bottom)] = c.centre - c.half_length * axis;
  m.positions[static_cast<std::size_t>(top)] = c.centre + c.half_length * axis;
  m.triangles.reserve(static_cast<std::size_t>(4 * sides));
  for (int k = 0; k < sides; ++k) {
    const Index a = 2 * k, b = 2 * k + 1, na = 2 * ((k + 1) % sides), nb = na + 1;
    m.triangles.push_back({a, na, b});  // side, outward
    m.triangles.push_back({b, na, nb});
    m.triangles.push_back({bottom, na, a});  // bottom cap faces -axis
    m.triangles.push_back({top, b, nb});     // top cap faces +axis
  }
  return m;
}

void CylinderMeshes::add_to(Frame& frame, std::span<const Cylinder> cylinders, int sides) {
  meshes_.resize(cylinders.size());
  for (std::size_t i = 0; i < cylinders.size(); ++i) {
    meshes_[i] = cylinder_mesh(cylinders[i], sides);
    Surface s;
    s.positions = meshes_[i].positions;
    s.triangles = meshes_[i].triangles;
    s.color = kToolColor;
    s.shading = Shading::flat;
    frame.surfaces.push_back(s);
  }
}

void append_point_glyphs(std::span<const Vec3> points, double radius, TriMesh& out) {
  // Octahedron corners ±x, ±y, ±z; its faces, counter-clockwise seen from outside.
  static constexpr int kFaces[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                       {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  const Vec3 corner[6] = {Vec3::UnitX(),  -Vec3::UnitX(), Vec3::UnitY(),
                          -Vec3::UnitY(), Vec3::UnitZ(),  -Vec3::UnitZ()};
  out.positions.reserve(out.positions.size() + 6 * points.size());
  out.triangles.reserve(out.triangles.size() + 8 * points.size());
  for (const Vec3& p : points) {
    const auto base = static_cast<Index>(out.positions.size());
    for (const Vec3& c : corner) out.positions.push_back(p + radius * c);
    for (const auto& f : kFaces) out.triangles.push_back({base + f[0], base + f[1], base + f[2]});
  }
}

namespace {

// Adds `mesh` to `frame` as one flat-shaded surface of `color` (the frame borrows its arrays); an
// empty mesh adds nothing.
void add_flat(Frame& frame, const TriMesh& mesh, Rgb color) {
  if (mesh.triangles.empty()) return;
  Surface s;
  s.positions = mesh.positions;
  s.triangles = mesh.triangles;
  s.color = color;
  s.shading = Shading::flat;
  frame.surfaces.push_back(s);
}

}  // namespace

void PointGlyphs::add_to(Frame& frame, std::span<const std::span<const Vec3>> clouds, double radius) {
  mesh_.positions.clear();
  mesh_.triangles.clear();
  for (std::span<const Vec3> cloud : clouds) append_point_glyphs(cloud, radius, mesh_);
  add_flat(frame, mesh_, kPointColor);
}

void ContactShapes::add_to(Frame& frame, std::vector<TriMesh> colliders, std::span<const Vec3> points,
                           double radius) {
  colliders_ = std::move(colliders);
  points_.positions.clear();
  points_.triangles.clear();
  append_point_glyphs(points, radius, points_);
  for (const TriMesh& c : colliders_) add_flat(frame, c, kColliderColor);
  add_flat(frame, points_, kContactColor);
}

}  // namespace pliant::render
