// SpringMesh construction and invariants.
#include "pliant/models/springs/spring_mesh.hpp"

#include "pliant/meshing/disc_membrane.hpp"

#include <gtest/gtest.h>

namespace pliant::springs {
namespace {

TriMesh two_triangles() {
  TriMesh m;
  m.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0)};
  m.triangles = {Tri{0, 1, 2}, Tri{0, 2, 3}};
  return m;
}

TEST(SpringMesh, SquareHasFiveSpringsAndLumpedMass) {
  auto r = build_spring_mesh(two_triangles(), {.stiffness = 10.0, .mass_density = 3.0, .max_stretch = 1.2});
  ASSERT_TRUE(r.ok()) << r.message();
  const SpringMesh& m = *r;
  EXPECT_EQ(m.node_count(), 4);
  EXPECT_EQ(m.spring_count(), 5);
  EXPECT_EQ(m.triangle_count(), 2);
  // Total mass = density × area (1 m²), nodes 0 and 2 touch both triangles.
  EXPECT_NEAR(m.mass[0], 3.0 * 0.5 * 2 / 3, 1e-12);
  EXPECT_NEAR(m.mass[1], 3.0 * 0.5 / 3, 1e-12);
  double total = 0;
  for (double v : m.mass) total += v;
  EXPECT_NEAR(total, 3.0, 1e-12);
  for (Index s = 0; s < m.spring_count(); ++s) {
    EXPECT_NEAR(m.max_length[static_cast<std::size_t>(s)], 1.2 * m.rest_length[static_cast<std::size_t>(s)],
                1e-12);
  }
  // The diagonal (0, 2) is the only spring on two triangles.
  int interior = 0;
  for (const auto& st : m.spring_triangles) interior += st[1] >= 0;
  EXPECT_EQ(interior, 1);
  EXPECT_TRUE(check_spring_mesh(m).ok()) << check_spring_mesh(m).message();
}

TEST(SpringMesh, CheckDetectsBrokenIncidence) {
  auto r = build_spring_mesh(two_triangles(), {});
  ASSERT_TRUE(r.ok());
  SpringMesh m = std::move(r).value();
  m.node_springs.remove(0, m.node_springs.of(0)[0]);
  EXPECT_FALSE(check_spring_mesh(m).ok());
}

TEST(SpringMesh, RejectsBadInput) {
  TriMesh m = two_triangles();
  m.triangles.push_back(Tri{0, 1, 7});
  auto r = build_spring_mesh(m, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("triangle 2"), std::string::npos) << r.message();
  EXPECT_FALSE(build_spring_mesh(two_triangles(), {.stiffness = -1}).ok());
  EXPECT_FALSE(build_spring_mesh(two_triangles(), {.max_stretch = 0.9}).ok());
  TriMesh fan = two_triangles();
  fan.positions.push_back(Vec3(0.5, 0.5, 1));
  fan.triangles.push_back(Tri{0, 2, 4});  // edge (0, 2) on three triangles
  auto f = build_spring_mesh(fan, {});
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.message().find("more than two"), std::string::npos) << f.message();
}

TEST(SpringMesh, TableMembraneCounts) {
  auto disc = meshing::disc_membrane(0.05, 1403, 140);
  ASSERT_TRUE(disc.ok()) << disc.message();
  auto r = build_spring_mesh(*disc, {});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->node_count(), 1403);
  EXPECT_EQ(r->spring_count(), 4066);
  EXPECT_EQ(r->triangle_count(), 2664);
  EXPECT_TRUE(check_spring_mesh(*r).ok());
  int edge_springs = 0;
  for (const auto& st : r->spring_triangles) edge_springs += st[1] < 0;
  EXPECT_EQ(edge_springs, 140);  // the rim
}

TEST(SpringMesh, TetBodyUsesEdgesAndBoundary) {
  TetMesh t;
  t.positions = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  t.tets = {Tet{0, 1, 2, 3}};
  auto r = build_spring_mesh(t, {.mass_density = 6.0});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->spring_count(), 6);
  EXPECT_EQ(r->triangle_count(), 4);
  for (double v : r->mass) EXPECT_NEAR(v, 6.0 / 6.0 / 4.0, 1e-12);
  EXPECT_TRUE(check_spring_mesh(*r).ok()) << check_spring_mesh(*r).message();
}

}  // namespace
}  // namespace pliant::springs
