// Hybrid operational / non-operational FEM body (Wu & Heng 2005); formulas in hybrid_solver.hpp.
#include "pliant/models/fem/hybrid/hybrid_solver.hpp"

#include "linalg/rest_factor_cg.hpp"
#include "models/fem/assembly/block_pattern.hpp"
#include "pliant/linalg/condensation.hpp"
#include "pliant/linalg/single_precision_factor.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

namespace pliant::fem {

// The generic solvers of the linear-algebra layer.
using linalg::CholeskyBackend;
using linalg::Condensation;
using linalg::SinglePrecisionFactor;
using linalg::SparseCholesky;
namespace detail {
using linalg::detail::solve_in_frames;
using linalg::detail::warm_started_pcg;
}  // namespace detail

namespace {

std::size_t sz(Index i) { return static_cast<std::size_t>(i); }

// The block of A with rows `rows` and columns `cols` (indices into A), its pattern A's, and the offset in
// A of each of its values: one walk down each selected column (rows in increasing order keep a column's
// entries sorted; otherwise each column is sorted).
void select_block(const SparseMatrix& A, const std::vector<Index>& rows, const std::vector<Index>& cols,
                  SparseMatrix& block, std::vector<int>& offsets) {
  std::vector<Index> row_pos(static_cast<std::size_t>(A.rows()), -1);
  for (std::size_t k = 0; k < rows.size(); ++k) row_pos[sz(rows[k])] = static_cast<Index>(k);
  const bool sorted = std::is_sorted(rows.begin(), rows.end());
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  std::vector<int> starts(cols.size() + 1, 0);
  std::vector<std::pair<int, int>> entries;  // (block row, offset in A)
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const std::size_t first = entries.size();
    for (int q = outer[cols[j]]; q < outer[cols[j] + 1]; ++q)
      if (const Index r = row_pos[sz(inner[q])]; r >= 0) entries.emplace_back(r, q);
    if (!sorted) std::sort(entries.begin() + static_cast<std::ptrdiff_t>(first), entries.end());
    starts[j + 1] = static_cast<int>(entries.size());
  }
  block.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  block.resizeNonZeros(static_cast<Eigen::Index>(entries.size()));
  std::copy(starts.begin(), starts.end(), block.outerIndexPtr());
  offsets.resize(entries.size());
  for (std::size_t k = 0; k < entries.size(); ++k) {
    block.innerIndexPtr()[k] = entries[k].first;
    block.valuePtr()[k] = 0.0;
    offsets[k] = entries[k].second;
  }
}

// Copies the values of a block selected by select_block from A.
void fill_block(const SparseMatrix& A, const std::vector<int>& offsets, SparseMatrix& block) {
  const double* from = A.valuePtr();
  double* to = block.valuePtr();
  for (std::size_t k = 0; k < offsets.size(); ++k) to[k] = from[offsets[k]];
}

}  // namespace

// The operational part of one topology: its element model over its own nodes and its linear system over
// the free nodes of the model and of the condensed interface.
struct HybridSolver::Operational {
  std::optional<FemForceModel> model;  // over op_nodes_ (local numbering)
  std::vector<Index> system_nodes;     // global node of each system node (ascending)
  std::vector<Index> system_index;     // per global node: its system node, -1 if none
  detail::BlockPattern pattern;        // of A, over the system nodes
  std::vector<int> element_offset;     // per (tet, a, b, c): offset of entry (3 sa, 3 sb + c), -1 if fixed
  std::vector<Index> surface_dof;      // per condensation surface DOF: system DOF
  std::vector<std::uint8_t> held_dof;  // per system DOF: held (identity row and column, zero rhs)
  SparseMatrix A;
  std::vector<double> base;  // values of cm M_op + S
  std::optional<SparseCholesky> factor;
  // rest_factor_pcg: the float factor of the whole system at rest; with split_blocks() `factor` holds A_ii
  // at rest instead (none when there is no interior) and the preconditioner is the block solve with
  // interface_pc_'s T⁻¹.
  std::optional<SinglePrecisionFactor> rest;
  bool rest_ready = false;
  std::vector<Index> system_local;  // per system node: its model node, -1 for an interface node no
                                    // operational tet holds any more
  std::vector<Mat3> frames;         // rest_factor_pcg: per model node, its rotation
  std::vector<Vec3> pf, qf;         // rest_factor_pcg: a product's operand and result per model node
  Eigen::VectorXd ps, qs;           // rest_factor_pcg: the same on the condensed interface
  std::vector<Mat12> element;
  std::vector<Vec3> x, v, f;  // per model node
  Eigen::VectorXd b, y, q, r, z, p, w, lin_b, us;
  // interface_pcg: system DOFs split into the interior (i) and the interface (the surface DOFs, in the
  // condensation's order); blocks of A (S not included) with the offset of each value in A.
  std::vector<Index> interior_dof;  // system DOF of each interior DOF
  SparseMatrix a_ii, a_ib, a_bb;
  std::vector<int> ii_offset, ib_offset, bb_offset;
  Eigen::VectorXd bi, ti, gb, xb, rb, zb, pb, qb;
  Eigen::VectorXf gf, zf;
  // Sized by the first Newton iteration and reused, so that a step after warm-up allocates nothing: the
  // condensed load's correction, the recovered interior, a product A_ib p before its A_ii solve.
  Eigen::VectorXd correction, yi, aib_p;  // rest_factor_pcg: the interface block solve in float
};

// interface_pcg's preconditioner: the explicit inverse (through a dense Cholesky factorisation) of the
// interface system T = S + A_bb - A_bi A_ii⁻¹ A_ib at a reference state, in the condensation's surface
// order (kept across replace_operational, which leaves the interface alone).
struct HybridSolver::InterfacePreconditioner {
  Eigen::LLT<Eigen::MatrixXd> llt;
  Eigen::MatrixXd t, inverse;
  Eigen::MatrixXf inverse_float;  // rest_factor_pcg: the inverse in float (half the bytes a product reads)
  bool ready = false;
  int refreshes = 0;
};

HybridSolver::HybridSolver() = default;
HybridSolver::HybridSolver(HybridSolver&&) noexcept = default;
HybridSolver& HybridSolver::operator=(HybridSolver&&) noexcept = default;
HybridSolver::~HybridSolver() = default;

