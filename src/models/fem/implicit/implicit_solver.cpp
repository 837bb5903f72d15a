// Assembled backward Euler and quasi-static Newton for FemForceModel (formulas in the header).
#include "pliant/models/fem/implicit/implicit_solver.hpp"

#include "core/parallel_for.hpp"
#include "linalg/rest_factor_cg.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/linalg/single_precision_factor.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace pliant::fem {

// The generic solvers of the linear-algebra layer.
using linalg::CholeskyBackend;
using linalg::SinglePrecisionFactor;
using linalg::SparseCholesky;
namespace detail {
using linalg::detail::solve_in_frames;
using linalg::detail::warm_started_pcg;
}  // namespace detail

namespace {
constexpr Index kParallelNodes = 2048;
}

struct ImplicitSolver::Factor {
  std::optional<SparseCholesky> cholesky;     // cholmod
  std::optional<SinglePrecisionFactor> rest;  // rest_factor_pcg: float copy of the rest factor
};

const char* linear_solver_name(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::cholmod:
      return "cholmod";
    case LinearSolverKind::pcg:
      return "pcg";
    case LinearSolverKind::rest_factor_pcg:
      return "rest_factor_pcg";
    case LinearSolverKind::interface_pcg:
      return "interface_pcg";
  }
  return "unknown";
}

Result<LinearSolverKind> parse_linear_solver(std::string_view name) {
  if (name == "cholmod") return LinearSolverKind::cholmod;
  if (name == "pcg") return LinearSolverKind::pcg;
  if (name == "rest_factor_pcg") return LinearSolverKind::rest_factor_pcg;
  if (name == "interface_pcg") return LinearSolverKind::interface_pcg;
  return Error{"unknown linear solver \"" + std::string(name) +
               "\" (cholmod, pcg, rest_factor_pcg, interface_pcg)"};
}

ImplicitSolver::ImplicitSolver(ImplicitSolver&&) noexcept = default;
ImplicitSolver& ImplicitSolver::operator=(ImplicitSolver&&) noexcept = default;
ImplicitSolver::~ImplicitSolver() = default;

