// GreenBody: the run-time side of a precomputed Green's function asset, all by superposition.
//
// Nikitina et al. 2003 and Bro-Nielsen & Cotin (Eurographics 1996): with G = (K⁻¹)_S the surface
// Green's block, every frame's surface displacement is a linear combination of stored columns:
//   forces      u = G f                                    (rank-3 update per loaded node)
//   grabs       u_G = d at the k held nodes: solve the 3k×3k system C f_g = d − u_base(G) with
//               C = G_GG (factored once per grab set), then u = u_base + W (d − u_base(G)) where
//               W = G_SG C⁻¹ is formed once per grab set. A soft grab holds a patch of nodes that
//               translate together with its handle: d_i = h_m + (offset terms), so moving the handle
//               changes u by W̄_m Δh_m with W̄_m = Σ_{i ∈ patch m} W_i summed once per grab set —
//               a rank-3 update whatever the patch size. Its reaction is Σ_{i ∈ patch} f_i, and its
//               compliance (handle displacement per unit force on the rigid patch) is
//               (S_m C⁻¹ S_mᵀ)⁻¹ with S_m the 3×3k sum over the patch's node blocks;
//   control     u = Σ_e Σ_k c_ek u_e^(k), only elements whose parameters changed are updated;
//   loads       a uniform body force b (gravity: ρ g) adds Σ_k b_k u^(b_k) (the asset's stored responses);
//               a pressure p on a set of surface triangles adds p u_p, with u_p = G f_p for the unit
//               pressure's consistent node loads f_p (A/3 per corner along −n), formed once per set;
//   rotation    (Nikitina et al. 2003, appendix, remedy "average rotation of the control elements") the best
//               rotation R of all handles (grabs and control elements) from rest to target is fitted
//               (polar decomposition of the cross-covariance, Kabsch/Horn), the targets are un-rotated,
//               the linear problem is solved in that frame and the result rotated back, so a rigid motion
//               of every handle moves the body rigidly instead of shearing it.
// Increments are accumulated in double from the float store, so many small updates do not drift.
// Once warmed up, update() performs no heap allocation; set_grabs() (a grab set change) may allocate.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/green/green_asset.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <memory>
#include <span>
#include <vector>

namespace pliant::green {

/// Per-instance settings.
struct GreenDef {
  /// Fit the average rotation of the handles and solve in the rotated frame (Nikitina et al. 2003,
  /// appendix). A grab counts as one handle point (its handle node), whatever its patch.
  /// Fixed nodes rotate with the body too, so use it for bodies held by grabs and control elements.
  bool rotation_correction = false;
  /// Handles needed before a rotation is fitted: fewer than 3 non-collinear points leave it undefined,
  /// and the identity is used.
  int min_rotation_handles = 3;
};

/// A further node of a soft grab: held at the grab's target + offset.
struct GrabNode {
  Index node = 0;              ///< surface node index
  Vec3 offset = Vec3::Zero();  ///< from the grab's target (unit: m, world frame)
};

/// A grab: a surface node held at a target position and, for a soft grab, a patch of further surface
/// nodes moving rigidly (in translation) with it, each at target + offset. Its force is the sum of
/// the constraint forces on all its nodes.
struct Grab {
  Index node = 0;                    ///< surface node index (the handle)
  Vec3 target = Vec3::Zero();        ///< where `node` is held (unit: m, world frame)
  std::vector<GrabNode> patch = {};  ///< further held nodes (not `node`); empty: a single-node grab
};

/// What changes every frame.
struct GreenState {
  std::vector<Grab> grabs;        ///< current grabs (set with set_grabs, move with move_grab)
  std::vector<Vec3> grab_forces;  ///< force each grab applies to the body, summed over its patch
                                  ///< (unit: N); the reaction felt by the hand is its negative
  std::vector<Eigen::Matrix4d> control_transforms;  ///< per control element, rest -> current affine map
  std::vector<Vec3> positions;                      ///< current surface positions (unit: m)
  Mat3 rotation = Mat3::Identity();                 ///< fitted handle rotation of the last update
  Profile profile;                                  ///< stage times of the last update
};

class GreenBody {
 public:
  explicit GreenBody(std::shared_ptr<const GreenAsset> asset, GreenDef def = {});