Status HybridSolver::set_held_nodes(std::span<const Index> held) {
  const std::size_t n = rest_.size();
  for (Index node : held) {
    if (node < 0 || sz(node) >= n)
      return Error{"hybrid fem: held node " + std::to_string(node) + " out of range (" + std::to_string(n) +
                   " nodes)"};
    if (!fixed_[sz(node)] && lin_index_[sz(node)] >= 0 && !interface_flag_[sz(node)] && condensation_)
      return Error{"hybrid fem: held node " + std::to_string(node) +
                   " is in the condensed interior (build with it fixed instead)"};
  }
  held_.assign(n, 0);
  for (Index node : held)
    if (!fixed_[sz(node)]) held_[sz(node)] = 1;
  any_held_ = std::any_of(held_.begin(), held_.end(), [](std::uint8_t h) { return h != 0; });
  for (std::size_t i = 0; i < n; ++i) active_[i] = !fixed_[i] && !held_[i] && mass_[i] > 0.0 ? 1.0 : 0.0;
  mark_held_dofs();
  has_acceleration_ = false;
  op_->xb.setZero();
  return {};
}

void HybridSolver::mark_held_dofs() {
  Operational& o = *op_;
  o.held_dof.assign(sz(static_cast<Index>(3 * o.system_nodes.size())), 0);
  for (std::size_t k = 0; k < o.system_nodes.size(); ++k)
    if (held_[sz(o.system_nodes[k])])
      for (std::size_t c = 0; c < 3; ++c) o.held_dof[3 * k + c] = 1;
}

const FemForceModel& HybridSolver::operational_model() const { return *op_->model; }

int HybridSolver::interface_refreshes() const { return interface_pc_ ? interface_pc_->refreshes : 0; }

void HybridSolver::clear_point_forces() {
  for (Vec3& f : point_force_) f.setZero();
}

void HybridSolver::set_gravity(const Vec3& gravity) {
  def_.gravity = gravity;
  op_->model->set_gravity(gravity);
}

