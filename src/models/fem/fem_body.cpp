// FemBody: building, grabs, the choice among the three steppers (fem::ImplicitSolver, fem::HybridSolver
// of Wu & Heng 2005, dynamics::Integrator) and the substep loop. The cut of a hybrid body is in
// fem_body_cut.cpp.
#include "pliant/models/fem/fem_body.hpp"

#include "pliant/core/hash.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"
#include "pliant/models/fem/elements/hyperelastic_tet.hpp"
#include "pliant/models/fem/elements/polar_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace pliant::fem {

const char* integrator_name(FemIntegrator integrator) {
  switch (integrator) {
    case FemIntegrator::backward_euler:
      return "backward_euler";
    case FemIntegrator::newmark:
      return "newmark";
    case FemIntegrator::bdf2:
      return "bdf2";
    case FemIntegrator::quasi_static:
      return "quasi_static";
    case FemIntegrator::symplectic_euler:
      return "symplectic_euler";
    case FemIntegrator::central_difference:
      return "central_difference";
    case FemIntegrator::houbolt:
      return "houbolt";
  }
  return "?";
}

bool is_explicit(FemIntegrator i) {
  return i == FemIntegrator::symplectic_euler || i == FemIntegrator::central_difference;
}

bool hybrid_integrator(FemIntegrator i) {
  return i == FemIntegrator::backward_euler || i == FemIntegrator::newmark;
}

bool hybrid_linear_solver(LinearSolverKind k) {
  return k == LinearSolverKind::cholmod || k == LinearSolverKind::interface_pcg ||
         k == LinearSolverKind::rest_factor_pcg;
}

double max_frequency(const FemForceModel& model) {
  const std::size_t n = model.node_count();
  const auto w = model.inverse_mass();
  const std::vector<Vec3>& x0 = model.rest_positions();
  std::vector<Vec3> p(n), q(n), y(n);
  // A deterministic start with components along every mode (a hashed sign pattern).
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t h = hash_bytes(&i, sizeof i, static_cast<std::uint64_t>(k) + 1);
      p[i][k] = w[i] > 0.0 ? ((h & 1u) ? 1.0 : -1.0) * (1.0 + static_cast<double>(h % 7) / 7.0) : 0.0;
    }
  }
  double lambda = 0.0;
  for (int it = 0; it < 60; ++it) {
    double pp = 0.0;
    for (std::size_t i = 0; i < n; ++i) pp += p[i].squaredNorm();
    if (!(pp > 0.0)) return 0.0;
    const double s = 1.0 / std::sqrt(pp);
    for (std::size_t i = 0; i < n; ++i) {
      p[i] *= s;
      q[i] = std::sqrt(w[i]) * p[i];
      y[i].setZero();
    }
    model.add_stiffness_product(x0, q, 1.0, y);
    double py = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      y[i] *= std::sqrt(w[i]);
      py += p[i].dot(y[i]);
    }
    lambda = py;
    std::swap(p, y);
  }
  return std::sqrt(std::max(lambda, 0.0));
}

double explicit_stable_step(const FemForceModel& model) {
  const double omega = max_frequency(model);
  if (!(omega > 0.0)) return 1.0;
  const double zeta = 0.5 * model.def().rayleigh_beta * omega;
  return 2.0 / omega * (std::sqrt(1.0 + zeta * zeta) - zeta);
}

