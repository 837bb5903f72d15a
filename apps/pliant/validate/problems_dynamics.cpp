// Dynamics: a clamped beam released from its first mode shape and stepped by the fem family's implicit
// Newmark solver, with and without Rayleigh damping. Rayleigh damping C = αM keeps the modes
// uncoupled, so the released mode decays as one damped oscillator with ζ = α/(2ω); Newmark's average
// acceleration rule (Newmark 1959) conserves the energy of an undamped linear system exactly. The
// explicit schemes of dynamics::Integrator step a small bar released in its highest mode, found by a
// dense eigen-solve (an independent reference): a linear system started in one mode stays in it, so
// each scheme is its amplification factor R(iωh) applied to one oscillator, and the energy follows in
// closed form. The highest mode, because round-off seeds every mode and an explicit scheme must be
// stable (or grow slowest) on the mode it measures.
#include "problems.hpp"

#include "pliant/dynamics/integrator.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>

namespace pliant::validate {
namespace {

template <class T>
T must(Result<T> r, const char* what) {
  if (!r) throw std::runtime_error(std::string(what) + ": " + r.message());
  return std::move(r).value();
}

// A steel beam 1 m long, 5 cm square, 20 × 2 × 2 cells, clamped at x = 0: coarse on purpose, as the
// references come from the same mesh's modal analysis.
struct ModeRun {
  double omega = 0.0;          // ω₁ of the nominal material on this mesh (unit: rad/s)
  std::vector<double> u;       // displacement of the mode's largest DOF per step (unit: m)
  std::vector<double> energy;  // elastic + kinetic energy per step (unit: J)
  int steps_per_period = 0;
};

ModeRun release_first_mode(double alpha_over_omega, double youngs_scale, int periods,
                           fem::ImplicitScheme scheme = fem::ImplicitScheme::newmark) {
  meshing::BoxDef box;
  box.size = Vec3(1.0, 0.05, 0.05);
  box.cells = {20, 2, 2};
  const TetMesh mesh = must(meshing::box_mesh(box), "beam mesh");
  std::vector<Index> clamped;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].x() < 1e-9) clamped.push_back(static_cast<Index>(i));
  const materials::Material nominal = must(materials::material_preset("steel"), "steel");
  materials::Material simulated = nominal;
  simulated.lambda *= youngs_scale;
  simulated.mu *= youngs_scale;
  fem::ModalAnalysisDef md;
  md.modes = 2;
  const fem::ModalBasis basis = must(
      fem::modal_analysis(mesh, std::span(&nominal, 1), clamped, md, fem::ModalMass::consistent), "modal");
  ModeRun run;
  run.omega = basis.angular_frequencies()[0];
  fem::FemBodyDef def;
  def.element = fem::ElementKind::linear;
  def.mass = fem::MassKind::consistent;
  def.rayleigh_alpha = alpha_over_omega * run.omega;
  def.fixed_nodes = clamped;
  const fem::FemForceModel model =
      must(fem::FemForceModel::build(mesh, std::span(&simulated, 1), def), "fem body");
  fem::ImplicitSolverDef sd;
  sd.scheme = scheme;
  run.steps_per_period = 100;
  sd.dt = 2.0 * std::numbers::pi / run.omega / run.steps_per_period;
  sd.max_newton_iterations = 1;  // linear forces: the first iteration is the exact step
  auto solver = must(fem::ImplicitSolver::build(model, sd), "Newmark solver");
  // Released from rest in the mode shape, 1 mm at its largest DOF.
  const Eigen::VectorXd phi = basis.shapes.col(0);
  Eigen::Index top = 0;
  phi.cwiseAbs().maxCoeff(&top);
  const double scale = 1e-3 / phi[top];
  std::vector<Vec3> x = mesh.positions, v(x.size(), Vec3::Zero());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] += scale * phi.segment<3>(static_cast<Eigen::Index>(3 * i));
  const auto node = static_cast<std::size_t>(top / 3);
  const auto component = static_cast<int>(top % 3);
  for (int step = 0; step <= periods * run.steps_per_period; ++step) {
    if (step > 0 && !solver.step(x, v).converged) throw std::runtime_error("Newmark step did not converge");
    run.u.push_back(x[node][component] - mesh.positions[node][component]);
    run.energy.push_back(model.elastic_energy(x) + model.kinetic_energy(v));
  }
  return run;
}

}  // namespace

