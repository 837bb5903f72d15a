// Splitting the render surface along a cut and closing the cut faces: closed oriented pieces, volumes
// kept, each vertex fitted on its own side, no triangle spanning the gap once the pieces separate.
#include "pliant/models/meshless/surface_cut.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/models/meshless/meshless_body.hpp"
#include "shapes.hpp"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>

namespace pliant::meshless {
namespace {

// A plane blade x = c swept from above to below everything in |y|, |z| < 1.
Blade plane_blade(double c) { return {Vec3(c, -1, 1), Vec3(c, 1, 1), Vec3(c, -1, -1), Vec3(c, 1, -1)}; }

TriMesh fine_box(const Vec3& size, std::array<Index, 3> cells) {
  return extract_boundary(meshing::box_mesh({.origin = Vec3::Zero(), .size = size, .cells = cells}).value())
      .mesh;
}

// Every directed edge appears once and its reverse once: closed, manifold, consistently oriented.
void expect_closed_oriented(std::span<const Tri> tris) {
  std::map<std::pair<Index, Index>, int> directed;
  for (const Tri& t : tris) {
    for (int c = 0; c < 3; ++c)
      ++directed[{t[static_cast<std::size_t>(c)], t[static_cast<std::size_t>((c + 1) % 3)]}];
  }
  for (const auto& [e, count] : directed) {
    EXPECT_EQ(count, 1) << "edge " << e.first << "-" << e.second << " traversed " << count << " times";
    const auto back = directed.find({e.second, e.first});
    EXPECT_TRUE(back != directed.end() && back->second == 1)
        << "edge " << e.first << "-" << e.second << " is open";
  }
}

// Connected components of the triangles (label per vertex, -1 for an unused vertex) and their count.
std::pair<std::vector<Index>, Index> components(std::size_t vertices, std::span<const Tri> tris) {
  std::vector<Index> parent(vertices);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](Index v) {
    while (parent[static_cast<std::size_t>(v)] != v)
      v = parent[static_cast<std::size_t>(v)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
    return v;
  };
  std::vector<std::uint8_t> used(vertices, 0);
  for (const Tri& t : tris) {
    for (Index v : t) used[static_cast<std::size_t>(v)] = 1;
    parent[static_cast<std::size_t>(find(t[1]))] = find(t[0]);
    parent[static_cast<std::size_t>(find(t[2]))] = find(t[0]);
  }
  std::vector<Index> label(vertices, -1);
  std::map<Index, Index> ids;
  for (std::size_t v = 0; v < vertices; ++v) {
    if (!used[v]) continue;
    label[v] = ids.try_emplace(find(static_cast<Index>(v)), static_cast<Index>(ids.size())).first->second;
  }
  return {label, static_cast<Index>(ids.size())};
}

// Signed volume enclosed by each component (unit: m³), by the divergence theorem.
std::vector<double> volumes(std::span<const Vec3> x, std::span<const Tri> tris,
                            const std::vector<Index>& label, Index count) {
  std::vector<double> vol(static_cast<std::size_t>(count), 0.0);
  for (const Tri& t : tris) {
    vol[static_cast<std::size_t>(label[static_cast<std::size_t>(t[0])])] +=
        x[static_cast<std::size_t>(t[0])].dot(
            x[static_cast<std::size_t>(t[1])].cross(x[static_cast<std::size_t>(t[2])])) /
        6.0;
  }
  return vol;
}

TEST(SurfaceCut, PolygonTriangulationKeepsAreaAndOrientation) {
  // An L-shaped polygon with collinear points on its edges, tilted out of the xy plane.
  std::vector<Vec3> p = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {2, 1, 0},
                         {1, 1, 0}, {1, 2, 0}, {0, 2, 0}, {0, 1, 0}};
  const Eigen::AngleAxisd tilt(0.4, Vec3(1, 2, 0.5).normalized());
  for (Vec3& q : p) q = tilt * q;
  const Vec3 n = tilt * Vec3::UnitZ();
  const std::vector<Tri> tris = triangulate_polygon(p);
  ASSERT_EQ(tris.size(), p.size() - 2);
  double area = 0.0;
  for (const Tri& t : tris) {
    const double a = 0.5 * (p[static_cast<std::size_t>(t[1])] - p[static_cast<std::size_t>(t[0])])
                               .cross(p[static_cast<std::size_t>(t[2])] - p[static_cast<std::size_t>(t[0])])
                               .dot(n);
    EXPECT_GT(a, 0.0);  // counter-clockwise about the polygon's normal, none inverted or flat
    area += a;
  }
  EXPECT_NEAR(area, 3.0, 1e-12);
  // The polygon's edges are edges of the triangulation (no vertex left as a T-junction).
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto a = static_cast<Index>(i), b = static_cast<Index>((i + 1) % p.size());
    bool found = false;
    for (const Tri& t : tris) {
      for (int c = 0; c < 3; ++c)
        found =
            found || (t[static_cast<std::size_t>(c)] == a && t[static_cast<std::size_t>((c + 1) % 3)] == b);
    }
    EXPECT_TRUE(found) << a << "-" << b;
  }
}

