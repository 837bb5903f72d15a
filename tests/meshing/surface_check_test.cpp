#include "pliant/meshing/surface_check.hpp"

#include "pliant/meshing/box.hpp"
#include "pliant/meshing/icosphere.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <numbers>

namespace pliant::meshing {
namespace {

using ::testing::HasSubstr;

TriMesh sphere() { return icosphere({.radius = 1.0, .subdivisions = 2}).value(); }

TEST(SurfaceCheck, AcceptsClosedSurfacesAndMeasuresTheirVolume) {
  const TriMesh s = sphere();
  const auto info = check_closed_surface(s);
  ASSERT_TRUE(info.ok()) << info.message();
  EXPECT_FALSE(info->inward);
  EXPECT_EQ(info->edges, 480);
  EXPECT_NEAR(info->volume, test::flux_volume(s), 1e-12);
  EXPECT_LT(info->volume, 4.0 / 3.0 * std::numbers::pi);

  // The boundary of a tet box, an independent closed surface with sharp edges: volume 0.3·0.2·0.1.
  const auto box = box_mesh({.size = Vec3(0.3, 0.2, 0.1), .cells = {3, 2, 1}});
  const auto box_info = check_closed_surface(extract_boundary(box.value()).mesh);
  ASSERT_TRUE(box_info.ok()) << box_info.message();
  EXPECT_NEAR(box_info->volume, 0.006, 1e-15);
}

TEST(SurfaceCheck, DetectsInwardWinding) {
  TriMesh s = sphere();
  for (Tri& t : s.triangles) std::swap(t[1], t[2]);
  const auto info = check_closed_surface(s);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->inward);
  EXPECT_GT(info->volume, 4.0);
}

TEST(SurfaceCheck, NamesTheFirstDefect) {
  TriMesh open = sphere();
  open.triangles.erase(open.triangles.begin() + 7);
  EXPECT_THAT(check_closed_surface(open).message(), HasSubstr("surface is not closed"));
  EXPECT_THAT(check_closed_surface(open).message(), HasSubstr("(3 open edges)"));

  TriMesh flipped = sphere();
  std::swap(flipped.triangles[5][1], flipped.triangles[5][2]);
  EXPECT_THAT(check_closed_surface(flipped).message(), HasSubstr("not consistently oriented"));
  EXPECT_THAT(check_closed_surface(flipped).message(), HasSubstr("5"));

  TriMesh fin = sphere();  // a third triangle hinged on an existing edge
  const Tri t0 = fin.triangles[0];
  fin.positions.push_back(Vec3(3, 3, 3));
  const Index extra = static_cast<Index>(fin.positions.size()) - 1;
  fin.triangles.push_back({t0[1], t0[0], extra});
  fin.triangles.push_back({t0[0], t0[1], extra});
  EXPECT_THAT(check_closed_surface(fin).message(), HasSubstr("not manifold"));

  TriMesh out_of_range = sphere();
  out_of_range.triangles[3][2] = 5000;
  EXPECT_THAT(check_closed_surface(out_of_range).message(),
              HasSubstr("triangle 3 references node 5000, but there are 162 nodes"));

  TriMesh nan = sphere();
  nan.positions[11].y() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(check_closed_surface(nan).message(), HasSubstr("node 11 has a non-finite coordinate"));

  TriMesh flat = sphere();
  const Tri t9 = flat.triangles[9];
  flat.positions[t9[2]] = 0.5 * (flat.positions[t9[0]] + flat.positions[t9[1]]);
  EXPECT_THAT(check_closed_surface(flat).message(), HasSubstr("degenerate"));

  TriMesh repeated = sphere();
  repeated.triangles[2][1] = repeated.triangles[2][0];
  EXPECT_THAT(check_closed_surface(repeated).message(), HasSubstr("triangle 2 repeats a node"));

  EXPECT_THAT(check_closed_surface(TriMesh{}).message(), HasSubstr("no triangles"));
}

TEST(SurfaceCheck, RejectsSeveralPieces) {
  TriMesh two = sphere();
  const TriMesh other = icosphere({.center = Vec3(5, 0, 0), .radius = 1.0, .subdivisions = 1}).value();
  const auto offset = static_cast<Index>(two.positions.size());
  two.positions.insert(two.positions.end(), other.positions.begin(), other.positions.end());
  for (Tri t : other.triangles) two.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  EXPECT_THAT(check_closed_surface(two).message(), HasSubstr("2 separate closed pieces"));
}

}  // namespace
}  // namespace pliant::meshing