Result<ImplicitSolver> ImplicitSolver::build(const FemForceModel& model, const ImplicitSolverDef& def) {
  if (def.scheme != ImplicitScheme::quasi_static && !(std::isfinite(def.dt) && def.dt > 0.0))
    return Error{"implicit solver: dt must be finite and > 0"};
  if (def.max_newton_iterations < 1) return Error{"implicit solver: max_newton_iterations must be >= 1"};
  if (!(def.newton_tolerance >= 0.0) || !(def.pcg_tolerance > 0.0) || def.pcg_max_iterations < 1)
    return Error{"implicit solver: tolerances must be >= 0 (CG's > 0) and pcg_max_iterations >= 1"};
  if (def.solver == LinearSolverKind::interface_pcg)
    return Error{"implicit solver: interface_pcg is for hybrid bodies only"};
  const std::size_t n = model.node_count();
  ImplicitSolver s;
  s.model_ = &model;
  s.def_ = def;
  // The pattern covers the nodes not fixed by the def; the held ones (inverse mass 0) are handled in
  // values only, so that a grab or release needs no new pattern (refresh_held_nodes).
  std::vector<char> fixed(n, 0);
  for (Index node : model.def().fixed_nodes) fixed[static_cast<std::size_t>(node)] = 1;
  s.free_index_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (fixed[i]) continue;
    s.free_index_[i] = static_cast<Index>(s.free_nodes_.size());
    s.free_nodes_.push_back(static_cast<Index>(i));
  }
  const auto nf = static_cast<Index>(s.free_nodes_.size());
  if (nf == 0) return Error{"implicit solver: the body has no free nodes"};
  s.held_.assign(static_cast<std::size_t>(nf), 0);

  // Neighbour lists of the free nodes (free neighbours only, self included, sorted).
  const std::vector<Tet>& tets = model.tets();
  std::vector<std::vector<Index>> neighbours(static_cast<std::size_t>(nf));
  std::vector<Index> count(static_cast<std::size_t>(nf) + 1, 0);
  for (const Tet& tet : tets)
    for (int a = 0; a < 4; ++a) {
      const Index fa = s.free_index_[static_cast<std::size_t>(tet[a])];
      if (fa < 0) continue;
      ++count[static_cast<std::size_t>(fa) + 1];
      for (int b = 0; b < 4; ++b) {
        const Index fb = s.free_index_[static_cast<std::size_t>(tet[b])];
        if (fb >= 0) neighbours[static_cast<std::size_t>(fa)].push_back(fb);
      }
    }
  s.column_offsets_.assign(static_cast<std::size_t>(nf) + 1, 0);
  s.diagonal_slot_.resize(static_cast<std::size_t>(nf));
  std::vector<Index> nodes;
  for (Index a = 0; a < nf; ++a) {
    auto& list = neighbours[static_cast<std::size_t>(a)];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    s.column_offsets_[static_cast<std::size_t>(a) + 1] =
        s.column_offsets_[static_cast<std::size_t>(a)] + static_cast<Index>(list.size());
    s.diagonal_slot_[static_cast<std::size_t>(a)] =
        static_cast<Index>(std::lower_bound(list.begin(), list.end(), a) - list.begin());
  }
  // Incidences of the free nodes, with the slot of each tet node in the column's list.
  s.incident_offsets_.assign(static_cast<std::size_t>(nf) + 1, 0);
  for (Index a = 0; a < nf; ++a)
    s.incident_offsets_[static_cast<std::size_t>(a) + 1] =
        s.incident_offsets_[static_cast<std::size_t>(a)] + count[static_cast<std::size_t>(a) + 1];
  const auto incidences = static_cast<std::size_t>(s.incident_offsets_.back());
  s.incident_tets_.resize(incidences);
  s.incident_local_.resize(incidences);
  s.incident_slots_.resize(4 * incidences);
  std::vector<Index> fill(s.incident_offsets_.begin(), s.incident_offsets_.end() - 1);
  for (std::size_t t = 0; t < tets.size(); ++t)
    for (int a = 0; a < 4; ++a) {
      const Index fa = s.free_index_[static_cast<std::size_t>(tets[t][a])];
      if (fa < 0) continue;
      const auto k = static_cast<std::size_t>(fill[static_cast<std::size_t>(fa)]++);
      s.incident_tets_[k] = static_cast<Index>(t);
      s.incident_local_[k] = static_cast<std::int8_t>(a);
      const auto& list = neighbours[static_cast<std::size_t>(fa)];
      for (int b = 0; b < 4; ++b) {
        const Index fb = s.free_index_[static_cast<std::size_t>(tets[t][b])];
        s.incident_slots_[4 * k + static_cast<std::size_t>(b)] =
            fb < 0 ? -1 : static_cast<Index>(std::lower_bound(list.begin(), list.end(), fb) - list.begin());
      }
    }
  // The pattern: column 3a + c holds rows 3b + r of each neighbour slot b of a.
  const Index size = 3 * nf, nnz = 9 * s.column_offsets_.back();
  s.A_.resize(size, size);
  s.A_.resizeNonZeros(nnz);
  int* outer = s.A_.outerIndexPtr();
  int* inner = s.A_.innerIndexPtr();
  for (Index a = 0; a < nf; ++a) {
    const auto& list = neighbours[static_cast<std::size_t>(a)];
    const auto deg = static_cast<Index>(list.size());
    for (int c = 0; c < 3; ++c) {
      const Index start = 9 * s.column_offsets_[static_cast<std::size_t>(a)] + 3 * deg * c;
      outer[3 * a + c] = start;
      for (Index k = 0; k < deg; ++k)
        for (int r = 0; r < 3; ++r) inner[start + 3 * k + r] = 3 * list[static_cast<std::size_t>(k)] + r;
    }
  }
  outer[size] = nnz;
  std::fill(s.A_.valuePtr(), s.A_.valuePtr() + nnz, 0.0);

  s.element_.assign(tets.size(), Mat12::Zero());
  s.factor_ = std::make_unique<Factor>();
  for (Eigen::VectorXd* vec : {&s.b_, &s.y_, &s.r_, &s.z_, &s.p_, &s.q_, &s.diagonal_}) vec->setZero(size);
  for (std::vector<Vec3>* vec : {&s.f_, &s.rhs_, &s.dv_, &s.xk_, &s.vk_, &s.acc_, &s.pf_, &s.qf_})
    vec->assign(n, Vec3::Zero());
  bool corotational = false;
  for (std::size_t t = 0; t < tets.size(); ++t)
    corotational = corotational || model.element(static_cast<Index>(t)) == ElementKind::corotational;
  if (def.scheme == ImplicitScheme::bdf2)
    for (std::vector<Vec3>* vec : {&s.previous_x_, &s.previous_v_, &s.stepped_x_, &s.stepped_v_})
      vec->assign(n, Vec3::Zero());
  if (def.solver == LinearSolverKind::rest_factor_pcg && corotational) {
    s.frames_.assign(n, Mat3::Identity());
    s.w_.setZero(size);
  }
  if (auto ok = s.refresh_held_nodes(); !ok) return Error{ok.message()};
  return s;
}