Problem damped_mode(const Variant& variant) {
  const double zeta = 0.02;  // ζ = α/(2ω): α = 2ζω
  const int periods = 10;
  const ModeRun run = release_first_mode(2.0 * zeta, variant.youngs_scale, periods);
  // Logarithmic decrement over the positive peaks: δ = ln(u_first/u_last)/(peaks − 1), ζ = δ/√(4π² + δ²).
  std::vector<double> peaks;
  for (std::size_t i = 1; i + 1 < run.u.size(); ++i)
    if (run.u[i] > run.u[i - 1] && run.u[i] >= run.u[i + 1] && run.u[i] > 0) peaks.push_back(run.u[i]);
  Problem p;
  p.name = "damped_mode";
  p.family = "fem";
  p.method =
      "linear tet, consistent mass, Rayleigh αM, Newmark (1959) average acceleration, 100 steps a period";
  p.quantity = "damping ratio of the released first bending mode over 10 periods (logarithmic decrement)";
  p.reference_source =
      "analytic: Rayleigh damping keeps modes uncoupled, ζ = α/(2ω₁), ω₁ from the modal analysis of the same "
      "mesh";
  p.reference = zeta;
  if (peaks.size() >= 2) {
    const double delta = std::log(peaks.front() / peaks.back()) / static_cast<double>(peaks.size() - 1);
    p.measured = delta / std::sqrt(4.0 * std::numbers::pi * std::numbers::pi + delta * delta);
  } else {
    p.measured = std::nan("");
  }
  // Newmark's average acceleration keeps a resolved mode's damping to O((ωh)²) (ωh = 2π/100); peaks
  // sampled at the steps: measured −0.02 %.
  p.tolerance = 0.005;
  finish(p);
  return p;
}

Problem integrator_energy(fem::ImplicitScheme scheme, const Variant& variant) {
  const ModeRun run = release_first_mode(0.0, variant.youngs_scale, 10, scheme);
  double drift = 0.0;
  for (double e : run.energy) drift = std::max(drift, std::abs(e / run.energy.front() - 1.0));
  Problem p;
  const bool newmark = scheme == fem::ImplicitScheme::newmark;
  p.name = newmark ? "newmark_energy" : "energy_other_scheme";
  p.family = "fem";
  p.method =
      newmark
          ? "linear tet, consistent mass, no damping, Newmark (1959) average acceleration, 100 steps a period"
          : "linear tet, consistent mass, no damping, another implicit scheme, 100 steps a period";
  p.quantity = "largest relative energy change over 10 periods of the released first mode";
  p.reference_source =
      "analytic: the average acceleration rule conserves the energy of an undamped linear system";
  p.measured = drift;
  p.reference = 0.0;
  p.tolerance = 1e-9;
  finish(p);
  return p;
}

