// Soft grabs (a patch of surface nodes moved rigidly with a handle) against independent direct
// sparse solves of the same FEM problem with the patch nodes prescribed.
#include "pliant/core/topology.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_body.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>

namespace pliant::green {
namespace {

// A block 0.1 × 0.1 × 0.05 m of 10 × 10 × 5 cells (1 cm), clamped at z = 0, soft silicone-like.
struct Block {
  TetMesh mesh;
  materials::Material material = materials::material_from_young_poisson(2e5, 0.45).value();
  std::vector<Index> fixed;
  std::shared_ptr<const GreenAsset> asset;
  Block() {
    meshing::BoxDef def;
    def.size = Vec3(0.1, 0.1, 0.05);
    def.cells = {10, 10, 5};
    mesh = meshing::box_mesh(def).value();
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
      if (mesh.positions[i].z() < 1e-9) fixed.push_back(static_cast<Index>(i));
    asset = std::make_shared<GreenAsset>(build_green_asset(mesh, material, fixed).value());
  }
  const std::vector<Vec3>& rest() const { return asset->surface().positions; }
  Index surface_node_at(const Vec3& p) const {
    Index best = 0;
    for (Index i = 0; i < asset->surface_node_count(); ++i)
      if ((rest()[static_cast<std::size_t>(i)] - p).norm() <
          (rest()[static_cast<std::size_t>(best)] - p).norm())
        best = i;
    return best;
  }
  Index volume(Index surface_node) const {
    return asset->volume_node()[static_cast<std::size_t>(surface_node)];
  }
};

// Direct reference: displacements prescribed on `prescribed` (volume nodes), forces on others; the
// full u and the reactions K u − f at the prescribed nodes (the force the constraint applies).
struct Direct {
  Eigen::VectorXd u;
  std::map<Index, Vec3> reaction;
};
Direct direct_solve(const Block& b, const std::map<Index, Vec3>& prescribed,
                    const std::map<Index, Vec3>& forces) {
  const fem::SparseMatrix K = fem::assemble_stiffness(b.mesh, b.material);
  std::vector<Index> fixed;
  for (const auto& [n, d] : prescribed) fixed.push_back(n);
  auto dofs = fem::DofMap::from_fixed_nodes(b.mesh, fixed).value();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(b.mesh.node_count()));
  Eigen::VectorXd d = f;
  for (const auto& [n, v] : forces) f.segment<3>(3 * n) = v;
  for (const auto& [n, v] : prescribed) d.segment<3>(3 * n) = v;
  auto chol = linalg::SparseCholesky::factor(dofs.restrict_matrix(K)).value();
  Direct out;
  out.u = dofs.expand(chol.solve(dofs.reduced_rhs(K, f, d)), d);
  const Eigen::VectorXd r = K * out.u - f;
  for (const auto& [n, v] : prescribed) out.reaction[n] = r.segment<3>(3 * n);
  return out;
}

std::vector<Index> patch_at(const Block& b, const Vec3& p, double radius_in_edges) {
  const Index node = b.surface_node_at(p);
  const double h = mean_surface_edge_length(*b.asset, node);
  return surface_patch(*b.asset, b.rest(), node, b.rest()[static_cast<std::size_t>(node)],
                       radius_in_edges * h);
}

TEST(SoftGrab, PatchIsTheConnectedFreeNodesWithinTheRadius) {
  const Block b;
  const Index node = b.surface_node_at(Vec3(0.05, 0.05, 0.05));
  // Edges at a top-face node of the 5-tet split: 1 cm sides and √2 cm diagonals.
  const double h = mean_surface_edge_length(*b.asset, node);
  EXPECT_GT(h, 0.01 - 1e-12);
  EXPECT_LT(h, 0.01 * std::sqrt(2.0) + 1e-12);
  const Vec3 c = b.rest()[static_cast<std::size_t>(node)];
  const auto patch = surface_patch(*b.asset, b.rest(), node, c, 0.025);
  // Brute force: on the flat top face every node within the radius is connected to the centre.
  std::size_t expected = 0;
  for (const Vec3& x : b.rest()) expected += (x - c).norm() <= 0.025 ? 1 : 0;
  EXPECT_EQ(patch.size(), expected);
  EXPECT_EQ(patch.front(), node);
  for (Index n : patch) EXPECT_LE((b.rest()[static_cast<std::size_t>(n)] - c).norm(), 0.025);
  EXPECT_EQ(surface_patch(*b.asset, b.rest(), node, c, 0.0), std::vector<Index>{node});
  // Near the clamped edge, the fixed nodes inside the radius are left out.
  const Index low = b.surface_node_at(Vec3(0.0, 0.05, 0.01));
  for (Index n : surface_patch(*b.asset, b.rest(), low, b.rest()[static_cast<std::size_t>(low)], 0.02))
    EXPECT_FALSE(b.asset->constrained()[static_cast<std::size_t>(n)]);
}

TEST(SoftGrab, PatchNodesSitAtTheirTargetsAndTheReactionMatchesADirectSolve) {
  const Block b;
  const auto patch = patch_at(b, Vec3(0.05, 0.05, 0.05), 2.0);
  ASSERT_GE(patch.size(), 9u);
  Grab g = hold_in_place(patch, b.rest());
  const Vec3 delta(0.004, -0.002, 0.006);
  g.target += delta;
  GreenBody body(b.asset);
  ASSERT_TRUE(body.set_grabs(std::vector<Grab>{g}).ok());
  EXPECT_EQ(body.held_node_count(), patch.size());
  // A force elsewhere too: grabs and forces superpose.
  const Index loaded = b.surface_node_at(Vec3(0.1, 0.0, 0.05));
  const Vec3 load(0.3, -0.2, 0.5);
  body.set_force(loaded, load);
  body.update();
  for (Index n : patch)
    EXPECT_LT((body.state().positions[static_cast<std::size_t>(n)] -
               (b.rest()[static_cast<std::size_t>(n)] + delta))
                  .norm(),
              1e-9)
        << n;

  std::map<Index, Vec3> prescribed;
  for (Index n : b.fixed) prescribed[n] = Vec3::Zero();
  for (Index n : patch) prescribed[b.volume(n)] = delta;
  const Direct d = direct_solve(b, prescribed, {{b.volume(loaded), load}});
  // The whole surface agrees with the direct solve.
  double num = 0, den = 0;
  for (Index i = 0; i < b.asset->surface_node_count(); ++i) {
    const Vec3 u = d.u.segment<3>(3 * b.volume(i));
    num += (body.state().positions[static_cast<std::size_t>(i)] - b.rest()[static_cast<std::size_t>(i)] - u)
               .squaredNorm();
    den += u.squaredNorm();
  }
  EXPECT_LT(std::sqrt(num / den), 1e-5);
  // The grab's force is the sum of the constraint forces on its nodes...
  Vec3 patch_force = Vec3::Zero();
  for (Index n : patch) patch_force += d.reaction.at(b.volume(n));
  const Vec3 f = body.state().grab_forces[0];
  EXPECT_LT((f - patch_force).norm(), 1e-4 * patch_force.norm())
      << f.transpose() << " vs " << patch_force.transpose();
  // ... and with the clamp's reactions it balances the applied load.
  Vec3 clamp = Vec3::Zero();
  for (Index n : b.fixed) clamp += d.reaction.at(n);
  EXPECT_LT((f + clamp + load).norm(), 1e-4 * f.norm());
}

TEST(SoftGrab, ComplianceIsTheRigidPatchComplianceOfAConstrainedFemSolve) {
  const Block b;
  const auto patch = patch_at(b, Vec3(0.05, 0.05, 0.05), 2.0);
  const Index other = b.surface_node_at(Vec3(0.1, 0.1, 0.03));
  const std::vector<Grab> grabs = {hold_in_place(patch, b.rest()),
                                   {other, b.rest()[static_cast<std::size_t>(other)]}};
  GreenBody body(b.asset);
  ASSERT_TRUE(body.set_grabs(grabs).ok());
  body.update();
  // Independent: translate the patch by a unit step along each axis in a full FEM solve with the
  // clamp and the other grab held; the summed reactions are the columns of the patch stiffness.
  Mat3 stiffness;
  const double step = 1e-3;
  for (int c = 0; c < 3; ++c) {
    std::map<Index, Vec3> prescribed;
    for (Index n : b.fixed) prescribed[n] = Vec3::Zero();
    prescribed[b.volume(other)] = Vec3::Zero();
    for (Index n : patch) prescribed[b.volume(n)] = step * Vec3::Unit(c);
    const Direct d = direct_solve(b, prescribed, {});
    Vec3 sum = Vec3::Zero();
    for (Index n : patch) sum += d.reaction.at(b.volume(n));
    stiffness.col(c) = sum / step;
  }
  const Mat3 expected = stiffness.inverse();
  const Mat3 compliance = body.grab_compliance(0);
  EXPECT_LT((compliance - expected).norm(), 1e-4 * expected.norm()) << compliance << "\nvs\n" << expected;
  EXPECT_LT((compliance - compliance.transpose()).norm(), 1e-6 * compliance.norm());
  // Every node of the patch reports its grab's compliance.
  for (Index n : patch) EXPECT_EQ(body.local_compliance(n), compliance);
  // A patch is stiffer than one node: the single-node compliance at the handle is larger.
  GreenBody single(b.asset);
  ASSERT_TRUE(
      single.set_grabs(std::vector<Grab>{{patch[0], b.rest()[static_cast<std::size_t>(patch[0])]}, grabs[1]})
          .ok());
  EXPECT_GT(single.grab_compliance(0).trace(), 1.5 * compliance.trace());
  // And it predicts the force for a handle move.
  const Vec3 delta(0.001, 0.002, -0.001);
  body.move_grab(0, grabs[0].target + delta);
  body.update();
  EXPECT_LT((compliance * body.state().grab_forces[0] - delta).norm(), 1e-4 * delta.norm());
}

TEST(SoftGrab, RadiusZeroIsExactlyTheSingleNodeGrab) {
  const Block b;
  const auto patch = patch_at(b, Vec3(0.03, 0.07, 0.05), 0.0);
  ASSERT_EQ(patch.size(), 1u);
  const Vec3 delta(0.002, 0.001, 0.004);
  GreenBody soft(b.asset), single(b.asset);
  Grab g = hold_in_place(patch, b.rest());
  g.target += delta;
  ASSERT_TRUE(soft.set_grabs(std::vector<Grab>{g}).ok());
  ASSERT_TRUE(
      single.set_grabs(std::vector<Grab>{{patch[0], b.rest()[static_cast<std::size_t>(patch[0])] + delta}})
          .ok());
  soft.update();
  single.update();
  EXPECT_EQ(soft.state().positions, single.state().positions);
  EXPECT_EQ(soft.state().grab_forces, single.state().grab_forces);
  EXPECT_EQ(soft.grab_compliance(0), single.grab_compliance(0));
}

// The largest displacement difference between neighbouring surface nodes (unit: m), and the largest
// umbrella value |u_i − mean of u over i's neighbours| (unit: m): a cusp is a node far from the mean
// of its neighbours.
struct Roughness {
  double jump = 0, umbrella = 0;
};
Roughness roughness(const Block& b, const GreenBody& body) {
  const auto edges = unique_edges(b.asset->surface().triangles);
  const Adjacency adjacency = vertex_adjacency(b.asset->surface_node_count(), edges);
  const auto u = [&](Index i) {
    return Vec3(body.state().positions[static_cast<std::size_t>(i)] - b.rest()[static_cast<std::size_t>(i)]);
  };
  Roughness r;
  for (const Edge& e : edges) r.jump = std::max(r.jump, (u(e[0]) - u(e[1])).norm());
  for (Index i = 0; i < b.asset->surface_node_count(); ++i) {
    Vec3 mean = Vec3::Zero();
    const Index first = adjacency.offsets[static_cast<std::size_t>(i)];
    const Index last = adjacency.offsets[static_cast<std::size_t>(i) + 1];
    for (Index a = first; a < last; ++a) mean += u(adjacency.neighbors[static_cast<std::size_t>(a)]);
    r.umbrella = std::max(r.umbrella, (u(i) - mean / static_cast<double>(last - first)).norm());
  }
  return r;
}

TEST(SoftGrab, PatchRemovesTheCuspOfASingleNodeGrab) {
  const Block b;
  const Vec3 top(0.05, 0.05, 0.05), pull(0.0, 0.0, 0.01);
  const auto patch = patch_at(b, top, 2.0);
  GreenBody soft(b.asset), single(b.asset);
  Grab g = hold_in_place(patch, b.rest());
  g.target += pull;
  ASSERT_TRUE(soft.set_grabs(std::vector<Grab>{g}).ok());
  ASSERT_TRUE(
      single.set_grabs(std::vector<Grab>{{patch[0], b.rest()[static_cast<std::size_t>(patch[0])] + pull}})
          .ok());
  soft.update();
  single.update();
  const Roughness r_single = roughness(b, single), r_soft = roughness(b, soft);
  const double f_single = single.state().grab_forces[0].norm(), f_soft = soft.state().grab_forces[0].norm();
  std::printf(
      "handle pulled %.3g m: one node: jump %.3g m, umbrella %.3g m, force %.3g N; patch of %zu: jump "
      "%.3g m, umbrella %.3g m, force %.3g N\n",
      pull.norm(), r_single.jump, r_single.umbrella, f_single, patch.size(), r_soft.jump, r_soft.umbrella,
      f_soft);
  // One node pulled out of the face makes a spike: it sits far from the mean of its neighbours,
  // which follow only part of the way. The patch is a smooth bump: no node is far from its
  // neighbours' mean.
  EXPECT_GT(r_single.umbrella, 0.5 * pull.norm());
  EXPECT_LT(r_soft.umbrella, 0.7 * r_single.umbrella);  // measured 0.56
  // For the same force (what a hand applies), the largest jump between neighbours is far smaller.
  EXPECT_LT(r_soft.jump / f_soft, 0.3 * r_single.jump / f_single);  // measured 0.16
}

TEST(SoftGrab, IncrementalHandleMovesEqualAFreshBody) {
  const Block b;
  std::vector<Grab> grabs = {hold_in_place(patch_at(b, Vec3(0.03, 0.03, 0.05), 2.0), b.rest()),
                             hold_in_place(patch_at(b, Vec3(0.08, 0.07, 0.05), 1.5), b.rest())};
  const Index loaded = b.surface_node_at(Vec3(0.1, 0.05, 0.02));
  GreenBody moving(b.asset);
  ASSERT_TRUE(moving.set_grabs(grabs).ok());
  moving.update();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> val(-0.001, 0.001);
  for (int step = 0; step < 200; ++step) {
    const std::size_t m = static_cast<std::size_t>(step) % grabs.size();
    grabs[m].target += Vec3(val(rng), val(rng), val(rng));
    moving.move_grab(m, grabs[m].target);
    if (step == 100) moving.set_force(loaded, Vec3(0.0, 0.1, -0.2));  // node parts change too
    moving.update();
  }
  GreenBody fresh(b.asset);
  ASSERT_TRUE(fresh.set_grabs(grabs).ok());
  fresh.set_force(loaded, Vec3(0.0, 0.1, -0.2));
  fresh.update();
  for (std::size_t i = 0; i < moving.state().positions.size(); ++i)
    EXPECT_LT((moving.state().positions[i] - fresh.state().positions[i]).norm(), 1e-9);
  // The haptic path gives the same forces as the full update.
  moving.update_grab_forces();
  for (std::size_t m = 0; m < grabs.size(); ++m)
    EXPECT_LT((moving.state().grab_forces[m] - fresh.state().grab_forces[m]).norm(),
              1e-9 * (1.0 + fresh.state().grab_forces[m].norm()));
}

// With rotation correction a soft grab is one handle point: one grab alone fits no rotation, so a
// clamped body is bent, not carried off rigidly by its patch.
TEST(SoftGrab, OneSoftGrabFitsNoRotation) {
  const Block b;
  Grab g = hold_in_place(patch_at(b, Vec3(0.05, 0.05, 0.05), 2.0), b.rest());
  g.target += Vec3(0.01, 0.0, 0.0);
  GreenBody corrected(b.asset, GreenDef{.rotation_correction = true}), linear(b.asset);
  ASSERT_TRUE(corrected.set_grabs(std::vector<Grab>{g}).ok());
  ASSERT_TRUE(linear.set_grabs(std::vector<Grab>{g}).ok());
  corrected.update();
  linear.update();
  EXPECT_EQ(corrected.state().rotation, Mat3::Identity());
  EXPECT_EQ(corrected.state().positions, linear.state().positions);
  EXPECT_GT(corrected.state().grab_forces[0].norm(), 1.0);  // the clamp holds: the patch pulls
}

TEST(SoftGrab, BadPatchesAreReported) {
  const Block b;
  GreenBody body(b.asset);
  const auto patch = patch_at(b, Vec3(0.05, 0.05, 0.05), 2.0);
  ASSERT_GE(patch.size(), 3u);
  // The same node in two grabs.
  const std::vector<Grab> overlap = {hold_in_place(patch, b.rest()), {patch[2], Vec3::Zero()}};
  auto s = body.set_grabs(overlap);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("grabbed twice"), std::string::npos) << s.message();
  // A clamped node in a patch.
  Grab g = hold_in_place(patch, b.rest());
  g.patch.push_back({b.surface_node_at(Vec3(0.0, 0.0, 0.0)), Vec3::Zero()});
  s = body.set_grabs(std::vector<Grab>{g});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fixed"), std::string::npos) << s.message();
  // A non-finite offset.
  g = hold_in_place(patch, b.rest());
  g.patch[0].offset.x() = std::nan("");
  s = body.set_grabs(std::vector<Grab>{g});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("non-finite offset"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  // After errors the body keeps working with a valid set.
  ASSERT_TRUE(body.set_grabs(std::vector<Grab>{hold_in_place(patch, b.rest())}).ok());
  body.update();
  EXPECT_LT(body.state().grab_forces[0].norm(), 1e-12);
}

}  // namespace
}  // namespace pliant::green