Result<HybridSolver> HybridSolver::build(const TetMesh& rest, std::span<const materials::Material> materials,
                                         const FemBodyDef& def, std::span<const std::uint8_t> operational,
                                         const ImplicitSolverDef& solver) {
  if (auto ok = check_fem_mesh(rest); !ok) return Error{"hybrid fem: " + ok.message()};
  const std::size_t n = rest.node_count(), nt = rest.tet_count();
  if (materials.size() != 1 && materials.size() != nt)
    return Error{"hybrid fem: " + std::to_string(materials.size()) + " materials for " + std::to_string(nt) +
                 " tets (give 1 or one per tet)"};
  if (operational.size() != nt)
    return Error{"hybrid fem: " + std::to_string(operational.size()) + " operational flags for " +
                 std::to_string(nt) + " tets"};
  if (def.mass != MassKind::lumped)
    return Error{"hybrid fem: only a lumped mass is supported (its condensed part is built on one)"};
  if (solver.scheme == ImplicitScheme::quasi_static || solver.scheme == ImplicitScheme::bdf2)
    return Error{"hybrid fem: the scheme must be backward_euler or newmark"};
  if (solver.solver == LinearSolverKind::pcg)
    return Error{"hybrid fem: the linear solver must be cholmod, rest_factor_pcg or interface_pcg"};
  if ((solver.solver == LinearSolverKind::rest_factor_pcg ||
       solver.solver == LinearSolverKind::interface_pcg) &&
      !(solver.pcg_tolerance > 0.0 && solver.pcg_max_iterations >= 1))
    return Error{"hybrid fem: pcg_tolerance must be > 0 and pcg_max_iterations >= 1"};
  if (!(std::isfinite(solver.dt) && solver.dt > 0.0)) return Error{"hybrid fem: dt must be finite and > 0"};
  if (solver.max_newton_iterations < 1 || !(solver.newton_tolerance >= 0.0))
    return Error{"hybrid fem: max_newton_iterations must be >= 1 and newton_tolerance >= 0"};
  if (!(std::isfinite(def.rayleigh_alpha) && def.rayleigh_alpha >= 0.0 && std::isfinite(def.rayleigh_beta) &&
        def.rayleigh_beta >= 0.0))
    return Error{"hybrid fem: Rayleigh alpha and beta must be finite and >= 0"};
  if (!def.gravity.allFinite()) return Error{"hybrid fem: gravity must be finite"};
  for (std::size_t l = 0; l < def.surface_loads.size(); ++l) {
    const SurfaceLoad& load = def.surface_loads[l];
    if (!std::isfinite(load.pressure) || !load.traction.allFinite())
      return Error{"hybrid fem: surface load " + std::to_string(l) +
                   ": pressure and traction must be finite"};
    for (const Tri& tri : load.triangles)
      for (Index node : tri)
        if (node < 0 || sz(node) >= n)
          return Error{"hybrid fem: surface load " + std::to_string(l) + ": node " + std::to_string(node) +
                       " out of range (" + std::to_string(n) + " nodes)"};
  }
  for (std::size_t i = 0; i < materials.size(); ++i)
    if (auto ok = materials::validate(materials[i]); !ok)
      return Error{"hybrid fem: material " + std::to_string(i) + ": " + ok.message()};

  HybridSolver s;
  s.def_ = def;
  s.def_.tet_elements.clear();
  s.solver_ = solver;
  const double h = solver.dt, alpha = def.rayleigh_alpha, beta = def.rayleigh_beta;
  s.form_ = solver.scheme == ImplicitScheme::newmark ? dynamics::newmark_form({}, h, alpha, beta)
                                                     : dynamics::backward_euler_form(h, alpha, beta);
  s.cm_ = s.form_.mass_coefficient;
  s.ck_ = s.form_.stiffness_coefficient;
  s.rest_ = rest.positions;
  s.fixed_.assign(n, 0);
  s.held_.assign(n, 0);
  for (Index node : def.fixed_nodes) {
    if (node < 0 || sz(node) >= n)
      return Error{"hybrid fem: fixed node " + std::to_string(node) + " out of range (" + std::to_string(n) +
                   " nodes)"};
    s.fixed_[sz(node)] = 1;
  }

  // Node classes and the two tet sets.
  std::vector<std::uint8_t> in_op(n, 0), in_lin(n, 0);
  std::vector<Tet> op_tets, lin_tets;
  std::vector<materials::Material> op_mats, lin_mats;
  for (std::size_t t = 0; t < nt; ++t) {
    const bool op = operational[t] != 0;
    (op ? op_tets : lin_tets).push_back(rest.tets[t]);
    (op ? op_mats : lin_mats).push_back(materials.size() == 1 ? materials[0] : materials[t]);
    for (int a = 0; a < 4; ++a) (op ? in_op : in_lin)[sz(rest.tets[t][a])] = 1;
  }
  if (op_tets.empty()) return Error{"hybrid fem: the operational region holds no tets"};
  s.lin_tet_count_ = lin_tets.size();
  s.interface_flag_.assign(n, 0);
  s.lin_index_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (in_lin[i]) {
      s.lin_index_[i] = static_cast<Index>(s.lin_nodes_.size());
      s.lin_nodes_.push_back(static_cast<Index>(i));
    }
    if (in_op[i] && in_lin[i]) {
      s.interface_.push_back(static_cast<Index>(i));
      s.interface_flag_[i] = 1;
    }
  }

  // The linear part: K_lin and lumped masses over its nodes.
  s.lin_mass_.assign(s.lin_nodes_.size(), 0.0);
  s.mass_.assign(n, 0.0);
  if (!lin_tets.empty()) {
    TetMesh sub;
    sub.positions.reserve(s.lin_nodes_.size());
    for (Index g : s.lin_nodes_) sub.positions.push_back(rest.positions[sz(g)]);
    for (const Tet& tet : lin_tets) {
      Tet local;
      for (int a = 0; a < 4; ++a) local[a] = s.lin_index_[sz(tet[a])];
      sub.tets.push_back(local);
    }
    auto shape = build_rest_shape(sub);
    if (!shape) return Error{"hybrid fem: non-operational part: " + shape.message()};
    for (std::size_t t = 0; t < sub.tets.size(); ++t)
      for (int a = 0; a < 4; ++a)
        s.lin_mass_[sz(sub.tets[t][a])] += 0.25 * lin_mats[t].density * shape->volume[t];
    auto assembler = StiffnessAssembler::build(sub);
    if (!assembler) return Error{"hybrid fem: non-operational part: " + assembler.message()};
    assembler->assemble(sub, std::span<const materials::Material>(lin_mats), s.lin_k_);
    for (std::size_t j = 0; j < s.lin_nodes_.size(); ++j) s.mass_[sz(s.lin_nodes_[j])] += s.lin_mass_[j];

    // A_lin = cm M_lin + ck K_lin over its free nodes; surface = the free interface nodes.
    std::vector<Index> lin_free_nodes;
    s.lin_free_dof_.assign(s.lin_nodes_.size(), -1);
    for (std::size_t j = 0; j < s.lin_nodes_.size(); ++j)
      if (!s.fixed_[sz(s.lin_nodes_[j])]) {
        s.lin_free_dof_[j] = 3 * static_cast<Index>(lin_free_nodes.size());
        lin_free_nodes.push_back(s.lin_nodes_[j]);
      }
    std::vector<Eigen::Index> surface;
    for (std::size_t k = 0; k < lin_free_nodes.size(); ++k)
      if (s.interface_flag_[sz(lin_free_nodes[k])]) {
        s.surface_nodes_.push_back(lin_free_nodes[k]);
        for (int c = 0; c < 3; ++c) surface.push_back(static_cast<Eigen::Index>(3 * k) + c);
      }
    if (!lin_free_nodes.empty() && surface.empty())
      return Error{"hybrid fem: the non-operational part meets the operational one at fixed nodes only"};
    if (!surface.empty()) {
      std::vector<Eigen::Triplet<double>> triplets;
      for (Eigen::Index col = 0; col < s.lin_k_.outerSize(); ++col) {
        const Index fc = s.lin_free_dof_[sz(static_cast<Index>(col / 3))];
        if (fc < 0) continue;
        for (SparseMatrix::InnerIterator it(s.lin_k_, col); it; ++it) {
          const Index fr = s.lin_free_dof_[sz(static_cast<Index>(it.row() / 3))];
          if (fr >= 0) triplets.emplace_back(fr + it.row() % 3, fc + col % 3, s.ck_ * it.value());
        }
      }
      for (std::size_t j = 0; j < s.lin_nodes_.size(); ++j)
        if (s.lin_free_dof_[j] >= 0)
          for (int c = 0; c < 3; ++c)
            triplets.emplace_back(s.lin_free_dof_[j] + c, s.lin_free_dof_[j] + c, s.cm_ * s.lin_mass_[j]);
      const auto size = static_cast<Eigen::Index>(3 * lin_free_nodes.size());
      SparseMatrix A(size, size);
      A.setFromTriplets(triplets.begin(), triplets.end());
      const auto start = std::chrono::steady_clock::now();
      auto condensed = Condensation::build(A, surface);
      s.condensation_seconds_ =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!condensed) return Error{"hybrid fem: " + condensed.message()};
      s.condensation_ = std::make_unique<Condensation>(std::move(condensed.value()));
      ++s.condensation_builds_;
      for (Eigen::Index d : s.condensation_->interior())
        s.interior_dofs_.push_back(3 * lin_free_nodes[sz(static_cast<Index>(d / 3))] +
                                   static_cast<Index>(d % 3));
    }
    const auto nl = static_cast<Eigen::Index>(3 * s.lin_nodes_.size());
    s.lin_u_.setZero(nl);
    s.lin_v_.setZero(nl);
    s.lin_f_.setZero(nl);
  }
  s.lin_mass_only_ = s.mass_;
  s.point_force_.assign(n, Vec3::Zero());
  for (std::vector<Vec3>* vec : {&s.f_, &s.rhs_, &s.dv_, &s.xk_, &s.vk_, &s.acc_})
    vec->assign(n, Vec3::Zero());
  if (auto ok = s.build_operational(std::move(op_tets), std::move(op_mats)); !ok) return Error{ok.message()};
  if (s.interface_split()) {
    // interface_pcg's preconditioner at the rest shape, so that no step pays for it.
    std::vector<Vec3> zero(n, Vec3::Zero());
    s.total_forces(s.rest_, zero, s.f_);  // caches the operational rotations for the stiffnesses
    s.assemble_operational(s.rest_);
    if (!s.factor_interior() || !s.refresh_interface_preconditioner())
      return Error{"hybrid fem: the interface system at the rest shape is not positive definite"};
  } else if (s.solver_.solver == LinearSolverKind::rest_factor_pcg && !s.factor_rest()) {
    return Error{"hybrid fem: the operational system at the rest shape is not positive definite"};
  }
  return s;
}

