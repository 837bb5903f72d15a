// The dynamic FEM body as the force model pliant::dynamics advances: linear, corotational or
// hyperelastic tetrahedra (one kind, or one per tet) with per-tet materials, lumped or consistent mass
// (mass.hpp), Rayleigh damping C = αM + βK with the same M, gravity, point forces and kinematic (fixed)
// nodes.
//
// Per-tet rest data (Dm⁻¹, volume, Lamé constants) is computed once and kept as plain arrays. Every
// element force is a stress times the shape gradients, f_a = -V P ∇N_a (Sifakis & Barbič 2012, §4):
//  - linear:        P = σ(ε),  ε = sym(F) - I, σ = λ tr(ε) I + 2μ ε (equals -K0 (x - X) exactly);
//  - corotational:  P = R σ(sym(Rᵀ F) - I), R from the polar decomposition of F: equals
//                   -R K0 (Rᵀ x - X) of Müller & Gross 2004 (corotational_tet.hpp);
//  - StVK, stable Neo-Hookean: P = ∂Ψ/∂F (hyperelastic_tet.hpp).
// Stiffness products K p use the same form with dP = (∂P/∂F) dF, dF = Σ_b p_b ∇N_bᵀ: σ(sym(dF)) for
// linear, R σ(sym(Rᵀ dF)) for corotational (the warped stiffness R K0 Rᵀ), and the positive semidefinite
// projection of ∂P/∂F for the hyperelastic elements, so every K is symmetric positive semidefinite.
// The damping D = β K is evaluated at the same positions.
//
// Parallel and deterministic: each tet writes its four node forces to its own slot, then each node sums
// the slots of its incident tets in a fixed order (a node→tet incidence list), so results are
// bit-identical for any thread count. The state-dependent part of K (R ∇N_a or projected ∂P/∂F per tet) is
// cached for the last positions seen by forces() or a product, so the many products of one implicit
// solve reuse it. No allocation after construction; the cache makes the object unsafe to use from
// several threads at once.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/dynamics/force_model.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/elements/deformation_gradient.hpp"
#include "pliant/models/fem/elements/linear_tet.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace pliant::fem {

namespace detail {
struct TetLaneData;
}

/// The element formulations of a dynamic FEM body.
enum class ElementKind {
  linear,              ///< small-strain linear elasticity (inflates under large rotations)
  corotational,        ///< Müller & Gross 2004 stiffness warping
  stvk,                ///< St. Venant-Kirchhoff hyperelasticity
  stable_neo_hookean,  ///< Smith, de Goes & Kim 2018
};

/// The element's name as scene files spell it ("linear", "corotational", "stvk", "neo_hookean").
const char* element_kind_name(ElementKind kind);
/// Parses the names above ("stable_neo_hookean" is accepted too). Fails with one line listing them.
Result<ElementKind> parse_element_kind(std::string_view name);

/// A load on surface triangles (volume node ids, ordered so that the right-hand rule points out of
/// the body, as extract_boundary gives them). Consistent node loads for a uniform load on a linear
/// triangle: a third of the triangle's force on each corner.
struct SurfaceLoad {
  std::vector<Tri> triangles;
  /// Pressure on the current (deformed) triangles, along −n (unit: Pa; positive pushes in): a follower
  /// load, turning and stretching with the surface. Its (non-symmetric) load stiffness is not part of
  /// the tangent the implicit solvers use.
  double pressure = 0.0;
  /// Traction per unit rest area, fixed in direction and size (unit: Pa = N/m²): a dead load.
  Vec3 traction = Vec3::Zero();
};

/// f += the consistent node forces of `loads` at positions x (pressure on the current triangles, traction
/// per rest area of `rest`; unit: N): what FemForceModel::forces adds, for other solvers of the same body
/// (hybrid_solver.hpp). Node ids must be in range of rest, x and f.
void add_surface_load_forces(std::span<const SurfaceLoad> loads, std::span<const Vec3> rest,
                             std::span<const Vec3> x, std::span<Vec3> f);

/// The mass matrix of a dynamic FEM body (mass.hpp).
enum class MassKind {
  lumped,      ///< diagonal, ρV/4 per tet node: every scheme
  consistent,  ///< ρV/20 (1 + δ_ab) I₃ per tet node pair: the implicit schemes only (ImplicitSolver, and
               ///< dynamics::Integrator's backward Euler, Newmark and Houbolt); explicit schemes need a
               ///< diagonal M and would take mass(), the lumped row sums, instead
};

/// "lumped" or "consistent".
const char* mass_kind_name(MassKind kind);

