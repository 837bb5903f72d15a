// The hybrid operational / non-operational FEM body of Wu & Heng (2005, "Interactive soft-tissue
// simulation using a hybrid finite element model", reviewed by Huang & Wang 2007): one mesh split by a
// per-tet flag into an operational part (the body's element, corotational or hyperelastic, reassembled
// every Newton iteration, the part a cutter may change) and a non-operational part (linear, constant),
// coupled at their shared nodes so that the whole behaves as one body.
//
// Nodes fall into three sets: O (touched by operational tets only), I (the interface, touched by both)
// and N (non-operational only). The implicit system of backward Euler or Newmark (implicit_solver.hpp),
//     A = cm M + ck K,   K = K_op(x) + K_lin,   M = M_op + M_lin (lumped, each part its ρV/4 share),
// splits into the operational part over O∪I, which changes with x, and the constant non-operational part
// over I∪N (its share of mass, Rayleigh damping and stiffness). The latter's interior N is eliminated once
// (condensation.hpp, Bro-Nielsen & Cotin 1996): the dense Schur complement
//     S = A_II^lin - A_IN A_NN⁻¹ A_NI
// on I and a sparse factor of A_NN are built at construction. Each Newton iteration then solves the
// operational system (A_op + S on I) y_OI = b_OI - [A_IN A_NN⁻¹ b_N on I] by CHOLMOD (symbolic analysis
// once per topology, numeric refactorisation per iteration) and recovers y_N = A_NN⁻¹ (b_N - A_NI y_I)
// by back-substitution. Forces of the linear part are products with its constant K_lin. Without a change
// of topology every step equals, to round-off, ImplicitSolver on the same mesh with linear elements in the
// non-operational tets and the body's element in the operational ones (FemBodyDef::tet_elements).
//
// The interface split (solver interface_pcg) keeps the dense S out of the per-iteration factorisation.
// With the operational system's DOFs split into its interior i (not on the interface) and the interface
// b, it factors only the sparse A_ii (numerically, reusing its analysis) and solves the interface system
//     T x_b = b_b - A_bi A_ii⁻¹ b_i,   T = S + A_bb - A_bi A_ii⁻¹ A_ib,
// by conjugate gradients, T applied as a dense product with S plus one A_ii solve, preconditioned by the
// explicit inverse of T at a reference state (the rest shape, computed at build by a dense Cholesky
// factorisation; recomputed at the current state after a solve that needed more than
// set_interface_refresh iterations), warm-started from the last solution; then y_i = A_ii⁻¹ (b_i - A_ib x_b).
// The answer is the direct path's to the CG tolerance. replace_operational keeps the preconditioner (the
// interface is unchanged), so a cut costs no dense work.
//
// The local solver update (Wu & Heng's cut region): replace_operational swaps the operational tets
// (some removed, some new, new nodes appended) and rebuilds only the operational structures; the
// condensed non-operational part is kept as long as the interface nodes stay where they were.
#pragma once

#include "pliant/dynamics/implicit_scheme.hpp"

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/implicit/implicit_solver.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace pliant::linalg {
class Condensation;
}  // namespace pliant::linalg

namespace pliant::fem {

class HybridSolver {
 public:
  /// Splits `rest` by `operational` (#tets flags, non-zero = operational) and condenses the
  /// non-operational part. `materials`: 1 or #tets (per tet of `rest`). `def.element` is the operational
  /// element (def.tet_elements is ignored); α, β, gravity, the fixed nodes (global ids) and the surface
  /// loads (pressure and traction, their node forces added where the node belongs, as FemForceModel adds
  /// them; the pressure's load stiffness is left out of the tangent as there) apply to both parts; `def.mass`
  /// must be lumped (a consistent mass is refused). `solver` must be backward_euler or newmark with the
  /// cholmod solver, or with rest_factor_pcg: CG on the operational system (matrix-free products) to
  /// pcg_tolerance (relative) within pcg_max_iterations, preconditioned by the system at rest in rotated node
  /// frames: with a condensed part, by blocks, a float CHOLMOD factor of the interior block A_ii at rest
  /// (refactored after replace_operational) and the dense inverse of the interface system T at rest (computed
  /// at build and kept, as interface_pcg's: a cut pays no dense work), else a float factor of the whole
  /// system at rest; no numeric refactorisation per step; or with interface_pcg: the interface split above,
  /// CG on the interface system to pcg_tolerance (relative to its right-hand side) within pcg_max_iterations
  /// (the direct path when nothing is condensed). Fails with one line on a bad mesh, material or def, a flag
  /// count other than #tets, no operational tet, an operational part whose nodes are all fixed, a
  /// non-operational part that touches the operational one at fixed nodes only while having free nodes of its
  /// own, or a condensation that fails.
  static Result<HybridSolver> build(const TetMesh& rest, std::span<const materials::Material> materials,
                                    const FemBodyDef& def, std::span<const std::uint8_t> operational,
                                    const ImplicitSolverDef& solver);
  HybridSolver(HybridSolver&&) noexcept;
  HybridSolver& operator=(HybridSolver&&) noexcept;
  ~HybridSolver();

