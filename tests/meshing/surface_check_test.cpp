#include "pliant/meshing/surface_check.hpp"

#include "pliant/meshing/box.hpp"
#include "pliant/meshing/icosphere.hpp"

#include "meshing/mesh_checks.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <numbers>
#include <string>

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

TEST(SurfaceCheck, RejectsASurfaceThatPassesThroughItselfNamingTheTriangles) {
  // Node 0 pushed through the far side: the shell stays closed, manifold and oriented, and encloses a
  // volume, but its fan of triangles crosses the triangles on the opposite side.
  TriMesh s = sphere();
  const Vec3 far = -s.positions[0];
  s.positions[0] = 1.3 * far + Vec3(0.05, 0.02, 0.0);
  const std::string message = check_closed_surface(s).message();
  EXPECT_THAT(message, HasSubstr("surface intersects itself: triangles "));
  EXPECT_THAT(message, HasSubstr("crossing pairs in all"));
  // The numbers the caller gives (the file's) are the ones printed: the first pair is (0-based) a fan
  // triangle and a triangle of the far side, printed with 1000 added.
  SurfaceNames names;
  for (std::size_t t = 0; t < s.triangles.size(); ++t)
    names.triangle.push_back(1000 + static_cast<long long>(t));
  EXPECT_THAT(check_closed_surface(s, &names).message(), HasSubstr("triangles 10"));
  // The point named lies near the far side, where the fan comes through.
  const std::size_t at = message.find("near (");
  ASSERT_NE(at, std::string::npos);
  double x = 0, y = 0, z = 0;
  ASSERT_EQ(std::sscanf(message.c_str() + at, "near (%lf, %lf, %lf)", &x, &y, &z), 3);
  EXPECT_LT((Vec3(x, y, z) - far).norm(), 0.3);
}

}  // namespace
}  // namespace pliant::meshing