Status ImplicitSolver::refresh_held_nodes() {
  const auto w = model_->inverse_mass();
  Index held = 0;
  for (Index node : free_nodes_) held += w[static_cast<std::size_t>(node)] == 0.0 ? 1 : 0;
  if (held == static_cast<Index>(free_nodes_.size()))
    return Error{"implicit solver: the body has no free nodes"};
  if (def_.scheme == ImplicitScheme::quasi_static && held == 0 && free_nodes_.size() == w.size())
    return Error{"implicit solver: quasi-static stepping needs fixed nodes (else K is singular)"};
  for (std::size_t a = 0; a < free_nodes_.size(); ++a)
    held_[a] = w[static_cast<std::size_t>(free_nodes_[a])] == 0.0 ? 1 : 0;
  held_count_ = held;
  has_acceleration_ = false;
  y_.setZero();
  return {};
}

void ImplicitSolver::precondition(const Eigen::VectorXd& r, Eigen::VectorXd& z) {
  if (frames_.empty())
    factor_->rest->solve(r, z);
  else
    detail::solve_in_frames(
        [&](const Eigen::VectorXd& b, Eigen::VectorXd& x) { factor_->rest->solve(b, x); },
        [&](Eigen::Index a) -> const Mat3& {
          return frames_[static_cast<std::size_t>(free_nodes_[static_cast<std::size_t>(a)])];
        },
        r, w_, z);
  project(z);
}

void ImplicitSolver::project(Eigen::VectorXd& vec) const {
  if (held_count_ == 0) return;
  for (std::size_t a = 0; a < held_.size(); ++a)
    if (held_[a]) vec.segment<3>(3 * static_cast<Eigen::Index>(a)).setZero();
}

