// Dynamics: a clamped beam released from its first mode shape and stepped by the fem family's implicit
// Newmark solver, with and without Rayleigh damping. Rayleigh damping C = αM keeps the modes
// uncoupled, so the released mode decays as one damped oscillator with ζ = α/(2ω); Newmark's average
// acceleration rule (Newmark 1959) conserves the energy of an undamped linear system exactly.
#include "problems.hpp"

#include "pliant/materials/material.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"

#include <fmt/format.h>

#include <cmath>
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

}  // namespace pliant::validate
