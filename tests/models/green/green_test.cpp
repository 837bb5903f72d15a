// Green's function runtime against independent direct sparse solves of the same FEM problem.
#include "pliant/linalg/condensation.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_body.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>

namespace pliant::green {
namespace {

TetMesh beam() {
  meshing::BoxDef def;
  def.size = Vec3(1.0, 0.2, 0.2);
  def.cells = {8, 2, 2};
  return meshing::box_mesh(def).value();
}

materials::Material rubbery() { return materials::material_from_young_poisson(1e5, 0.3).value(); }

std::vector<Index> nodes_where(const TetMesh& mesh, auto predicate) {
  std::vector<Index> out;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (predicate(mesh.positions[i])) out.push_back(static_cast<Index>(i));
  return out;
}

// Direct reference: prescribed displacements on `prescribed` nodes, forces on others; full u and
// reactions (K u − f at the prescribed DOFs, i.e. the force the constraint applies to the body).
struct Direct {
  Eigen::VectorXd u;
  std::map<Index, Vec3> reaction;
};
Direct direct_solve(const TetMesh& mesh, const materials::Material& material,
                    const std::map<Index, Vec3>& prescribed, const std::map<Index, Vec3>& forces) {
  const fem::SparseMatrix K = fem::assemble_stiffness(mesh, material);
  std::vector<Index> fixed;
  for (const auto& [n, d] : prescribed) fixed.push_back(n);
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, fixed).value();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(mesh.node_count()));
  Eigen::VectorXd b = f;
  for (const auto& [n, v] : forces) f.segment<3>(3 * n) = v;
  for (const auto& [n, d] : prescribed) b.segment<3>(3 * n) = d;
  auto chol = linalg::SparseCholesky::factor(dofs.restrict_matrix(K)).value();
  Direct out;
  out.u = dofs.expand(chol.solve(dofs.reduced_rhs(K, f, b)), b);
  const Eigen::VectorXd r = K * out.u - f;
  for (const auto& [n, d] : prescribed) out.reaction[n] = r.segment<3>(3 * n);
  return out;
}

double surface_relative_error(const GreenAsset& asset, const std::vector<Vec3>& positions,
                              const Eigen::VectorXd& u) {
  double num = 0, den = 0;
  for (Index i = 0; i < asset.surface_node_count(); ++i) {
    const Index v = asset.volume_node()[static_cast<std::size_t>(i)];
    const Vec3 expected = asset.surface().positions[static_cast<std::size_t>(i)] + u.segment<3>(3 * v);
    num += (positions[static_cast<std::size_t>(i)] - expected).squaredNorm();
    den += u.segment<3>(3 * v).squaredNorm();
  }
  return std::sqrt(num / den);
}

struct Fixture {
  TetMesh mesh = beam();
  materials::Material material = rubbery();
  std::vector<Index> fixed = nodes_where(mesh, [](const Vec3& x) { return x.x() < 1e-9; });
  std::shared_ptr<const GreenAsset> asset =
      std::make_shared<GreenAsset>(build_green_asset(mesh, material, fixed).value());
  std::map<Index, Vec3> fixed_map() const {
    std::map<Index, Vec3> m;
    for (Index n : fixed) m[n] = Vec3::Zero();
    return m;
  }
  std::vector<Index> free_surface() const {
    std::vector<Index> s;
    for (Index i = 0; i < asset->surface_node_count(); ++i)
      if (!asset->constrained()[static_cast<std::size_t>(i)]) s.push_back(i);
    return s;
  }
};

TEST(Green, RandomForcesMatchDirectSolve) {
  Fixture fx;
  std::mt19937 rng(7);
  const auto candidates = fx.free_surface();
  for (int trial = 0; trial < 3; ++trial) {
    GreenBody body(fx.asset);
    std::map<Index, Vec3> forces;
    std::uniform_int_distribution<std::size_t> pick(0, candidates.size() - 1);
    std::uniform_real_distribution<double> val(-1.0, 1.0);
    for (int k = 0; k < 6; ++k) {
      const Index s = candidates[pick(rng)];
      const Vec3 f(val(rng), val(rng), val(rng));
      body.set_force(s, f);
      forces[fx.asset->volume_node()[static_cast<std::size_t>(s)]] = f;
    }
    body.update();
    const Direct d = direct_solve(fx.mesh, fx.material, fx.fixed_map(), forces);
    EXPECT_LT(surface_relative_error(*fx.asset, body.state().positions, d.u), 1e-5);
  }
}