TEST(SurfaceCut, ThroughCutsGiveClosedPiecesThatKeepTheVolume) {
  struct Case {
    TriMesh mesh;
    double cut, volume;
  };
  const Vec3 size(0.1, 0.03, 0.04);
  std::vector<Case> cases = {
      {test::box_surface(Vec3::Zero(), size), 0.037, size.prod()},
      {fine_box(size, {10, 3, 4}), 0.0537, size.prod()},
      {fine_box(size, {10, 3, 4}), 0.05, size.prod()},  // through a ring of vertices
      {meshing::icosphere({.center = Vec3(0.0, 0.0, 0.0), .radius = 0.05, .subdivisions = 2}).value(), 0.0123,
       0.0}};
  for (Case& c : cases) {
    if (c.volume == 0.0)
      c.volume =
          volumes(c.mesh.positions, c.mesh.triangles, std::vector<Index>(c.mesh.positions.size(), 0), 1)[0];
    const auto split = split_surface(c.mesh.positions, c.mesh.triangles, plane_blade(c.cut));
    ASSERT_TRUE(split.has_value());
    EXPECT_EQ(split->loops, 1);
    EXPECT_GT(split->split_triangles, 0);
    EXPECT_EQ(split->triangles.size(), c.mesh.triangles.size() +
                                           2 * static_cast<std::size_t>(split->split_triangles) +
                                           static_cast<std::size_t>(split->cap_triangles));
    std::vector<Vec3> x = c.mesh.positions;
    for (const CutPoint& p : split->points) {
      x.push_back((1.0 - p.t) * c.mesh.positions[static_cast<std::size_t>(p.a)] +
                  p.t * c.mesh.positions[static_cast<std::size_t>(p.b)]);
      EXPECT_NEAR(x.back().x(), c.cut, 1e-15);
    }
    expect_closed_oriented(split->triangles);
    const auto [label, count] = components(x.size(), split->triangles);
    ASSERT_EQ(count, 2);
    const std::vector<double> vol = volumes(x, split->triangles, label, count);
    EXPECT_GT(vol[0], 0.0);
    EXPECT_GT(vol[1], 0.0);
    EXPECT_NEAR(vol[0] + vol[1], c.volume, 1e-14 * c.volume / 1e-4);
    // Each piece lies on one side of the cut, and its cut face points away from it and covers the
    // section of the body (a rectangle, or a disc's inscribed polygon).
    std::vector<double> cap_area(2, 0.0);
    double cap_area_expected = size.y() * size.z();
    if (&c == &cases.back()) {
      cap_area_expected = 0.0;
      for (std::size_t t = split->triangles.size() - static_cast<std::size_t>(split->cap_triangles);
           t < split->triangles.size(); t += 2) {
        const Tri& tri = split->triangles[t];
        cap_area_expected +=
            0.5 *
            std::abs((x[static_cast<std::size_t>(tri[1])] - x[static_cast<std::size_t>(tri[0])])
                         .cross(x[static_cast<std::size_t>(tri[2])] - x[static_cast<std::size_t>(tri[0])])
                         .x());
      }
      const double r = std::sqrt(0.05 * 0.05 - c.cut * c.cut);
      EXPECT_GT(cap_area_expected, 0.9 * M_PI * r * r);  // the polygon inscribed in the section
      EXPECT_LT(cap_area_expected, M_PI * r * r);
    }
    for (std::size_t t = 0; t < split->triangles.size(); ++t) {
      const Tri& tri = split->triangles[t];
      const Index piece = label[static_cast<std::size_t>(tri[0])];
      double side = 0.0;
      for (std::size_t v = 0; v < c.mesh.positions.size(); ++v) {
        if (label[v] == piece && std::abs(c.mesh.positions[v].x() - c.cut) > 1e-9)
          side = c.mesh.positions[v].x() - c.cut;
      }
      const bool cap = t >= split->triangles.size() - static_cast<std::size_t>(split->cap_triangles);
      for (Index v : tri) {
        if (static_cast<std::size_t>(v) < c.mesh.positions.size()) {
          // On the blade's plane counts as its positive side, x < cut here.
          const double off = x[static_cast<std::size_t>(v)].x() - c.cut;
          EXPECT_TRUE(off * side > 0.0 || (off == 0.0 && side < 0.0)) << off << " " << side;
        }
      }
      if (cap) {
        const Vec3 normal =
            (x[static_cast<std::size_t>(tri[1])] - x[static_cast<std::size_t>(tri[0])])
                .cross(x[static_cast<std::size_t>(tri[2])] - x[static_cast<std::size_t>(tri[0])]);
        EXPECT_LE(normal.x() * side, 0.0) << "a cut face points into its piece";
        cap_area[static_cast<std::size_t>(piece)] += std::abs(normal.x());
      }
    }
    EXPECT_NEAR(cap_area[0], 2.0 * cap_area_expected, 1e-12 * cap_area_expected);  // twice the area
    EXPECT_NEAR(cap_area[1], 2.0 * cap_area_expected, 1e-12 * cap_area_expected);
  }
}