/// Plain settings of a FEM body (C++20 aggregate).
struct FemBodyDef {
  ElementKind element = ElementKind::corotational;
  /// The mass matrix M of the inertia, the Rayleigh term αM and the gravity load M g (the same node
  /// forces m_i g for either kind, as the consistent rows sum to the lumped masses).
  MassKind mass = MassKind::lumped;
  double rayleigh_alpha = 0.0;          ///< mass-proportional damping α (unit: 1/s), ≥ 0
  double rayleigh_beta = 0.0;           ///< stiffness-proportional damping β (unit: s), ≥ 0
  Vec3 gravity = Vec3::Zero();          ///< body acceleration g, force m_i g per node (unit: m/s²)
  std::vector<Index> fixed_nodes = {};  ///< kinematic nodes (inverse mass 0), any order
  /// Per-tet element kinds (#tets entries), overriding `element` tet by tet (e.g. linear tets around a
  /// corotational region, the full-body counterpart of hybrid_solver.hpp); empty: `element` everywhere.
  std::vector<ElementKind> tet_elements = {};
  /// Pressure and traction loads on surface triangles.
  std::vector<SurfaceLoad> surface_loads = {};
};

class FemForceModel final : public dynamics::ForceModel {
 public:
  /// Builds the body from its rest mesh and one material (the same everywhere) or one per tet, whose
  /// density gives the lumped masses ρV/4 per tet node. Fails with one line on a bad mesh
  /// (check_fem_mesh), a material count other than 1 or #tets, a tet_elements count other than 0 or
  /// #tets, an invalid material, a negative or non-finite α/β or gravity, a fixed node out of range, or
  /// a surface load with a node out of range or a non-finite value.
  static Result<FemForceModel> build(const TetMesh& rest, std::span<const materials::Material> materials,
                                     const FemBodyDef& def);