// Gravity: a uniform body force b loads node n with V_n b (V_n: a quarter of each incident tet's
// volume). The stored responses reproduce the direct solve for any direction, and the reactions at
// the clamp carry the whole weight.
TEST(Green, BodyForceMatchesDirectSolve) {
  Fixture fx;
  std::vector<double> node_volume(fx.mesh.node_count(), 0.0);
  double total_volume = 0.0;
  for (const Tet& t : fx.mesh.tets) {
    const auto at = [&](int c) { return fx.mesh.positions[static_cast<std::size_t>(t[c])]; };
    const double v = std::abs((at(1) - at(0)).cross(at(2) - at(0)).dot(at(3) - at(0))) / 6.0;
    total_volume += v;
    for (Index a : t) node_volume[static_cast<std::size_t>(a)] += v / 4.0;
  }
  EXPECT_NEAR(total_volume, 1.0 * 0.2 * 0.2, 1e-12);
  for (const Vec3& b : {Vec3(0.0, -9810.0, 0.0), Vec3(1000.0, 2000.0, -3000.0)}) {
    GreenBody body(fx.asset);
    body.set_body_force(b);
    body.update();
    std::map<Index, Vec3> forces;
    for (std::size_t n = 0; n < fx.mesh.node_count(); ++n) forces[static_cast<Index>(n)] = node_volume[n] * b;
    const Direct d = direct_solve(fx.mesh, fx.material, fx.fixed_map(), forces);
    EXPECT_LT(surface_relative_error(*fx.asset, body.state().positions, d.u), 1e-5);
    Vec3 reaction = Vec3::Zero();
    for (const auto& [n, r] : d.reaction) reaction += r;
    // The clamp carries the whole weight (K u sums to zero over all nodes: K annihilates translations).
    EXPECT_LT((reaction + total_volume * b).norm(), 1e-9 * b.norm());
    // Removing it returns to the rest shape.
    body.set_body_force(Vec3::Zero());
    body.update();
    for (Index i = 0; i < fx.asset->surface_node_count(); ++i)
      EXPECT_LT((body.state().positions[static_cast<std::size_t>(i)] -
                 fx.asset->surface().positions[static_cast<std::size_t>(i)])
                    .norm(),
                1e-9);
  }
}

// A pressure on the free end face equals the direct solve with its consistent node loads (A/3 per
// triangle corner against the outward normal), whose sum is -p times the face area along x; it is
// linear in p and superposes with point forces.
TEST(Green, PressureMatchesDirectSolve) {
  Fixture fx;
  std::vector<Index> end_face;
  const auto& surface = fx.asset->surface();
  for (std::size_t t = 0; t < surface.triangles.size(); ++t) {
    const Tri& tri = surface.triangles[t];
    if (std::all_of(tri.begin(), tri.end(),
                    [&](Index c) { return surface.positions[static_cast<std::size_t>(c)].x() > 1.0 - 1e-9; }))
      end_face.push_back(static_cast<Index>(t));
  }
  ASSERT_FALSE(end_face.empty());
  GreenBody body(fx.asset);
  Result<std::size_t> load = body.add_pressure_load(end_face);
  ASSERT_TRUE(load.ok()) << load.message();
  const double p = 2000.0;
  std::map<Index, Vec3> forces;
  Vec3 total = Vec3::Zero();
  for (Index t : end_face) {
    const Tri& tri = surface.triangles[static_cast<std::size_t>(t)];
    const auto at = [&](int c) { return surface.positions[static_cast<std::size_t>(tri[c])]; };
    const double area = 0.5 * (at(1) - at(0)).cross(at(2) - at(0)).norm();
    for (Index c : tri) {
      const Vec3 f = -p * area / 3.0 * Vec3::UnitX();
      forces.try_emplace(fx.asset->volume_node()[static_cast<std::size_t>(c)], Vec3::Zero()).first->second +=
          f;
      total += f;
    }
  }
  EXPECT_LT((total + p * 0.2 * 0.2 * Vec3::UnitX()).norm(), 1e-9);
  body.set_pressure(*load, p);
  body.update();
  Direct d = direct_solve(fx.mesh, fx.material, fx.fixed_map(), forces);
  EXPECT_LT(surface_relative_error(*fx.asset, body.state().positions, d.u), 1e-5);
  // Twice the pressure plus a point force: the direct solve of both together.
  const Index tip = fx.free_surface().back();
  const Vec3 push(0.0, 5.0, 1.0);
  body.set_pressure(*load, 2.0 * p);
  body.set_force(tip, push);
  body.update();
  for (auto& [n, f] : forces) f *= 2.0;
  forces.try_emplace(fx.asset->volume_node()[static_cast<std::size_t>(tip)], Vec3::Zero()).first->second +=
      push;
  d = direct_solve(fx.mesh, fx.material, fx.fixed_map(), forces);
  EXPECT_LT(surface_relative_error(*fx.asset, body.state().positions, d.u), 1e-5);
  // Bad sets are refused.
  EXPECT_FALSE(body.add_pressure_load({}).ok());
  const std::vector<Index> outside = {static_cast<Index>(surface.triangles.size())};
  EXPECT_NE(body.add_pressure_load(outside).message().find("out of range"), std::string::npos);
  EXPECT_EQ(body.pressure_load_count(), 1u);
}