namespace {

// The schemes fem::ImplicitSolver steps; the others go through dynamics::Integrator.
bool uses_implicit_solver(FemIntegrator i) {
  return i == FemIntegrator::backward_euler || i == FemIntegrator::newmark || i == FemIntegrator::bdf2 ||
         i == FemIntegrator::quasi_static;
}

dynamics::Scheme integrator_scheme(FemIntegrator i) {
  switch (i) {
    case FemIntegrator::central_difference:
      return dynamics::Scheme::central_difference;
    case FemIntegrator::houbolt:
      return dynamics::Scheme::houbolt;
    default:
      return dynamics::Scheme::symplectic_euler;
  }
}

ImplicitScheme implicit_scheme(FemIntegrator i) {
  switch (i) {
    case FemIntegrator::newmark:
      return ImplicitScheme::newmark;
    case FemIntegrator::bdf2:
      return ImplicitScheme::bdf2;
    case FemIntegrator::quasi_static:
      return ImplicitScheme::quasi_static;
    default:
      return ImplicitScheme::backward_euler;
  }
}

// What build refuses before building anything.
Status check_step_def(const TetMesh& rest, const FemBodyDef& def, const FemStepDef& step) {
  if (!(step.substep >= 0.0) || !std::isfinite(step.substep))
    return Error{"fem: the substep must be a finite number >= 0 s"};
  if (!(step.explicit_safety > 0.0 && step.explicit_safety <= 1.0))
    return Error{"fem: explicit_safety must be in (0, 1]"};
  if (def.mass == MassKind::consistent && is_explicit(step.integrator))
    return Error{std::string("fem: a consistent mass needs an implicit integrator (") +
                 integrator_name(step.integrator) + " takes a diagonal mass)"};
  if (step.operational.empty()) return {};
  if (def.mass != MassKind::lumped) return Error{"fem: a hybrid body takes a lumped mass only"};
  if (!hybrid_integrator(step.integrator))
    return Error{"fem: a hybrid body needs the backward_euler or newmark integrator"};
  if (!hybrid_linear_solver(step.solver.solver))
    return Error{"fem: a hybrid body needs the cholmod, interface_pcg or rest_factor_pcg solver"};
  if (step.operational.size() != rest.tets.size())
    return Error{"fem: " + std::to_string(step.operational.size()) + " operational flags for " +
                 std::to_string(rest.tets.size()) + " tets"};
  return {};
}

}  // namespace

std::vector<ElementKind> FemBody::hybrid_elements() const {
  // The full-body view of a hybrid body: linear tets outside the operational region.
  std::vector<ElementKind> elements;
  for (std::uint8_t op : step_.operational) elements.push_back(op ? def_.element : ElementKind::linear);
  return elements;
}

Result<FemBody> FemBody::build(const TetMesh& rest, std::vector<materials::Material> materials,
                               FemBodyDef def, FemStepDef step, bool* substep_too_large) {
  Result<std::shared_ptr<const FemAsset>> asset = FemAsset::build(rest, std::move(materials));
  if (!asset.ok()) return Error{asset.message()};
  return build(std::move(asset).value(), std::move(def), std::move(step), substep_too_large);
}

Result<FemBody> FemBody::build(std::shared_ptr<const FemAsset> asset, FemBodyDef def, FemStepDef step,
                               bool* substep_too_large) {
  if (!asset) return Error{"fem: no asset (build one with fem::FemAsset::build)"};
  const TetMesh& rest = asset->rest();
  if (Status s = check_step_def(rest, def, step); !s.ok()) return Error{s.message()};
  std::sort(def.fixed_nodes.begin(), def.fixed_nodes.end());
  def.fixed_nodes.erase(std::unique(def.fixed_nodes.begin(), def.fixed_nodes.end()), def.fixed_nodes.end());
  FemBody b;
  b.asset_ = std::move(asset);
  b.def_ = def;
  b.step_ = std::move(step);
  if (!b.step_.operational.empty()) b.def_.tet_elements = b.hybrid_elements();
  if (Status s = b.rebuild(); !s.ok()) return Error{s.message()};
  if (is_explicit(b.step_.integrator)) {
    const double stable = explicit_stable_step(*b.model_);
    if (b.step_.substep > stable) {
      if (substep_too_large) *substep_too_large = true;
      char message[320];
      std::snprintf(message, sizeof message,
                    "fem: a substep of %.3g s is above the stable step of %s for this mesh, about %.3g s "
                    "(stiffness, density and damping decide it): lower \"dt\" or pick an implicit integrator",
                    b.step_.substep, integrator_name(b.step_.integrator), stable);
      return Error{message};
    }
    if (b.step_.substep == 0.0) b.step_.substep = b.step_.explicit_safety * stable;
  }
  const std::size_t n = rest.node_count();
  b.x_ = rest.positions;
  b.v_.assign(n, Vec3::Zero());
  b.f_.assign(n, Vec3::Zero());
  b.pending_.assign(n, Vec3::Zero());
  b.start_.assign(n, Vec3::Zero());
  b.start_v_.assign(n, Vec3::Zero());
  b.vm_tet_.assign(rest.tets.size(), 0.0);
  b.vm_node_.assign(n, 0.0);
  b.volume_node_.assign(n, 0.0);
  b.fixed_.assign(n, 0);
  for (Index i : b.def_.fixed_nodes) b.fixed_[static_cast<std::size_t>(i)] = 1;
  b.held_.assign(n, 0);
  b.refresh_surface();
  return b;
}