TEST(SurfaceCut, PartialCutsAndMissesLeaveTheSurfaceAlone) {
  const TriMesh box = fine_box(Vec3(0.1, 0.03, 0.04), {10, 3, 4});
  EXPECT_FALSE(split_surface(box.positions, box.triangles, plane_blade(0.2)).has_value());
  // Down from above to half the height: the blade's edge ends inside the body.
  const Blade partial{Vec3(0.0537, -1, 1), Vec3(0.0537, 1, 1), Vec3(0.0537, -1, 0.02), Vec3(0.0537, 1, 0.02)};
  EXPECT_FALSE(split_surface(box.positions, box.triangles, partial).has_value());
}

MeshlessBody bar(const TriMesh& surface, const Vec3& gravity) {
  MeshlessBodyDef def;
  def.sampling.spacing = 0.01;
  def.mls.materials = {test::jelly()};
  def.gravity = gravity;
  auto built = MeshlessBody::build(surface, def);
  EXPECT_TRUE(built.ok()) << built.message();
  return std::move(built).value();
}

// After a through-cut at x = cut of an undeformed body: two closed outward pieces with the body's
// volume, driven at rest where they were, every vertex fitted only to phyxels on its piece's side.
void expect_split_in_two(const MeshlessBody& b, std::size_t n0, double cut, double volume) {
  EXPECT_GE(b.surface_topology_version(), 1u);
  ASSERT_GT(b.surface().vertex_count(), n0);
  ASSERT_EQ(b.surface_positions().size(), b.surface().vertex_count());
  const auto tris = b.surface().triangles();
  expect_closed_oriented(tris);
  const auto [label, count] = components(b.surface().vertex_count(), tris);
  ASSERT_EQ(count, 2);
  const std::vector<double> vol = volumes(b.surface().rest_positions(), tris, label, count);
  EXPECT_GT(vol[0], 0.0);
  EXPECT_GT(vol[1], 0.0);
  EXPECT_NEAR(vol[0] + vol[1], volume, 1e-12 * volume);
  for (std::size_t v = 0; v < b.surface().vertex_count(); ++v) {
    EXPECT_LT((b.surface_positions()[v] - b.surface().rest_positions()[v]).norm(), 1e-12) << v;
  }
  std::vector<double> side(2, 0.0);
  for (std::size_t v = 0; v < n0; ++v)
    side[static_cast<std::size_t>(label[v])] = b.surface().rest_positions()[v].x() - cut;
  ASSERT_LT(side[0] * side[1], 0.0);
  for (std::size_t v = 0; v < b.surface().vertex_count(); ++v) {
    ASSERT_GE(label[v], 0) << "vertex " << v << " is on no triangle";
    ASSERT_FALSE(b.surface().phyxels(static_cast<Index>(v)).empty()) << v;
    for (Index j : b.surface().phyxels(static_cast<Index>(v))) {
      EXPECT_GT((b.phyxels().rest[static_cast<std::size_t>(j)].x() - cut) *
                    side[static_cast<std::size_t>(label[v])],
                0.0)
          << "vertex " << v << " uses phyxel " << j << " across the cut";
    }
  }
}