Status HybridSolver::build_operational(std::vector<Tet> tets, std::vector<materials::Material> mats) {
  const std::size_t n = rest_.size();
  if (tets.empty()) return Error{"hybrid fem: the operational region holds no tets"};
  std::vector<Index> local(n, -1);
  std::vector<Index> nodes;
  for (const Tet& tet : tets)
    for (int a = 0; a < 4; ++a) {
      const Index g = tet[a];
      if (g < 0 || sz(g) >= n)
        return Error{"hybrid fem: operational tet node " + std::to_string(g) + " out of range (" +
                     std::to_string(n) + " nodes)"};
      if (lin_index_[sz(g)] >= 0 && !interface_flag_[sz(g)])
        return Error{"hybrid fem: operational tet uses node " + std::to_string(g) +
                     " of the non-operational interior"};
      local[sz(g)] = 0;
    }
  for (std::size_t i = 0; i < n; ++i)
    if (local[i] == 0) {
      local[i] = static_cast<Index>(nodes.size());
      nodes.push_back(static_cast<Index>(i));
    }
  TetMesh sub;
  for (Index g : nodes) sub.positions.push_back(rest_[sz(g)]);
  for (const Tet& tet : tets) {
    Tet t;
    for (int a = 0; a < 4; ++a) t[a] = local[sz(tet[a])];
    sub.tets.push_back(t);
  }
  FemBodyDef op_def{.element = def_.element,
                    .rayleigh_alpha = def_.rayleigh_alpha,
                    .rayleigh_beta = def_.rayleigh_beta,
                    .gravity = def_.gravity};
  auto model = FemForceModel::build(sub, mats, op_def);
  if (!model) return Error{"hybrid fem: operational part: " + model.message()};

  auto o = std::make_unique<Operational>();
  o->system_index.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const bool in_system = (local[i] >= 0 || (interface_flag_[i] && condensation_)) && !fixed_[i];
    if (!in_system) continue;
    o->system_index[i] = static_cast<Index>(o->system_nodes.size());
    o->system_nodes.push_back(static_cast<Index>(i));
    o->system_local.push_back(local[i]);
  }
  if (o->system_nodes.empty()) return Error{"hybrid fem: every node of the operational region is fixed"};

  // The pattern (block_pattern.hpp): element blocks, the mass diagonal and, for the direct solve, the
  // dense interface block.
  const auto ns = static_cast<Eigen::Index>(o->system_nodes.size());
  const bool split = split_blocks();
  {
    std::vector<Edge> edges;
    edges.reserve(tets.size() * 6);
    for (const Tet& tet : tets)
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
          const Index sa = o->system_index[sz(tet[a])], sb = o->system_index[sz(tet[b])];
          if (sa >= 0 && sb >= 0) edges.push_back({std::min(sa, sb), std::max(sa, sb)});
        }
    if (!split)
      for (std::size_t k = 0; k < surface_nodes_.size(); ++k)
        for (std::size_t l = k + 1; l < surface_nodes_.size(); ++l) {
          const Index sa = o->system_index[sz(surface_nodes_[k])],
                      sb = o->system_index[sz(surface_nodes_[l])];
          edges.push_back({std::min(sa, sb), std::max(sa, sb)});
        }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    o->pattern = detail::BlockPattern::build(static_cast<Index>(ns), edges);
  }
  o->pattern.write(o->A);
  std::fill(o->A.valuePtr(), o->A.valuePtr() + o->A.nonZeros(), 0.0);

  // Value (3 sa + r, 3 sb + c) of tet block (a, b) at element_offset[(t, a, b, c)] + r.
  o->element_offset.assign(tets.size() * 48, -1);
  for (std::size_t t = 0; t < tets.size(); ++t)
    for (int b = 0; b < 4; ++b) {
      const Index sb = o->system_index[sz(tets[t][b])];
      if (sb < 0) continue;
      for (int a = 0; a < 4; ++a) {
        const Index sa = o->system_index[sz(tets[t][a])];
        if (sa < 0) continue;
        const Index slot = o->pattern.slot(sb, sa);
        for (int c = 0; c < 3; ++c)
          o->element_offset[((t * 4 + sz(a)) * 4 + sz(b)) * 3 + sz(c)] =
              static_cast<int>(o->pattern.offset(sb, slot, 0, c));
      }
    }
  // Base values: cm M_op on the diagonal and S on the interface.
  o->base.assign(sz(static_cast<Index>(o->A.nonZeros())), 0.0);
  const auto op_mass = model->mass();
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const Index sk = o->system_index[sz(nodes[k])];
    if (sk < 0) continue;
    const Index slot = o->pattern.slot(sk, sk);
    for (int c = 0; c < 3; ++c) o->base[sz(o->pattern.offset(sk, slot, c, c))] += cm_ * op_mass[k];
  }
  if (condensation_) {
    const Eigen::MatrixXd& S = condensation_->condensed_matrix();
    for (Index g : surface_nodes_)
      for (int c = 0; c < 3; ++c) o->surface_dof.push_back(3 * o->system_index[sz(g)] + c);
    if (!split) {
      // S into its dense block, one walk down each interface column (not a search per entry: 3 ms less
      // a cut on the benchmark organ's 561² block).
      std::vector<Index> surface_index(sz(static_cast<Index>(3 * ns)), -1);
      for (std::size_t k = 0; k < o->surface_dof.size(); ++k)
        surface_index[sz(o->surface_dof[k])] = static_cast<Index>(k);
      const int* outer = o->A.outerIndexPtr();
      const int* inner = o->A.innerIndexPtr();
      for (std::size_t l = 0; l < o->surface_dof.size(); ++l) {
        const Index col = o->surface_dof[l];
        for (int q = outer[col]; q < outer[col + 1]; ++q)
          if (const Index k = surface_index[sz(inner[q])]; k >= 0)
            o->base[sz(q)] += S(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(l));
      }
    }
    o->lin_b.setZero(
        static_cast<Eigen::Index>(condensation_->surface().size() + condensation_->interior().size()));
    o->us.setZero(static_cast<Eigen::Index>(o->surface_dof.size()));
  }
  if (split) {
    std::vector<std::uint8_t> on_interface(sz(static_cast<Index>(3 * ns)), 0);
    for (Index d : o->surface_dof) on_interface[sz(d)] = 1;
    for (Index d = 0; d < 3 * ns; ++d)
      if (!on_interface[sz(d)]) o->interior_dof.push_back(d);
    select_block(o->A, o->interior_dof, o->interior_dof, o->a_ii, o->ii_offset);
    select_block(o->A, o->interior_dof, o->surface_dof, o->a_ib, o->ib_offset);
    select_block(o->A, o->surface_dof, o->surface_dof, o->a_bb, o->bb_offset);
    const auto ni = static_cast<Eigen::Index>(o->interior_dof.size());
    const auto nb = static_cast<Eigen::Index>(o->surface_dof.size());
    for (Eigen::VectorXd* vec : {&o->bi, &o->ti}) vec->setZero(ni);
    for (Eigen::VectorXd* vec : {&o->gb, &o->xb, &o->rb, &o->zb, &o->pb, &o->qb}) vec->setZero(nb);
    if (!interface_pc_) interface_pc_ = std::make_unique<InterfacePreconditioner>();
  }
  o->element.resize(tets.size());  // written whole by every assembly
  o->x.assign(nodes.size(), Vec3::Zero());
  o->v.assign(nodes.size(), Vec3::Zero());
  o->f.assign(nodes.size(), Vec3::Zero());
  o->b.setZero(3 * ns);
  o->y.setZero(3 * ns);
  o->q.setZero(3 * ns);
  o->r.setZero(3 * ns);
  o->z.setZero(3 * ns);
  o->p.setZero(3 * ns);
  o->w.setZero(3 * ns);
  if (solver_.solver == LinearSolverKind::rest_factor_pcg) {
    o->frames.assign(nodes.size(), Mat3::Identity());
    o->pf.assign(nodes.size(), Vec3::Zero());
    o->qf.assign(nodes.size(), Vec3::Zero());
    o->ps.setZero(static_cast<Eigen::Index>(o->surface_dof.size()));
    o->qs.setZero(static_cast<Eigen::Index>(o->surface_dof.size()));
  }

  // Commit.
  o->model.emplace(std::move(model.value()));
  mass_ = lin_mass_only_;
  for (std::size_t k = 0; k < nodes.size(); ++k) mass_[sz(nodes[k])] += op_mass[k];
  active_.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) active_[i] = !fixed_[i] && !held_[i] && mass_[i] > 0.0 ? 1.0 : 0.0;
  op_tets_ = std::move(tets);
  op_nodes_ = std::move(nodes);
  op_ = std::move(o);
  mark_held_dofs();
  return {};
}