void ImplicitSolver::assemble(std::span<const Vec3> x, double mass_coefficient,
                              double stiffness_coefficient) {
  const FemForceModel& model = *model_;
  // Held nodes become identity rows and columns; not in the rest matrix of rest_factor_pcg, whose factor
  // serves any set of held nodes (solve() projects it).
  bool identity_held = held_count_ > 0;
  if (def_.solver == LinearSolverKind::rest_factor_pcg) {
    linearised_at_ = x;
    mass_coefficient_ = mass_coefficient;
    stiffness_coefficient_ = stiffness_coefficient;
    if (rest_factored_) return;
    rest_factored_ = true;  // the matrix at rest, factored once by solve()
    x = model.rest_positions();
    identity_held = false;
  }
  const std::vector<Tet>& tets = model.tets();
  const auto nt = static_cast<Index>(element_.size());
  const int team = nt > kParallelNodes ? solver_threads() : 1;
  model.element_stiffnesses(x, element_);  // reuses the rotations forces() cached at x

  const auto nf = static_cast<Index>(free_nodes_.size());
  double* values = A_.valuePtr();
  const auto mass = model.mass();
  const bool consistent = model.def().mass == MassKind::consistent;
  parallel_for(nf, team, [&](Index a) {
    const auto as = static_cast<std::size_t>(a);
    const Index deg = column_offsets_[as + 1] - column_offsets_[as];
    double* col = values + 9 * static_cast<std::size_t>(column_offsets_[as]);
    std::fill(col, col + 9 * deg, 0.0);
    if (identity_held && held_[as]) {
      for (int c = 0; c < 3; ++c) col[3 * deg * c + 3 * diagonal_slot_[as] + c] = 1.0;
      return;
    }
    for (Index k = incident_offsets_[as]; k < incident_offsets_[as + 1]; ++k) {
      const auto ks = static_cast<std::size_t>(k);
      const Mat12& K = element_[static_cast<std::size_t>(incident_tets_[ks])];
      const int la = incident_local_[ks];
      // Consistent mass block ab: ρV/20 (1 + δ_ab) I₃ (mass.hpp).
      const double mt = consistent ? mass_coefficient * model.tet_mass(incident_tets_[ks]) / 20.0 : 0.0;
      for (int lb = 0; lb < 4; ++lb) {
        const Index slot = incident_slots_[4 * ks + static_cast<std::size_t>(lb)];
        if (slot < 0) continue;
        if (identity_held) {
          const auto node = static_cast<std::size_t>(tets[static_cast<std::size_t>(incident_tets_[ks])][lb]);
          if (held_[static_cast<std::size_t>(free_index_[node])]) continue;
        }
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 3; ++r)
            col[3 * deg * c + 3 * slot + r] += stiffness_coefficient * K(3 * lb + r, 3 * la + c);
        if (consistent)
          for (int c = 0; c < 3; ++c) col[3 * deg * c + 3 * slot + c] += lb == la ? 2.0 * mt : mt;
      }
    }
    if (!consistent) {
      const double m = mass_coefficient * mass[static_cast<std::size_t>(free_nodes_[as])];
      for (int c = 0; c < 3; ++c) col[3 * deg * c + 3 * diagonal_slot_[as] + c] += m;
    }
  });
}

void ImplicitSolver::apply_matrix_free(const Eigen::VectorXd& p, Eigen::VectorXd& q) {
  for (std::size_t i = 0; i < pf_.size(); ++i) pf_[i].setZero();
  for (std::size_t a = 0; a < free_nodes_.size(); ++a)
    if (!held_[a])
      pf_[static_cast<std::size_t>(free_nodes_[a])] = p.segment<3>(3 * static_cast<Eigen::Index>(a));
  for (std::size_t i = 0; i < qf_.size(); ++i) qf_[i].setZero();
  model_->add_mass_product(pf_, mass_coefficient_, qf_);
  if (stiffness_coefficient_ != 0.0)
    model_->add_stiffness_product(linearised_at_, pf_, stiffness_coefficient_, qf_);
  for (std::size_t a = 0; a < free_nodes_.size(); ++a)
    q.segment<3>(3 * static_cast<Eigen::Index>(a)) = qf_[static_cast<std::size_t>(free_nodes_[a])];
  // Held DOFs: identity rows and columns (p's held entries enter as themselves, not through M or K).
  if (held_count_ > 0)
    for (std::size_t a = 0; a < free_nodes_.size(); ++a)
      if (held_[a])
        q.segment<3>(3 * static_cast<Eigen::Index>(a)) = p.segment<3>(3 * static_cast<Eigen::Index>(a));
}