// ---- grabs and forces ----

bool FemBody::surface_node_free(Index sn) const {
  const std::vector<Index>& surface_node = asset_->surface_nodes();
  if (sn < 0 || static_cast<std::size_t>(sn) >= surface_node.size()) return false;
  const auto vn = static_cast<std::size_t>(surface_node[static_cast<std::size_t>(sn)]);
  return !fixed_[vn] && !held_[vn];
}

GrabId FemBody::grab(std::span<const Index> nodes, const Vec3& point) {
  if (nodes.empty()) return {};
  for (Index sn : nodes)
    if (!surface_node_free(sn)) return {};
  const GrabId id = slots_.acquire();
  Slot& s = slots_[id];
  s.target = point;
  s.reaction = Vec3::Zero();
  s.nodes.clear();
  s.volume_nodes.clear();
  s.offsets.clear();
  for (Index sn : nodes) {
    const Index vn = asset_->surface_nodes()[static_cast<std::size_t>(sn)];
    s.nodes.push_back(sn);
    s.volume_nodes.push_back(vn);
    s.offsets.push_back(x_[static_cast<std::size_t>(vn)] - point);
    held_[static_cast<std::size_t>(vn)] = 1;
  }
  if (Status st = apply_held(); !st.ok()) {
    // No node left free (or a solver that cannot be built): refuse the grab.
    for (Index vn : s.volume_nodes) held_[static_cast<std::size_t>(vn)] = 0;
    slots_.release(id);
    (void)apply_held();
    return {};
  }
  return id;
}

std::span<const Index> FemBody::grab_nodes(GrabId id) const {
  const Slot* s = slots_.find(id);
  return s ? std::span<const Index>(s->nodes) : std::span<const Index>();
}

void FemBody::move_grab(GrabId id, const Vec3& target) {
  if (Slot* s = slots_.find(id); s && target.allFinite()) s->target = target;
}

void FemBody::release(GrabId id) {
  if (!slots_.holds(id)) return;
  const Slot& s = slots_[id];
  slots_.release(id);
  for (Index vn : s.volume_nodes) held_[static_cast<std::size_t>(vn)] = 0;
  // Held nodes keep the velocity zero they had; the model and the solver free them.
  (void)apply_held();
  pending_released_.push_back({id, s.nodes.front(), s.target});
}

Vec3 FemBody::grab_reaction(GrabId id) const {
  const Slot* s = slots_.find(id);
  return s ? s->reaction : Vec3::Zero();
}

void FemBody::add_surface_force(Index sn, const Vec3& f) {
  const std::vector<Index>& surface_node = asset_->surface_nodes();
  if (sn < 0 || static_cast<std::size_t>(sn) >= surface_node.size() || !f.allFinite()) return;
  pending_[static_cast<std::size_t>(surface_node[static_cast<std::size_t>(sn)])] += f;
}

// The held nodes (volume ids, ascending).
std::vector<Index> FemBody::held_nodes() const {
  std::vector<Index> held;
  for (std::size_t i = 0; i < held_.size(); ++i)
    if (held_[i]) held.push_back(static_cast<Index>(i));
  return held;
}

// A grab or release: the model, the implicit solver and the hybrid solver take the new held nodes
// without a rebuild (values only: no new pattern, symbolic analysis, rest factor or condensation). A
// hybrid body whose held nodes reach its condensed interior is rebuilt instead (hybrid_solver.hpp).
Status FemBody::apply_held() {
  const std::vector<Index> held = held_nodes();
  if (Status st = model_->set_held_nodes(held); !st.ok()) return st;
  if (solver_) {
    if (Status st = solver_->refresh_held_nodes(); !st.ok()) return st;
  }
  if (hybrid_) {
    std::vector<Index> interior, operational;
    split_hybrid_held(held, interior, operational);
    if (interior != hybrid_interior_held_ || !hybrid_->set_held_nodes(operational).ok()) return rebuild();
  }
  integrator_.reset_history();
  return {};
}