Status HybridSolver::replace_operational(std::span<const Vec3> appended_rest, std::span<const Tet> tets,
                                         std::span<const materials::Material> materials) {
  if (tets.empty()) return Error{"hybrid fem: the operational region holds no tets"};
  if (materials.size() != 1 && materials.size() != tets.size())
    return Error{"hybrid fem: " + std::to_string(materials.size()) + " materials for " +
                 std::to_string(tets.size()) + " operational tets (give 1 or one per tet)"};
  for (const Vec3& p : appended_rest)
    if (!p.allFinite()) return Error{"hybrid fem: appended rest positions must be finite"};
  const std::size_t old_n = rest_.size(), n = old_n + appended_rest.size();
  rest_.insert(rest_.end(), appended_rest.begin(), appended_rest.end());
  for (std::vector<std::uint8_t>* flags : {&fixed_, &held_, &interface_flag_}) flags->resize(n, 0);
  lin_index_.resize(n, -1);
  lin_mass_only_.resize(n, 0.0);
  std::vector<materials::Material> mats(materials.begin(), materials.end());
  if (auto ok = build_operational(std::vector<Tet>(tets.begin(), tets.end()), std::move(mats)); !ok) {
    rest_.resize(old_n);
    for (std::vector<std::uint8_t>* flags : {&fixed_, &held_, &interface_flag_}) flags->resize(old_n);
    lin_index_.resize(old_n);
    lin_mass_only_.resize(old_n);
    return ok;
  }
  point_force_.resize(n, Vec3::Zero());
  for (std::vector<Vec3>* vec : {&f_, &rhs_, &dv_, &xk_, &vk_, &acc_}) vec->resize(n, Vec3::Zero());
  has_acceleration_ = false;
  return {};
}

void HybridSolver::total_forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) {
  Operational& o = *op_;
  const std::size_t n = rest_.size();
  for (std::size_t i = 0; i < n; ++i) f[i] = point_force_[i];
  for (std::size_t k = 0; k < op_nodes_.size(); ++k) {
    o.x[k] = x[sz(op_nodes_[k])];
    o.v[k] = v[sz(op_nodes_[k])];
  }
  o.model->forces(o.x, o.v, o.f);
  for (std::size_t k = 0; k < op_nodes_.size(); ++k) f[sz(op_nodes_[k])] += o.f[k];
  // Pressure (on the current triangles) and traction: into whichever part's right-hand side owns the node.
  add_surface_load_forces(def_.surface_loads, rest_, x, f);
  if (lin_nodes_.empty()) return;
  const double alpha = def_.rayleigh_alpha, beta = def_.rayleigh_beta;
  for (std::size_t j = 0; j < lin_nodes_.size(); ++j) {
    const auto g = sz(lin_nodes_[j]);
    lin_u_.segment<3>(3 * static_cast<Eigen::Index>(j)) = x[g] - rest_[g] + beta * v[g];
  }
  lin_f_.noalias() = lin_k_ * lin_u_;
  for (std::size_t j = 0; j < lin_nodes_.size(); ++j) {
    const auto g = sz(lin_nodes_[j]);
    f[g] +=
        lin_mass_[j] * (def_.gravity - alpha * v[g]) - lin_f_.segment<3>(3 * static_cast<Eigen::Index>(j));
  }
}

void HybridSolver::add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                                         std::span<Vec3> y) {
  Operational& o = *op_;
  for (std::size_t k = 0; k < op_nodes_.size(); ++k) {
    o.x[k] = x[sz(op_nodes_[k])];
    o.v[k] = p[sz(op_nodes_[k])];
    o.f[k].setZero();
  }
  o.model->add_stiffness_product(o.x, o.v, scale, o.f);
  for (std::size_t k = 0; k < op_nodes_.size(); ++k) y[sz(op_nodes_[k])] += o.f[k];
  if (lin_nodes_.empty()) return;
  for (std::size_t j = 0; j < lin_nodes_.size(); ++j)
    lin_u_.segment<3>(3 * static_cast<Eigen::Index>(j)) = p[sz(lin_nodes_[j])];
  lin_f_.noalias() = lin_k_ * lin_u_;
  for (std::size_t j = 0; j < lin_nodes_.size(); ++j)
    y[sz(lin_nodes_[j])] += scale * lin_f_.segment<3>(3 * static_cast<Eigen::Index>(j));
}

void HybridSolver::assemble_operational(std::span<const Vec3> x) {
  Operational& o = *op_;
  for (std::size_t k = 0; k < op_nodes_.size(); ++k) o.x[k] = x[sz(op_nodes_[k])];
  assemble_operational_at(o.x);
}

