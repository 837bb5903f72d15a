// Modal analysis, the modal body and modal warping against independent references: the eigen
// equations themselves, Euler-Bernoulli beam frequencies, a dense matrix-exponential solution of the
// full linear dynamics, the analytic damped oscillator, and rigid-motion invariants.
#include "fem_test_util.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/mass.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"
#include "pliant/models/fem/modal/modal_body.hpp"
#include "pliant/models/fem/modal/modal_oscillator.hpp"
#include "pliant/models/fem/modal/modal_warping.hpp"
#include "scene/conformance/alloc_counter.hpp"

#include <gtest/gtest.h>
#include <Eigen/Eigenvalues>
#include <unsupported/Eigen/MatrixFunctions>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <numeric>
#include <sstream>

namespace pliant::fem {
namespace {

constexpr double kPi = std::numbers::pi;

materials::Material rubber() { return materials::material_preset("rubber").value(); }

// Relative residual max_j ‖K φⱼ - λⱼ M φⱼ‖ / ‖K φⱼ‖ over the free DOFs, and ‖Φᵀ M Φ - I‖_max.
struct EigenCheck {
  double residual = 0.0, orthonormality = 0.0;
};
EigenCheck check_eigenpairs(const SparseMatrix& K, const SparseMatrix& M, const DofMap& dofs,
                            const ModalBasis& basis) {
  EigenCheck out;
  const SparseMatrix Kf = dofs.restrict_matrix(K), Mf = dofs.restrict_matrix(M);
  Eigen::MatrixXd phi(dofs.free_size(), basis.mode_count());
  for (Index k = 0; k < dofs.free_size(); ++k) phi.row(k) = basis.shapes.row(dofs.free_dofs()[k]);
  for (Index j = 0; j < basis.mode_count(); ++j) {
    const Eigen::VectorXd kp = Kf * phi.col(j), mp = Mf * phi.col(j);
    const double scale = std::max(kp.norm(), std::abs(basis.eigenvalues[j]) * mp.norm());
    out.residual = std::max(out.residual, (kp - basis.eigenvalues[j] * mp).norm() / scale);
  }
  out.orthonormality =
      (phi.transpose() * Mf * phi - Eigen::MatrixXd::Identity(basis.mode_count(), basis.mode_count()))
          .cwiseAbs()
          .maxCoeff();
  return out;
}

TEST(ModalAnalysis, ClampedEigenpairsSatisfyTheEquationsAndAreMassOrthonormal) {
  const TetMesh mesh = test::box(Vec3(1, 0.2, 0.2), {10, 2, 2}, meshing::CellSplit::five);
  const materials::Material mat = test::steel();
  const auto fixed = test::nodes_at(mesh, 0, 0.0);
  auto basis = modal_analysis(mesh, std::span(&mat, 1), fixed, {.modes = 8});
  ASSERT_TRUE(basis) << basis.message();
  const SparseMatrix K = assemble_stiffness(mesh, mat);
  const std::vector<double> rho(mesh.tet_count(), mat.density);
  const SparseMatrix M = assemble_consistent_mass(mesh, rho).value();
  const DofMap dofs = DofMap::from_fixed_nodes(mesh, fixed).value();
  const EigenCheck c = check_eigenpairs(K, M, dofs, *basis);
  EXPECT_LT(c.residual, 1e-8);
  EXPECT_LT(c.orthonormality, 1e-9);
  for (Index j = 0; j < 8; ++j) {
    EXPECT_GT(basis->eigenvalues[j], 0.0);
    if (j > 0) {
      EXPECT_GE(basis->eigenvalues[j], basis->eigenvalues[j - 1]);
    }
  }
  // Fixed DOFs are exactly zero in every shape.
  for (Index d : dofs.fixed_dofs()) EXPECT_EQ(basis->shapes.row(d).cwiseAbs().maxCoeff(), 0.0);
  // The same lowest eigenvalues as a dense generalised eigen-solve (an independent method).
  const Eigen::MatrixXd Kd = Eigen::MatrixXd(dofs.restrict_matrix(K)),
                        Md = Eigen::MatrixXd(dofs.restrict_matrix(M));
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(Kd, Md, Eigen::EigenvaluesOnly);
  for (Index j = 0; j < 8; ++j)
    EXPECT_NEAR(basis->eigenvalues[j], dense.eigenvalues()[j], 1e-9 * dense.eigenvalues()[j]);
}

TEST(ModalAnalysis, FreeBodyHasSixRigidModesFirst) {
  const TetMesh mesh = test::box(Vec3(0.3, 0.2, 0.1), {3, 2, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  for (ModalMass mass : {ModalMass::consistent, ModalMass::lumped}) {
    auto basis = modal_analysis(mesh, std::span(&mat, 1), {}, {.modes = 9}, mass);
    ASSERT_TRUE(basis) << basis.message();
    const double first_elastic = basis->eigenvalues[6];
    EXPECT_GT(first_elastic, 0.0);
    for (Index j = 0; j < 6; ++j) {
      EXPECT_LT(std::abs(basis->eigenvalues[j]), 1e-8 * first_elastic);
      EXPECT_LT(basis->frequencies_hz()[j], 1e-3 * basis->frequencies_hz()[6]);
    }
    const SparseMatrix K = assemble_stiffness(mesh, mat);
    SparseMatrix M;
    const std::vector<double> rho(mesh.tet_count(), mat.density);
    if (mass == ModalMass::consistent) {
      M = assemble_consistent_mass(mesh, rho).value();
    } else {
      const auto lumped = assemble_lumped_mass(mesh, rho).value();
      M.resize(3 * mesh.node_count(), 3 * mesh.node_count());
      for (std::size_t d = 0; d < 3 * mesh.node_count(); ++d) M.insert(d, d) = lumped[d / 3];
    }
    const DofMap dofs = DofMap::from_fixed_dofs_unchecked(3 * static_cast<Index>(mesh.node_count()), {});
    // Rigid modes: K φ ≈ 0 relative to the elastic scale; the elastic ones satisfy the equations.
    const EigenCheck c = check_eigenpairs(K, M, dofs, *basis);
    EXPECT_LT(c.orthonormality, 1e-9);
    for (Index j = 6; j < 9; ++j) {
      const Eigen::VectorXd phi = basis->shapes.col(j);
      EXPECT_LT((K * phi - basis->eigenvalues[j] * (M * phi)).norm() / (K * phi).norm(), 1e-8);
    }
  }
}

TEST(ModalAnalysis, RejectsBadInput) {
  const TetMesh mesh = test::box(Vec3(0.2, 0.1, 0.1), {2, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  const auto fixed = test::nodes_at(mesh, 0, 0.0);
  const Index free = 3 * static_cast<Index>(mesh.node_count() - fixed.size());
  auto too_many = modal_analysis(mesh, std::span(&mat, 1), fixed, {.modes = free});
  ASSERT_FALSE(too_many);
  EXPECT_NE(too_many.message().find("modes < " + std::to_string(free)), std::string::npos)
      << too_many.message();
  EXPECT_EQ(too_many.message().find('\n'), std::string::npos);
  EXPECT_FALSE(modal_analysis(mesh, std::span(&mat, 1), fixed, {.modes = 0}));
  // A positive shift above the lowest eigenvalue makes K - σM indefinite: a one-line error.
  auto shifted = modal_analysis(mesh, std::span(&mat, 1), fixed, {.modes = 2, .shift = 1e12});
  ASSERT_FALSE(shifted);
  EXPECT_EQ(shifted.message().find('\n'), std::string::npos);
  // One restart with a minimal Krylov space does not converge to 1e-14.
  auto slow = modal_analysis(mesh, std::span(&mat, 1), fixed,
                             {.modes = 6, .krylov_dimension = 7, .max_restarts = 1, .tolerance = 1e-14});
  ASSERT_FALSE(slow);
  EXPECT_NE(slow.message().find("converge"), std::string::npos) << slow.message();
  const std::vector<materials::Material> two(2, mat);
  EXPECT_FALSE(modal_analysis(mesh, two, fixed, {.modes = 2}));
  // Every node fixed: the cause named, not "need 1 ≤ modes < 0".
  std::vector<Index> all(mesh.node_count());
  std::iota(all.begin(), all.end(), Index{0});
  auto none_free = modal_analysis(mesh, std::span(&mat, 1), all, {.modes = 2});
  ASSERT_FALSE(none_free);
  EXPECT_EQ(none_free.message(), "modal analysis: no free nodes (every node is fixed), so there is no mode");
}

// Clamped-free steel beam, L = 1 m, 5 cm square section: the lowest bending frequencies against
// Euler-Bernoulli, f = (βL)²/(2π L²) √(EI/(ρA)) with βL = 1.8751 and 4.6941. Linear tets are stiff in
// bending (shear locking): the frequencies come from above and converge at about O(h²) (measured for f1:
// +53 % at 2 cells across, +16 % at 4). So the test checks monotone convergence from above and the
// Richardson extrapolation of the 2- and 4-cell meshes for p = 2, which lands within 4 % (measured
// +3.3 % for f1, +2.2 % for f2; shear and rotary inertia, which Euler-Bernoulli ignores, lower the true
// f2 of this L/a = 20 beam by about 1 %).
TEST(ModalAnalysis, ClampedBeamBendingFrequenciesConvergeToEulerBernoulli) {
  const double L = 1.0, a = 0.05;
  const materials::Material mat = test::steel();
  const double E = mat.youngs_modulus();
  const double scale = a * std::sqrt(E / (12.0 * mat.density)) / (2.0 * kPi * L * L);
  const std::array<double, 2> eb = {1.875104 * 1.875104 * scale, 4.694091 * 4.694091 * scale};
  std::array<std::array<double, 2>, 3> f{};  // per mesh: mean of the two (y, z) bending modes
  const std::array<Index, 3> across = {2, 3, 4};
  for (std::size_t m = 0; m < 3; ++m) {
    const Index c = across[m];
    const TetMesh mesh = test::box(Vec3(L, a, a), {10 * c, c, c}, meshing::CellSplit::five);
    auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 4});
    ASSERT_TRUE(basis) << basis.message();
    const Eigen::VectorXd hz = basis->frequencies_hz();
    // The two bending directions of a square section are (nearly) degenerate.
    EXPECT_NEAR(hz[0], hz[1], 0.01 * hz[0]);
    EXPECT_NEAR(hz[2], hz[3], 0.01 * hz[2]);
    f[m] = {0.5 * (hz[0] + hz[1]), 0.5 * (hz[2] + hz[3])};
  }
  for (std::size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(k == 0 ? "first bending" : "second bending");
    EXPECT_GT(f[0][k], f[1][k]);
    EXPECT_GT(f[1][k], f[2][k]);
    EXPECT_GT(f[2][k], eb[k]);  // stiff elements: from above
    const double extrapolated = (4.0 * f[2][k] - f[0][k]) / 3.0;
    EXPECT_NEAR(extrapolated, eb[k], 0.04 * eb[k]) << f[0][k] << " " << f[1][k] << " " << f[2][k];
  }
}

// One mode, q̈ + c q̇ + k q = g, against the analytic solution in each damping regime.
double analytic_oscillator(double k, double c, double g, double q0, double v0, double t) {
  const double sigma = 0.5 * c, qs = k > 0 ? g / k : 0.0;
  const double e0 = q0 - qs;
  const double d = k - sigma * sigma;
  if (k == 0.0) return q0 + (v0 - g / c) * (1 - std::exp(-c * t)) / c + g * t / c;
  if (d > 0) {
    const double wd = std::sqrt(d);
    return qs + std::exp(-sigma * t) * (e0 * std::cos(wd * t) + (v0 + sigma * e0) / wd * std::sin(wd * t));
  }
  if (d < 0) {
    const double mu = std::sqrt(-d), r1 = -sigma + mu, r2 = -sigma - mu;
    const double B = (v0 - r1 * e0) / (r2 - r1), A = e0 - B;
    return qs + A * std::exp(r1 * t) + B * std::exp(r2 * t);
  }
  return qs + std::exp(-sigma * t) * (e0 + (v0 + sigma * e0) * t);
}

TEST(ModalOscillator, ExactStepMatchesTheAnalyticSolutionInEveryRegime) {
  struct Case {
    double k, c;
  };
  const double w = 2 * kPi * 3.0;  // 3 Hz
  for (const Case cs : {Case{w * w, 0.0}, Case{w * w, 0.1 * w}, Case{w * w, 2 * w}, Case{w * w, 5 * w},
                        Case{0.0, 4.0}, Case{w * w, 1e4}}) {
    SCOPED_TRACE(testing::Message() << "k " << cs.k << " c " << cs.c);
    for (double h : {1e-4, 1e-2, 0.3}) {
      const ModalStepCoefficients s = exact_modal_step(cs.k, cs.c, h);
      double q = 0.01, v = -0.2;
      const double g = 5.0;
      const int steps = static_cast<int>(std::round(1.2 / h));
      for (int i = 0; i < steps; ++i) {
        const double qn = s.qq * q + s.qv * v + s.gq * g;
        v = s.vq * q + s.vv * v + s.gv * g;
        q = qn;
      }
      const double ref = analytic_oscillator(cs.k, cs.c, g, 0.01, -0.2, steps * h);
      EXPECT_NEAR(q, ref, 1e-9 * std::max(1.0, std::abs(ref))) << "h " << h;
    }
  }
  // No jump across critical damping (the closed forms meet there).
  for (double zeta : {1.0 - 1e-9, 1.0, 1.0 + 1e-9}) {
    const ModalStepCoefficients s = exact_modal_step(w * w, 2 * zeta * w, 0.05);
    const ModalStepCoefficients crit = exact_modal_step(w * w, 2 * w, 0.05);
    EXPECT_NEAR(s.qq, crit.qq, 1e-8);
    EXPECT_NEAR(s.qv, crit.qv, 1e-8);
    EXPECT_NEAR(s.gq, crit.gq, 1e-10);
  }
  EXPECT_TRUE(std::isnan(exact_modal_step(-1.0, 0.0, 0.1).qq));
}

TEST(ModalOscillator, PeriodAndDecayOfALightlyDampedMode) {
  // ζ = 0.02 at 2 Hz: period 2π/ω_d and amplitude ratio e^{-ζω T_d} per period, from the steps alone.
  const double w = 2 * kPi * 2.0, zeta = 0.02, h = 1e-3;
  const ModalStepCoefficients s = exact_modal_step(w * w, 2 * zeta * w, h);
  double q = 1.0, v = 0.0, t = 0.0;
  std::vector<double> peak_times, peaks;
  double prev_v = v;
  for (int i = 0; i < 4000; ++i) {
    const double qn = s.qq * q + s.qv * v;
    v = s.vq * q + s.vv * v;
    q = qn;
    t += h;
    if (prev_v > 0 && v <= 0) {  // a maximum between the two steps: interpolate its time
      peak_times.push_back(t - h * v / (v - prev_v));
      peaks.push_back(q);
    }
    prev_v = v;
  }
  ASSERT_GE(peaks.size(), 3u);
  const double wd = w * std::sqrt(1 - zeta * zeta), period = 2 * kPi / wd;
  EXPECT_NEAR(peak_times[2] - peak_times[1], period, 1e-4 * period);
  EXPECT_NEAR(peaks[2] / peaks[1], std::exp(-zeta * w * period), 1e-4);
}

// Full linear dynamics M ü + C u̇ + K u = f of a small clamped body from an exact matrix exponential of
// its first-order form (no modes involved), against the modal body with every mode.
TEST(ModalBody, WithAllModesEqualsFullLinearDynamics) {
  const TetMesh mesh = test::box(Vec3(0.2, 0.05, 0.05), {3, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  const auto fixed = test::nodes_at(mesh, 0, 0.0);
  const DofMap dofs = DofMap::from_fixed_nodes(mesh, fixed).value();
  const SparseMatrix K = assemble_stiffness(mesh, mat);
  const SparseMatrix M =
      assemble_consistent_mass(mesh, std::vector<double>(mesh.tet_count(), mat.density)).value();
  const Eigen::MatrixXd Kd = Eigen::MatrixXd(dofs.restrict_matrix(K)),
                        Md = Eigen::MatrixXd(dofs.restrict_matrix(M));
  const Eigen::Index n = Kd.rows();
  // Every mode, from a dense solve: the modal body is what is under test here.
  Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(Kd, Md);
  ModalBasis basis;
  basis.eigenvalues = dense.eigenvalues();
  basis.shapes = Eigen::MatrixXd::Zero(3 * mesh.node_count(), n);
  for (Index k = 0; k < n; ++k) basis.shapes.row(dofs.free_dofs()[k]) = dense.eigenvectors().row(k);
  const double alpha = 2.0, beta = 1e-4, dt = 2e-3;
  auto body = ModalBody::build(mesh, basis, {.dt = dt, .rayleigh_alpha = alpha, .rayleigh_beta = beta});
  ASSERT_TRUE(body) << body.message();
  // A tip load (constant) and an initial velocity field.
  std::vector<Vec3> force(mesh.node_count(), Vec3::Zero());
  for (Index i : test::nodes_at(mesh, 0, 0.2)) force[i] = Vec3(0.3, -1.0, 0.5);
  Eigen::VectorXd v0_full = Eigen::VectorXd::Zero(3 * mesh.node_count());
  for (std::size_t i = 0; i < mesh.node_count(); ++i) v0_full[3 * i + 2] = 0.4 * mesh.positions[i].x();
  v0_full = dofs.expand(dofs.restrict_vector(v0_full));
  body->set_state_from_weighted(Eigen::VectorXd::Zero(v0_full.size()), M * v0_full);
  body->set_forces(force);
  const int steps = 60;
  for (int s = 0; s < steps; ++s) body->step();
  std::vector<Vec3> u_modal(mesh.node_count());
  body->reconstruct(u_modal);
  // Reference: x = (u, v), ẋ = A x + b, exactly via the exponential of the augmented matrix.
  const Eigen::MatrixXd Minv = Md.inverse();
  const Eigen::MatrixXd C = alpha * Md + beta * Kd;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n + 1, 2 * n + 1);
  A.block(0, n, n, n) = Eigen::MatrixXd::Identity(n, n);
  A.block(n, 0, n, n) = -Minv * Kd;
  A.block(n, n, n, n) = -Minv * C;
  Eigen::VectorXd f_full(3 * mesh.node_count());
  for (std::size_t i = 0; i < mesh.node_count(); ++i) f_full.segment<3>(3 * i) = force[i];
  A.block(n, 2 * n, n, 1) = Minv * dofs.restrict_vector(f_full);
  Eigen::VectorXd x0 = Eigen::VectorXd::Zero(2 * n + 1);
  x0.segment(n, n) = dofs.restrict_vector(v0_full);
  x0[2 * n] = 1.0;
  const Eigen::MatrixXd At = A * (steps * dt);
  const Eigen::VectorXd x = At.exp() * x0;
  const Eigen::VectorXd u_ref = dofs.expand(x.head(n));
  double err = 0.0;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    err = std::max(err, (u_modal[i] - u_ref.segment<3>(3 * i)).norm());
  EXPECT_LT(err, 1e-9 * u_ref.cwiseAbs().maxCoeff()) << "max |u| " << u_ref.cwiseAbs().maxCoeff();
  EXPECT_GT(u_ref.cwiseAbs().maxCoeff(), 1e-4);
}

TEST(ModalBody, RejectsBadDefinitions) {
  const TetMesh mesh = test::box(Vec3(0.2, 0.05, 0.05), {2, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 3});
  ASSERT_TRUE(basis);
  EXPECT_FALSE(ModalBody::build(mesh, *basis, {.modes = 4}));
  EXPECT_FALSE(ModalBody::build(mesh, *basis, {.dt = 0.0}));
  EXPECT_FALSE(ModalBody::build(mesh, *basis, {.rayleigh_alpha = -1.0}));
  EXPECT_FALSE(ModalBody::build(mesh, *basis, {.output_nodes = {static_cast<Index>(mesh.node_count())}}));
  const TetMesh other = test::box(Vec3(0.2, 0.05, 0.05), {3, 1, 1}, meshing::CellSplit::five);
  EXPECT_FALSE(ModalBody::build(other, *basis, {}));
}

TEST(ModalBody, SinglePrecisionOutputAgreesWithDouble) {
  const TetMesh mesh = test::box(Vec3(0.4, 0.05, 0.05), {8, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 6});
  ASSERT_TRUE(basis);
  for (bool warping : {false, true}) {
    auto d = ModalBody::build(mesh, *basis, {.warping = warping});
    auto f = ModalBody::build(mesh, *basis, {.warping = warping, .single_precision_output = true});
    ASSERT_TRUE(d && f);
    Eigen::VectorXd q(6);
    q << 0.3, -0.2, 0.05, 0.01, -0.02, 0.004;  // a large bend: tip displacement of tens of cm
    d->set_state(q, Eigen::VectorXd::Zero(6));
    f->set_state(q, Eigen::VectorXd::Zero(6));
    std::vector<Vec3> ud(mesh.node_count()), uf(mesh.node_count());
    d->reconstruct(ud);
    f->reconstruct(uf);
    double diff = 0.0, size = 0.0;
    for (std::size_t i = 0; i < ud.size(); ++i) {
      diff = std::max(diff, (ud[i] - uf[i]).norm());
      size = std::max(size, ud[i].norm());
    }
    EXPECT_GT(size, 1e-3);
    EXPECT_LT(diff, 1e-6 * size);
  }
}

// Half-precision output rows: each basis entry within 2⁻¹¹ of itself, so within 2⁻¹¹ of its column's
// largest entry (plus float sums, far smaller), so each displacement component within
// 2⁻¹¹ Σ_j max_i |Φ_ij| |q_j| of the double reconstruction; and visibly coarser than float (the bound is
// not vacuous).
TEST(ModalBody, HalfPrecisionOutputIsWithinItsRoundingBound) {
  const TetMesh mesh = test::box(Vec3(0.4, 0.05, 0.05), {8, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 6});
  ASSERT_TRUE(basis);
  auto d = ModalBody::build(mesh, *basis, {});
  auto h = ModalBody::build(mesh, *basis, {.half_precision_output = true});
  ASSERT_TRUE(d && h);
  Eigen::VectorXd q(6);
  q << 0.3, -0.2, 0.05, 0.01, -0.02, 0.004;
  d->set_state(q, Eigen::VectorXd::Zero(6));
  h->set_state(q, Eigen::VectorXd::Zero(6));
  std::vector<Vec3> ud(mesh.node_count()), uh(mesh.node_count());
  d->reconstruct(ud);
  h->reconstruct(uh);
  double bound = 0.0;
  for (Eigen::Index j = 0; j < 6; ++j) bound += basis->shapes.col(j).cwiseAbs().maxCoeff() * std::abs(q[j]);
  bound *= std::ldexp(1.0, -11);
  double diff = 0.0;
  for (std::size_t i = 0; i < ud.size(); ++i) diff = std::max(diff, (ud[i] - uh[i]).cwiseAbs().maxCoeff());
  EXPECT_LE(diff, bound);
  EXPECT_GT(diff, 1e-3 * bound);
}

// reconstruct (the panel kernel over the output rows) against node_displacement (a 3 × r product of the
// full field) on a node subset in scattered order, with and without warping, in double and float.
TEST(ModalBody, ReconstructOfASubsetMatchesSingleNodeQueries) {
  const TetMesh mesh = test::box(Vec3(0.4, 0.05, 0.05), {8, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 6});
  ASSERT_TRUE(basis);
  std::vector<Index> nodes;
  for (Index i = static_cast<Index>(mesh.node_count()) - 1; i >= 0; i -= 3) nodes.push_back(i);
  Eigen::VectorXd q(6);
  q << 0.3, -0.2, 0.05, 0.01, -0.02, 0.004;
  for (int variant = 0; variant < 6; ++variant) {
    const bool warping = variant % 2 == 1, single = variant / 2 == 1, half = variant / 2 == 2;
    auto body = ModalBody::build(mesh, *basis,
                                 {.warping = warping,
                                  .single_precision_output = single,
                                  .half_precision_output = half,
                                  .output_nodes = nodes});
    ASSERT_TRUE(body);
    body->set_state(q, Eigen::VectorXd::Zero(6));
    std::vector<Vec3> u(nodes.size());
    body->reconstruct(u);
    double size = 0.0;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const Vec3 expected = body->node_displacement(nodes[k]);
      size = std::max(size, expected.norm());
      EXPECT_LT((u[k] - expected).norm(), (half     ? 2e-3
                                           : single ? 1e-6
                                                    : 1e-13) *
                                              std::max(expected.norm(), 1e-3))
          << "variant " << variant << " node " << nodes[k];
    }
    EXPECT_GT(size, 1e-2);
  }
}

TEST(ModalBody, StepAndReconstructDoNotAllocate) {
  const TetMesh mesh = test::box(Vec3(0.4, 0.05, 0.05), {8, 1, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 6});
  ASSERT_TRUE(basis);
  for (int variant = 0; variant < 6; ++variant) {
    const bool warping = variant % 2 == 1, single = variant / 2 == 1, half = variant / 2 == 2;
    auto body = ModalBody::build(mesh, *basis,
                                 {.dt = 1e-3,
                                  .rayleigh_alpha = 0.5,
                                  .warping = warping,
                                  .single_precision_output = single,
                                  .half_precision_output = half,
                                  .output_nodes = test::nodes_at(mesh, 1, 0.05)});
    ASSERT_TRUE(body);
    std::vector<Vec3> out(body->output_nodes().size()), force(mesh.node_count(), Vec3(0, -0.1, 0));
    pliant::test::count_allocations(true);
    for (int s = 0; s < 5; ++s) {
      body->set_forces(force);
      body->add_point_force(3, Vec3(1, 0, 0));
      body->step();
      body->reconstruct(out);
    }
    pliant::test::count_allocations(false);
    EXPECT_EQ(pliant::test::allocations_counted(), 0);
    EXPECT_GT(out[out.size() - 1].norm(), 0.0);
  }
}

double tet_volume(const std::vector<Vec3>& x, const Tet& t) {
  return (x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]]).dot(x[t[3]] - x[t[0]]) / 6.0;
}

// J(θ) = ∫₀¹ exp(s[θ]×) ds by composite Simpson over Rodrigues rotations, on both sides of the series'
// range (|θ| < 0.5 rad) and far from it; modal_warp is J(θ) u.
TEST(ModalWarping, WarpMatrixIsTheIntegralOfTheRotationsOnEveryBranch) {
  const Vec3 axis = Vec3(0.3, -0.8, 0.5).normalized();
  for (double angle : {0.0, 1e-7, 0.01, 0.3, 0.4999, 0.5001, 1.0, 3.0}) {
    const Vec3 theta = angle * axis;
    const int intervals = 2000;
    Mat3 integral = Mat3::Zero();
    for (int k = 0; k <= intervals; ++k) {
      const double weight = (k == 0 || k == intervals) ? 1.0 : (k % 2 == 1 ? 4.0 : 2.0);
      integral += weight * rotation_from_vector((static_cast<double>(k) / intervals) * theta);
    }
    integral /= 3.0 * intervals;
    const Mat3 J = modal_warp_matrix(theta);
    EXPECT_LT((J - integral).norm(), 1e-12) << "angle " << angle;
    const Vec3 u(0.2, 0.7, -0.4);
    EXPECT_LT((modal_warp(theta, u) - J * u).norm(), 1e-15) << "angle " << angle;
  }
}

// A free body turned 90° about z by its rigid modes: the linear modal field ω × (x - c) stretches every
// tet (volume × (1 + θ²)); the warped one is the exact rotation (zero strain, volumes kept).
TEST(ModalWarping, RigidRotationOfTheModalFieldIsExactAndDoesNotInflate) {
  const TetMesh mesh = test::box(Vec3(0.3, 0.2, 0.1), {3, 2, 1}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), {}, {.modes = 6});
  ASSERT_TRUE(basis) << basis.message();
  const SparseMatrix M =
      assemble_consistent_mass(mesh, std::vector<double>(mesh.tet_count(), mat.density)).value();
  const Vec3 c(0.15, 0.1, 0.05), omega(0, 0, kPi / 2);
  Eigen::VectorXd u_lin(3 * mesh.node_count());
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    u_lin.segment<3>(3 * i) = omega.cross(mesh.positions[i] - c);
  const Eigen::VectorXd q = basis->shapes.transpose() * (M * u_lin);
  // The rigid modes span the infinitesimal rotation: the projection reproduces it.
  ASSERT_LT((basis->shapes * q - u_lin).norm(), 1e-8 * u_lin.norm());
  auto linear = ModalBody::build(mesh, *basis, {});
  auto warped = ModalBody::build(mesh, *basis, {.warping = true});
  ASSERT_TRUE(linear && warped);
  linear->set_state(q, Eigen::VectorXd::Zero(6));
  warped->set_state(q, Eigen::VectorXd::Zero(6));
  std::vector<Vec3> ul(mesh.node_count()), uw(mesh.node_count());
  linear->reconstruct(ul);
  warped->reconstruct(uw);
  std::vector<Vec3> xl(mesh.positions), xw(mesh.positions);
  const Mat3 R = rotation_from_vector(omega);
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    xl[i] += ul[i];
    xw[i] += uw[i];
    EXPECT_LT((xw[i] - (c + R * (mesh.positions[i] - c))).norm(), 1e-7) << "node " << i;
  }
  const double theta2 = omega.squaredNorm();
  for (const Tet& t : mesh.tets) {
    const double v0 = tet_volume(mesh.positions, t);
    EXPECT_NEAR(tet_volume(xw, t), v0, 1e-6 * v0);
    EXPECT_NEAR(tet_volume(xl, t), (1 + theta2) * v0, 1e-6 * v0);  // the inflation warping removes
  }
}