template <class Apply>
int ImplicitSolver::jacobi_pcg(const Apply& apply, double tolerance, int max_iterations, double* residual) {
  return detail::warm_started_pcg(
      apply, [&](const Eigen::VectorXd& r, Eigen::VectorXd& z) { z = r.cwiseQuotient(diagonal_); }, b_, y_,
      tolerance, max_iterations, r_, z_, p_, q_, residual);
}

void ImplicitSolver::gather_free(const std::vector<Vec3>& full) {
  const auto nf = static_cast<Index>(free_nodes_.size());
  for (Index a = 0; a < nf; ++a) b_.segment<3>(3 * a) = full[static_cast<std::size_t>(free_nodes_[a])];
  project(b_);
}

double ImplicitSolver::free_norm(const std::vector<Vec3>& full) const {
  double s = 0.0;
  for (Index node : free_nodes_)
    if (stepped(static_cast<std::size_t>(node))) s += full[static_cast<std::size_t>(node)].squaredNorm();
  return std::sqrt(s);
}

void ImplicitSolver::mass_acceleration() {
  const FemForceModel& model = *model_;
  const auto w = model.inverse_mass();
  for (std::size_t i = 0; i < acc_.size(); ++i) acc_[i] = w[i] * f_[i];  // the lumped answer
  if (model.def().mass == MassKind::lumped) return;
  // M_ff a_f = f_f by Jacobi-PCG from the lumped answer (the Jacobi-scaled consistent mass of linear tets
  // has a condition number below 5, so a few dozen iterations reach round-off).
  const auto m = model.mass();
  const auto nf = static_cast<Eigen::Index>(free_nodes_.size());
  for (Eigen::Index a = 0; a < nf; ++a) {
    const auto i = static_cast<std::size_t>(free_nodes_[static_cast<std::size_t>(a)]);
    const bool held = held_[static_cast<std::size_t>(a)] != 0;
    b_.segment<3>(3 * a) = held ? Vec3::Zero() : f_[i];
    y_.segment<3>(3 * a) = acc_[i];  // 0 on held nodes (their inverse mass is 0)
    diagonal_.segment<3>(3 * a).setConstant(held ? 1.0 : m[i]);
  }
  const double bnorm = b_.norm();
  if (bnorm == 0.0) return;
  const double saved_mc = mass_coefficient_, saved_kc = stiffness_coefficient_;
  mass_coefficient_ = 1.0;
  stiffness_coefficient_ = 0.0;
  double residual = 0.0;
  jacobi_pcg([&](const Eigen::VectorXd& p, Eigen::VectorXd& q) { apply_matrix_free(p, q); }, 1e-13 * bnorm,
             200, &residual);
  mass_coefficient_ = saved_mc;
  stiffness_coefficient_ = saved_kc;
  for (Eigen::Index a = 0; a < nf; ++a)
    acc_[static_cast<std::size_t>(free_nodes_[static_cast<std::size_t>(a)])] = y_.segment<3>(3 * a);
}