Problem explicit_energy(dynamics::Scheme scheme, const Variant& variant) {
  // A steel bar 0.1 × 0.02 × 0.02 m, 4 × 1 × 1 cells, clamped at x = 0, lumped mass: small enough for
  // the dense generalised eigenproblem K φ = ω² M φ (Eigen), K from the nominal model's products.
  meshing::BoxDef box;
  box.size = Vec3(0.1, 0.02, 0.02);
  box.cells = {4, 1, 1};
  const TetMesh mesh = must(meshing::box_mesh(box), "bar mesh");
  fem::FemBodyDef def;
  def.element = fem::ElementKind::linear;
  def.mass = fem::MassKind::lumped;
  std::vector<Index> free;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    (mesh.positions[i].x() < 1e-9 ? def.fixed_nodes : free).push_back(static_cast<Index>(i));
  const materials::Material nominal = must(materials::material_preset("steel"), "steel");
  materials::Material simulated = nominal;
  simulated.lambda *= variant.youngs_scale;
  simulated.mu *= variant.youngs_scale;
  const fem::FemForceModel reference_model =
      must(fem::FemForceModel::build(mesh, std::span(&nominal, 1), def), "fem body");
  const fem::FemForceModel model =
      must(fem::FemForceModel::build(mesh, std::span(&simulated, 1), def), "fem body");
  const auto n = static_cast<Eigen::Index>(3 * free.size());
  Eigen::MatrixXd K(n, n), M = Eigen::MatrixXd::Zero(n, n);
  std::vector<Vec3> unit(mesh.node_count(), Vec3::Zero()), column(mesh.node_count());
  for (Eigen::Index j = 0; j < n; ++j) {
    auto& e = unit[static_cast<std::size_t>(free[static_cast<std::size_t>(j / 3)])];
    e[static_cast<int>(j % 3)] = 1.0;
    std::fill(column.begin(), column.end(), Vec3::Zero());
    reference_model.add_stiffness_product(mesh.positions, unit, 1.0, column);
    e.setZero();
    for (Eigen::Index i = 0; i < n; ++i)
      K(i, j) =
          column[static_cast<std::size_t>(free[static_cast<std::size_t>(i / 3)])][static_cast<int>(i % 3)];
    M(j, j) = reference_model.mass()[static_cast<std::size_t>(free[static_cast<std::size_t>(j / 3)])];
  }
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> eigen(0.5 * (K + K.transpose()), M);
  if (eigen.info() != Eigen::Success) throw std::runtime_error("dense eigen-solve failed");
  const double omega = std::sqrt(eigen.eigenvalues()[n - 1]);  // the highest mode (unit: rad/s)
  const Eigen::VectorXd phi = eigen.eigenvectors().col(n - 1);
  std::vector<Vec3> x = mesh.positions, v(x.size(), Vec3::Zero());
  const double scale = 1e-5 / phi.cwiseAbs().maxCoeff();
  for (std::size_t k = 0; k < free.size(); ++k)
    x[static_cast<std::size_t>(free[k])] += scale * phi.segment<3>(static_cast<Eigen::Index>(3 * k));

  const bool symplectic =
      scheme == dynamics::Scheme::symplectic_euler || scheme == dynamics::Scheme::central_difference;
  const double z = 0.3;  // ωh of the nominal material
  const int steps = symplectic ? 5000 : 100;
  dynamics::Integrator integrator({.scheme = scheme, .dt = z / omega});
  std::vector<double> energy;
  for (int step = 0; step <= steps; ++step) {
    if (step > 0) integrator.step(model, x, v);
    energy.push_back(model.elastic_energy(x) + model.kinetic_energy(v));
  }
  Problem p;
  p.name = std::string(dynamics::scheme_name(scheme)) + "_energy";
  p.family = "dynamics";
  p.method = std::string(dynamics::scheme_name(scheme)) +
             ", linear tet, lumped mass, undamped, ωh = 0.3 on the highest mode";
  if (symplectic) {
    // Symplectic Euler (and central differences, the same recurrence with v at the half step) keep
    // v² + ω²q² − ωh·ωq·v constant: the energy neither grows nor decays but stays in the band
    // E_max/E_min = (1 + ωh/2)/(1 − ωh/2).
    const auto [lo, hi] = std::minmax_element(energy.begin(), energy.end());
    p.quantity = "energy band over 5,000 steps of the released highest mode, E_max/E_min − 1";
    p.measured = *hi / *lo - 1.0;
    p.reference = z / (1.0 - z / 2.0);
    p.reference_source =
        "analytic: symplectic Euler conserves the modified energy v² + ω²q² − ωh·ωq·v of one mode, so "
        "E_max/E_min = (1 + ωh/2)/(1 − ωh/2); ω from a dense eigen-solve of the same mesh";
    p.tolerance = 1e-4;  // the band's extremes are sampled at the steps: measured 1e-5 off
  } else {
    // A one-step scheme multiplies one mode's (q, q̇/ω) by the scaled rotation R(iωh): its energy by |R|²
    // every step.
    const std::complex<double> iz(0.0, z);
    std::complex<double> r = 1.0 + iz;  // explicit Euler
    if (scheme == dynamics::Scheme::midpoint || scheme == dynamics::Scheme::rk2) r += iz * iz / 2.0;
    if (scheme == dynamics::Scheme::rk4) r += iz * iz / 2.0 + iz * iz * iz / 6.0 + iz * iz * iz * iz / 24.0;
    p.quantity = "mean relative energy change per step over 100 steps of the released highest mode";
    p.measured = std::expm1(std::log(energy.back() / energy.front()) / steps);
    p.reference = std::norm(r) - 1.0;
    p.reference_source =
        "analytic: one mode is one oscillator, whose energy the scheme multiplies by |R(iωh)|² a step "
        "(explicit Euler 1 + (ωh)², RK2 1 + (ωh)⁴/4, RK4 1 − (ωh)⁶/72 + (ωh)⁸/576); ω from a dense "
        "eigen-solve of the same mesh";
    p.tolerance = 1e-6;  // measured: round-off, 1e-9 at most
  }
  finish(p);
  return p;
}

}  // namespace pliant::validate