TEST(SurfaceCut, BodyCutAtRestSplitsTheSurfaceAndFitsEachSideToItsPhyxels) {
  const Vec3 size(0.1, 0.03, 0.03);
  MeshlessBody b = bar(fine_box(size, {10, 3, 3}), Vec3::Zero());
  const std::size_t n0 = b.surface().vertex_count();
  ASSERT_TRUE(b.cut(plane_blade(0.0537)));
  Profile profile;
  b.step(0.0, profile);
  expect_split_in_two(b, n0, 0.0537, size.prod());
}

// A body with a slit: one closed outward surface whose volume at rest is the body's (the slit's two
// cut faces coincide at rest), its first n0 vertices where they were, every vertex on a triangle.
void expect_slit(const MeshlessBody& b, std::span<const Vec3> before, double volume) {
  const auto tris = b.surface().triangles();
  expect_closed_oriented(tris);
  const auto [label, count] = components(b.surface().vertex_count(), tris);
  EXPECT_EQ(count, 1);
  for (std::size_t v = 0; v < label.size(); ++v)
    EXPECT_GE(label[v], 0) << "vertex " << v << " is on no triangle";
  EXPECT_NEAR(volumes(b.surface().rest_positions(), tris, label, count)[0], volume, 1e-12 * volume);
  ASSERT_GE(b.surface().vertex_count(), before.size());
  EXPECT_TRUE(std::equal(before.begin(), before.end(), b.surface().rest_positions().begin()));
}

TEST(SurfaceCut, BladeLoweredOverSeveralStepsSlitsThenSplitsWhenThrough) {
  const Vec3 size(0.1, 0.03, 0.03);
  MeshlessBody b = bar(fine_box(size, {10, 3, 3}), Vec3::Zero());
  const std::size_t n0 = b.surface().vertex_count();
  const std::vector<Vec3> rest(b.surface().rest_positions().begin(), b.surface().rest_positions().end());
  const double c = 0.0537, z[] = {0.05, 0.021, 0.012, -0.05};
  Profile profile;
  for (int s = 0; s < 3; ++s) {
    ASSERT_TRUE(b.cut({Vec3(c, -1, z[s]), Vec3(c, 1, z[s]), Vec3(c, -1, z[s + 1]), Vec3(c, 1, z[s + 1])}));
    b.step(0.0, profile);
    EXPECT_FALSE(b.cut_events().empty()) << "step " << s;
    if (s < 2) {
      // Not through yet: a slit down the sides to where the blade's edge is, closed by its cut face.
      EXPECT_EQ(b.surface_topology_version(), static_cast<std::uint64_t>(s + 1));
      expect_slit(b, rest, size.prod());
      double deepest = INFINITY;
      for (std::size_t v = n0; v < b.surface().vertex_count(); ++v) {
        deepest = std::min(deepest, b.surface().rest_positions()[v].z());
        EXPECT_NEAR(b.surface().rest_positions()[v].x(), c, 1e-12) << "a slit vertex off the blade";
      }
      EXPECT_NEAR(deepest, z[s + 1], 1e-12);
    }
  }
  expect_split_in_two(b, n0, c, size.prod());
}