  /// Advances x and v (node_count() each, unit: m and m/s) by one step; fixed nodes and nodes in no tet
  /// stay as given. Returns converged = false (and leaves x, v alone) on a size mismatch.
  ImplicitReport step(std::span<Vec3> x, std::span<Vec3> v);
  /// Forgets Newmark's acceleration.
  void reset_history() { has_acceleration_ = false; }

  /// The local solver update: `appended_rest` adds nodes at the end (unit: m, new ids node_count()…,
  /// free), `tets` (global node ids) and `materials` (1 or one per tet) replace all operational tets.
  /// Only the operational structures (its element model, pattern and symbolic factorisation) are rebuilt;
  /// the condensed part is kept. Fails with one line, changing nothing, when a tet uses a node out of range
  /// or a non-interface node of the non-operational part, is degenerate, or no tet is given. Afterwards x
  /// and v passed to step must have the new node_count(); nodes left in no tet are not stepped.
  Status replace_operational(std::span<const Vec3> appended_rest, std::span<const Tet> tets,
                             std::span<const materials::Material> materials);

  /// External point force on a node (unit: N), added to the forces; all zero at build.
  void set_point_force(Index node, const Vec3& force) {
    point_force_[static_cast<std::size_t>(node)] = force;
  }
  void clear_point_forces();
  /// Changes gravity (unit: m/s²) for both parts.
  void set_gravity(const Vec3& gravity);
  /// Makes `held` (global node ids) kinematic, on top of the fixed nodes, and frees the nodes held before,
  /// without rebuilding anything: a held node's DOFs become identity rows and columns of the operational
  /// system (values only: the CHOLMOD analysis and the condensation stay; holding an interface DOF of the
  /// condensed S amounts to deleting its row and column, which is the Schur complement the condensation
  /// would give with that node fixed), with a zero right-hand side; CG (rest_factor_pcg, interface_pcg)
  /// runs on the free subspace with its preconditioner projected onto it. Fixed nodes in `held` are
  /// ignored. Fails with one line, changing nothing, on a node out of range or a node of the condensed
  /// interior (non-operational tets only): holding one of those changes A_NN, so build with it fixed
  /// instead. Forgets Newmark's acceleration and the warm start.
  Status set_held_nodes(std::span<const Index> held);

  std::size_t node_count() const { return rest_.size(); }
  const std::vector<Vec3>& rest_positions() const { return rest_; }
  /// Lumped node masses (unit: kg), both parts' shares summed.
  std::span<const double> mass() const { return mass_; }
  /// Interface nodes I (global ids, ascending), fixed ones included.
  const std::vector<Index>& interface_nodes() const { return interface_; }
  /// Current operational tets (global node ids).
  const std::vector<Tet>& operational_tets() const { return op_tets_; }
  std::size_t non_operational_tet_count() const { return lin_tet_count_; }
  /// The operational part as a force model over its own nodes (operational_nodes() gives their ids).
  const FemForceModel& operational_model() const;
  const std::vector<Index>& operational_nodes() const { return op_nodes_; }
  /// The condensation of the non-operational part; null when every tet is operational.
  const linalg::Condensation* condensation() const { return condensation_.get(); }
  /// How many times this object condensed its non-operational part (1 after build, or 0 without one).
  int condensation_builds() const { return condensation_builds_; }
  /// Seconds build() spent condensing (unit: s).
  double condensation_seconds() const { return condensation_seconds_; }
  const ImplicitSolverDef& def() const { return solver_; }
  /// interface_pcg: the preconditioner is recomputed (at the state just solved: a block solve with A_ii
  /// for every interface DOF and a dense factorisation, on the benchmark organ the cost of a few steps)
  /// after a solve that took more than this many CG iterations; 0 = never after the one at build.
  /// Default 40.
  void set_interface_refresh(int cg_iterations) { interface_refresh_ = cg_iterations; }
  /// interface_pcg: how many times the dense interface preconditioner was computed (0 otherwise).
  int interface_refreshes() const;

