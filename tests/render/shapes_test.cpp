// The tool cylinder shared by the viewer and the PNG frames: exact geometry, a closed outward surface
// whose enclosed volume is the inscribed prism's, and a drawn tool covering its projected centre.
#include "pliant/render/shapes.hpp"

#include "pliant/render/offscreen.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

namespace pliant::render {
namespace {

TEST(Shapes, CylinderMeshIsAClosedOutwardPrism) {
  const Cylinder c{Vec3(0.1, -0.2, 0.3), Vec3(1.0, 2.0, -0.5), 0.004, 0.015};
  const int sides = 24;
  const TriMesh m = cylinder_mesh(c, sides);
  ASSERT_EQ(m.positions.size(), static_cast<std::size_t>(2 * sides + 2));
  ASSERT_EQ(m.triangles.size(), static_cast<std::size_t>(4 * sides));
  const Vec3 axis = c.axis.normalized();
  for (std::size_t i = 0; i < m.positions.size(); ++i) {
    const Vec3 d = m.positions[i] - c.centre;
    const double along = d.dot(axis);
    const double across = (d - along * axis).norm();
    EXPECT_NEAR(std::abs(along), c.half_length, 1e-15);
    EXPECT_NEAR(across, i < static_cast<std::size_t>(2 * sides) ? c.radius : 0.0, 1e-15);
  }
  // Closed and consistently oriented: every directed edge appears once and its reverse once.
  std::map<std::pair<Index, Index>, int> edges;
  for (const Tri& t : m.triangles)
    for (int k = 0; k < 3; ++k) ++edges[{t[k], t[(k + 1) % 3]}];
  for (const auto& [e, n] : edges) {
    EXPECT_EQ(n, 1);
    EXPECT_EQ(edges.count({e.second, e.first}), 1u);
  }
  // Divergence theorem: Σ (a · (b × c)) / 6 is the enclosed volume, positive for outward normals,
  // and equals the inscribed prism's: (sides / 2) r² sin(2π / sides) · 2 h.
  double volume = 0.0;
  for (const Tri& t : m.triangles)
    volume += m.positions[t[0]].dot(m.positions[t[1]].cross(m.positions[t[2]])) / 6.0;
  const double prism = 0.5 * sides * c.radius * c.radius * std::sin(2.0 * M_PI / sides) * 2.0 * c.half_length;
  EXPECT_NEAR(volume, prism, 1e-12 * prism + 1e-18);
  EXPECT_GT(volume, 0.0);
}

TEST(Shapes, PointGlyphsAreClosedOutwardOctahedraAroundTheirPoints) {
  const std::vector<Vec3> points = {Vec3(0.1, -0.2, 0.3), Vec3(-1.0, 2.0, 0.5)};
  const double r = 0.01;
  TriMesh m;
  m.positions.push_back(Vec3::Zero());  // appended after what is there
  append_point_glyphs(points, r, m);
  ASSERT_EQ(m.positions.size(), 1u + 6 * points.size());
  ASSERT_EQ(m.triangles.size(), 8 * points.size());
  for (std::size_t g = 0; g < points.size(); ++g) {
    Vec3 centroid = Vec3::Zero();
    for (std::size_t k = 0; k < 6; ++k) {
      const Vec3& x = m.positions[1 + 6 * g + k];
      EXPECT_NEAR((x - points[g]).norm(), r, 1e-15);
      centroid += x / 6.0;
    }
    EXPECT_NEAR((centroid - points[g]).norm(), 0.0, 1e-15);
    // Divergence theorem about the glyph's own point: the octahedron's volume (4/3) r³, positive.
    double volume = 0.0;
    for (std::size_t t = 8 * g; t < 8 * g + 8; ++t) {
      const Tri& f = m.triangles[t];
      for (int c = 0; c < 3; ++c) EXPECT_EQ((static_cast<std::size_t>(f[c]) - 1) / 6, g);
      volume += (m.positions[f[0]] - points[g])
                    .dot((m.positions[f[1]] - points[g]).cross(m.positions[f[2]] - points[g])) /
                6.0;
    }
    EXPECT_NEAR(volume, 4.0 / 3.0 * r * r * r, 1e-12 * r * r * r);
  }
  // Closed and consistently oriented.
  std::map<std::pair<Index, Index>, int> edges;
  for (const Tri& t : m.triangles)
    for (int k = 0; k < 3; ++k) ++edges[{t[k], t[(k + 1) % 3]}];
  for (const auto& [e, n] : edges) {
    EXPECT_EQ(n, 1);
    EXPECT_EQ(edges.count({e.second, e.first}), 1u);
  }
  // One surface for all clouds, none for none.
  Frame f;
  PointGlyphs glyphs;
  const std::span<const Vec3> clouds[] = {points, points};
  glyphs.add_to(f, clouds, r);
  ASSERT_EQ(f.surfaces.size(), 1u);
  EXPECT_EQ(f.surfaces[0].triangles.size(), 2 * 8 * points.size());
  EXPECT_EQ(f.surfaces[0].color, kPointColor);
  glyphs.add_to(f, {}, r);
  EXPECT_EQ(f.surfaces.size(), 1u);
}

TEST(Shapes, CylinderMeshesAddGreyToolSurfacesThatAreDrawn) {
  Frame f;
  CylinderMeshes tools;
  const std::vector<Cylinder> cylinders = {{Vec3(0, 0, 0), Vec3::UnitY(), 0.1, 0.5},
                                           {Vec3(1, 0, 0), Vec3::UnitX(), 0.05, 0.2}};
  tools.add_to(f, cylinders);
  ASSERT_EQ(f.surfaces.size(), 2u);
  for (const Surface& s : f.surfaces) {
    EXPECT_TRUE(s.field.empty());
    EXPECT_EQ(s.color, kToolColor);
  }
  EXPECT_NEAR(f.surfaces[1].positions[0].x(), 1.0 - 0.2, 1e-15);

  auto renderer = OffscreenRenderer::create({200, 150, 1});
  if (!renderer.ok()) GTEST_SKIP() << "no EGL offscreen context: " << renderer.message();
  Frame one;
  tools.add_to(one, std::span<const Cylinder>(cylinders.data(), 1));
  one.camera.width = 200;
  one.camera.height = 150;
  one.camera.frame(bounds(one));
  const Image img = (*renderer)->render(one);
  const Vec3 p = one.camera.project(cylinders[0].centre);
  const std::uint8_t* centre = img.pixel(static_cast<int>(p.x()), static_cast<int>(p.y()));
  const std::uint8_t* corner = img.pixel(1, 1);
  // The tool is lit grey (channels close together, brighter than the dark background); the corner
  // is the background.
  EXPECT_GT(centre[0] + centre[1] + centre[2], corner[0] + corner[1] + corner[2] + 60);
  EXPECT_LT(std::abs(centre[0] - centre[2]), 60);
  EXPECT_NEAR(corner[0], std::lround(255 * one.background[0]), 2);
}

}  // namespace
}  // namespace pliant::render