TEST(Green, RandomGrabsMatchDirectSolveWithReactions) {
  Fixture fx;
  std::mt19937 rng(11);
  auto candidates = fx.free_surface();
  std::shuffle(candidates.begin(), candidates.end(), rng);
  std::uniform_real_distribution<double> val(-0.05, 0.05);
  GreenBody body(fx.asset);
  std::vector<Grab> grabs;
  std::map<Index, Vec3> prescribed = fx.fixed_map();
  for (int k = 0; k < 5; ++k) {
    const Index s = candidates[static_cast<std::size_t>(k)];
    const Vec3 d(val(rng), val(rng), val(rng));
    grabs.push_back({s, fx.asset->surface().positions[static_cast<std::size_t>(s)] + d});
    prescribed[fx.asset->volume_node()[static_cast<std::size_t>(s)]] = d;
  }
  ASSERT_TRUE(body.set_grabs(grabs).ok());
  // A force elsewhere too: grabs and forces superpose.
  const Index loaded = candidates[10];
  body.set_force(loaded, Vec3(0.3, -0.2, 0.5));
  body.update();
  const Direct d =
      direct_solve(fx.mesh, fx.material, prescribed,
                   {{fx.asset->volume_node()[static_cast<std::size_t>(loaded)], Vec3(0.3, -0.2, 0.5)}});
  EXPECT_LT(surface_relative_error(*fx.asset, body.state().positions, d.u), 1e-5);
  for (std::size_t m = 0; m < grabs.size(); ++m) {
    const Vec3 expected = d.reaction.at(fx.asset->volume_node()[static_cast<std::size_t>(grabs[m].node)]);
    EXPECT_LT((body.state().grab_forces[m] - expected).norm(), 1e-4 * expected.norm() + 1e-9) << m;
    // The grabbed node sits exactly at its target.
    EXPECT_LT((body.state().positions[static_cast<std::size_t>(grabs[m].node)] - grabs[m].target).norm(),
              1e-9);
  }
}

TEST(Green, IncrementalGrabMovesEqualAFreshBody) {
  Fixture fx;
  const auto candidates = fx.free_surface();
  std::vector<Grab> grabs;
  for (int k = 0; k < 4; ++k) {
    const Index s = candidates[static_cast<std::size_t>(7 * k + 3)];
    grabs.push_back({s, fx.asset->surface().positions[static_cast<std::size_t>(s)]});
  }
  GreenBody moving(fx.asset);
  ASSERT_TRUE(moving.set_grabs(grabs).ok());
  moving.update();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> val(-0.01, 0.01);
  for (int step = 0; step < 200; ++step) {
    const std::size_t m = static_cast<std::size_t>(step) % grabs.size();
    grabs[m].target += Vec3(val(rng), val(rng), val(rng));
    moving.move_grab(m, grabs[m].target);
    moving.update();
  }
  GreenBody fresh(fx.asset);
  ASSERT_TRUE(fresh.set_grabs(grabs).ok());
  fresh.update();
  for (std::size_t i = 0; i < moving.state().positions.size(); ++i)
    EXPECT_LT((moving.state().positions[i] - fresh.state().positions[i]).norm(), 1e-9);
  // The haptic path gives the same forces as the full update.
  moving.update_grab_forces();
  for (std::size_t m = 0; m < grabs.size(); ++m)
    EXPECT_LT((moving.state().grab_forces[m] - fresh.state().grab_forces[m]).norm(), 1e-9);
}

