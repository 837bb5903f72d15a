// A modally reduced linear FEM body: r decoupled damped oscillators and a reconstruction u = Φ q.
//
// Pentland & Williams (1989), Hauser, Shen & O'Brien (2003), reviewed by Huang & Wang (2007): in the
// basis of the lowest r modes (modal_analysis.hpp, Φᵀ M Φ = I, Φᵀ K Φ = diag(ω²)) and with Rayleigh
// damping C = αM + βK, M ü + C u̇ + K u = f becomes r independent equations
//     q̈ⱼ + (α + β ωⱼ²) q̇ⱼ + ωⱼ² qⱼ = φⱼᵀ f,
// each advanced by its exact step for a force held over the step (modal_oscillator.hpp), so the step
// costs O(r) and is unconditionally stable. With all modes kept it is the full linear dynamics
// exactly (in time too, for piecewise-constant forces); truncation drops the high-frequency response.
// Displacements are reconstructed per frame, for every node or only a chosen subset (the surface a
// renderer draws), optionally with modal warping (modal_warping.hpp, Choi & Ko 2005) so that large
// rotations do not inflate the body.
//
// No heap allocation after build: the modal force, state and scratch are sized once.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/fem/modal/modal_analysis.hpp"
#include "pliant/models/fem/modal/modal_oscillator.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::fem {

struct ModalBodyDef {
  Index modes = 0;              ///< r modes kept, the lowest ones (0: all the basis holds)
  double dt = 1e-3;             ///< step (unit: s), > 0
  double rayleigh_alpha = 0.0;  ///< α of C = αM + βK (unit: 1/s), ≥ 0
  double rayleigh_beta = 0.0;   ///< β (unit: s), ≥ 0
  bool warping = false;         ///< reconstruct with modal warping (Choi & Ko 2005)
  /// Keep the output rows of Φ (and W) in single precision: `reconstruct` reads half the bytes and
  /// uses twice the SIMD width, for a relative error of about 1e-7 in the displacements (sums over the
  /// modes formed in float). The modal state, forces and single-node queries stay in double.
  bool single_precision_output = false;
  /// Keep them in IEEE half precision instead (16 bits; each mode's column scaled by its largest entry):
  /// a quarter of double's bytes, so that on a core with 2 MiB of L2 the 50-mode surface basis of the
  /// benchmark tube (5,280 nodes) stays in L2; each basis entry is rounded to within 2⁻¹¹ of its
  /// column's largest entry (sums in float). For rendering; the modal state, forces and single-node
  /// queries stay in double. Takes precedence over single_precision_output.
  bool half_precision_output = false;
  /// Nodes whose displacements `reconstruct` writes, in this order (any subset, e.g. the surface);
  /// empty: every node, in node order.
  std::vector<Index> output_nodes = {};
};

class ModalBody {
 public:
  /// `mesh` is the mesh the basis was computed on (its node count must match the basis rows / 3).
  /// Fails with one line on a bad step, negative damping, more modes than the basis holds, or an
  /// output node out of range.
  static Result<ModalBody> build(const TetMesh& mesh, const ModalBasis& basis, const ModalBodyDef& def);

  /// Sets the external nodal forces held over the next steps (unit: N, one per node of the mesh):
  /// g = Φᵀ f. With warping, each node's force is first rotated into the body's local frame,
  /// R(θᵢ)ᵀ fᵢ, at the current state (Choi & Ko 2005). Ignored (no change) on a wrong size.
  void set_forces(std::span<const Vec3> forces);
  /// Sets the modal forces g directly (unit: N·kg^-1/2, one per kept mode); ignored on a wrong size.
  void set_modal_forces(const Eigen::VectorXd& modal_forces);
  /// Adds one point force at a node to the modal forces (unit: N), in world axes (rotated like
  /// set_forces with warping).
  void add_point_force(Index node, const Vec3& force);
  /// Zero modal force.
  void clear_forces();

  /// Advances every mode by dt with the current modal forces (exact for a constant force).
  void step();

  /// Displacements of the output nodes (unit: m), output_nodes().size() entries (or #nodes);
  /// does nothing on a wrong size.
  void reconstruct(std::span<Vec3> displacements) const;
  /// Displacement of one node at the current state (unit: m).
  Vec3 node_displacement(Index node) const;

  /// Sets the modal state: amplitudes q (unit: m·kg^1/2) and their rates (unit: m·kg^1/2/s); ignored
  /// on a wrong size.
  void set_state(const Eigen::VectorXd& amplitudes, const Eigen::VectorXd& rates);
  /// Projects a full displacement and velocity (3·#nodes, unit: m, m/s) onto the kept modes,
  /// q = Φᵀ M u needs M, so this takes the M-weighted vectors: q = Φᵀ (M u), q̇ = Φᵀ (M v).
  void set_state_from_weighted(const Eigen::VectorXd& mass_times_u, const Eigen::VectorXd& mass_times_v);

  const Eigen::VectorXd& amplitudes() const { return q_; }
  const Eigen::VectorXd& rates() const { return v_; }
  const Eigen::VectorXd& modal_forces() const { return g_; }
  /// ωⱼ of the kept modes (unit: rad/s).
  const Eigen::VectorXd& angular_frequencies() const { return omega_; }
  /// Per-mode step coefficients (exact_modal_step of ωⱼ², α + βωⱼ², dt).
  const std::vector<ModalStepCoefficients>& step_coefficients() const { return coefficients_; }
  Index mode_count() const { return static_cast<Index>(q_.size()); }
  Index node_count() const { return node_count_; }
  /// Nodes `reconstruct` writes, in order.
  const std::vector<Index>& output_nodes() const { return output_nodes_; }
  bool warping() const { return warping_; }
  double dt() const { return dt_; }
  double time() const { return time_; }
  /// Kinetic plus strain energy ½ q̇ᵀq̇ + ½ Σ ωⱼ² qⱼ² of the linear modal state (unit: J).
  double energy() const;

 private:
  ModalBody() = default;
  Mat3 node_rotation(Eigen::Index row) const;  // R(θᵢ) for rows 3i..3i+2 of the full fields

  Index node_count_ = 0;
  double dt_ = 0.0, time_ = 0.0;
  bool warping_ = false;
  // Φ and W over all nodes, row-major so that one node's 3×r block is contiguous (point forces,
  // single-node queries: a column-major 3N × r matrix would touch r cache lines per row).
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMatrix shapes_;     // Φ, 3·#nodes × r
  RowMatrix rotations_;  // W, 3·#nodes × r (warping only)
  // Φ and W rows of the output nodes (3·#out × r; W with warping only), packed in panels of rows for the
  // reconstruction kernel (one pass in memory order, AVX2 where the CPU has it); double, or float with
  // single_precision_output (the other pair stays empty).
  std::vector<double> output_shapes_, output_rotations_;
  std::vector<float> output_shapes_f_, output_rotations_f_;
  // half_precision_output: the same in halves, with each column's scale.
  std::vector<std::uint16_t> output_shapes_h_, output_rotations_h_;
  Eigen::VectorXf shape_scales_, rotation_scales_;
  std::vector<Index> output_nodes_;
  Eigen::VectorXd omega_, q_, v_, g_;
  std::vector<ModalStepCoefficients> coefficients_;
  mutable Eigen::VectorXd linear_, theta_;  // scratch: Φ_out q, W_out q (warping)
  mutable Eigen::VectorXf q_f_;             // q in float (single_precision_output), scaled (half)
};

}  // namespace pliant::fem