bool ImplicitSolver::solve(ImplicitReport& report) {
  const double bnorm = b_.norm();
  if (def_.solver == LinearSolverKind::rest_factor_pcg) {
    if (!factor_->rest) {
      auto f = SparseCholesky::factor(A_);  // A_ holds the rest matrix (assemble's first call)
      if (!f) return false;
      // The preconditioner in float: half the bytes per solve, still SPD (single_precision_factor.hpp);
      // the double factor is dropped.
      auto single = SinglePrecisionFactor::build(f.value());
      if (!single) return false;
      factor_->rest.emplace(std::move(single.value()));
    }
    if (bnorm == 0.0) {
      y_.setZero();
      report.relative_residual = 0.0;
      return true;
    }
    if (!frames_.empty()) model_->node_rotations(linearised_at_, frames_);
    double rnorm = 0.0;
    const int it = detail::warm_started_pcg(
        [&](const Eigen::VectorXd& p, Eigen::VectorXd& q) { apply_matrix_free(p, q); },
        [&](const Eigen::VectorXd& r, Eigen::VectorXd& z) { precondition(r, z); }, b_, y_,
        def_.pcg_tolerance * bnorm, def_.pcg_max_iterations, r_, z_, p_, q_, &rnorm);
    report.cg_iterations += it;
    report.relative_residual = rnorm / bnorm;
    return true;  // a capped iteration count is this solver's intent, not a failure
  }
  if (def_.solver == LinearSolverKind::cholmod) {
    if (!factor_->cholesky) {
      // Refactored at every solve: the wide supernodes' faster factorisation outweighs their slower solve.
      auto f = SparseCholesky::factor(A_, CholeskyBackend::cholmod_supernodal_wide);
      if (!f) return false;
      factor_->cholesky.emplace(std::move(f.value()));
    } else if (!factor_->cholesky->refactor(A_)) {
      factor_->cholesky.reset();
      return false;
    }
    y_ = factor_->cholesky->solve(b_);
    q_.noalias() = A_ * y_;
    report.relative_residual = bnorm > 0.0 ? (b_ - q_).norm() / bnorm : 0.0;
    return std::isfinite(report.relative_residual);
  }
  // Jacobi-PCG, warm-started from y_.
  for (Eigen::Index i = 0; i < A_.cols(); ++i) diagonal_[i] = A_.coeff(i, i);
  if (bnorm == 0.0) {
    y_.setZero();
    report.relative_residual = 0.0;
    return true;
  }
  const double tol = def_.pcg_tolerance * bnorm;
  double rnorm = 0.0;
  report.cg_iterations +=
      jacobi_pcg([&](const Eigen::VectorXd& p, Eigen::VectorXd& q) { q.noalias() = A_ * p; }, tol,
                 def_.pcg_max_iterations, &rnorm);
  report.relative_residual = rnorm / bnorm;
  return rnorm <= tol;
}

void ImplicitSolver::newton(std::span<const Vec3> x, std::span<const Vec3> v, const NewtonForm& form,
                            int first_iteration, double reference, ImplicitReport& report) {
  const FemForceModel& model = *model_;
  const auto w = model.inverse_mass();
  const std::size_t n = x.size();
  const auto nf = static_cast<Index>(free_nodes_.size());
  for (int k = first_iteration; k < def_.max_newton_iterations; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      const bool kinematic = w[i] == 0.0;  // fixed or held
      xk_[i] = kinematic ? x[i] : Vec3(x[i] + form.position_scale * (dv_[i] + form.velocity_share * v[i]));
      vk_[i] = kinematic ? v[i] : Vec3(v[i] + form.velocity_scale * dv_[i]);
    }
    model.forces(xk_, vk_, f_);
    for (std::size_t i = 0; i < n; ++i) rhs_[i] = form.force_scale * f_[i];
    model.add_mass_product(dv_, -1.0, rhs_);
    double norm = 0.0;
    for (Index node : free_nodes_)
      if (w[static_cast<std::size_t>(node)] != 0.0)
        norm += rhs_[static_cast<std::size_t>(node)].squaredNorm();
    norm = std::sqrt(norm);
    if (reference <= 0.0) {
      reference = norm > 0.0 ? norm : 1.0;
    } else {
      report.newton_residual = norm / reference;
      if (report.newton_residual <= def_.newton_tolerance) return;
    }
    assemble(xk_, form.mass_coefficient, form.stiffness_coefficient);
    for (Index a = 0; a < nf; ++a) b_.segment<3>(3 * a) = rhs_[static_cast<std::size_t>(free_nodes_[a])];
    project(b_);
    y_.setZero();
    if (!solve(report)) report.converged = false;
    ++report.newton_iterations;
    for (Index a = 0; a < nf; ++a) dv_[static_cast<std::size_t>(free_nodes_[a])] += y_.segment<3>(3 * a);
    if (!report.converged) return;
  }
}