  const GreenAsset& asset() const { return *asset_; }
  const GreenDef& def() const { return def_; }
  const GreenState& state() const { return state_; }

  /// Replaces the grab set (surface nodes, patches and targets). Fails on an out-of-range node, a
  /// constrained node, the same node twice (in one grab or two), or a non-finite target or offset.
  /// Factors the 3k×3k block of the k held nodes and forms W and the per-grab sums W̄.
  Status set_grabs(std::span<const Grab> grabs);
  /// Moves grab `index` to a new target (unit: m); takes effect at the next update.
  void move_grab(std::size_t index, const Vec3& target) { state_.grabs[index].target = target; }
  /// Sets the external force on a surface node (unit: N, world frame); zero removes it.
  void set_force(Index surface_node, const Vec3& force);
  /// Removes all external forces (not the body force or pressures).
  void clear_forces();
  /// Sets a uniform body-force density (unit: N/m³, world frame), e.g. ρ g for gravity; zero removes
  /// it. Takes effect at the next update. With rotation_correction it stays in the world frame.
  void set_body_force(const Vec3& density) { body_force_now_ = density; }
  /// Adds a pressure load acting on surface triangles (indices into asset().surface().triangles) and
  /// returns its index; its pressure starts at 0. Forms its response G f_p once (O(Ns) per loaded
  /// node). Fails on an empty set, an index out of range, or triangles of zero total area.
  Result<std::size_t> add_pressure_load(std::span<const Index> triangles);
  /// Sets load `index`'s pressure (unit: Pa; positive pushes the surface in, against its outward
  /// normal). The load follows the body's fitted rotation, not its deformation (linear theory).
  void set_pressure(std::size_t index, double pressure) { pressure_now_[index] = pressure; }
  std::size_t pressure_load_count() const { return pressure_now_.size(); }
  /// Sets control element e's affine map (4×4, last row 0 0 0 1): rest X -> M X + t.
  void set_control(std::size_t element, const Eigen::Matrix4d& transform) {
    state_.control_transforms[element] = transform;
  }

  /// Recomputes surface positions and grab forces. Stages: "control", "forces", "grabs", "surface".
  void update();

  /// Only the grab forces for the current targets (the haptic path: a 3k×3k solve, no surface
  /// update). Writes state().grab_forces. Requires no change of forces/controls since update().
  void update_grab_forces();

  /// Compliance at a surface node with the current grabs held (unit: m/N): G(n,n) − G(n,G) C⁻¹ G(G,n).
  /// For a held node: the compliance of its grab (grab_compliance).
  Mat3 local_compliance(Index surface_node) const;

  /// Compliance of grab `index` with the other grabs held (unit: m/N): the handle's displacement per
  /// unit force applied to its whole patch as one rigid (translating) constraint, (S C⁻¹ Sᵀ)⁻¹. For
  /// a single-node grab, ((C⁻¹)_mm)⁻¹. The stiffness a haptic device renders is its inverse.
  Mat3 grab_compliance(std::size_t index) const;

  /// Stiffness of the grabs `grabs` (indices into the grab set) moved together in translation, the
  /// other grabs held (unit: N/m): the change of their summed grab forces per unit common move,
  /// S C⁻¹ Sᵀ with S summing the held nodes of those grabs (the capacitance system of James & Pai
  /// 1999), in the world frame. Zero for an empty set. Allocates (3k × 3 temporaries).
  Mat3 grab_set_stiffness(std::span<const std::size_t> grabs) const;

  /// Number of nodes all grabs hold together (handles and patches).
  std::size_t held_node_count() const { return held_node_.size(); }

  /// Surface displacement of the last update in the solve frame (before rotation) (unit: m), 3·Ns.
  const Eigen::VectorXd& displacement() const { return u_total_; }

 private:
  void fit_rotation();
  void add_green_column(Index j, const Vec3& v, double* u) const;

  std::shared_ptr<const GreenAsset> asset_;
  GreenDef def_;
  GreenState state_;
  Index ns_ = 0;