// A scalpel drawn along the top of a bar: its tip 15 mm deep, its handle above, moved along x over four
// steps. Each step leaves a slit closed down to the tip's path; the cut points' copies keep their
// numbers and fits from step to step and use only phyxels on their side; pulled apart, the slit opens
// while the surface stays closed.
TEST(SurfaceCut, IncisionLeavesAClosedSlitThatOpens) {
  const Vec3 size(0.1, 0.03, 0.03);
  MeshlessBody b = bar(fine_box(size, {10, 3, 3}), Vec3::Zero());
  const std::size_t n0 = b.surface().vertex_count();
  const std::vector<Vec3> rest(b.surface().rest_positions().begin(), b.surface().rest_positions().end());
  const double y = 0.0153, tip = 0.015, xs[] = {0.015, 0.03, 0.045, 0.06, 0.075};
  Profile profile;
  std::vector<Vec3> before;
  for (int s = 0; s < 4; ++s) {
    ASSERT_TRUE(b.cut({Vec3(xs[s] - 0.01, y, 0.05), Vec3(xs[s], y, tip), Vec3(xs[s + 1] - 0.01, y, 0.05),
                       Vec3(xs[s + 1], y, tip)}));
    b.step(0.0, profile);
    EXPECT_EQ(b.surface_topology_version(), static_cast<std::uint64_t>(s + 1));
    expect_slit(b, rest, size.prod());
    // The copies of earlier steps (pairs at one rest place) keep their numbers and places.
    const auto X = b.surface().rest_positions();
    for (std::size_t v = n0; v + 1 < before.size(); ++v) {
      if (before[v] == before[v + 1]) {
        EXPECT_TRUE(X[v] == before[v] && X[v + 1] == before[v]) << "copy " << v << " moved";
      }
    }
    before.assign(X.begin(), X.end());
    double deepest = INFINITY;
    for (std::size_t v = n0; v < b.surface().vertex_count(); ++v) {
      deepest = std::min(deepest, b.surface().rest_positions()[v].z());
      EXPECT_NEAR(b.surface().rest_positions()[v].y(), y, 1e-12) << "a slit vertex off the blade";
      EXPECT_LE(b.surface().rest_positions()[v].x(), xs[s + 1] + 1e-12);
    }
    EXPECT_NEAR(deepest, tip, 1e-12);
  }
  // The top's cut points have one copy per side (numbered one after the other, at the same rest
  // place), each fitted only to phyxels on its side.
  Index copies = 0;
  for (std::size_t v = n0; v < b.surface().vertex_count(); ++v) {
    const Vec3& X = b.surface().rest_positions()[v];
    const auto twin = [&](std::size_t w) {
      return w >= n0 && w < b.surface().vertex_count() && b.surface().rest_positions()[w] == X;
    };
    if (!twin(v - 1) && !twin(v + 1)) continue;
    double side = 0.0;
    for (Index j : b.surface().phyxels(static_cast<Index>(v))) {
      const double d = b.phyxels().rest[static_cast<std::size_t>(j)].y() - y;
      if (side == 0.0) side = d;
      EXPECT_GT(d * side, 0.0) << "cut point " << v << " uses phyxels of both sides";
    }
    ++copies;
  }
  EXPECT_GE(copies, 8);
  // Pull the two sides of the top apart.
  const std::size_t n = b.surface().vertex_count();
  const std::vector<Tri> tris(b.surface().triangles().begin(), b.surface().triangles().end());
  for (int s = 0; s < 30; ++s) {
    for (std::size_t v = 0; v < n0; ++v) {
      const Vec3& X = rest[v];
      if (X.z() > size.z() - 1e-9 && X.x() > 0.02 && X.x() < 0.07)
        b.add_surface_force(static_cast<Index>(v), Vec3(0, X.y() < y ? -0.05 : 0.05, 0));
    }
    b.step(0.002, profile);
  }
  ASSERT_EQ(b.surface().vertex_count(), n);
  EXPECT_TRUE(std::equal(tris.begin(), tris.end(), b.surface().triangles().begin()));
  double gap = 0.0;
  for (std::size_t v = n0; v + 1 < n; ++v) {
    const Vec3& X = b.surface().rest_positions()[v];
    if ((X - b.surface().rest_positions()[v + 1]).norm() == 0.0 && std::abs(X.z() - size.z()) < 1e-12)
      gap = std::max(gap, (b.surface_positions()[v] - b.surface_positions()[v + 1]).norm());
  }
  EXPECT_GT(gap, 1e-3) << "the slit did not open";
  const auto [label, count] = components(n, b.surface().triangles());
  ASSERT_EQ(count, 1);
  EXPECT_GT(volumes(b.surface_positions(), b.surface().triangles(), label, count)[0], 0.0);
}