ImplicitReport ImplicitSolver::step(std::span<Vec3> x, std::span<Vec3> v) {
  ImplicitReport report;
  const FemForceModel& model = *model_;
  const std::size_t n = x.size();
  const auto m = model.mass();
  const auto nf = static_cast<Index>(free_nodes_.size());

  if (def_.scheme == ImplicitScheme::quasi_static) {
    // Newton on f(x) = 0; residual relative to the external load (gravity and point forces).
    double load = 0.0;
    for (Index node : free_nodes_) {
      const auto i = static_cast<std::size_t>(node);
      if (stepped(i)) load += (m[i] * model.def().gravity + model.point_forces()[i]).squaredNorm();
    }
    load = std::sqrt(load);
    for (std::size_t i = 0; i < n; ++i) vk_[i].setZero();
    for (int k = 0; k < def_.max_newton_iterations; ++k) {
      model.forces(x, vk_, f_);
      const double residual = free_norm(f_) / (load > 0.0 ? load : 1.0);
      report.newton_residual = residual;
      if (residual <= def_.newton_tolerance) break;
      assemble(x, 0.0, 1.0);
      gather_free(f_);
      y_.setZero();
      if (!solve(report)) report.converged = false;
      ++report.newton_iterations;
      if (!report.converged) break;
      for (Index a = 0; a < nf; ++a)
        if (!held_[static_cast<std::size_t>(a)])
          x[static_cast<std::size_t>(free_nodes_[a])] += y_.segment<3>(3 * a);
    }
    for (Index node : free_nodes_)
      if (stepped(static_cast<std::size_t>(node))) v[static_cast<std::size_t>(node)].setZero();
    return report;
  }

  const double h = def_.dt, alpha = model.def().rayleigh_alpha, beta = model.def().rayleigh_beta;
  if (def_.scheme == ImplicitScheme::newmark) {
    constexpr dynamics::NewmarkParameters newmark;  // average acceleration
    if (!has_acceleration_) {
      model.forces(x, v, f_);
      mass_acceleration();
      has_acceleration_ = true;
    }
    // Predictors (kept in x and v of the free nodes until the end) and a⁺ = 0 to start.
    for (Index node : free_nodes_) {
      const auto i = static_cast<std::size_t>(node);
      dv_[i].setZero();
      if (stepped(i)) dynamics::newmark_predict(newmark, h, acc_[i], x[i], v[i]);
    }
    newton(x, v, dynamics::newmark_form(newmark, h, alpha, beta), 0, 0.0, report);
    for (Index node : free_nodes_) {
      const auto i = static_cast<std::size_t>(node);
      if (!stepped(i)) continue;
      acc_[i] = dv_[i];
      dynamics::newmark_correct(newmark, h, dv_[i], x[i], v[i]);
    }
    return report;
  }

  if (def_.scheme == ImplicitScheme::bdf2) {
    const double hb = 2.0 * h / 3.0;
    // The stepped nodes as the last step left them? (Kinematic ones may be moved between steps: a
    // prescribed motion or a grab is not an outside change of the state.)
    bool same = has_previous_;
    for (std::size_t i = 0; i < n && same; ++i)
      same = !stepped(i) || (x[i] == stepped_x_[i] && v[i] == stepped_v_[i]);
    if (!same) {
      // (Re)start with one backward Euler step: a start from x_{n-1} = x_n - h v_n, v_{n-1} = v_n would
      // leave an O(h) velocity error that BDF2 carries on (first order overall, measured). The rest
      // factor is built for BDF2's system, which all later steps solve.
      if (def_.solver == LinearSolverKind::rest_factor_pcg && !rest_factored_) {
        const dynamics::ImplicitForm restart = dynamics::backward_euler_form(hb, alpha, beta);
        assemble(model.rest_positions(), restart.mass_coefficient, restart.stiffness_coefficient);
      }
      std::copy(x.begin(), x.end(), previous_x_.begin());
      std::copy(v.begin(), v.end(), previous_v_.begin());
      backward_euler(x, v, h, report);
    } else {
      // x_{n+1} = x̂ + h' v_{n+1}, v_{n+1} = v̂ + h' M⁻¹ f(x_{n+1}, v_{n+1}): backward Euler from (x̂, v̂)
      // with h' = 2h/3.
      for (std::size_t i = 0; i < n; ++i) {
        const Vec3 xi = x[i], vi = v[i];
        if (stepped(i)) {
          x[i] = (4.0 * xi - previous_x_[i]) / 3.0;
          v[i] = (4.0 * vi - previous_v_[i]) / 3.0;
        }
        previous_x_[i] = xi;
        previous_v_[i] = vi;
      }
      backward_euler(x, v, hb, report);
    }
    std::copy(x.begin(), x.end(), stepped_x_.begin());
    std::copy(v.begin(), v.end(), stepped_v_.begin());
    has_previous_ = true;
    return report;
  }
  backward_euler(x, v, def_.dt, report);
  return report;
}