void HybridSolver::assemble_operational_at(std::span<const Vec3> local_x) {
  Operational& o = *op_;
  o.model->element_stiffnesses(local_x, o.element);  // reuses the rotations forces() cached at x
  double* values = o.A.valuePtr();
  std::copy(o.base.begin(), o.base.end(), values);
  for (std::size_t t = 0; t < op_tets_.size(); ++t) {
    const Mat12& K = o.element[t];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 3; ++c) {
          const int offset = o.element_offset[((t * 4 + sz(a)) * 4 + sz(b)) * 3 + sz(c)];
          if (offset < 0) continue;
          for (int r = 0; r < 3; ++r) values[offset + r] += ck_ * K(3 * a + r, 3 * b + c);
        }
  }
  if (!any_held_) return;
  // Held DOFs: identity rows and columns.
  const int* outer = o.A.outerIndexPtr();
  const int* inner = o.A.innerIndexPtr();
  for (Eigen::Index j = 0; j < o.A.outerSize(); ++j) {
    const bool held_col = o.held_dof[sz(static_cast<Index>(j))] != 0;
    for (int k = outer[j]; k < outer[j + 1]; ++k)
      if (held_col || o.held_dof[sz(inner[k])]) values[k] = held_col && inner[k] == j ? 1.0 : 0.0;
  }
}

bool HybridSolver::solve_increment(std::span<const Vec3> x, ImplicitReport& report) {
  Operational& o = *op_;
  const bool split = interface_split();
  const bool pcg = solver_.solver == LinearSolverKind::rest_factor_pcg;
  if (pcg)  // matrix-free products (below): only the rest system is assembled, once, for its factor
    for (std::size_t k = 0; k < op_nodes_.size(); ++k) o.x[k] = x[sz(op_nodes_[k])];
  else
    assemble_operational(x);
  if (split) {
    if (!factor_interior()) return false;
  } else if (pcg) {
    if (!o.rest_ready && !factor_rest()) return false;  // once per topology
  } else if (!o.factor) {
    // Refactored every iteration with cholmod: the wide supernodes' faster factorisation wins (as in
    // ImplicitSolver).
    auto f = SparseCholesky::factor(o.A, CholeskyBackend::cholmod_supernodal_wide);
    if (!f) return false;
    o.factor.emplace(std::move(f.value()));
  } else if (!o.factor->refactor(o.A)) {
    o.factor.reset();
    return false;
  }
  for (std::size_t k = 0; k < o.system_nodes.size(); ++k)
    o.b.segment<3>(3 * static_cast<Eigen::Index>(k)) = rhs_[sz(o.system_nodes[k])];
  if (condensation_) {
    // b_I -= A_IN A_NN⁻¹ b_N (the load vector has the interior entries only).
    const auto& interior = condensation_->interior();
    for (std::size_t q = 0; q < interior.size(); ++q)
      o.lin_b[interior[q]] =
          rhs_[sz(interior_dofs_[q] / 3)][static_cast<Eigen::Index>(interior_dofs_[q] % 3)];
    condensation_->condense_rhs(o.lin_b, o.correction);
    for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
      o.b[o.surface_dof[k]] += o.correction[static_cast<Eigen::Index>(k)];
  }
  auto project = [&](Eigen::VectorXd& vec) {
    if (!any_held_) return;
    for (Eigen::Index d = 0; d < vec.size(); ++d)
      if (o.held_dof[sz(static_cast<Index>(d))]) vec[d] = 0.0;
  };
  project(o.b);
  const double bnorm = o.b.norm();
  if (split) {
    if (!solve_interface(report)) return false;
  } else if (pcg) {
    // CG on the current matrix, preconditioned by the factor of the system at rest (Huang & Wang 2007
    // list such constant-factor preconditioning among the fast paths) applied in rotated node frames
    // (rest_factor_cg.hpp). The frames cut the benchmark organ's CG iterations from 43 to 17 a step.
    o.model->node_rotations(o.x, o.frames);
    const Mat3 identity = Mat3::Identity();
    // With split_blocks(), A0⁻¹ by blocks: t = A_ii⁻¹ r_i, x_b = T⁻¹ (r_b - A_bi t),
    // x_i = A_ii⁻¹ (r_i - A_ib x_b); exact while T is the rest system's (until a cut changes the
    // operational part: T stays, A_ii and A_ib are the new rest blocks).
    const bool blocks = split_blocks();
    auto rest_solve = [&](const Eigen::VectorXd& in, Eigen::VectorXd& out) {
      if (!blocks) {
        o.rest->solve(in, out);
        return;
      }
      const bool interior = o.factor.has_value();
      for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
        o.gb[static_cast<Eigen::Index>(k)] = in[o.surface_dof[k]];
      if (interior) {
        for (std::size_t k = 0; k < o.interior_dof.size(); ++k)
          o.bi[static_cast<Eigen::Index>(k)] = in[o.interior_dof[k]];
        o.factor->solve(o.bi, o.ti);
        o.gb.noalias() -= o.a_ib.transpose() * o.ti;
      }
      o.gf = o.gb.cast<float>();
      o.zf.noalias() = interface_pc_->inverse_float.selfadjointView<Eigen::Lower>() * o.gf;
      o.zb = o.zf.cast<double>();
      for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
        out[o.surface_dof[k]] = o.zb[static_cast<Eigen::Index>(k)];
      if (interior) {
        o.bi.noalias() -= o.a_ib * o.zb;
        o.factor->solve(o.bi, o.ti);
        for (std::size_t k = 0; k < o.interior_dof.size(); ++k)
          out[o.interior_dof[k]] = o.ti[static_cast<Eigen::Index>(k)];
      }
    };
    auto precondition = [&](const Eigen::VectorXd& r, Eigen::VectorXd& z) {
      detail::solve_in_frames(
          rest_solve,
          [&](Eigen::Index k) -> const Mat3& {
            const Index l = o.system_local[sz(k)];
            return l < 0 ? identity : o.frames[sz(l)];
          },
          r, o.w, z);
      project(z);
    };
    // A p = cm M_op p + ck K_op(x) p + S p_s, matrix-free: the operational tets' product (SIMD lanes,
    // corotational_lanes.hpp) and the dense S, where the assembled sparse product with S inside took
    // several times longer, and no assembly per iteration. Held DOFs: identity rows and columns.
    const auto mass = o.model->mass();
    auto apply = [&](const Eigen::VectorXd& p, Eigen::VectorXd& q) {
      for (std::size_t k = 0; k < o.system_nodes.size(); ++k) {
        if (o.system_local[k] < 0) continue;
        Vec3 pk = p.segment<3>(3 * static_cast<Eigen::Index>(k));
        if (any_held_)
          for (int c = 0; c < 3; ++c)
            if (o.held_dof[3 * k + sz(c)]) pk[c] = 0.0;
        o.pf[sz(o.system_local[k])] = pk;
      }
      for (Vec3& v : o.qf) v.setZero();
      o.model->add_stiffness_product(o.x, o.pf, ck_, o.qf);
      for (std::size_t k = 0; k < o.system_nodes.size(); ++k) {
        const Index l = o.system_local[k];
        q.segment<3>(3 * static_cast<Eigen::Index>(k)) =
            l < 0 ? Vec3::Zero() : Vec3(o.qf[sz(l)] + (cm_ * mass[sz(l)]) * o.pf[sz(l)]);
      }
      if (condensation_) {
        for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
          o.ps[static_cast<Eigen::Index>(k)] =
              any_held_ && o.held_dof[sz(o.surface_dof[k])] ? 0.0 : p[o.surface_dof[k]];
        o.qs.noalias() = condensation_->condensed_matrix().selfadjointView<Eigen::Lower>() * o.ps;
        for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
          q[o.surface_dof[k]] += o.qs[static_cast<Eigen::Index>(k)];
      }
      if (any_held_)
        for (Eigen::Index d = 0; d < q.size(); ++d)
          if (o.held_dof[sz(static_cast<Index>(d))]) q[d] = p[d];
    };
    // Warm-started from the last solution (o.y, zero on the held DOFs as the solution is), which the
    // two-term first step rescales.
    double rnorm = 0.0;
    int it = 0;
    project(o.y);
    if (bnorm == 0.0)
      o.y.setZero();
    else
      it = detail::warm_started_pcg(apply, precondition, o.b, o.y, solver_.pcg_tolerance * bnorm,
                                    solver_.pcg_max_iterations, o.r, o.z, o.p, o.q, &rnorm);
    report.cg_iterations += it;
    report.relative_residual = bnorm > 0.0 ? rnorm / bnorm : 0.0;
  } else {
    o.factor->solve(o.b, o.y);
    o.q.noalias() = o.A * o.y;
    report.relative_residual = bnorm > 0.0 ? (o.b - o.q).norm() / bnorm : 0.0;
  }
  for (std::size_t k = 0; k < o.system_nodes.size(); ++k)
    dv_[sz(o.system_nodes[k])] += o.y.segment<3>(3 * static_cast<Eigen::Index>(k));
  if (condensation_) {
    for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
      o.us[static_cast<Eigen::Index>(k)] = o.y[o.surface_dof[k]];
    condensation_->recover_interior(o.lin_b, o.us, o.yi);
    for (std::size_t q = 0; q < interior_dofs_.size(); ++q)
      dv_[sz(interior_dofs_[q] / 3)][static_cast<Eigen::Index>(interior_dofs_[q] % 3)] +=
          o.yi[static_cast<Eigen::Index>(q)];
  }
  return std::isfinite(report.relative_residual);
}

