// SpringsAsset, the shared initial network: bodies made from one asset and driven differently each end
// exactly where a lone body on its own fresh asset ends, tearing one of them leaves the other and the
// asset untouched, and the content key changes with every input that changes the asset (and with
// nothing else).
#include "pliant/models/springs/springs_asset.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/models/springs/springs_body.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pliant::springs {
namespace {

TriMesh sheet() {
  auto tri = meshing::rect_membrane({.size = Vec2(0.05, 0.05), .cells_x = 8, .cells_y = 8});
  EXPECT_TRUE(tri.ok()) << tri.message();
  return std::move(tri).value();
}

const SpringMeshDef kMeshDef{.stiffness = 50.0, .damping = 0.015, .mass_density = 180.0, .max_stretch = 1.3};
const std::vector<Index> kFixed = {0, 1, 2, 3, 4, 5, 6, 7, 8};  // the y = 0 edge

SpringsBodyDef body_def(Vec3 gravity) {
  return {.method = {.method = Method::dragnet_mass_spring, .dt = 5e-4, .mass_damping = 600.0},
          .tear_mode = TearMode::area_preserving,
          .tearing = {.seed_threshold = 0.02, .edge_threshold = 0.04, .inner_threshold = 0.08},
          .gravity = gravity};
}

std::shared_ptr<const SpringsAsset> fresh_asset() {
  auto a = SpringsAsset::build(sheet(), kMeshDef, kFixed);
  EXPECT_TRUE(a.ok()) << a.message();
  return std::move(a).value();
}

SpringsBody make(std::shared_ptr<const SpringsAsset> asset, const SpringsBodyDef& def) {
  auto b = SpringsBody::build(std::move(asset), def);
  EXPECT_TRUE(b.ok()) << b.message();
  return std::move(b).value();
}

// Drive 1 pulls the far corner up with a grab; drive 2 pushes an inner node sideways under gravity.
void drive(SpringsBody& body, int which, int steps) {
  Profile profile;
  const Index corner = 80, inner = 40;  // the (x max, y max) corner of the 9 x 9 nodes, the middle
  GrabId id;
  if (which == 1) id = body.grab(corner);
  const Vec3 start = body.mesh().position[static_cast<std::size_t>(corner)];
  for (int s = 1; s <= steps; ++s) {
    if (which == 1) body.move_grab(id, start + s * Vec3(0.0, 2e-4, 3e-4));
    if (which == 2) body.add_force(inner, Vec3(0.02, 0.0, 0.0));
    body.step(2e-3, profile);
  }
}

TEST(SpringsAsset, BodiesSharingOneAssetEachMatchALoneBody) {
  const std::shared_ptr<const SpringsAsset> shared = fresh_asset();
  const std::uint64_t content = SpringsAsset::key_of(shared->mesh());
  SpringsBody a = make(shared, body_def(Vec3::Zero()));
  SpringsBody b = make(shared, body_def(Vec3(0, 0, -9.81)));
  EXPECT_EQ(a.asset().get(), shared.get());
  EXPECT_EQ(b.asset().get(), shared.get());
  drive(a, 1, 40);
  drive(b, 2, 40);

  SpringsBody lone_a = make(fresh_asset(), body_def(Vec3::Zero()));
  SpringsBody lone_b = make(fresh_asset(), body_def(Vec3(0, 0, -9.81)));
  drive(lone_a, 1, 40);
  drive(lone_b, 2, 40);
  EXPECT_EQ(a.state_hash(), lone_a.state_hash());
  EXPECT_EQ(b.state_hash(), lone_b.state_hash());
  EXPECT_NE(a.state_hash(), b.state_hash()) << "the two drives must differ, or the test shows nothing";
  EXPECT_NE(a.state_hash(), make(shared, body_def(Vec3::Zero())).state_hash())
      << "drive 1 must move the body";
  // Every array of the asset's mesh is as it was built.
  EXPECT_EQ(SpringsAsset::key_of(shared->mesh()), content);
  EXPECT_EQ(SpringsAsset::key_of(shared->mesh()), SpringsAsset::key_of(fresh_asset()->mesh()));
}

TEST(SpringsAsset, TearingOneBodyLeavesTheOtherAndTheAssetUntouched) {
  const std::shared_ptr<const SpringsAsset> shared = fresh_asset();
  const std::uint64_t content = SpringsAsset::key_of(shared->mesh());
  const Index nodes = shared->mesh().node_count(), springs = shared->mesh().spring_count();
  SpringsBody cut = make(shared, body_def(Vec3::Zero()));
  SpringsBody other = make(shared, body_def(Vec3::Zero()));
  SpringsBody lone_cut = make(fresh_asset(), body_def(Vec3::Zero()));
  SpringsBody lone_other = make(fresh_asset(), body_def(Vec3::Zero()));
  ASSERT_GT(cut.cut(40), 0);
  ASSERT_GT(lone_cut.cut(40), 0);
  EXPECT_GT(cut.mesh().node_count(), nodes) << "an inner cut duplicates nodes";
  EXPECT_EQ(other.mesh().node_count(), nodes);
  EXPECT_EQ(SpringsAsset::key_of(other.mesh()), content) << "the other body's mesh is the initial one";
  // Both pulled until the sheet tears by itself too.
  drive(cut, 1, 60);
  drive(other, 1, 60);
  drive(lone_cut, 1, 60);
  drive(lone_other, 1, 60);
  EXPECT_EQ(cut.state_hash(), lone_cut.state_hash());
  EXPECT_EQ(other.state_hash(), lone_other.state_hash());
  EXPECT_NE(cut.state_hash(), other.state_hash());
  EXPECT_EQ(shared->mesh().node_count(), nodes);
  EXPECT_EQ(shared->mesh().spring_count(), springs);
  EXPECT_EQ(SpringsAsset::key_of(shared->mesh()), content);
  EXPECT_TRUE(check_spring_mesh(shared->mesh()).ok());
}

TEST(SpringsAsset, KeyChangesWithEveryInputAndOnlyThen) {
  const TriMesh tri = sheet();
  const std::uint64_t base = SpringsAsset::key_of(tri, kMeshDef, kFixed);
  EXPECT_EQ(SpringsAsset::key_of(sheet(), kMeshDef, kFixed), base);
  // The fixed set, not the order it is listed in or repeats.
  const std::vector<Index> shuffled = {8, 7, 6, 5, 4, 3, 2, 1, 0, 0};
  EXPECT_EQ(SpringsAsset::key_of(tri, kMeshDef, shuffled), base);
  EXPECT_EQ(fresh_asset()->key(), base);

  TriMesh moved = tri;
  moved.positions[20].x() += 1e-9;
  EXPECT_NE(SpringsAsset::key_of(moved, kMeshDef, kFixed), base);
  TriMesh flipped = tri;
  std::swap(flipped.triangles[3][1], flipped.triangles[3][2]);
  EXPECT_NE(SpringsAsset::key_of(flipped, kMeshDef, kFixed), base);
  const std::vector<Index> fewer(kFixed.begin(), kFixed.end() - 1);
  EXPECT_NE(SpringsAsset::key_of(tri, kMeshDef, fewer), base);
  EXPECT_NE(SpringsAsset::key_of(tri, kMeshDef), base);
  for (int field = 0; field < 5; ++field) {
    SpringMeshDef d = kMeshDef;
    double* v[] = {&d.stiffness, &d.damping, &d.mass_density, &d.node_mass, &d.max_stretch};
    *v[field] += 1e-6;
    EXPECT_NE(SpringsAsset::key_of(tri, d, kFixed), base) << "SpringMeshDef field " << field;
  }

  // The volume overload: the same rule, and a volume never shares a membrane's key.
  auto box = meshing::box_mesh({.size = Vec3(0.02, 0.01, 0.01), .cells = {4, 2, 2}});
  ASSERT_TRUE(box.ok()) << box.message();
  const std::uint64_t vbase = SpringsAsset::key_of(*box, kMeshDef, kFixed);
  EXPECT_EQ(SpringsAsset::key_of(*box, kMeshDef, kFixed), vbase);
  TetMesh vmoved = *box;
  vmoved.positions[5].z() -= 1e-9;
  EXPECT_NE(SpringsAsset::key_of(vmoved, kMeshDef, kFixed), vbase);
  auto volume = SpringsAsset::build(*box, kMeshDef, kFixed);
  ASSERT_TRUE(volume.ok()) << volume.message();
  EXPECT_EQ((*volume)->key(), vbase);
  EXPECT_NE(vbase, base);

  // A hand-made mesh: its key is its content.
  auto graph = build_spring_graph({Vec3(0, 0, 0), Vec3(0.01, 0, 0)}, {{0, 1}}, {.node_mass = 1e-3});
  ASSERT_TRUE(graph.ok()) << graph.message();
  const std::uint64_t gkey = SpringsAsset::key_of(*graph);
  EXPECT_EQ(SpringsAsset::from_mesh(*graph)->key(), gkey);
  graph->set_fixed(0, true);
  EXPECT_NE(SpringsAsset::key_of(*graph), gkey);
}

TEST(SpringsAsset, BuildFailsWithTheMeshBuildersLineOrABadFixedNode) {
  TriMesh bad = sheet();
  bad.triangles[2][0] = 9999;
  auto expected = build_spring_mesh(bad, kMeshDef);
  ASSERT_FALSE(expected.ok());
  auto asset = SpringsAsset::build(bad, kMeshDef, kFixed);
  ASSERT_FALSE(asset.ok());
  EXPECT_EQ(asset.message(), expected.message());
  const Index outside[] = {0, 81};
  auto out = SpringsAsset::build(sheet(), kMeshDef, outside);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.message(), "springs: fixed node 81 is outside the mesh (81 nodes)");
}

TEST(SpringsAsset, BodyRefusesANullAssetAndABadDef) {
  auto none = SpringsBody::build(nullptr, {});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.message().find("asset"), std::string::npos) << none.message();
  SpringsBodyDef zero_dt = body_def(Vec3::Zero());
  zero_dt.method.dt = 0.0;
  auto refused = SpringsBody::build(fresh_asset(), zero_dt);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("dt"), std::string::npos) << refused.message();
  // A quasi-static method takes no time step: its dt is not checked.
  SpringsBodyDef quasi = zero_dt;
  quasi.method.method = Method::dragnet;
  EXPECT_TRUE(SpringsBody::build(fresh_asset(), quasi).ok());
}

}  // namespace
}  // namespace pliant::springs