// Splits held nodes into those of the hybrid body's condensed interior (nodes of non-operational tets
// only) and the others (operational or interface nodes).
void FemBody::split_hybrid_held(const std::vector<Index>& held, std::vector<Index>& interior,
                                std::vector<Index>& operational) const {
  const TetMesh& rest = asset_->rest();
  std::vector<char> in_op(rest.positions.size(), 0), in_lin(rest.positions.size(), 0);
  for (std::size_t t = 0; t < rest.tets.size(); ++t)
    for (Index a : rest.tets[t]) (step_.operational[t] ? in_op : in_lin)[static_cast<std::size_t>(a)] = 1;
  for (Index i : held) {
    const auto is = static_cast<std::size_t>(i);
    (in_lin[is] && !in_op[is] ? interior : operational).push_back(i);
  }
}

// ---- the stepper choice ----

// The full-body force model with the held nodes kinematic and the pending point forces.
Result<std::unique_ptr<FemForceModel>> FemBody::build_model() const {
  Result<FemForceModel> model = FemForceModel::build(asset_->rest(), asset_->materials(), def_);
  if (!model.ok()) return Error{model.message()};
  auto next = std::make_unique<FemForceModel>(std::move(model).value());
  if (Status st = next->set_held_nodes(held_nodes()); !st.ok()) return Error{st.message()};
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i] != Vec3::Zero()) next->set_point_force(static_cast<Index>(i), pending_[i]);
  }
  return next;
}

// A hybrid body's solver. Held nodes in the condensed interior are fixed nodes of the condensation: a
// grab there condenses the linear part again; elsewhere they are held in values only.
Status FemBody::build_hybrid_solver(const ImplicitSolverDef& sd, std::optional<HybridSolver>& hybrid,
                                    std::vector<Index>& interior_held) const {
  FemBodyDef hybrid_def = def_;
  std::vector<Index> operational_held;
  split_hybrid_held(held_nodes(), interior_held, operational_held);
  hybrid_def.fixed_nodes.insert(hybrid_def.fixed_nodes.end(), interior_held.begin(), interior_held.end());
  std::sort(hybrid_def.fixed_nodes.begin(), hybrid_def.fixed_nodes.end());
  Result<HybridSolver> built =
      HybridSolver::build(asset_->rest(), asset_->materials(), hybrid_def, step_.operational, sd);
  if (!built.ok()) return Error{built.message()};
  hybrid.emplace(std::move(built).value());
  if (Status st = hybrid->set_held_nodes(operational_held); !st.ok()) return st;
  for (std::size_t i = 0; i < pending_.size(); ++i)
    if (pending_[i] != Vec3::Zero()) hybrid->set_point_force(static_cast<Index>(i), pending_[i]);
  return {};
}

// Rebuilds the force model and the stepper over it: fem::HybridSolver for a hybrid body,
// fem::ImplicitSolver for the other implicit integrators, none for those dynamics::Integrator steps (a
// new step length, a hybrid grab reaching the condensed interior).
Status FemBody::rebuild() {
  Result<std::unique_ptr<FemForceModel>> built_model = build_model();
  if (!built_model.ok()) return Error{built_model.message()};
  std::unique_ptr<FemForceModel> next = std::move(built_model).value();
  std::optional<ImplicitSolver> solver;
  std::optional<HybridSolver> hybrid;
  std::vector<Index> interior_held;
  if (uses_implicit_solver(step_.integrator)) {
    ImplicitSolverDef sd = step_.solver;
    sd.scheme = implicit_scheme(step_.integrator);
    sd.dt = h_ > 0.0 ? h_ : (step_.substep > 0.0 ? step_.substep : sd.dt);
    if (!step_.operational.empty()) {
      if (Status st = build_hybrid_solver(sd, hybrid, interior_held); !st.ok()) return st;
    } else {
      Result<ImplicitSolver> built = ImplicitSolver::build(*next, sd);
      if (!built.ok()) return Error{built.message()};
      solver.emplace(std::move(built).value());
    }
  }
  solver_.reset();
  hybrid_ = std::move(hybrid);
  hybrid_interior_held_ = std::move(interior_held);
  integrator_.reset_history();
  model_ = std::move(next);
  solver_ = std::move(solver);
  return {};
}

// A new step length (the first step, or the caller's step changed): allocates once. False when the
// implicit stepper cannot be rebuilt.
bool FemBody::set_step_length(double h) {
  h_ = h;
  if (uses_implicit_solver(step_.integrator)) return rebuild().ok();
  integrator_.set_def({.scheme = integrator_scheme(step_.integrator),
                       .dt = h,
                       .cg_tolerance = step_.solver.pcg_tolerance,
                       .cg_max_iterations = step_.solver.pcg_max_iterations});
  return true;
}