// rest_factor_pcg: the system at rest with the current topology (after a cut the body is not at rest:
// the node frames supply the rotations), factored once. With split_blocks() only A_ii (simplicial, in
// `factor`), and T at rest is computed the first time (at build) and kept: a cut leaves the interface alone
// and pays no dense work. Without, the whole system, kept in float (single_precision_factor.hpp: the
// preconditioner streams half the bytes).
bool HybridSolver::factor_rest() {
  Operational& o = *op_;
  assemble_operational_at(o.model->rest_positions());
  if (split_blocks()) {
    if (!factor_interior()) return false;
    if (!interface_pc_->ready && !refresh_interface_preconditioner()) return false;
  } else {
    auto full = SparseCholesky::factor(o.A, CholeskyBackend::cholmod_supernodal);
    if (!full) return false;
    auto single = SinglePrecisionFactor::build(full.value());
    if (!single) return false;
    o.rest.emplace(std::move(single.value()));
  }
  o.rest_ready = true;
  return true;
}

bool HybridSolver::factor_interior() {
  Operational& o = *op_;
  fill_block(o.A, o.ib_offset, o.a_ib);
  fill_block(o.A, o.bb_offset, o.a_bb);
  if (o.interior_dof.empty()) return true;
  fill_block(o.A, o.ii_offset, o.a_ii);
  if (!o.factor) {
    // Simplicial: A_ii is small and very sparse, where the supernodal factorisation's tiny BLAS calls
    // dominate (sparse_cholesky.hpp).
    auto f = SparseCholesky::factor(o.a_ii, CholeskyBackend::cholmod_simplicial);
    if (!f) return false;
    o.factor.emplace(std::move(f.value()));
  } else if (!o.factor->refactor(o.a_ii)) {
    o.factor.reset();
    return false;
  }
  return true;
}

bool HybridSolver::refresh_interface_preconditioner() {
  Operational& o = *op_;
  InterfacePreconditioner& pc = *interface_pc_;
  pc.t = condensation_->condensed_matrix();
  pc.t += Eigen::MatrixXd(o.a_bb);
  if (!o.interior_dof.empty()) {
    const Eigen::MatrixXd X = o.factor->solve(Eigen::MatrixXd(o.a_ib));
    pc.t.noalias() -= o.a_ib.transpose() * X;
  }
  pc.llt.compute(pc.t);
  pc.ready = pc.llt.info() == Eigen::Success;
  if (pc.ready) {
    pc.inverse.setIdentity(pc.t.rows(), pc.t.cols());
    pc.llt.solveInPlace(pc.inverse);
    if (solver_.solver == LinearSolverKind::rest_factor_pcg) {
      // Computed once (at build) and never refreshed: only the float inverse is kept.
      pc.inverse_float = pc.inverse.cast<float>();
      pc.inverse.resize(0, 0);
      pc.t.resize(0, 0);
      pc.llt.compute(Eigen::MatrixXd());  // (a default-constructed LLT assigned over it reads an unset info)
    }
  }
  ++pc.refreshes;
  return pc.ready;
}