  /// Lumped node masses (unit: kg): for a consistent mass, its row sums (the same values).
  std::span<const double> mass() const override { return mass_; }
  std::span<const double> inverse_mass() const override { return inverse_mass_; }
  double mass_damping() const override { return def_.rayleigh_alpha; }
  bool diagonal_mass() const override { return def_.mass == MassKind::lumped; }
  /// y += scale M p over all nodes with def().mass's M (unit: kg times p's unit).
  void add_mass_product(std::span<const Vec3> p, double scale, std::span<Vec3> y) const override;
  /// ρV of tet t (unit: kg): its lumped node mass is a quarter, its consistent blocks ρV/20 (1 + δ_ab).
  double tet_mass(Index t) const {
    const auto ts = static_cast<std::size_t>(t);
    return material_[ts].density * shape_.volume[ts];
  }
  /// Elastic, damping (-α M v - β K v), gravity, point forces and surface loads at (x, v) (unit: N).
  void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f) const override;
  /// forces(x, v, f) with the stiffness-proportional damping raised from β to β + extra_beta (unit: s):
  /// f - extra_beta K(x) v in one pass over the tets, where a separate stiffness product would take a
  /// second (linearised backward Euler's right-hand side h (f - h K v) with extra_beta = h).
  void forces(std::span<const Vec3> x, std::span<const Vec3> v, std::span<Vec3> f, double extra_beta) const;
  /// y += scale K(x) p, K positive semidefinite (see the header comment).
  void add_stiffness_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                             std::span<Vec3> y) const override;
  /// y += scale β K(x) p.
  void add_damping_product(std::span<const Vec3> x, std::span<const Vec3> p, double scale,
                           std::span<Vec3> y) const override;
  /// (beta_k + beta_d β) times the trace/3 of each node's rest (linear) diagonal block.
  void add_jacobi_diagonal(std::span<const Vec3> x, double beta_k, double beta_d,
                           std::span<double> diagonal) const override;

  /// Per node, the rotation R of one of its corotational tets at positions x (the identity for a node in
  /// none): the node frames of ImplicitSolver's rotated rest-shape preconditioner. Reuses the rotations
  /// forces() or a product cached for x.
  void node_rotations(std::span<const Vec3> x, std::span<Mat3> out) const;

  /// Elastic energy at positions x (unit: J): ½ uᵀ K0 u for linear, the corotational energy of
  /// corotational_tet.hpp, Σ V Ψ(F) for hyperelastic.
  double elastic_energy(std::span<const Vec3> x) const;
  /// Kinetic energy ½ vᵀ M v over all nodes with def().mass's M (unit: J).
  double kinetic_energy(std::span<const Vec3> v) const;

  /// The element stiffness (unit: N/m, 12×12) of tet t at positions x, the one the products use.
  Mat12 element_stiffness(std::span<const Vec3> x, Index t) const;
  /// element_stiffness of every tet at x into out (#tets entries), in parallel; reuses the rotations or
  /// projected ∂P/∂F that forces() or a product cached for the same x.
  void element_stiffnesses(std::span<const Vec3> x, std::span<Mat12> out) const;
  /// Calls visit(t, K_t) for every tet with its element stiffness at x, in tet order (for assembly).
  template <typename Visit>
  void for_each_element_stiffness(std::span<const Vec3> x, Visit&& visit) const {
    for (Index t = 0; t < static_cast<Index>(tets_.size()); ++t) visit(t, element_stiffness(x, t));
  }

  /// External point force on a node (unit: N), added by forces(); all zero at build.
  void set_point_force(Index node, const Vec3& force) {
    point_force_[static_cast<std::size_t>(node)] = force;
  }
  void clear_point_forces();
  std::span<const Vec3> point_forces() const { return point_force_; }
  /// Changes gravity (unit: m/s²).
  void set_gravity(const Vec3& gravity) { def_.gravity = gravity; }
  /// Makes `held` (node ids, any order) kinematic on top of def().fixed_nodes (inverse mass 0) and frees
  /// the nodes held before: a grab without a rebuild (ImplicitSolver::refresh_held_nodes follows it).
  /// def() keeps the build-time fixed nodes. Fails with one line, changing nothing, on a node out of range.
  Status set_held_nodes(std::span<const Index> held);

  const FemBodyDef& def() const { return def_; }
  const std::vector<Vec3>& rest_positions() const { return rest_; }
  const std::vector<Tet>& tets() const { return tets_; }
  std::size_t node_count() const { return rest_.size(); }
  /// Rest shape (Dm⁻¹ and volume) of every tet.
  const TetRestShape& rest_shape() const { return shape_; }
  /// The element kind of tet t (def().element unless def().tet_elements overrides it).
  ElementKind element(Index t) const { return kind_[static_cast<std::size_t>(t)]; }
  /// The material of tet t.
  const materials::Material& material(Index t) const { return material_[static_cast<std::size_t>(t)]; }

 private:
  // f += the surface loads' consistent node forces at positions x.
  void add_surface_loads(std::span<const Vec3> x, std::span<Vec3> f) const;

  FemBodyDef def_;
  std::vector<Vec3> rest_;
  std::vector<Tet> tets_;
  TetRestShape shape_;
  std::vector<materials::Material> material_;  // per tet
  std::vector<ElementKind> kind_;              // per tet
  bool any_corotational_ = false, any_hyperelastic_ = false;
  std::vector<double> mass_, inverse_mass_;  // per node (unit: kg, 1/kg)
  std::vector<double> rest_diagonal_;        // per node: trace/3 of the rest K_aa (unit: N/m)
  std::vector<Index> incident_offsets_;      // #nodes + 1
  std::vector<Index> incident_slots_;        // per incidence, node order: its slot's place in slots_
  std::vector<Vec3> point_force_;

  // Per-tet scratch and the state cache (see header comment).
  // Lane arrays (eight tets side by side, corotational_lanes.hpp): per tet its 4 node slots (its
  // contribution to its nodes), corotational R [∇N_1 ∇N_2 ∇N_3] = R Dm⁻ᵀ, and (below) Dm⁻¹ and -V λ, -V μ.
  mutable std::vector<double> slots_;
  mutable std::vector<double> rotated_;
  std::vector<Index> node_tet_;          // per node: a corotational tet holding it, -1 if none
  std::vector<Mat3> node_dm_;            // per node: that tet's Dm (R = R Dm⁻ᵀ Dmᵀ)
  std::vector<Tet> lane_tets_;           // tets_ padded to whole groups (corotational bodies)
  std::vector<double> lane_dm_inverse_;  // lane array: Dm⁻¹
  std::vector<double> moduli_;
  mutable std::vector<Mat9> dpdf_;      // hyperelastic projected ∂P/∂F per tet
  mutable std::vector<Vec3> cached_x_;  // positions the cache holds
  mutable bool rotation_valid_ = false, dpdf_valid_ = false;
  // Per group of eight consecutive tets (corotational_lanes.hpp): 1 when all are corotational, so that
  // their loops run in SIMD lanes.
  std::vector<char> corotational_group_;

  // Makes the cache hold x's rotations (corotational) or projected ∂P/∂F (hyperelastic, with_dpdf).
  void update_cache(std::span<const Vec3> x, bool with_dpdf) const;
  // slots_ <- -V P(dF) ∇N for dF of field p (the stiffness product per tet, negated).
  void tet_stiffness_products(std::span<const Vec3> p) const;
  // The same for tet t alone, and its elastic (and β-damping) slots at (x, v), one tet at a time.
  void tet_stiffness_product(std::span<const Vec3> p, Index t) const;
  void tet_force(std::span<const Vec3> x, std::span<const Vec3> v, double beta, Index t) const;
  // The rest data the lane kernels read.
  detail::TetLaneData lane_data() const;
  void gather(double scale, std::span<Vec3> y) const;
};

}  // namespace pliant::fem