TEST(Green, StoredBlockIsSymmetricPositiveDefinite) {
  Fixture fx;
  // Reciprocity: each diagonal block is symmetric (off-diagonal ones are stored once by symmetry),
  // and the whole free-surface block is positive definite.
  const auto s = fx.free_surface();
  Eigen::MatrixXd G(3 * s.size(), 3 * s.size());
  for (std::size_t a = 0; a < s.size(); ++a)
    for (std::size_t b = 0; b < s.size(); ++b)
      G.block<3, 3>(3 * a, 3 * b) = fx.asset->green_block(s[a], s[b]);
  // Reciprocity against an independent solve: the response at j to a unit load at i (j < i) is
  // read from the stored block (i, j), which was computed from the load at j.
  const Index i = s.back(), j = s.front();
  for (int c = 0; c < 3; ++c) {
    Vec3 f = Vec3::Zero();
    f[c] = 1.0;
    const Direct d = direct_solve(fx.mesh, fx.material, fx.fixed_map(),
                                  {{fx.asset->volume_node()[static_cast<std::size_t>(i)], f}});
    const Vec3 uj = d.u.segment<3>(3 * fx.asset->volume_node()[static_cast<std::size_t>(j)]);
    EXPECT_LT((fx.asset->green_block(j, i).col(c) - uj).norm(), 1e-5 * uj.norm());
  }
  for (Index i : s) {
    const Mat3 d = fx.asset->green_block(i, i);
    EXPECT_LT((d - d.transpose()).norm(), 1e-6 * d.norm());
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(G);
  EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
}

TEST(Green, BlockIsInverseOfCondensedStiffness) {
  Fixture fx;
  const fem::SparseMatrix K = fem::assemble_stiffness(fx.mesh, fx.material);
  auto dofs = fem::DofMap::from_fixed_nodes(fx.mesh, fx.fixed).value();
  const fem::SparseMatrix A = dofs.restrict_matrix(K);
  const auto s = fx.free_surface();
  std::vector<Eigen::Index> surface_dofs;
  for (Index i : s)
    for (int c = 0; c < 3; ++c)
      surface_dofs.push_back(
          dofs.reduced_index(3 * fx.asset->volume_node()[static_cast<std::size_t>(i)] + c));
  auto cond = linalg::Condensation::build(A, surface_dofs).value();
  Eigen::MatrixXd G(3 * s.size(), 3 * s.size());
  for (std::size_t a = 0; a < s.size(); ++a)
    for (std::size_t b = 0; b < s.size(); ++b)
      G.block<3, 3>(3 * a, 3 * b) = fx.asset->green_block(s[a], s[b]);
  // Float storage: compare with the inverse of K*_ss (a product G K*_ss would amplify the rounding
  // by the condition number).
  const Eigen::MatrixXd inverse = cond.condensed_matrix().inverse();
  EXPECT_LT((G - inverse).norm() / inverse.norm(), 1e-6);
}

TEST(Green, LocalComplianceMatchesResponseToAProbeForce) {
  Fixture fx;
  const auto s = fx.free_surface();
  std::vector<Grab> grabs = {{s[5], fx.asset->surface().positions[static_cast<std::size_t>(s[5])]},
                             {s[30], fx.asset->surface().positions[static_cast<std::size_t>(s[30])]}};
  GreenBody body(fx.asset);
  ASSERT_TRUE(body.set_grabs(grabs).ok());
  const Index probe = s[s.size() - 1];
  const Vec3 f(0.2, -0.7, 0.4);
  body.set_force(probe, f);
  body.update();
  const Vec3 moved = body.state().positions[static_cast<std::size_t>(probe)] -
                     fx.asset->surface().positions[static_cast<std::size_t>(probe)];
  const Vec3 predicted = body.local_compliance(probe) * f;
  EXPECT_LT((moved - predicted).norm(), 1e-6 * moved.norm());
  // For a grabbed node: pushing its target by δ needs force K δ with K the inverse compliance.
  GreenBody held(fx.asset);
  ASSERT_TRUE(held.set_grabs(grabs).ok());
  held.update();
  const Vec3 delta(0.001, 0.002, -0.001);
  held.move_grab(0, grabs[0].target + delta);
  held.update();
  const Vec3 force = held.state().grab_forces[0];
  EXPECT_LT((held.local_compliance(grabs[0].node) * force - delta).norm(), 1e-6 * delta.norm());
}

TEST(Green, GrabSetErrorsAreReported) {
  Fixture fx;
  GreenBody body(fx.asset);
  Index fixed_surface = -1;
  for (Index i = 0; i < fx.asset->surface_node_count(); ++i)
    if (fx.asset->constrained()[static_cast<std::size_t>(i)]) fixed_surface = i;
  ASSERT_GE(fixed_surface, 0);
  const std::vector<Grab> on_fixed = {{fixed_surface, Vec3::Zero()}};
  auto s = body.set_grabs(on_fixed);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fixed"), std::string::npos);
  const auto free = fx.free_surface();
  const std::vector<Grab> twice = {{free[0], Vec3::Zero()}, {free[0], Vec3::Zero()}};
  EXPECT_FALSE(body.set_grabs(twice).ok());
  const std::vector<Grab> outside = {{fx.asset->surface_node_count(), Vec3::Zero()}};
  EXPECT_FALSE(body.set_grabs(outside).ok());
}

// Beam held only by two control elements, one at each end.
struct ControlFixture {
  TetMesh mesh = beam();
  materials::Material material = rubbery();
  std::vector<ControlElementSpec> controls = {
      {nodes_where(mesh, [](const Vec3& x) { return x.x() < 1e-9; })},
      {nodes_where(mesh, [](const Vec3& x) { return x.x() > 1 - 1e-9; })}};
};

TEST(Green, ControlElementTranslationMatchesDirectSolve) {
  ControlFixture fx;
  auto asset = std::make_shared<GreenAsset>(build_green_asset(fx.mesh, fx.material, {}, fx.controls).value());
  GreenBody body(asset);
  const Vec3 t(0.02, -0.05, 0.03);
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.topRightCorner<3, 1>() = t;
  body.set_control(1, T);
  body.update();
  std::map<Index, Vec3> prescribed;
  for (Index n : fx.controls[0].nodes) prescribed[n] = Vec3::Zero();
  for (Index n : fx.controls[1].nodes) prescribed[n] = t;
  const Direct d = direct_solve(fx.mesh, fx.material, prescribed, {});
  EXPECT_LT(surface_relative_error(*asset, body.state().positions, d.u), 1e-5);

  // A general affine map of element 0 (small rotation + stretch), element 1 kept: also exact.
  Eigen::Matrix4d A = Eigen::Matrix4d::Identity();
  A.topLeftCorner<3, 3>() = Eigen::AngleAxisd(0.05, Vec3::UnitX()).toRotationMatrix() * 1.01;
  A.topRightCorner<3, 1>() = Vec3(0.0, 0.01, 0.0);
  body.set_control(0, A);
  body.update();
  for (Index n : fx.controls[0].nodes)
    prescribed[n] = A.topLeftCorner<3, 3>() * fx.mesh.positions[static_cast<std::size_t>(n)] +
                    A.topRightCorner<3, 1>() - fx.mesh.positions[static_cast<std::size_t>(n)];
  const Direct d2 = direct_solve(fx.mesh, fx.material, prescribed, {});
  EXPECT_LT(surface_relative_error(*asset, body.state().positions, d2.u), 1e-5);
}

TEST(Green, CommonRigidMotionOfAllHandlesIsReproducedWithRotationCorrection) {
  ControlFixture fx;
  auto asset = std::make_shared<GreenAsset>(build_green_asset(fx.mesh, fx.material, {}, fx.controls).value());
  const Mat3 R = Eigen::AngleAxisd(2.0, Vec3(0.2, 1.0, -0.4).normalized()).toRotationMatrix();
  const Vec3 t(0.3, -0.1, 0.7);
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.topLeftCorner<3, 3>() = R;
  T.topRightCorner<3, 1>() = t;
  // A grab in the middle of the beam, moved with the same rigid motion.
  Index middle = -1;
  for (Index i = 0; i < asset->surface_node_count(); ++i)
    if (std::abs(asset->surface().positions[static_cast<std::size_t>(i)].x() - 0.5) < 1e-9) middle = i;
  ASSERT_GE(middle, 0);
  const Vec3 rest = asset->surface().positions[static_cast<std::size_t>(middle)];
  const std::vector<Grab> grabs = {{middle, R * rest + t}};

  GreenBody corrected(asset, GreenDef{.rotation_correction = true});
  ASSERT_TRUE(corrected.set_grabs(grabs).ok());
  corrected.set_control(0, T);
  corrected.set_control(1, T);
  corrected.update();
  EXPECT_LT((corrected.state().rotation - R).norm(), 1e-9);
  for (Index i = 0; i < asset->surface_node_count(); ++i) {
    const Vec3 expected = R * asset->surface().positions[static_cast<std::size_t>(i)] + t;
    EXPECT_LT((corrected.state().positions[static_cast<std::size_t>(i)] - expected).norm(), 1e-6) << i;
  }
  EXPECT_LT(corrected.state().grab_forces[0].norm(), 1e-6);

  // Without the correction the linear model shears: the same motion is far from rigid.
  GreenBody linear(asset);
  ASSERT_TRUE(linear.set_grabs(grabs).ok());
  linear.set_control(0, T);
  linear.set_control(1, T);
  linear.update();
  double worst = 0;
  for (Index i = 0; i < asset->surface_node_count(); ++i)
    worst = std::max(worst, (linear.state().positions[static_cast<std::size_t>(i)] -
                             (R * asset->surface().positions[static_cast<std::size_t>(i)] + t))
                                .norm());
  EXPECT_GT(worst, 1e-3);
}

TEST(Green, BuildErrorsAreOneLine) {
  const TetMesh mesh = beam();
  const materials::Material m = rubbery();
  auto none = build_green_asset(mesh, m, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message().find('\n'), std::string::npos);
  const std::vector<Index> bad = {100000};
  EXPECT_FALSE(build_green_asset(mesh, m, bad).ok());
  const std::vector<Index> one = {0};  // one node leaves rotations free
  EXPECT_FALSE(build_green_asset(mesh, m, one).ok());
  const std::vector<Index> fixed = {0, 1, 2, 3, 4, 5};
  const std::vector<ControlElementSpec> overlap = {{{5, 40}}};
  auto o = build_green_asset(mesh, m, fixed, overlap);
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.message().find("also fixed"), std::string::npos);
}