// The interface system T x_b = g_b, T = S + A_bb - A_bi A_ii⁻¹ A_ib, g_b = b_b - A_bi A_ii⁻¹ b_i, by CG
// with T applied through A_ii solves and S as a dense product; then y_i = A_ii⁻¹ (b_i - A_ib x_b).
bool HybridSolver::solve_interface(ImplicitReport& report) {
  Operational& o = *op_;
  InterfacePreconditioner& pc = *interface_pc_;
  const Eigen::MatrixXd& S = condensation_->condensed_matrix();
  const bool interior = !o.interior_dof.empty();
  for (std::size_t k = 0; k < o.interior_dof.size(); ++k)
    o.bi[static_cast<Eigen::Index>(k)] = o.b[o.interior_dof[k]];
  for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
    o.gb[static_cast<Eigen::Index>(k)] = o.b[o.surface_dof[k]];
  if (interior) {
    o.factor->solve(o.bi, o.ti);
    o.gb.noalias() -= o.a_ib.transpose() * o.ti;
  }
  // Held interface DOFs: T projected onto the free ones (P T P, identity on the held), its preconditioner
  // too (P T_ref⁻¹ P).
  auto project = [&](Eigen::VectorXd& vec) {
    if (!any_held_) return;
    for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
      if (o.held_dof[sz(o.surface_dof[k])]) vec[static_cast<Eigen::Index>(k)] = 0.0;
  };
  auto apply = [&](const Eigen::VectorXd& p, Eigen::VectorXd& q) {
    q.noalias() = S.selfadjointView<Eigen::Lower>() * p;
    q.noalias() += o.a_bb * p;
    if (interior) {
      o.aib_p.noalias() = o.a_ib * p;
      o.factor->solve(o.aib_p, o.ti);
      q.noalias() -= o.a_ib.transpose() * o.ti;
    }
    if (any_held_)
      for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
        if (o.held_dof[sz(o.surface_dof[k])])
          q[static_cast<Eigen::Index>(k)] = p[static_cast<Eigen::Index>(k)];
  };
  project(o.gb);
  project(o.xb);
  if (!pc.ready && !refresh_interface_preconditioner()) return false;
  const double gnorm = o.gb.norm(), tol = solver_.pcg_tolerance * gnorm;
  // Warm start from the last solution when that beats zero (it does from step to step: 10 % fewer
  // iterations on the benchmark organ).
  o.rb = o.gb;
  apply(o.xb, o.qb);
  o.zb = o.gb - o.qb;
  if (o.zb.norm() < gnorm)
    o.rb = o.zb;
  else
    o.xb.setZero();
  // The explicit inverse, applied as a symmetric product: half the memory traffic of the two triangular
  // solves with the factor.
  auto precondition = [&]() {
    o.zb.noalias() = pc.inverse.selfadjointView<Eigen::Lower>() * o.rb;
    project(o.zb);
  };
  precondition();
  o.pb = o.zb;
  double rz = o.rb.dot(o.zb), rnorm = o.rb.norm();
  int it = 0;
  while (rnorm > tol && it < solver_.pcg_max_iterations) {
    apply(o.pb, o.qb);
    const double pq = o.pb.dot(o.qb);
    if (!(pq > 0.0)) break;
    const double step = rz / pq;
    o.xb += step * o.pb;
    o.rb -= step * o.qb;
    rnorm = o.rb.norm();
    ++it;
    if (rnorm <= tol || it == solver_.pcg_max_iterations) break;
    precondition();
    const double rz_new = o.rb.dot(o.zb);
    o.pb = o.zb + (rz_new / rz) * o.pb;
    rz = rz_new;
  }
  report.cg_iterations += it;
  report.relative_residual = gnorm > 0.0 ? rnorm / gnorm : 0.0;
  for (std::size_t k = 0; k < o.surface_dof.size(); ++k)
    o.y[o.surface_dof[k]] = o.xb[static_cast<Eigen::Index>(k)];
  if (interior) {
    o.bi.noalias() -= o.a_ib * o.xb;
    o.factor->solve(o.bi, o.ti);
    for (std::size_t k = 0; k < o.interior_dof.size(); ++k)
      o.y[o.interior_dof[k]] = o.ti[static_cast<Eigen::Index>(k)];
  }
  if (interface_refresh_ > 0 && it > interface_refresh_) refresh_interface_preconditioner();
  return true;
}

void HybridSolver::newton(std::span<const Vec3> x, std::span<const Vec3> v, const NewtonForm& form,
                          int first_iteration, double reference, ImplicitReport& report) {
  const std::size_t n = x.size();
  for (int k = first_iteration; k < solver_.max_newton_iterations; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      const bool kinematic = active_[i] == 0.0;
      xk_[i] = kinematic ? x[i] : Vec3(x[i] + form.position_scale * (dv_[i] + form.velocity_share * v[i]));
      vk_[i] = kinematic ? v[i] : Vec3(v[i] + form.velocity_scale * dv_[i]);
    }
    total_forces(xk_, vk_, f_);
    double norm = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      rhs_[i] = form.force_scale * f_[i] - mass_[i] * dv_[i];
      if (active_[i] != 0.0) norm += rhs_[i].squaredNorm();
    }
    norm = std::sqrt(norm);
    if (reference <= 0.0) {
      reference = norm > 0.0 ? norm : 1.0;
    } else {
      report.newton_residual = norm / reference;
      if (report.newton_residual <= solver_.newton_tolerance) return;
    }
    if (!solve_increment(xk_, report)) report.converged = false;
    ++report.newton_iterations;
    if (!report.converged) return;
  }
}

ImplicitReport HybridSolver::step(std::span<Vec3> x, std::span<Vec3> v) {
  ImplicitReport report;
  const std::size_t n = rest_.size();
  if (x.size() != n || v.size() != n) {
    report.converged = false;
    return report;
  }
  const double h = solver_.dt;
  if (solver_.scheme == ImplicitScheme::newmark) {
    constexpr dynamics::NewmarkParameters newmark;  // average acceleration, as form_
    if (!has_acceleration_) {
      total_forces(x, v, f_);
      for (std::size_t i = 0; i < n; ++i) acc_[i] = active_[i] != 0.0 ? Vec3(f_[i] / mass_[i]) : Vec3::Zero();
      has_acceleration_ = true;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (active_[i] != 0.0) dynamics::newmark_predict(newmark, h, acc_[i], x[i], v[i]);
    for (Vec3& d : dv_) d.setZero();
    newton(x, v, form_, 0, 0.0, report);
    for (std::size_t i = 0; i < n; ++i) {
      if (active_[i] == 0.0) continue;
      acc_[i] = dv_[i];
      dynamics::newmark_correct(newmark, h, dv_[i], x[i], v[i]);
    }
    return report;
  }
  // Backward Euler; iteration 0 linearised at (x, v).
  total_forces(x, v, f_);
  for (std::size_t i = 0; i < n; ++i) rhs_[i] = h * f_[i];
  add_stiffness_product(x, v, -h * h, rhs_);
  double rhs_norm = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (active_[i] != 0.0) rhs_norm += rhs_[i].squaredNorm();
  rhs_norm = std::sqrt(rhs_norm);
  for (Vec3& d : dv_) d.setZero();
  if (!solve_increment(x, report)) report.converged = false;
  report.newton_iterations = 1;
  if (report.converged) newton(x, v, form_, 1, rhs_norm > 0.0 ? rhs_norm : 1.0, report);
  for (std::size_t i = 0; i < n; ++i)
    if (active_[i] != 0.0) dynamics::backward_euler_advance(h, dv_[i], x[i], v[i]);
  return report;
}

}  // namespace pliant::fem