  // Forces: dense current and applied (solve frame) values, list of touched nodes.
  std::vector<Vec3> force_now_;
  std::vector<Vec3> force_applied_;
  std::vector<Index> force_nodes_;
  std::vector<std::uint8_t> force_listed_;

  // Control elements: applied coefficient vectors (solve frame).
  std::vector<Eigen::Matrix<double, 12, 1>> control_applied_;

  // Grabs, over the k held nodes (every grab's handle node and patch, grab by grab). The residual
  // d − u_base at held node i of grab m is split into the handle part h_m (the handle node's
  // displacement target, solve frame) and the node part e_i (its offset from the handle, minus the
  // handle's rest offset, minus u_base): both small, so no cancellation in float, and a handle move
  // only changes h_m.
  void compute_residual_parts();
  std::vector<Index> held_node_;        // k surface nodes
  std::vector<std::size_t> held_grab_;  // k, grab of each held node
  std::vector<Vec3> held_offset_;       // k, offset from the grab's target (world frame, unit: m)
  Eigen::LDLT<Eigen::MatrixXd> grab_factor_;
  std::vector<Mat3> grab_compliance_;  // m, each grab's patch compliance in the body frame (unit: m/N)
  Eigen::MatrixXf w_;                  // 3Ns × 3k, W = G_SG C⁻¹ (column-major)
  Eigen::MatrixXf w_sum_;              // 3Ns × 3m, W̄: per grab, W summed over its held nodes
  Eigen::MatrixXd g_sg_;               // 3Ns × 3k, G_SG in double (for local_compliance)
  Eigen::VectorXd handle_;             // 3m, h
  Eigen::VectorXd handle_applied_;     // 3m, h used for the current u_grab_
  Eigen::VectorXd node_part_;          // 3k, e
  Eigen::VectorXd node_applied_;       // 3k, e used for the current u_grab_
  Eigen::VectorXd residual_;           // 3k, h_m(i) + e_i
  Eigen::VectorXd grab_force_solve_;
  bool grabs_dirty_ = true;

  Vec3 body_force_now_ = Vec3::Zero();              // world frame (unit: N/m³)
  Vec3 body_force_applied_ = Vec3::Zero();          // solve frame, included in u_force_
  std::vector<Eigen::VectorXd> pressure_response_;  // per load, 3Ns: u for 1 Pa (unit: m/Pa)
  std::vector<double> pressure_now_, pressure_applied_;
  Eigen::VectorXd u_control_;            // 3Ns
  Eigen::VectorXd u_force_;              // 3Ns
  Eigen::VectorXd u_grab_;               // 3Ns
  Eigen::VectorXd u_total_;              // 3Ns
  Vec3 rest_centroid_ = Vec3::Zero();    // p̄ of the handle fit (unit: m)
  Vec3 target_centroid_ = Vec3::Zero();  // q̄ of the handle fit (unit: m)
};

/// Mean rest length of the surface edges at surface node `node` (unit: m): the mesh resolution there.
double mean_surface_edge_length(const GreenAsset& asset, Index node);

/// The nodes of a soft grab around `center` (unit: m): the free (not constrained) surface nodes
/// within `radius` (unit: m, ≥ 0) of it that are connected to `node` over surface edges between
/// nodes within the radius, so a thin wall's far side or a separate part nearby is never taken.
/// `positions` are the current surface positions (unit: m). `node` comes first (it must be free),
/// then the others ascending. Radius 0 (or one smaller than the distance to every neighbour): only
/// `node`.
std::vector<Index> surface_patch(const GreenAsset& asset, std::span<const Vec3> positions, Index node,
                                 const Vec3& center, double radius);

/// A grab holding `nodes` (the first is the handle) where they are in `positions` (unit: m).
Grab hold_in_place(std::span<const Index> nodes, std::span<const Vec3> positions);

/// Best rotation R (det +1) with R (p − p̄) ≈ (q − q̄) from moments of the handle point pairs:
/// n, Σp, Σq and Σ p qᵀ. Returns false (and R = I) when the points are fewer than 3 or collinear.
bool fit_rotation_from_moments(double n, const Vec3& sum_p, const Vec3& sum_q, const Mat3& sum_pq,
                               Mat3& rotation);

}  // namespace pliant::green