TEST(Green, ThreadCountDoesNotChangeTheBlock) {
  const TetMesh mesh = beam();
  const materials::Material m = rubbery();
  const auto fixed = nodes_where(mesh, [](const Vec3& x) { return x.x() < 1e-9; });
  GreenBuildSettings one, two;
  one.threads = 1;
  two.threads = 2;
  two.block_columns = 12;
  int calls = 0;
  double last = -1;
  bool monotone = true;
  two.progress = [&](double f) {
    ++calls;
    monotone = monotone && f >= last;
    last = f;
  };
  const GreenAsset a = build_green_asset(mesh, m, fixed, {}, one).value();
  const GreenAsset b = build_green_asset(mesh, m, fixed, {}, two).value();
  const std::size_t n = GreenAsset::packed_floats(static_cast<std::size_t>(a.surface_node_count()));
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < n; ++k) {
    worst = std::max(worst, static_cast<double>(std::abs(a.block()[k] - b.block()[k])));
    scale = std::max(scale, static_cast<double>(std::abs(a.block()[k])));
  }
  EXPECT_LT(worst, 1e-6 * scale);
  EXPECT_GE(calls, 2);
  EXPECT_TRUE(monotone);
  EXPECT_EQ(last, 1.0);
}

TEST(Green, CancelFromTheProgressCallbackStopsTheBuild) {
  const TetMesh mesh = beam();
  const auto fixed = nodes_where(mesh, [](const Vec3& x) { return x.x() < 1e-9; });
  GreenBuildSettings settings;
  settings.threads = 1;        // progress comes from thread 0 only: it must take the blocks
  settings.block_columns = 3;  // one node per block: many blocks to stop between
  std::atomic<bool> cancel{false};
  settings.cancel = &cancel;
  double last = -1;
  settings.progress = [&](double f) {
    last = f;
    if (f > 0.0) cancel = true;  // as a Ctrl-C after the first finished block
  };
  const auto r = build_green_asset(mesh, rubbery(), fixed, {}, settings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "green: precomputation cancelled");
  EXPECT_LT(last, 1.0);  // it never reported completion
  cancel = false;        // the same settings, not cancelled, build normally
  settings.progress = nullptr;
  EXPECT_TRUE(build_green_asset(mesh, rubbery(), fixed, {}, settings).ok());
}

}  // namespace
}  // namespace pliant::green
