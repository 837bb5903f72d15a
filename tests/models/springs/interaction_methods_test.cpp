// Dragnet, ChainMail, length corrections and interaction-ordered integration on the shared scenes.
#include "pliant/models/springs/chainmail.hpp"
#include "pliant/models/springs/dragnet.hpp"
#include "pliant/models/springs/interaction_ordered.hpp"
#include "pliant/models/springs/length_correction.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/scenes.hpp"
#include "pliant/models/springs/tearing.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant::springs {
namespace {

std::size_t at(Index i) { return static_cast<std::size_t>(i); }

// Largest excess of a string over its max length, among strings with at least one free end.
double worst_excess(const SpringMesh& m) {
  double worst = -INFINITY;
  for (Index s = 0; s < m.spring_count(); ++s) {
    const auto [a, b] = m.spring_nodes[at(s)];
    if (m.fixed(a) && m.fixed(b)) continue;
    worst = std::max(worst, m.length(s) - m.max_length[at(s)]);
  }
  return worst;
}

// A straight chain of `n` nodes along x, spacing 1 cm, max stretch 1.1, node 0 the interaction node.
SpringMesh chain(int n) {
  std::vector<Vec3> p;
  std::vector<Edge> e;
  for (int i = 0; i < n; ++i) p.push_back(Vec3(0.01 * i, 0, 0));
  for (int i = 0; i + 1 < n; ++i) e.push_back({i, i + 1});
  auto r =
      build_spring_graph(p, e, {.stiffness = 10.0, .damping = 0.0, .node_mass = 1e-3, .max_stretch = 1.1});
  EXPECT_TRUE(r.ok()) << r.message();
  SpringMesh m = std::move(r).value();
  m.set_fixed(0, true);
  return m;
}

TEST(Dragnet, FullFactorSettlesTable21PullInOneStep) {
  auto scene = membrane_scene(table21_membrane_def());
  ASSERT_TRUE(scene.ok()) << scene.message();
  SpringMesh m = scene->mesh;
  ASSERT_GT(worst_excess(m), 0.0);
  Dragnet dragnet({.factor = 1.0});
  std::vector<int> corrections(at(m.spring_count()), 0);
  const Index nodes[1] = {scene->interaction_node};
  const DragnetStats stats = dragnet.pass(m, nodes, corrections);
  EXPECT_GT(stats.corrected, 100);
  EXPECT_LE(stats.corrected, stats.queued);
  EXPECT_LE(stats.queued, m.spring_count());
  for (int c : corrections) EXPECT_LE(c, 1);  // each string at most once per pass
  EXPECT_EQ(m.position[at(scene->interaction_node)], scene->target);
  // A second pass barely moves anything: the pull settled in one step (Grimm 2005, Table 2.1).
  const std::vector<Vec3> after_first = m.position;
  std::fill(corrections.begin(), corrections.end(), 0);
  dragnet.pass(m, nodes, corrections);
  for (int c : corrections) EXPECT_LE(c, 1);
  double motion = 0.0;
  for (std::size_t i = 0; i < after_first.size(); ++i)
    motion = std::max(motion, (m.position[i] - after_first[i]).norm());
  EXPECT_LT(motion, 1e-3 * scene->mesh_size);
  EXPECT_EQ(settle(*scene, {.method = Method::dragnet, .dragnet_factor = 1.0}, 50).steps, 1);
}

// On a tree every node has one path to the interaction node, so one full pass is exact: no string
// stays above its maximum length when the pull is feasible (no fixed nodes in the way).
TEST(Dragnet, FullFactorPassIsExactOnATree) {
  auto scene = membrane_scene(small_membrane_def());
  ASSERT_TRUE(scene.ok());
  const SpringMesh& full = scene->mesh;
  const Index src[1] = {scene->interaction_node};
  const std::vector<Index> order = breadth_first_order(full, src);
  std::vector<char> seen(at(full.node_count()), 0);
  std::vector<Edge> tree;
  seen[at(order[0])] = 1;
  for (Index v : order) {
    for (Index s : full.node_springs.of(v)) {
      const Index w = full.other_end(s, v);
      if (!seen[at(w)]) seen[at(w)] = 1, tree.push_back({v, w});
    }
  }
  auto built = build_spring_graph(full.rest_position, tree, {.node_mass = 1e-3, .max_stretch = 1.1});
  ASSERT_TRUE(built.ok()) << built.message();
  SpringMesh m = std::move(built).value();
  m.position[at(scene->interaction_node)] = scene->target + Vec3(0.01, 0.0, 0.0);
  ASSERT_GT(worst_excess(m), 0.0);
  Dragnet dragnet;
  std::vector<int> corrections(at(m.spring_count()), 0);
  dragnet.pass(m, src, corrections);
  for (int c : corrections) EXPECT_LE(c, 1);
  EXPECT_LE(worst_excess(m), 1e-12);
}

TEST(Dragnet, PartialFactorTakesMoreStepsAndStaysOncePerPass) {
  auto scene = membrane_scene(small_membrane_def());
  ASSERT_TRUE(scene.ok()) << scene.message();
  SpringMesh m = scene->mesh;
  Dragnet dragnet({.factor = 0.3});
  std::vector<int> corrections(at(m.spring_count()), 0);
  const Index nodes[1] = {scene->interaction_node};
  for (int pass = 0; pass < 50; ++pass) {
    std::fill(corrections.begin(), corrections.end(), 0);
    dragnet.pass(m, nodes, corrections);
    for (int c : corrections) ASSERT_LE(c, 1);
  }
  // Steps to settle fall as f grows (Grimm 2005, Fig. 2.5), down to one step at f = 1.
  int previous = 1 << 30;
  for (double f : {0.1, 0.2, 0.5, 1.0}) {
    const SettleResult r = settle(*scene, {.method = Method::dragnet, .dragnet_factor = f}, 5000);
    ASSERT_GT(r.steps, 0) << f;
    EXPECT_LE(r.steps, previous) << f;
    previous = r.steps;
  }
  EXPECT_EQ(previous, 1);
}

TEST(Dragnet, StringsToFixedNodesAreLeftAlone) {
  SpringMesh m = chain(3);
  m.set_fixed(2, true);
  m.position[0].x() = -0.05;  // pull far beyond what the fixed far end allows
  Dragnet dragnet;
  const Index nodes[1] = {0};
  dragnet.pass(m, nodes);
  EXPECT_NEAR(m.length(0), m.max_length[0], 1e-12);  // node 1 followed node 0
  EXPECT_EQ(m.position[2], Vec3(0.02, 0, 0));        // fixed node untouched
  EXPECT_GT(m.length(1), m.max_length[1]);           // infeasible: stays violated, no hang
}

TEST(ChainMail, BoundsHoldAfterPassOnFreeMembrane) {
  MembraneSceneDef def = small_membrane_def();
  def.fix_rim = false;
  for (const Vec3& pull : {Vec3(0, 0, 0.0125), Vec3(0.004, -0.003, 0.01)}) {
    def.displacement = pull;
    auto scene = membrane_scene(def);
    ASSERT_TRUE(scene.ok()) << scene.message();
    SpringMesh m = scene->mesh;
    ChainMail chainmail;
    ASSERT_GT(chainmail_max_violation(m, chainmail), 0.0);
    const Index nodes[1] = {scene->interaction_node};
    const ChainMailStats stats = chainmail.pass(m, nodes);
    EXPECT_FALSE(stats.capped);
    EXPECT_GT(stats.moves, 0);
    EXPECT_LE(chainmail_max_violation(m, chainmail), 1e-12);
  }
}

TEST(ChainMail, PurePullFormsAPyramidWithinOnePass) {
  auto scene = membrane_scene(table21_membrane_def());
  ASSERT_TRUE(scene.ok());
  const SettleResult r = settle(*scene, {.method = Method::enhanced_chainmail}, 20);
  EXPECT_EQ(r.steps, 1);
}

TEST(LengthCorrection, ProvotFactorScalesTheCorrection) {
  for (double factor : {1.0, 0.5, 1.5}) {
    SpringMesh m = chain(2);
    m.position[1].x() = 0.02;  // length 0.02, max 0.011
    provot_pass(m, factor);
    EXPECT_NEAR(m.length(0), 0.02 - factor * (0.02 - 0.011), 1e-15);
  }
  SpringMesh free_pair = chain(2);
  free_pair.set_fixed(0, false);
  free_pair.position[1].x() = 0.02;
  provot_pass(free_pair, 1.0);
  EXPECT_NEAR(free_pair.position[0].x(), 0.0045, 1e-15);  // both ends move half way
  EXPECT_NEAR(free_pair.length(0), 0.011, 1e-15);
}

TEST(LengthCorrection, WagnerSortedFixesAChainInOnePassProvotNeedsMany) {
  SpringMesh m = chain(20);
  // Reverse the spring order so index order runs away from the interaction node's far end.
  SpringMesh p = m;
  m.position[0] = Vec3(-0.05, 0.02, 0);
  p.position[0] = m.position[0];
  SortedLengthCorrection wagner;
  wagner.pass(m, m.position[0]);
  EXPECT_LE(worst_excess(m), 1e-12);
  int passes = 0;
  while (worst_excess(p) > 1e-12 && passes < 1000) provot_pass(p, 1.0), ++passes;
  EXPECT_GT(passes, 1);
}

TEST(InteractionOrdered, BreadthFirstOrderAndOneStepPropagation) {
  SpringMesh m = chain(10);
  const Index src[1] = {0};
  const std::vector<Index> order = breadth_first_order(m, src);
  ASSERT_EQ(order.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(order[at(i)], i);
  for (double& k : m.stiffness) k = 500.0;  // k h²/m = 0.5: each node passes on half the pull
  m.position[0].x() = -0.01;
  SpringMesh e = m;
  interaction_ordered_step(m, order, 1e-3);
  Integrator euler({.scheme = Scheme::explicit_euler, .dt = 1e-3});
  euler.step(e);
  euler.step(e);
  // Node-by-node integration carries the pull to the far end in one step; explicit Euler moves one
  // node further per step.
  EXPECT_LT(m.position[9].x(), 0.09 - 1e-9);
  EXPECT_EQ(e.position[3].x(), 0.03);
}

TEST(Methods, NamesRoundTrip) {
  for (Method m : all_methods) EXPECT_EQ(method_from_name(method_name(m)), m);
  EXPECT_FALSE(method_from_name("nope").has_value());
}

TEST(Methods, AllNineSettleOnTheSmallMembrane) {
  auto scene = membrane_scene(small_membrane_def());
  ASSERT_TRUE(scene.ok());
  // Dimensionless explicit parameters k h²/m = 0.05, c h/m = 0.015, α h = 0.6: stable for all.
  const double h = 1e-3, m = scene->mesh.mass[0];
  set_spring_parameters(scene->mesh, 0.05 * m / (h * h), 0.015 * m / h);
  for (Method method : all_methods) {
    const SettleResult r = settle(*scene, {.method = method, .dt = h, .mass_damping = 0.6 / h}, 4000, false);
    EXPECT_TRUE(r.stable) << method_name(method);
    EXPECT_GT(r.steps, 0) << method_name(method);
  }
}

// A unit square of two triangles (0,1,2) and (0,2,3), node 3 held; pulling node 1 far away makes
// deletion tearing remove triangle (0,1,2) and the orphaned node 1, so nodes 2 and 3 become 1 and 2.
SpringMesh torn_square(MethodStepper& stepper) {
  TriMesh square{{Vec3(0, 0, 0), Vec3(0.01, 0, 0), Vec3(0.01, 0.01, 0), Vec3(0, 0.01, 0)},
                 {{0, 1, 2}, {0, 2, 3}}};
  SpringMesh m = build_spring_mesh(square, {.node_mass = 1e-3, .max_stretch = 1.1}).value();
  m.set_fixed(3, true);
  const Index held[1] = {3};
  stepper.set_interaction(m, held);
  m.position[1] = Vec3(0.05, -0.05, 0);
  DeletionTearing deletion;
  EXPECT_GT(deletion.step(m), 0);
  EXPECT_EQ(m.node_count(), 3);
  EXPECT_EQ(deletion.node_map()[3], 2);
  if (!deletion.node_map().empty()) stepper.remap_interaction(m, deletion.node_map());
  return m;
}

TEST(Methods, InteractionNodesFollowDeletionTearingRenumbering) {
  for (Method method : all_methods) {
    MethodStepper stepper({.method = method, .dt = 1e-4, .mass_damping = 10.0});
    SpringMesh m = torn_square(stepper);
    ASSERT_EQ(stepper.interaction().size(), 1u) << method_name(method);
    EXPECT_EQ(m.origin[at(stepper.interaction()[0])], 3) << method_name(method);  // the same node
    m.position[2] += Vec3(0, 0.01, 0);  // move the held node: the methods must pull from it
    for (int k = 0; k < 3; ++k) stepper.step(m);
    for (const Vec3& x : m.position) EXPECT_TRUE(x.allFinite()) << method_name(method);
    EXPECT_EQ(m.position[2], Vec3(0, 0.02, 0)) << method_name(method);  // held: never moved by the method
  }
}

TEST(Methods, StaleInteractionNodesAreDroppedNotReadOutOfBounds) {
  // A caller that renumbers nodes without telling the stepper: the interaction node 3 no longer
  // exists (3 nodes left). The step must neither read past the arrays (ASan checks this) nor keep it.
  for (Method method : all_methods) {
    MethodStepper stepper({.method = method, .dt = 1e-4, .mass_damping = 10.0});
    TriMesh square{{Vec3(0, 0, 0), Vec3(0.01, 0, 0), Vec3(0.01, 0.01, 0), Vec3(0, 0.01, 0)},
                   {{0, 1, 2}, {0, 2, 3}}};
    SpringMesh m = build_spring_mesh(square, {.node_mass = 1e-3, .max_stretch = 1.1}).value();
    m.set_fixed(3, true);
    const Index held[1] = {3};
    stepper.set_interaction(m, held);
    m.position[1] = Vec3(0.05, -0.05, 0);
    DeletionTearing deletion;
    ASSERT_GT(deletion.step(m), 0);
    ASSERT_EQ(m.node_count(), 3);
    stepper.step(m);
    EXPECT_TRUE(stepper.interaction().empty()) << method_name(method);
    for (const Vec3& x : m.position) EXPECT_TRUE(x.allFinite()) << method_name(method);
  }
  // The passes themselves ignore indices outside the mesh.
  SpringMesh c = chain(3);
  const Index bad[2] = {-1, 7};
  Dragnet dragnet;
  EXPECT_EQ(dragnet.pass(c, bad).queued, 0);
  ChainMail chainmail;
  EXPECT_EQ(chainmail.pass(c, bad).moves, 0);
}

TEST(Methods, PlasticCouplingTakesEnergyOutOfTheMassSpringSystem) {
  // Grimm 2005: combined with a mass-spring simulation, a length correction takes energy out of the
  // system. With the correction coupled to positions only, the combined methods' kinetic energy right
  // after the first corrected step is below that of the coupling that also turns Δ into velocity Δ/h.
  auto scene = membrane_scene(small_membrane_def());
  ASSERT_TRUE(scene.ok());
  const double h = 1e-3, mass = scene->mesh.mass[0];
  set_spring_parameters(scene->mesh, 0.05 * mass / (h * h), 0.015 * mass / h);
  for (Method method :
       {Method::lr_mass_spring, Method::length_correction_mass_spring, Method::dragnet_mass_spring}) {
    double energy[2] = {0, 0};
    for (int c = 0; c < 2; ++c) {
      SpringMesh m = scene->mesh;
      MethodStepper stepper(
          {.method = method,
           .dt = h,
           .mass_damping = 0.6 / h,
           .coupling = c == 0 ? CorrectionCoupling::positions : CorrectionCoupling::velocities});
      const Index nodes[1] = {scene->interaction_node};
      stepper.set_interaction(m, nodes);
      for (int k = 0; k < 2; ++k) stepper.step(m);
      for (Index i = 0; i < m.node_count(); ++i)
        energy[c] += 0.5 * m.mass[at(i)] * m.velocity[at(i)].squaredNorm();
    }
    EXPECT_LT(energy[0], 0.5 * energy[1]) << method_name(method);
  }
}

}  // namespace
}  // namespace pliant::springs