TEST(SurfaceCut, NoTriangleSpansTheGapOnceThePiecesSeparate) {
  const TriMesh surface = fine_box(Vec3(0.1, 0.03, 0.03), {10, 3, 3});
  MeshlessBody b = bar(surface, Vec3(0, 0, -9.81));
  for (Index i = 0; i < b.phyxels().size(); ++i) {
    if (b.phyxels().rest[static_cast<std::size_t>(i)].x() < 0.01) b.set_fixed(i, true);
  }
  ASSERT_TRUE(b.cut(plane_blade(0.0537)));
  Profile profile;
  for (int s = 0; s < 20; ++s) b.step(0.01, profile);
  const auto x = b.surface_positions();
  const auto X = b.surface().rest_positions();
  double lowest = 0.0, worst = 0.0;
  for (const Tri& t : b.surface().triangles()) {
    for (int c = 0; c < 3; ++c) {
      const auto i = static_cast<std::size_t>(t[static_cast<std::size_t>(c)]),
                 j = static_cast<std::size_t>(t[static_cast<std::size_t>((c + 1) % 3)]);
      worst = std::max(worst, (x[i] - x[j]).norm() / (X[i] - X[j]).norm());
      lowest = std::min(lowest, x[i].z());
    }
  }
  EXPECT_LT(lowest, -0.15);  // the free piece fell well past its size
  EXPECT_LT(worst, 1.3);     // while no edge stretched across the gap
  // The new cut faces of each piece still point outward: positive volume per piece as it moves.
  const auto [label, count] = components(x.size(), b.surface().triangles());
  ASSERT_EQ(count, 2);
  for (double v : volumes(x, b.surface().triangles(), label, count)) EXPECT_GT(v, 0.0);
}

TEST(SurfaceCut, UncutBodiesKeepTheirSurfaceAndPartlyCutOnesTheirVertices) {
  const TriMesh surface = fine_box(Vec3(0.1, 0.03, 0.03), {10, 3, 3});
  MeshlessBody a = bar(surface, Vec3(0, 0, -9.81));
  MeshlessBody b = bar(surface, Vec3(0, 0, -9.81));
  // A partial cut: links go, the surface gets a slit; its vertices keep their numbers and rest places.
  ASSERT_TRUE(
      b.cut({Vec3(0.0537, -1, 1), Vec3(0.0537, 1, 1), Vec3(0.0537, -1, 0.015), Vec3(0.0537, 1, 0.015)}));
  Profile profile;
  for (int s = 0; s < 3; ++s) {
    a.step(0.01, profile);
    b.step(0.01, profile);
  }
  EXPECT_LT(b.phyxels().link_count(), a.phyxels().link_count());  // the partial cut did cut
  EXPECT_EQ(a.surface_topology_version(), 0u);
  ASSERT_EQ(a.surface().triangles().size(), surface.triangles.size());
  EXPECT_TRUE(
      std::equal(surface.triangles.begin(), surface.triangles.end(), a.surface().triangles().begin()));
  EXPECT_EQ(b.surface_topology_version(), 1u);
  expect_slit(b, surface.positions, 0.1 * 0.03 * 0.03);
  for (const MeshlessBody* m : {&a, &b}) {
    ASSERT_GE(m->surface().rest_positions().size(), surface.positions.size());
    EXPECT_TRUE(std::equal(surface.positions.begin(), surface.positions.end(),
                           m->surface().rest_positions().begin()));
    EXPECT_EQ(m->surface_positions().size(), m->surface().vertex_count());
  }
}

// The cut face covers all of the strip the blade swept inside the body, also where the blade's edge
// never crossed the surface: a blade lying inside the bar lifted out through its top (the face reaches
// down to where the blade started), and a blade pushed into the bar's end and on inside it (the face
// reaches where the blade stopped).
TEST(SurfaceCut, CutFacesCoverTheSweptStripInsideTheBody) {
  const Vec3 size(0.1, 0.03, 0.03);
  const double y = 0.0153;
  struct Case {
    Vec3 a, b, step;
    int sweeps;
    Vec3 lo, hi;  // the new vertices' rest bounds (x and z)
  } cases[] = {
      {Vec3(0.04, y, 0.015), Vec3(0.06, y, 0.015), Vec3(0, 0, 0.01), 3, Vec3(0.04, y, 0.015),
       Vec3(0.06, y, 0.03)},
      {Vec3(-0.01, y, 0.02), Vec3(-0.01, y, 0.01), Vec3(0.01, 0, 0), 6, Vec3(0.0, y, 0.01),
       Vec3(0.05, y, 0.02)},
  };
  for (const Case& c : cases) {
    MeshlessBody b = bar(fine_box(size, {10, 3, 3}), Vec3::Zero());
    const std::size_t n0 = b.surface().vertex_count();
    const std::vector<Vec3> rest(b.surface().rest_positions().begin(), b.surface().rest_positions().end());
    Profile profile;
    for (int s = 0; s < c.sweeps; ++s) {
      const Vec3 a = c.a + s * c.step, e = c.b + s * c.step;
      ASSERT_TRUE(b.cut({a, e, a + c.step, e + c.step}));
      b.step(0.0, profile);
    }
    expect_slit(b, rest, size.prod());
    Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
    for (std::size_t v = n0; v < b.surface().vertex_count(); ++v) {
      lo = lo.cwiseMin(b.surface().rest_positions()[v]);
      hi = hi.cwiseMax(b.surface().rest_positions()[v]);
    }
    EXPECT_LT((lo - c.lo).norm(), 1e-12) << lo.transpose();
    EXPECT_LT((hi - c.hi).norm(), 1e-12) << hi.transpose();
  }
}

