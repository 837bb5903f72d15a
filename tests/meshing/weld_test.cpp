#include "pliant/meshing/weld.hpp"

#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/surface_check.hpp"

#include <gtest/gtest.h>

namespace pliant::meshing {
namespace {

TEST(Weld, RebuildsTheSharedNodesOfAnStlStyleSoup) {
  const TriMesh sphere = icosphere({.radius = 1.0, .subdivisions = 2}).value();
  TriMesh soup;  // three private corners per triangle, as STL stores them
  for (const Tri& t : sphere.triangles) {
    const auto base = static_cast<Index>(soup.positions.size());
    for (Index v : t) soup.positions.push_back(sphere.positions[v]);
    soup.triangles.push_back({base, base + 1, base + 2});
  }
  soup.positions.push_back(Vec3(7, 7, 7));  // an unused node is dropped
  EXPECT_FALSE(check_closed_surface(soup).ok());
  const TriMesh welded = weld_identical_nodes(soup);
  EXPECT_EQ(welded.node_count(), sphere.node_count());
  ASSERT_EQ(welded.triangle_count(), sphere.triangle_count());
  for (std::size_t i = 0; i < welded.triangles.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(welded.positions[welded.triangles[i][k]], sphere.positions[sphere.triangles[i][k]]);
    }
  }
  EXPECT_TRUE(check_closed_surface(welded).ok());
}

TEST(Weld, TreatsSignedZerosAsOneNodeAndKeepsDistinctNodes) {
  TriMesh soup;
  soup.positions = {Vec3(0.0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-0.0, 0, 0), Vec3(1, 1e-300, 0)};
  soup.triangles = {{0, 1, 2}, {3, 4, 2}};
  const TriMesh welded = weld_identical_nodes(soup);
  EXPECT_EQ(welded.node_count(), 4u);
  EXPECT_EQ(welded.triangles[1][0], welded.triangles[0][0]);
  EXPECT_NE(welded.triangles[1][1], welded.triangles[0][1]);
}

}  // namespace
}  // namespace pliant::meshing
