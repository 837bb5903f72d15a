// ModalFemBody: the run time of the fem family's modal bodies. Linear elasticity about the rest shape,
// reduced to its lowest r vibration modes (Pentland & Williams 1989; Hauser, Shen & O'Brien 2003;
// reviewed by Huang & Wang 2007) and stepped by fem::ModalBody's exact damped modal step, optionally
// reconstructed with modal warping (Choi & Ko 2005) so that rotations do not inflate the body; its
// boundary surface, gravity and surface loads projected on the modes, and grabs as stiff springs.
//
// A modal body has no kinematic nodes, so a grab is a stiff spring from each patch node's linear
// position to its target, of stiffness k = κ ω_r² m_P (κ = kModalGrabStiffnessFactor, ω_r the highest
// kept angular frequency (at least 1/dt), m_P = 3P / tr(Φ_Pᵀ Φ_P) the patch's mass as the P patch
// nodes' rows Φ_P of the basis see it): the spring is ten times faster than any kept mode, so the patch
// follows its target to about 1 % of the pull. While a grab is held the spring couples the modes and
// the body steps by backward Euler on the r modal equations (one r×r Cholesky per step,
// unconditionally stable); the reaction is the spring force on the tool, k Σ (xᵢ - tᵢ).
//
// The rest mesh, the boundary surface and the basis are a ModalFemAsset shared by every body built from
// it; a body owns only its modal state, step coefficients, grabs and loads.
#pragma once

#include "pliant/core/grab_id.hpp"
#include "pliant/core/grab_released.hpp"
#include "pliant/core/grab_slots.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/fem_body.hpp"
#include "pliant/models/fem/implicit/fem_force_model.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"
#include "pliant/models/fem/modal/modal_body.hpp"
#include "pliant/models/fem/modal/modal_fem_asset.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace pliant::fem {

/// A modal FEM body's own settings (C++20 aggregate); what the basis depends on is the asset's
/// (ModalFemAssetDef).
struct ModalFemDef {
  double dt = 1e-3;             ///< step of the exact damped modal step (unit: s), > 0
  bool warping = false;         ///< reconstruct with modal warping (Choi & Ko 2005)
  double rayleigh_alpha = 0.0;  ///< α of C = αM + βK (unit: 1/s), ≥ 0
  double rayleigh_beta = 0.0;   ///< β (unit: s), ≥ 0
  Vec3 gravity = Vec3::Zero();  ///< body acceleration g, force m_i g per node (unit: m/s²)
  /// Pressure and traction loads on boundary triangles (volume node numbering).
  std::vector<SurfaceLoad> surface_loads = {};
};

/// Grab spring stiffness factor κ (dimensionless): k = κ ω_r² m_P.
inline constexpr double kModalGrabStiffnessFactor = 100.0;

class ModalFemBody {
 public:
  /// A body of `asset` (shared, never written) with the Rayleigh damping, gravity, surface loads,
  /// warping and step `def.dt` of `def` (another dt at step time rebuilds the step coefficients once).
  /// Gravity is projected once on the modes at rest (Φᵀ M g, not rotated by warping); pressure and
  /// traction are projected each step, the pressure on the current reconstructed triangles. Fails with
  /// one line on a null asset, a bad dt, damping, gravity or surface load.
  static Result<ModalFemBody> build(std::shared_ptr<const ModalFemAsset> asset, ModalFemDef def);
  /// Convenience for tests and tools: builds the asset of (rest, materials, basis) (unit: m), not
  /// shared, then the body. Fails with the asset's or the body's line.
  static Result<ModalFemBody> build(const TetMesh& rest, std::vector<materials::Material> materials,
                                    const ModalFemAssetDef& basis, ModalFemDef def);

  /// The shared asset the body reads its rest data from.
  const std::shared_ptr<const ModalFemAsset>& asset() const { return asset_; }
  const TetMesh& rest() const { return asset_->rest(); }
  const ModalBasis& basis() const { return asset_->basis(); }
  const ModalBody& modal_body() const { return *body_; }

