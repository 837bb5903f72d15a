// Tensor-mass forces against an independently assembled linear-FEM stiffness, rigid-motion
// invariance, stability bound, and convergence to the static FEM solution under gravity (the default
// symplectic Euler and the implicit schemes).
#include "pliant/models/springs/tensor_mass.hpp"

#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

#include <gtest/gtest.h>
#include <Eigen/Dense>

#include <random>

namespace pliant::springs {
namespace {

struct Beam {
  TetMesh tets;
  SpringMesh mesh;
  materials::Material material;
};

Beam beam() {
  Beam s;
  s.tets = *meshing::box_mesh({.size = Vec3(0.12, 0.04, 0.04), .cells = {3, 2, 2}});
  s.mesh = *build_spring_mesh(s.tets, {.mass_density = 1000.0});
  s.material = *materials::material_from_young_poisson(2e4, 0.3, 1000.0);
  return s;
}

// Dense K assembled from fem's element matrices: the reference.
Eigen::MatrixXd dense_stiffness(const Beam& s) {
  const Eigen::Index n = static_cast<Eigen::Index>(s.tets.node_count());
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  for (const Tet& t : s.tets.tets) {
    const auto& x = s.tets.positions;
    const fem::Mat12 ke = fem::tet_stiffness(x[t[0]], x[t[1]], x[t[2]], x[t[3]], s.material);
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) k.block<3, 3>(3 * t[a], 3 * t[b]) += ke.block<3, 3>(3 * a, 3 * b);
  }
  return k;
}

Eigen::VectorXd forces(const TensorMass& tm, const SpringMesh& mesh) {
  std::vector<Vec3> f(mesh.position.size(), Vec3::Zero());
  tm.add_forces(mesh, f);
  Eigen::VectorXd out(3 * static_cast<Eigen::Index>(f.size()));
  for (std::size_t i = 0; i < f.size(); ++i) out.segment<3>(3 * static_cast<Eigen::Index>(i)) = f[i];
  return out;
}

TEST(TensorMass, ForcesEqualMinusLinearFemStiffnessTimesDisplacement) {
  Beam s = beam();
  auto tm = TensorMass::build(s.mesh, s.material);
  ASSERT_TRUE(tm.ok()) << tm.message();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> d(-1e-3, 1e-3);
  Eigen::VectorXd u(3 * static_cast<Eigen::Index>(s.mesh.position.size()));
  for (std::size_t i = 0; i < s.mesh.position.size(); ++i) {
    const Vec3 ui(d(rng), d(rng), d(rng));
    s.mesh.position[i] = s.mesh.rest_position[i] + ui;
    u.segment<3>(3 * static_cast<Eigen::Index>(i)) = ui;
  }
  const Eigen::VectorXd expected = -dense_stiffness(s) * u;
  EXPECT_LT((forces(*tm, s.mesh) - expected).norm(), 1e-12 * expected.norm());
}

TEST(TensorMass, RigidMotionsGiveNoForce) {
  Beam s = beam();
  auto tm = TensorMass::build(s.mesh, s.material);
  ASSERT_TRUE(tm.ok());
  const Vec3 t(0.01, -0.02, 0.005), w(1e-3, 2e-3, -1e-3);  // translation, infinitesimal rotation
  double scale = 0.0;
  for (std::size_t i = 0; i < s.mesh.position.size(); ++i) {
    s.mesh.position[i] = s.mesh.rest_position[i] + t + w.cross(s.mesh.rest_position[i]);
    scale = std::max(scale, tm->node_tensor(static_cast<Index>(i)).norm() * 0.02);
  }
  EXPECT_LT(forces(*tm, s.mesh).cwiseAbs().maxCoeff(), 1e-10 * scale);
}

TEST(TensorMass, SettlesOnTheStaticFemSolutionUnderGravity) {
  Beam s = beam();
  for (std::size_t i = 0; i < s.mesh.position.size(); ++i) {
    if (s.mesh.rest_position[i].x() < 1e-9) s.mesh.set_fixed(static_cast<Index>(i), true);
  }
  auto tm = TensorMass::build(s.mesh, s.material);
  ASSERT_TRUE(tm.ok());
  // Reference: K_ff u_f = m g on the free DOFs, solved densely.
  const Vec3 g(0, 0, -9.81);
  std::vector<Eigen::Index> free;
  for (std::size_t i = 0; i < s.mesh.position.size(); ++i) {
    if (!s.mesh.fixed(static_cast<Index>(i)))
      for (int c = 0; c < 3; ++c) free.push_back(3 * static_cast<Eigen::Index>(i) + c);
  }
  const Eigen::MatrixXd k = dense_stiffness(s);
  const auto nf = static_cast<Eigen::Index>(free.size());
  Eigen::MatrixXd kff(nf, nf);
  Eigen::VectorXd f(nf);
  for (Eigen::Index a = 0; a < nf; ++a) {
    f[a] = s.mesh.mass[static_cast<std::size_t>(free[a] / 3)] * g[free[a] % 3];
    for (Eigen::Index b = 0; b < nf; ++b) kff(a, b) = k(free[a], free[b]);
  }
  const Eigen::VectorXd u_ref = kff.ldlt().solve(f);

  // Damped explicit dynamics at 0.9 of the stable step; mass damping near critical for the slowest
  // mode, taken from the lumped-mass eigenproblem.
  const double w2_max = tm->omega_squared_bound(s.mesh);
  Eigen::VectorXd m_inv_sqrt(nf);
  for (Eigen::Index a = 0; a < nf; ++a)
    m_inv_sqrt[a] = 1.0 / std::sqrt(s.mesh.mass[static_cast<std::size_t>(free[a] / 3)]);
  const Eigen::MatrixXd a_mat = m_inv_sqrt.asDiagonal() * kff * m_inv_sqrt.asDiagonal();
  const Eigen::VectorXd w2 = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a_mat).eigenvalues();
  ASSERT_LE(w2.maxCoeff(), w2_max * (1 + 1e-12));  // the bound bounds
  const double dt = 0.9 * 2.0 / std::sqrt(w2_max);
  const Loads loads{.gravity = g, .mass_damping = 2.0 * std::sqrt(w2.minCoeff())};
  const int steps = static_cast<int>(40.0 / (std::sqrt(w2.minCoeff()) * dt));
  for (int i = 0; i < steps; ++i) tm->step(s.mesh, dt, loads);
  Eigen::VectorXd u(nf);
  for (Eigen::Index a = 0; a < nf; ++a) {
    const auto node = static_cast<std::size_t>(free[a] / 3);
    u[a] = s.mesh.position[node][free[a] % 3] - s.mesh.rest_position[node][free[a] % 3];
  }
  EXPECT_LT((u - u_ref).norm(), 1e-6 * u_ref.norm()) << steps << " steps";
}