// A cantilever's first bending mode at a large amplitude (tip deflection half the length): the linear
// field moves nodes straight down and stretches the beam's neutral axis; warping keeps it much closer to
// its length. At small amplitudes warping agrees with the linear field to first order.
TEST(ModalWarping, BendingLimitsStretchAndSmallAmplitudesMatchLinear) {
  const double L = 1.0;
  const TetMesh mesh = test::box(Vec3(L, 0.1, 0.1), {20, 2, 2}, meshing::CellSplit::five);
  const materials::Material mat = rubber();
  auto basis = modal_analysis(mesh, std::span(&mat, 1), test::nodes_at(mesh, 0, 0.0), {.modes = 2});
  ASSERT_TRUE(basis) << basis.message();
  auto linear = ModalBody::build(mesh, *basis, {});
  auto warped = ModalBody::build(mesh, *basis, {.warping = true});
  ASSERT_TRUE(linear && warped);
  // The centreline y = z = 0.05 m (the neutral axis, whose length bending keeps), ordered along x.
  std::vector<Index> edge;
  for (Index i : test::nodes_at(mesh, 1, 0.05))
    if (std::abs(mesh.positions[i].z() - 0.05) < 1e-9) edge.push_back(i);
  std::sort(edge.begin(), edge.end(),
            [&](Index a, Index b) { return mesh.positions[a].x() < mesh.positions[b].x(); });
  const Index tip = edge.back();
  auto edge_length = [&](const std::vector<Vec3>& u) {
    double len = 0.0;
    for (std::size_t k = 1; k < edge.size(); ++k)
      len += (mesh.positions[edge[k]] + u[edge[k]] - mesh.positions[edge[k - 1]] - u[edge[k - 1]]).norm();
    return len;
  };
  std::vector<Vec3> ul(mesh.node_count()), uw(mesh.node_count());
  auto at_amplitude = [&](double tip_deflection) {
    Eigen::VectorXd q = Eigen::VectorXd::Zero(2);
    q[0] = tip_deflection / basis->shapes.middleRows(3 * tip, 3).col(0).norm();
    linear->set_state(q, Eigen::VectorXd::Zero(2));
    warped->set_state(q, Eigen::VectorXd::Zero(2));
    linear->reconstruct(ul);
    warped->reconstruct(uw);
  };
  at_amplitude(0.5 * L);
  const double stretch_linear = edge_length(ul) / L - 1.0, stretch_warped = edge_length(uw) / L - 1.0;
  EXPECT_GT(stretch_linear, 0.05);
  EXPECT_LT(std::abs(stretch_warped), 0.2 * stretch_linear) << stretch_linear << " " << stretch_warped;
  // Small amplitudes: the relative difference is O(amplitude), and tiny at 1e-4 L.
  double previous = 0.0;
  for (double amp : {1e-2, 1e-3, 1e-4}) {
    at_amplitude(amp * L);
    double diff = 0.0, size = 0.0;
    for (std::size_t i = 0; i < mesh.node_count(); ++i) {
      diff = std::max(diff, (uw[i] - ul[i]).norm());
      size = std::max(size, ul[i].norm());
    }
    const double relative = diff / size;
    if (previous > 0.0) {
      EXPECT_NEAR(relative / previous, 0.1, 0.02);
    }
    previous = relative;
  }
  EXPECT_LT(previous, 1e-3);
}

}  // namespace
}  // namespace pliant::fem