  /// The boundary surface: rest positions (unit: m) and outward triangles in surface numbering, its
  /// nodes' volume ids, their current positions and displacements (unit: m; only the surface nodes are
  /// reconstructed per step) and the surface's edge adjacency.
  const TriMesh& surface() const { return asset_->surface(); }
  std::span<const Index> surface_nodes() const { return asset_->surface_nodes(); }
  std::span<const Vec3> surface_positions() const { return xs_; }
  std::span<const Vec3> surface_displacements() const { return us_; }
  const Adjacency& surface_adjacency() const { return asset_->surface_adjacency(); }
  /// Whether surface node `sn` is not a fixed node.
  bool surface_node_free(Index sn) const;
  /// The speed of every surface node (unit: m/s, of the linear reconstruction) into out (#surface nodes
  /// entries); a wrong size writes nothing. Allocates nothing.
  void surface_speeds(std::span<double> out) const;
  /// Every node's position (unit: m), the full reconstruction (warped when the body warps), computed
  /// when asked; valid until the next call.
  std::span<const Vec3> node_positions() const;
  /// Every node's velocity of the linear reconstruction (unit: m/s; 3 entries a node). Allocates.
  Eigen::VectorXd node_velocities() const { return basis().shapes * body_->rates(); }

  /// Ties `surface_nodes` (the handle first, each free) by springs to their targets, which move with the
  /// target of `point` (unit: m); an invalid id (slot -1) for an empty patch or one the basis does not
  /// see (tr(Φ_Pᵀ Φ_P) = 0).
  GrabId grab(std::span<const Index> surface_nodes, const Vec3& point);
  /// Moves a grab's target (unit: m).
  void move_grab(GrabId id, const Vec3& target);
  void release(GrabId id);
  /// The surface nodes a grab holds, the handle first (empty for an invalid id).
  std::span<const Index> grab_nodes(GrabId id) const;
  /// The springs' force on the tool after the last step (unit: N).
  Vec3 grab_reaction(GrabId id) const;
  /// Grabs released since the previous step's start (valid until the next step).
  std::span<const GrabReleased> released_grabs() const { return released_; }

  /// Adds force f (unit: N) at surface node `sn` for the next step (projected on the modes, rotated into
  /// the node's frame with warping).
  void add_surface_force(Index sn, const Vec3& f);

  /// Advances by dt (unit: s); never throws, allocates nothing after the first step. Stages:
  /// "fem.modal_step", "fem.reconstruct" (unit: ms).
  void step(double dt, Profile& profile);
  /// The last step's warning: a modal state no longer finite.
  const std::optional<FemSolverWarning>& warning() const { return warning_; }
  std::uint64_t state_hash() const;

 private:
  ModalFemBody() = default;

  struct Slot {
    std::vector<Index> nodes;         // surface nodes, the handle first
    std::vector<Index> volume_nodes;  // the same nodes in the mesh's numbering
    std::vector<Vec3> held;           // linear positions of the patch nodes at grab time (unit: m)
    Vec3 point = Vec3::Zero();        // the picked point at grab time (unit: m)
    Vec3 target = Vec3::Zero();       // its target (unit: m)
    Vec3 reaction = Vec3::Zero();     // force of the body on the tool after the last step (unit: N)
    double stiffness = 0.0;           // k of every patch node's spring (unit: N/m)
    Eigen::MatrixXd sum_shapes;       // Σ Φᵢᵀ over the patch, r × 3
    Eigen::MatrixXd gram;             // Σ Φᵢᵀ Φᵢ, r × r
    Eigen::VectorXd grab_force;       // Σ Φᵢᵀ uᵢ at grab time, r
    Eigen::VectorXd force;            // scratch, r
  };

  void project_forces(double dt);
  void step_with_springs(double h);
  void advance(double dt);
  void update_reactions();

  std::shared_ptr<const ModalFemAsset> asset_;
  ModalBodyDef body_def_;
  std::optional<ModalBody> body_;
  double dt_ = 0.0;
  Eigen::VectorXd gravity_, omega_, damping_, rhs_, q_next_, scratch_;
  Eigen::MatrixXd out_shapes_, system_;
  std::optional<Eigen::LLT<Eigen::MatrixXd>> llt_;
  mutable Eigen::VectorXd out_rates_;
  std::vector<Vec3> xs_, us_, pending_;
  std::vector<SurfaceLoad> loads_;     // pressure and traction (fem_force_model.hpp)
  std::vector<Index> load_nodes_;      // the nodes they load, ascending
  std::vector<Vec3> load_x_, load_f_;  // per node: current position and load force (loaded nodes only)
  mutable std::vector<Vec3> all_x_;
  std::vector<Index> touched_;
  GrabSlots<Slot> slots_;
  std::vector<GrabReleased> released_, pending_released_;
  std::optional<FemSolverWarning> warning_;
};

}  // namespace pliant::fem