// ---- the substep loop ----

// Covers dt with equal substeps no longer than the configured one.
void FemBody::advance(double dt) {
  const double h0 = step_.substep > 0.0 ? step_.substep : dt;
  const double count = std::ceil(dt / h0 * (1.0 - 1e-12));
  if (count > kMaxSubsteps) {
    report_.converged = false;
    return;
  }
  const int n = std::max(1, static_cast<int>(count));
  const double h = dt / n;
  if (h != h_ && !set_step_length(h)) {
    report_.converged = false;
    return;
  }
  FemForceModel& model = *model_;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i] != Vec3::Zero()) {
      model.set_point_force(static_cast<Index>(i), pending_[i]);
      if (hybrid_) hybrid_->set_point_force(static_cast<Index>(i), pending_[i]);
    }
  }
  step_dt_ = dt;
  slots_.for_each([&](const Slot& s) {
    for (Index vn : s.volume_nodes) {
      start_[static_cast<std::size_t>(vn)] = x_[static_cast<std::size_t>(vn)];
      start_v_[static_cast<std::size_t>(vn)] = v_[static_cast<std::size_t>(vn)];
    }
  });
  report_.substeps = n;
  for (int k = 1; k <= n; ++k) {
    move_held_nodes(k, n);
    solve_substep();
  }
}

// Held nodes move to their targets linearly over the substeps (kinematic: the implicit step holds
// them where they are put). Under the implicit solver their velocity is that motion's, so Rayleigh
// damping sees a held node that moves with its neighbours as moving (a contact patch sliding with the
// body; a zero velocity there damps the whole body against the slide); elsewhere it stays zero (the
// explicit integrators move a node by its velocity).
void FemBody::move_held_nodes(int k, int n) {
  const double share = static_cast<double>(k) / n;
  const bool moving = solver_.has_value() && step_dt_ > 0.0;
  slots_.for_each([&](const Slot& s) {
    for (std::size_t j = 0; j < s.volume_nodes.size(); ++j) {
      const auto i = static_cast<std::size_t>(s.volume_nodes[j]);
      const Vec3 to = s.target + s.offsets[j];
      x_[i] = k == n ? to : Vec3(start_[i] + share * (to - start_[i]));
      v_[i] = moving ? Vec3((to - start_[i]) / step_dt_) : Vec3::Zero();
    }
  });
}

// One substep by the stepper rebuild() chose, its counts and residuals added to the report.
void FemBody::solve_substep() {
  if (!solver_ && !hybrid_) {
    integrator_.step(*model_, x_, v_);
    report_.cg_iterations += integrator_.last_cg_iterations();
    return;
  }
  const ImplicitReport r = solver_ ? solver_->step(x_, v_) : hybrid_->step(x_, v_);
  const ImplicitSolverDef& sd = solver_ ? solver_->def() : hybrid_->def();
  report_.newton_iterations += r.newton_iterations;
  report_.cg_iterations += r.cg_iterations;
  report_.relative_residual = std::max(report_.relative_residual, r.relative_residual);
  report_.newton_residual = std::max(report_.newton_residual, r.newton_residual);
  const bool newton_short = sd.max_newton_iterations > 1 && r.newton_residual > sd.newton_tolerance;
  const bool solve_failed = !r.converged && !(step_.inexact_solves && std::isfinite(r.relative_residual));
  if (solve_failed || newton_short) report_.converged = false;
}

// The grabs' reactions: the body's forces on their nodes at the new state.
void FemBody::update_reactions() {
  if (slots_.empty()) return;
  model_->forces(x_, v_, f_);
  // Under a dynamic implicit scheme the held nodes' own inertia is part of what holds them: the body
  // exerts f − m·Δv/dt on the holder (a contact carries its nodes' weight and their acceleration).
  const bool inertial =
      solver_.has_value() && solver_->def().scheme != ImplicitScheme::quasi_static && step_dt_ > 0.0;
  const auto m = model_->mass();
  slots_.for_each([&](Slot& s) {
    s.reaction.setZero();
    for (Index vn : s.volume_nodes) {
      const auto i = static_cast<std::size_t>(vn);
      s.reaction += f_[i];
      if (inertial) s.reaction -= m[i] * (v_[i] - start_v_[i]) / step_dt_;
    }
  });
}