// The clamped beam (nodes at x = 0 fixed) under gravity g (unit: m/s²): the static FEM solution of
// K_ff u_f = m g on the free DOFs, solved densely, and the eigenvalues ω² of M⁻¹K (lumped) on them.
struct StaticReference {
  std::vector<Eigen::Index> free;  // free DOF indices, 3·node + component
  Eigen::VectorXd u;               // displacement of the free DOFs (unit: m)
  Eigen::VectorXd w2;              // ω² of the free DOFs (unit: 1/s²)
};

Beam clamped_beam() {
  Beam s = beam();
  for (std::size_t i = 0; i < s.mesh.position.size(); ++i) {
    if (s.mesh.rest_position[i].x() < 1e-9) s.mesh.set_fixed(static_cast<Index>(i), true);
  }
  return s;
}

StaticReference static_reference(const Beam& s, const Vec3& g) {
  StaticReference r;
  for (std::size_t i = 0; i < s.mesh.position.size(); ++i) {
    if (!s.mesh.fixed(static_cast<Index>(i)))
      for (int c = 0; c < 3; ++c) r.free.push_back(3 * static_cast<Eigen::Index>(i) + c);
  }
  const Eigen::MatrixXd k = dense_stiffness(s);
  const auto nf = static_cast<Eigen::Index>(r.free.size());
  Eigen::MatrixXd kff(nf, nf);
  Eigen::VectorXd f(nf), m_inv_sqrt(nf);
  for (Eigen::Index a = 0; a < nf; ++a) {
    const double m = s.mesh.mass[static_cast<std::size_t>(r.free[a] / 3)];
    f[a] = m * g[r.free[a] % 3];
    m_inv_sqrt[a] = 1.0 / std::sqrt(m);
    for (Eigen::Index b = 0; b < nf; ++b) kff(a, b) = k(r.free[a], r.free[b]);
  }
  r.u = kff.ldlt().solve(f);
  const Eigen::MatrixXd a_mat = m_inv_sqrt.asDiagonal() * kff * m_inv_sqrt.asDiagonal();
  r.w2 = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a_mat).eigenvalues();
  return r;
}

