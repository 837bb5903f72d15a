#include "pliant/core/region.hpp"

#include "core/test_meshes.hpp"

#include <gtest/gtest.h>

namespace pliant {
namespace {

std::vector<Index> select(const TetMesh& m, std::string_view text) {
  auto region = parse_region(text);
  EXPECT_TRUE(region.ok()) << text << ": " << (region.ok() ? "" : region.message());
  return region.ok() ? select_nodes(m.positions, *region) : std::vector<Index>{};
}

// Reference selection by brute force over the nodes.
template <class F>
std::vector<Index> brute(const TetMesh& m, F inside) {
  std::vector<Index> out;
  for (Index i = 0; i < static_cast<Index>(m.node_count()); ++i)
    if (inside(m.positions[i])) out.push_back(i);
  return out;
}

TEST(Region, HalfSpacesHonourTheComparisonAsWritten) {
  const TetMesh m = test::structured_box(4, 3, 2, 0.25);  // x in [0, 1], y in [0, 0.75], z in [0, 0.5]
  EXPECT_TRUE(select(m, "x<0").empty());
  EXPECT_EQ(select(m, "x<=0"), brute(m, [](const Vec3& p) { return p.x() == 0; }));
  EXPECT_EQ(select(m, "x < 0.001").size(), 4u * 3u);
  EXPECT_EQ(select(m, " z>=0.25 "), brute(m, [](const Vec3& p) { return p.z() >= 0.25; }));
  EXPECT_EQ(select(m, "y>0.5"), brute(m, [](const Vec3& p) { return p.y() > 0.5; }));
  EXPECT_EQ(select(m, "y>+5e-1"), select(m, "y>0.5"));
}

TEST(Region, BoxSphereNodesExtremes) {
  const TetMesh m = test::structured_box(4, 4, 4, 0.25, Vec3(-0.5, -0.5, -0.5));
  EXPECT_EQ(select(m, "box:-0.5,-0.5,-0.5,0,0,0"),
            brute(m, [](const Vec3& p) { return (p.array() <= 1e-15).all(); }));
  EXPECT_EQ(select(m, "box:-0.5,-0.5,-0.5,0,0,0").size(), 27u);
  EXPECT_EQ(select(m, "sphere:0,0,0,0.25"), brute(m, [](const Vec3& p) { return p.norm() <= 0.25 + 1e-15; }));
  EXPECT_EQ(select(m, "sphere:0,0,0,0.25").size(), 7u);  // centre + 6 axis neighbours
  const std::vector<Index> list = {1, 2, 3, 7, 8, 9};
  EXPECT_EQ(select(m, "nodes:9,3,2,1,7-9,8"), list);
  EXPECT_EQ(select(m, "zmax"), brute(m, [](const Vec3& p) { return p.z() == 0.5; }));
  EXPECT_EQ(select(m, "xmin").size(), 25u);
  // A tolerance of one layer and a bit reaches the second layer of nodes.
  EXPECT_EQ(select(m, "ymin:0.26").size(), 50u);
}

TEST(Region, ExtremesAreRobustToRoundOff) {
  TetMesh m = test::structured_box(2, 2, 2, 0.1, Vec3(0.3, 0, 0));
  for (auto& p : m.positions) p.x() += (p.x() < 0.35 ? 1e-12 * (p.y() - 0.1) : 0.0);  // jitter the left face
  EXPECT_EQ(select(m, "xmin").size(), 9u);
}

// Relative regions measure from the bounding box of the positions they select from: the same text
// picks the same nodes of a mesh at any scale and placement, and the cut lands where hand arithmetic
// on the box puts it.
TEST(Region, RelativeRegionsFollowTheBoundingBox) {
  // y in [-0.2, 0.55] (4 layers of 0.25 + offset), x in [1, 2], z in [0, 0.5].
  const TetMesh m = test::structured_box(4, 3, 2, 0.25, Vec3(1, -0.2, 0));
  // 20% of y's extent 0.75 above ymin -0.2: y < -0.05 holds the first layer only.
  EXPECT_EQ(select(m, "y<20%"), brute(m, [](const Vec3& p) { return p.y() < -0.2 + 0.2 * 0.75; }));
  EXPECT_EQ(select(m, "y<20%").size(), 5u * 3u);
  // 40% -> y < 0.1: two layers.
  EXPECT_EQ(select(m, "y<40%").size(), 2u * 5u * 3u);
  EXPECT_EQ(select(m, "y>=100%"), select(m, "ymax"));
  EXPECT_EQ(select(m, "x<=0%"), select(m, "xmin"));
  // A band of 30% of x's extent 1 from xmin (x = 1) holds the layers at 1 and 1.25.
  EXPECT_EQ(select(m, "xmin+30%"), brute(m, [](const Vec3& p) { return p.x() <= 1.3; }));
  EXPECT_EQ(select(m, "xmin:30%"), select(m, "xmin+30%"));
  EXPECT_EQ(select(m, "xmax-30%"), brute(m, [](const Vec3& p) { return p.x() >= 1.7; }));
  EXPECT_EQ(select(m, "xmin+2%"), select(m, "xmin"));
  EXPECT_EQ(select(m, "xmin+0.3"), select(m, "xmin:0.3"));
  // Scaled by 100 and moved, the relative forms select the very same nodes.
  TetMesh big = m;
  for (Vec3& p : big.positions) p = 100 * p + Vec3(-7, 3, 11);
  for (const char* text : {"y<20%", "z>=50%", "xmin+30%", "zmax-1%", "x<37.5%"})
    EXPECT_EQ(select(big, text), select(m, text)) << text;
  // A region of no positions selects nothing rather than reading an empty box.
  auto r = parse_region("y<20%");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(select_nodes({}, *r).empty());
}

TEST(Region, RoundTripsThroughText) {
  for (const char* text :
       {"x<0.001", "y<=-2", "z>0.2", "x>=1e-07", "box:0,0,0,1,1,0.1", "sphere:0,0,0,0.05", "nodes:1,2,3",
        "xmin", "ymax:0.001", "y<20%", "z>=97.5%", "xmin+2%", "zmax-0.5%"}) {
    auto r = parse_region(text);
    ASSERT_TRUE(r.ok()) << text;
    EXPECT_EQ(to_string(*r), text);
    auto again = parse_region(to_string(*r));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(to_string(*again), text);
  }
}

TEST(Region, ErrorsSayWhatWasExpected) {
  const auto message = [](std::string_view text) {
    auto r = parse_region(text);
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.message();
  };
  EXPECT_EQ(message("box:0,0,1"), "region \"box:0,0,1\": box needs 6 numbers (x0,y0,z0,x1,y1,z1), got 3");
  EXPECT_NE(message("sphere:0,0,0,-1").find("radius must be >= 0"), std::string::npos);
  EXPECT_NE(message("sphere:0,0,a,1").find("\"a\" is not a finite number"), std::string::npos);
  EXPECT_NE(message("box:0,0,0,nan,1,1").find("\"nan\" is not a finite number"), std::string::npos);
  EXPECT_NE(message("box:1,0,0,0,1,1").find("lower corner exceeds"), std::string::npos);
  EXPECT_NE(message("nodes:1,-2").find("\"-2\" is not a node index"), std::string::npos);
  EXPECT_NE(message("nodes:5-2").find("first <= last"), std::string::npos);
  EXPECT_NE(message("nodes:0-2000000000").find("longer than"), std::string::npos);
  EXPECT_NE(message("nodes:99999999999").find("is not a node index"), std::string::npos);
  EXPECT_NE(message("x=0").find("expected one of < <= > >="), std::string::npos);
  EXPECT_NE(message("x<").find("is not a finite number"), std::string::npos);
  EXPECT_NE(message("w<0").find("unknown region"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  EXPECT_NE(message("xmin:-1").find("tolerance"), std::string::npos);
  EXPECT_NE(message("xmin+150%").find("between 0% and 100%"), std::string::npos);
  EXPECT_NE(message("xmin-2%").find("write xmin+2%"), std::string::npos);
  EXPECT_NE(message("ymax+2%").find("write ymax-2%"), std::string::npos);
  EXPECT_NE(message("y<nan%").find("is not a finite number"), std::string::npos);
  EXPECT_NE(message("xmin*2").find("unknown region"), std::string::npos);
  EXPECT_LT(message(std::string(10000, 'q')).size(), 300u);
}

TEST(Region, CheckRegionNamesTheNodeOutOfRange) {
  auto r = parse_region("nodes:0,5,800");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(check_region(*r, 801).ok());
  const Status s = check_region(*r, 800);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("node 800 out of range (the mesh has 800 nodes)"), std::string::npos);
  const std::vector<Vec3> positions(10, Vec3::Zero());
  const std::vector<Index> expect = {0, 5};
  EXPECT_EQ(select_nodes(positions, *r), expect);
}

}  // namespace
}  // namespace pliant
