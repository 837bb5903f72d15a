// Tearing scenes: the thesis' mesh sizes, a replayed tool motion under both tearing methods, the
// bursting balloon's fragmentation against the branching threshold, and the capsulorhexis.
#include "pliant/models/springs/consistency.hpp"
#include "pliant/models/springs/scenes_tearing.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::springs {
namespace {

TEST(TearingScenes, CylinderMeshesHaveTheThesisSizes) {
  const Index expect[3][3] = {{272, 758, 486}, {3367, 9900, 6534}, {8587, 25440, 16854}};
  for (int r = 0; r < 3; ++r) {
    auto scene = cylinder_scene(cylinder_scene_def(r));
    ASSERT_TRUE(scene.ok()) << scene.message();
    EXPECT_EQ(scene->mesh().node_count(), expect[r][0]);
    EXPECT_EQ(scene->mesh().spring_count(), expect[r][1]);
    EXPECT_EQ(scene->mesh().triangle_count(), expect[r][2]);
    EXPECT_TRUE(check_consistency(scene->mesh(), {.allow_free_springs = r == 0}).ok());
  }
}

TEST(TearingScenes, TrajectoryInterpolatesAndClamps) {
  Track t{{0.0, 1.0, 3.0}, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 2, 0)}};
  EXPECT_EQ(t.at(-1.0), Vec3(0, 0, 0));
  EXPECT_TRUE(t.at(0.5).isApprox(Vec3(0.5, 0, 0)));
  EXPECT_TRUE(t.at(2.0).isApprox(Vec3(1, 1, 0)));
  EXPECT_EQ(t.at(9.0), Vec3(1, 2, 0));
}

TEST(TearingScenes, ReplayedToolTearsWithAndWithoutLosingArea) {
  // The same recorded tool motion through the coarse mesh, once per method.
  auto ap = cylinder_scene(cylinder_scene_def(0, TearMode::area_preserving));
  auto del = cylinder_scene(cylinder_scene_def(0, TearMode::deletion));
  ASSERT_TRUE(ap.ok() && del.ok());
  const double area = total_rest_area(ap->mesh());
  ap->run_until(1.0);
  del->run_until(1.0);
  EXPECT_GT(ap->all_events.size(), 5u);
  EXPECT_GT(del->all_events.size(), 5u);
  EXPECT_EQ(ap->mesh().triangle_count(), 486);
  EXPECT_NEAR(total_rest_area(ap->mesh()), area, 1e-12 * area);
  EXPECT_LT(del->mesh().triangle_count(), 486);
  EXPECT_LT(total_rest_area(del->mesh()), area);
  const auto st = check_consistency(ap->mesh(), {.allow_free_springs = true});
  EXPECT_TRUE(st.ok()) << st.message();
  const auto sd = check_consistency(del->mesh(), {.rule5 = false, .allow_free_springs = true});
  EXPECT_TRUE(sd.ok()) << sd.message();
  for (const Vec3& p : ap->mesh().position) ASSERT_TRUE(p.allFinite());
}

Index burst_pieces(double edge_to_seed) {
  BalloonSceneDef def;
  def.edge_to_seed = edge_to_seed;
  double s0 = 0;
  auto scene = balloon_scene(def, &s0);
  EXPECT_TRUE(scene.ok()) << scene.message();
  EXPECT_GT(s0, 0.0);
  scene->run_until(0.8);
  const auto st = check_consistency(scene->mesh());
  EXPECT_TRUE(st.ok()) << st.message();
  return triangle_components(scene->mesh());
}

TEST(TearingScenes, BalloonBurstsIntoMorePiecesWhenBranchingIsCheap) {
  const Index few = burst_pieces(6.0);
  const Index many = burst_pieces(1.05);
  EXPECT_GE(few, 1);
  EXPECT_GT(many, few) << "pieces at edge/seed 1.05: " << many << ", at 6: " << few;
}

TEST(TearingScenes, CapsulorhexisTearFollowsTheFlap) {
  CapsulorhexisSceneDef def;
  auto scene = capsulorhexis_scene(def);
  ASSERT_TRUE(scene.ok()) << scene.message();
  const double area = total_rest_area(scene->mesh());
  scene->run_until(0.5 * def.duration);
  EXPECT_GT(scene->all_events.size(), 5u);
  EXPECT_NEAR(total_rest_area(scene->mesh()), area, 1e-12 * area);
  EXPECT_TRUE(check_consistency(scene->mesh()).ok());
  // The tear stays in the ring the flap is pulled around: not at the fixed rim, not at the centre.
  int inside = 0;
  for (const TearEvent& e : scene->all_events) {
    const double r = std::hypot(e.position.x(), e.position.y());
    inside += r > 0.3 * def.start_radius && r < 0.9 * def.radius;
  }
  EXPECT_GE(inside, static_cast<int>(0.8 * static_cast<double>(scene->all_events.size())));
}

}  // namespace
}  // namespace pliant::springs