Eigen::VectorXd free_displacement(const SpringMesh& mesh, const std::vector<Eigen::Index>& free) {
  Eigen::VectorXd u(static_cast<Eigen::Index>(free.size()));
  for (Eigen::Index a = 0; a < u.size(); ++a) {
    const auto node = static_cast<std::size_t>(free[a] / 3);
    u[a] = mesh.position[node][free[a] % 3] - mesh.rest_position[node][free[a] % 3];
  }
  return u;
}

// The implicit schemes (through K·p and the Jacobi diagonal of TensorMassForceModel) reach the same static
// solution with steps ten times the explicit stability limit.
TEST(TensorMass, ImplicitSchemesSettleOnTheStaticFemSolution) {
  for (const dynamics::Scheme scheme :
       {dynamics::Scheme::backward_euler, dynamics::Scheme::newmark, dynamics::Scheme::houbolt}) {
    SCOPED_TRACE(dynamics::scheme_name(scheme));
    Beam s = clamped_beam();
    auto tm = TensorMass::build(s.mesh, s.material);
    ASSERT_TRUE(tm.ok());
    EXPECT_EQ(tm->integrator().scheme, dynamics::Scheme::symplectic_euler);  // the default
    // Newmark with γ > 1/2 and β = (γ + 1/2)²/4: the average-acceleration rule (γ = 1/2) leaves the
    // high modes, which a step this long resolves badly, undamped but for the mass damping.
    tm->set_integrator(
        {.scheme = scheme, .newmark_beta = 0.3025, .newmark_gamma = 0.6, .cg_tolerance = 1e-12});
    const Vec3 g(0, 0, -9.81);
    const StaticReference ref = static_reference(s, g);
    const double dt = 10.0 * 2.0 / std::sqrt(tm->omega_squared_bound(s.mesh));
    const Loads loads{.gravity = g, .mass_damping = 2.0 * std::sqrt(ref.w2.minCoeff())};
    const int steps = static_cast<int>(40.0 / (std::sqrt(ref.w2.minCoeff()) * dt));
    for (int i = 0; i < steps; ++i) tm->step(s.mesh, dt, loads);
    EXPECT_LT((free_displacement(s.mesh, ref.free) - ref.u).norm(), 1e-6 * ref.u.norm()) << steps << " steps";
  }
}

// K·p of the force model is the dense FEM stiffness times p, and minus the force of the displacement p.
TEST(TensorMass, ForceModelStiffnessProductIsTheFemStiffness) {
  Beam s = beam();
  auto tm = TensorMass::build(s.mesh, s.material);
  ASSERT_TRUE(tm.ok());
  const Loads loads;
  const TensorMassForceModel model(*tm, s.mesh, loads);
  const std::size_t n = s.mesh.position.size();
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> d(-1e-3, 1e-3);
  std::vector<Vec3> p(n), x(n), zero(n, Vec3::Zero()), kp(n, Vec3::Zero()), f(n);
  Eigen::VectorXd pv(3 * static_cast<Eigen::Index>(n)), kpv(pv.size()), fv(pv.size());
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = Vec3(d(rng), d(rng), d(rng));
    x[i] = s.mesh.rest_position[i] + p[i];
    pv.segment<3>(3 * static_cast<Eigen::Index>(i)) = p[i];
  }
  model.add_stiffness_product(s.mesh.position, p, 2.0, kp);
  model.forces(x, zero, f);
  for (std::size_t i = 0; i < n; ++i) {
    kpv.segment<3>(3 * static_cast<Eigen::Index>(i)) = kp[i];
    fv.segment<3>(3 * static_cast<Eigen::Index>(i)) = f[i];
  }
  const Eigen::VectorXd expected = dense_stiffness(s) * pv;
  EXPECT_LT((kpv - 2.0 * expected).norm(), 1e-12 * expected.norm());
  EXPECT_LT((fv + expected).norm(), 1e-12 * expected.norm());
}

TEST(TensorMass, RefusesMeshesWithoutTets) {
  auto graph = build_spring_graph({Vec3::Zero(), Vec3(1, 0, 0)}, {Edge{0, 1}}, {.node_mass = 1.0});
  ASSERT_TRUE(graph.ok());
  auto tm = TensorMass::build(*graph, *materials::material_from_young_poisson(1e4, 0.3));
  ASSERT_FALSE(tm.ok());
  EXPECT_NE(tm.message().find("no tetrahedra"), std::string::npos);
}

}  // namespace
}  // namespace pliant::springs