void FemBody::step(double dt, Profile& profile) {
  released_.swap(pending_released_);
  pending_released_.clear();
  cut_events_.swap(pending_cuts_);
  pending_cuts_.clear();
  warning_.reset();
  Stopwatch watch;
  report_ = {};
  if (dt > 0.0 && std::isfinite(dt)) advance(dt);
  profile.record("fem.solve", watch.ms());
  watch.reset();
  // Point forces last one step.
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i] != Vec3::Zero()) {
      pending_[i].setZero();
      model_->set_point_force(static_cast<Index>(i), Vec3::Zero());
      if (hybrid_) hybrid_->set_point_force(static_cast<Index>(i), Vec3::Zero());
    }
  }
  const std::vector<Index>& surface_node = asset_->surface_nodes();
  for (std::size_t k = 0; k < surface_node.size(); ++k)
    xs_[k] = x_[static_cast<std::size_t>(surface_node[k])];
  update_reactions();
  profile.record("fem.reaction", watch.ms());
  const bool finite = std::all_of(x_.begin(), x_.end(), [](const Vec3& p) { return p.allFinite(); }) &&
                      std::all_of(v_.begin(), v_.end(), [](const Vec3& p) { return p.allFinite(); });
  if (!report_.converged || !finite)
    warning_ = FemSolverWarning{report_.newton_iterations, report_.newton_residual, report_.relative_residual,
                                finite};
}

// ---- output ----

void FemBody::von_mises(std::span<double> out) const {
  const std::vector<Tet>& tets = asset_->rest().tets;
  if (out.size() != tets.size()) return;
  const FemForceModel& m = *model_;
  for (std::size_t t = 0; t < tets.size(); ++t) {
    const ElementKind kind = m.element(static_cast<Index>(t));
    const Tet& e = tets[t];
    Vec12 xe;
    for (int a = 0; a < 4; ++a)
      xe.segment<3>(3 * a) = x_[static_cast<std::size_t>(e[static_cast<std::size_t>(a)])];
    const Mat3 F = deformation_gradient(m.rest_shape().dm_inverse[t], xe);
    const materials::Material& mat = m.material(static_cast<Index>(t));
    Mat3 sigma;
    if (kind == ElementKind::linear || kind == ElementKind::corotational) {
      const Mat3 G = kind == ElementKind::linear ? F : Mat3(extract_rotation(F).transpose() * F);
      const Mat3 eps = 0.5 * (G + G.transpose()) - Mat3::Identity();
      sigma = mat.lambda * eps.trace() * Mat3::Identity() + 2.0 * mat.mu * eps;
    } else {
      const Hyperelastic h =
          kind == ElementKind::stvk ? Hyperelastic::stvk : Hyperelastic::stable_neo_hookean;
      const double J = F.determinant();
      sigma = first_piola(h, F, mat) * F.transpose() / (std::abs(J) > 1e-12 ? J : 1.0);
    }
    const Mat3 s = sigma - sigma.trace() / 3.0 * Mat3::Identity();
    out[t] = std::sqrt(1.5 * s.squaredNorm());
  }
}

void FemBody::surface_von_mises(std::span<double> out) const {
  if (out.size() != xs_.size()) return;
  von_mises(vm_tet_);
  // Volume-weighted mean over the tets around each node.
  std::fill(vm_node_.begin(), vm_node_.end(), 0.0);
  std::fill(volume_node_.begin(), volume_node_.end(), 0.0);
  const auto& volume = model_->rest_shape().volume;
  const std::vector<Tet>& tets = asset_->rest().tets;
  for (std::size_t t = 0; t < tets.size(); ++t) {
    for (Index a : tets[t]) {
      vm_node_[static_cast<std::size_t>(a)] += volume[t] * vm_tet_[t];
      volume_node_[static_cast<std::size_t>(a)] += volume[t];
    }
  }
  const std::vector<Index>& surface_node = asset_->surface_nodes();
  for (std::size_t k = 0; k < xs_.size(); ++k) {
    const auto i = static_cast<std::size_t>(surface_node[k]);
    out[k] = volume_node_[i] > 0.0 ? vm_node_[i] / volume_node_[i] : 0.0;
  }
}

std::uint64_t FemBody::state_hash() const { return Hasher().add(x_).add(v_).value(); }

}  // namespace pliant::fem