 private:
  struct Operational;
  struct InterfacePreconditioner;
  HybridSolver();
  // interface_pcg's solve of the interface system (below).
  bool interface_split() const {
    return solver_.solver == LinearSolverKind::interface_pcg && condensation_ != nullptr;
  }
  // The operational system kept as the blocks of its interior and its interface, S outside its pattern:
  // interface_pcg, and rest_factor_pcg's block preconditioner.
  bool split_blocks() const {
    return (solver_.solver == LinearSolverKind::interface_pcg ||
            solver_.solver == LinearSolverKind::rest_factor_pcg) &&
           condensation_ != nullptr;
  }
  bool factor_rest();
  bool factor_interior();
  bool refresh_interface_preconditioner();
  bool solve_interface(ImplicitReport& report);
  Status build_operational(std::vector<Tet> tets, std::vector<materials::Material> materials);
  void total_forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f);
  void add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y);
  // Marks the operational system's held DOFs (op_->held_dof) from held_.
  void mark_held_dofs();
  // Fills the values of the operational matrix A at x (after forces at x cached the rotations).
  void assemble_operational(std::span<const Vec3> x);
  // The same at the operational model's own node positions (its numbering).
  void assemble_operational_at(std::span<const Vec3> local_x);
  // Assembles A at x and solves A y = rhs_ on the free nodes; dv_ += y. False when CHOLMOD fails.
  bool solve_increment(std::span<const Vec3> x, ImplicitReport& report);
  // The scheme's Newton form (dynamics/implicit_scheme.hpp), as for the whole-body solver.
  using NewtonForm = dynamics::ImplicitForm;
  void newton(std::span<const Vec3> x, std::span<const Vec3> v, const NewtonForm& form, int first_iteration,
              double reference, ImplicitReport& report);

  FemBodyDef def_;
  ImplicitSolverDef solver_;
  NewtonForm form_{};           // the scheme's, for the step dt
  double cm_ = 1.0, ck_ = 0.0;  // A = cm M + ck K (form_'s coefficients)
  std::vector<Vec3> rest_;
  std::vector<std::uint8_t> fixed_;  // per node
  std::vector<std::uint8_t> held_;   // per node: held by set_held_nodes (never a fixed one)
  bool any_held_ = false;
  std::vector<double> mass_;    // per node, both shares
  std::vector<double> active_;  // per node: 1 when stepped (free, with mass), else 0
  std::vector<Index> interface_;
  std::vector<std::uint8_t> interface_flag_;  // per node
  std::vector<Index> lin_index_;              // per node: its index among lin_nodes_, -1 if none
  std::vector<double> lin_mass_only_;         // per node: the non-operational share of mass_
  std::vector<Vec3> point_force_;

  // Non-operational (linear) part, over its nodes I∪N in ascending global order.
  std::size_t lin_tet_count_ = 0;
  std::vector<Index> lin_nodes_;
  std::vector<double> lin_mass_;  // per lin node (unit: kg)
  SparseMatrix lin_k_;            // 3·#lin nodes square (unit: N/m)
  std::unique_ptr<linalg::Condensation> condensation_;
  std::vector<Index> surface_nodes_;  // free interface nodes in the condensation's surface order
  std::vector<Index> interior_dofs_;  // global DOF 3i + c of each interior DOF of the condensation
  std::vector<Index> lin_free_dof_;   // per lin node: first DOF in the condensed system, -1 if fixed
  int condensation_builds_ = 0;
  double condensation_seconds_ = 0.0;
  Eigen::VectorXd lin_u_, lin_v_, lin_f_, lin_rhs_;

  std::vector<Tet> op_tets_;
  std::vector<Index> op_nodes_;
  std::unique_ptr<Operational> op_;
  std::unique_ptr<InterfacePreconditioner> interface_pc_;
  int interface_refresh_ = 40;

  std::vector<Vec3> f_, rhs_, dv_, xk_, vk_, acc_;
  bool has_acceleration_ = false;
};

}  // namespace pliant::fem