// Random blades, through and partial, continuing runs and new ones, on a bar held at one end: after
// every step the surface is closed and outward oriented, every vertex is on a triangle, and its signed
// volume over the rest positions is the bar's (cut faces, slits' and through-cuts', come in pairs that
// coincide at rest). `moving`: under gravity with 2 ms steps, else cut at rest; `grab`: a grab held on
// the newest vertex (a cut point or a slit's vertex, renumbered as the cuts go on) stays on a vertex.
void random_blades(bool moving, bool grab) {
  const Vec3 size(0.1, 0.03, 0.03);
  MeshlessBody b = bar(fine_box(size, {10, 3, 3}), moving ? Vec3(0, 0, -9.81) : Vec3::Zero());
  for (Index i = 0; i < b.phyxels().size(); ++i) {
    if (b.phyxels().rest[static_cast<std::size_t>(i)].x() < 0.01) b.set_fixed(i, true);
  }
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const auto point = [&](double lo_z, double hi_z) {
    return Vec3(0.015 + 0.08 * u(rng), -0.01 + 0.05 * u(rng), lo_z + (hi_z - lo_z) * u(rng));
  };
  Profile profile;
  Index cut_steps = 0;
  GrabId held;
  for (int run = 0; run < 12; ++run) {
    if (grab && run == 3) held = b.grab(static_cast<Index>(b.surface().vertex_count()) - 1);
    // The handle above the bar, the edge's end inside or below it.
    Vec3 a = point(0.04, 0.06), c = point(-0.01, 0.025);
    const Vec3 move = 0.02 * Vec3(u(rng) - 0.5, u(rng) - 0.5, 0.5 * (u(rng) - 0.5));
    const int sweeps = 1 + static_cast<int>(4 * u(rng));
    for (int s = 0; s < sweeps; ++s) {
      if (b.cut({a, c, a + move, c + move})) ++cut_steps;
      a += move;
      c += move;
      b.step(moving ? 0.002 : 0.0, profile);
      const auto tris = b.surface().triangles();
      expect_closed_oriented(tris);
      const auto [label, count] = components(b.surface().vertex_count(), tris);
      for (std::size_t v = 0; v < label.size(); ++v)
        ASSERT_GE(label[v], 0) << "vertex " << v << " is on no triangle";
      double volume = 0.0;
      for (double v : volumes(b.surface().rest_positions(), tris, label, count)) volume += v;
      EXPECT_NEAR(volume, size.prod(), 1e-11 * size.prod()) << "run " << run << ", sweep " << s;
      ASSERT_EQ(b.surface_positions().size(), b.surface().vertex_count());
      if (grab && run >= 3) {
        const Index g = b.grab_vertex(held);
        ASSERT_GE(g, 0);
        ASSERT_LT(static_cast<std::size_t>(g), b.surface().vertex_count());
      }
      for (const Vec3& x : b.phyxels().position) ASSERT_TRUE(x.allFinite()) << "phyxel run " << run;
      for (const Vec3& x : b.surface_positions()) ASSERT_TRUE(x.allFinite()) << "run " << run;
    }
  }
  EXPECT_GT(cut_steps, 20);
  EXPECT_GT(b.surface_topology_version(), 5u);
}

TEST(SurfaceCut, RandomBladesKeepTheSurfaceClosedAndItsRestVolume) { random_blades(true, false); }

TEST(SurfaceCut, RandomBladesAtRestKeepAGrabOnAVertex) { random_blades(false, true); }

}  // namespace
}  // namespace pliant::meshless