void ImplicitSolver::backward_euler(std::span<Vec3> x, std::span<Vec3> v, double h, ImplicitReport& report) {
  const FemForceModel& model = *model_;
  const std::size_t n = x.size();
  const auto nf = static_cast<Index>(free_nodes_.size());
  // Backward Euler. Iteration 0: linearised at (x, v).
  const NewtonForm form =
      dynamics::backward_euler_form(h, model.def().rayleigh_alpha, model.def().rayleigh_beta);
  // A held node is already where the step ends, and one that moves this step carries that move's
  // velocity (so damping sees it move with the body). The linearised force f(x) − hK·v would move it
  // by h·v once more: linearise from where it started, x − h·v, so that f − hK·v puts it at its end.
  // (Measured without this: a FEM block set on a plane, stepped by one linearised iteration, pulled
  // on its contacts with 3.8× its weight.) The later iterations hold kinematic nodes where they are.
  const auto w = model.inverse_mass();
  std::span<const Vec3> at = x;
  if (held_count_ > 0) {
    bool moving = false;
    for (std::size_t i = 0; i < n && !moving; ++i) moving = w[i] == 0.0 && v[i] != Vec3::Zero();
    if (moving) {
      for (std::size_t i = 0; i < n; ++i) xk_[i] = w[i] == 0.0 ? Vec3(x[i] - h * v[i]) : x[i];
      at = xk_;
    }
  }
  model.forces(at, v, f_, h);  // f - h K v
  for (std::size_t i = 0; i < n; ++i) rhs_[i] = h * f_[i];
  const double rhs_norm = free_norm(rhs_);
  assemble(at, form.mass_coefficient, form.stiffness_coefficient);
  gather_free(rhs_);
  // Warm start: the previous step's Δv (y_ still holds it).
  if (!solve(report)) report.converged = false;
  report.newton_iterations = 1;
  for (std::size_t i = 0; i < n; ++i) dv_[i].setZero();
  for (Index a = 0; a < nf; ++a) dv_[static_cast<std::size_t>(free_nodes_[a])] = y_.segment<3>(3 * a);
  if (report.converged) newton(x, v, form, 1, rhs_norm > 0.0 ? rhs_norm : 1.0, report);
  for (Index node : free_nodes_) {
    const auto i = static_cast<std::size_t>(node);
    if (stepped(i)) dynamics::backward_euler_advance(h, dv_[i], x[i], v[i]);
  }
  // Keep the last full Δv as the next warm start.
  for (Index a = 0; a < nf; ++a) y_.segment<3>(3 * a) = dv_[static_cast<std::size_t>(free_nodes_[a])];
}

}  // namespace pliant::fem
