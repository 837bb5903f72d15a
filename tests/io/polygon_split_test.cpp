// Large polygons split into triangles: a comb (the shape on which plain ear clipping is cubic: every
// ear test scanned every corner and every clip restarted the scan) and a convex 100,000-gon (where it
// was quadratic). A correct split of a simple n-gon has n - 2 triangles, each turning the same way as
// the polygon, whose areas sum to the polygon's shoelace area; an overlap or a triangle outside the
// outline breaks one of the three. The work of the ear clipping is checked against an O(n log n) bound
// (O(n) for the convex polygon), so a return of the quadratic scan fails here whatever the machine's
// speed (in a release build the 10,000-tooth comb takes about 0.2 s, the 100,000-gon under 0.05 s).
#include "formats.hpp"
#include "io/cell_split.hpp"
#include "pliant/io/mesh_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace pliant::io {
namespace {

using detail::kMaxPolygonCorners;
using detail::split_polygon;
using testing::parse_error;
using testing::parse_ok;

// A comb with `teeth` teeth of width 1 and height 5 on a spine of height 1, gaps of width 1, in the
// plane z = 0.5 x (tilted, so the split happens in the polygon's own plane), counter-clockwise seen
// from +z.
std::vector<Vec3> comb(int teeth) {
  std::vector<Vec3> p;
  const auto at = [&](double x, double y) { p.emplace_back(x, y, 0.5 * x); };
  const double w = 2.0 * teeth - 1;
  at(0, 0);
  at(w, 0);
  for (int t = teeth - 1; t >= 0; --t) {
    const double x = 2.0 * t;
    at(x + 1, 6);
    at(x, 6);
    if (t > 0) {
      at(x, 1);
      at(x - 1, 1);
    }
  }
  return p;
}

std::vector<Vec3> convex(int n) {
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * M_PI * i / n;
    p.emplace_back(std::cos(a), std::sin(a), 0.0);
  }
  return p;
}

// Area of the polygon projected on the z = 0 plane (shoelace formula), and of a triangle likewise.
double shoelace(const std::vector<Vec3>& p) {
  double a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3& u = p[i];
    const Vec3& v = p[(i + 1) % p.size()];
    a += u.x() * v.y() - v.x() * u.y();
  }
  return a / 2;
}

double signed_area(const Vec3& a, const Vec3& b, const Vec3& c) {
  return ((b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x())) / 2;
}

// Splits `p`, asserting the three properties of a correct split, with the ear clipping's work bounded
// by `work` (cells, tree nodes and corners looked at).
void expect_valid_split(const std::vector<Vec3>& p, long long work) {
  std::vector<long long> ids(p.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::vector<std::array<int, 3>> tris;
  const std::string problem = split_polygon(p, ids.data(), tris, work);
  ASSERT_EQ(problem, "");
  ASSERT_EQ(tris.size(), p.size() - 2);
  double sum = 0, smallest = INFINITY;
  for (const auto& t : tris) {
    const double a = signed_area(p[t[0]], p[t[1]], p[t[2]]);
    smallest = std::min(smallest, a);
    sum += a;
  }
  EXPECT_GT(smallest, 0) << "every triangle turns counter-clockwise, like the polygon";
  const double area = shoelace(p);
  EXPECT_NEAR(sum, area, 1e-12 * p.size() * std::abs(area));
}

TEST(PolygonSplit, CombsOfAThousandAndTenThousandTeethSplitInNLogNWork) {
  for (const int teeth : {1000, 10000}) {
    SCOPED_TRACE(teeth);
    const std::vector<Vec3> p = comb(teeth);
    EXPECT_NEAR(shoelace(p), (2.0 * teeth - 1) * 1 + teeth * 5.0, 1e-9);
    // O(n log n): 8 n log2(n) is about twice what it takes (the cubic scan took ~1000 n at 1,000 teeth).
    const double n = static_cast<double>(p.size());
    expect_valid_split(p, static_cast<long long>(8 * n * std::log2(n)));
  }
}

TEST(PolygonSplit, ConvexHundredThousandGonSplitsWithLinearWork) {
  const std::vector<Vec3> p = convex(100000);
  expect_valid_split(p, 5 * static_cast<long long>(p.size()));  // O(n): no reflex corner to look at
  // The same polygon listed clockwise keeps its orientation: every triangle turns clockwise.
  std::vector<Vec3> cw(p.rbegin(), p.rend());
  std::vector<long long> ids(cw.size());
  std::iota(ids.begin(), ids.end(), 0);
  std::vector<std::array<int, 3>> tris;
  ASSERT_EQ(split_polygon(cw, ids.data(), tris), "");
  ASSERT_EQ(tris.size(), cw.size() - 2);
  for (const auto& t : tris) ASSERT_LT(signed_area(cw[t[0]], cw[t[1]], cw[t[2]]), 0);
}

// The readers that take polygons (OFF here, the others share add_polygon / add_cell) split a
// 1,000-tooth comb: 75 KB of OFF took 66 s before.
TEST(PolygonSplit, OffWithAThousandToothCombReadsAndLegacyVtkAgrees) {
  const std::vector<Vec3> p = comb(1000);
  std::string points, face = std::to_string(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    points += testing::num(p[i].x()) + " " + testing::num(p[i].y()) + " " + testing::num(p[i].z()) + "\n";
    face += " " + std::to_string(i);
  }
  const MeshFile off = parse_ok("OFF\n" + std::to_string(p.size()) + " 1 0\n" + points + face + "\n", ".off");
  EXPECT_EQ(off.triangles.size(), p.size() - 2);
  const MeshFile vtk = parse_ok("# vtk DataFile Version 3.0\ncomb\nASCII\nDATASET POLYDATA\nPOINTS " +
                                    std::to_string(p.size()) + " double\n" + points + "POLYGONS 1 " +
                                    std::to_string(p.size() + 1) + "\n" + face + "\n",
                                ".vtk");
  EXPECT_EQ(vtk.triangles, off.triangles);
}

// Past the documented size limit a polygon is refused with its element named, before any work.
TEST(PolygonSplit, PolygonsOverTheSizeLimitAreRefusedNamingTheCell) {
  const std::size_t n = kMaxPolygonCorners + 1;
  detail::MeshBuilder builder("test");
  for (int i = 0; i < 3; ++i) builder.add_node(i, Vec3(i, i * i, 0));
  std::vector<long long> ids(n, 0);
  EXPECT_EQ(detail::add_cell(builder, detail::CellShape::polygon, ids.data(), static_cast<long long>(n)),
            "has 1000001 corners, more than the 1000000 a polygon may have");
  std::vector<Index> poly(n, 0);
  EXPECT_EQ(detail::add_polygon(builder, poly, 7),
            "has 1000001 corners, more than the 1000000 a polygon may have");
  EXPECT_TRUE(builder.mesh().triangles.empty());
  // A polygon that needs more work than its bound is refused, not split wrongly or slowly.
  const std::vector<Vec3> p = comb(100);
  std::vector<long long> pid(p.size());
  std::iota(pid.begin(), pid.end(), 0);
  std::vector<std::array<int, 3>> tris;
  const std::string problem = split_polygon(p, pid.data(), tris, 10);
  EXPECT_NE(problem.find("could not be triangulated within the work bound of 10 steps"), std::string::npos)
      << problem;
  EXPECT_TRUE(tris.empty());
}

}  // namespace
}  // namespace pliant::io
