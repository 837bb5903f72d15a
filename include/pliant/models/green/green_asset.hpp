// GreenAsset: the precomputed surface-to-surface Green's function of a linear FEM body.
//
// Nikitina et al. (2003, "Linear FEM with precomputed Green's functions", Fraunhofer IMK, c. 2003)
// and Bro-Nielsen & Cotin (Eurographics 1996): with the constrained DOFs eliminated, the reduced
// stiffness A = K_ff is SPD and A⁻¹ is the discrete Green's function. A quasi-static interaction
// only needs its surface rows and columns (K⁻¹)_S, so we factor A once (CHOLMOD), solve for every
// surface DOF in multi-right-hand-side blocks and keep the surface entries. The block is symmetric
// (reciprocity), so only the lower triangle of 3×3 node blocks is stored, in float: 4.5·Ns² floats.
//
// Control elements (Nikitina et al. 2003): a set of nodes moved as one affine map b(X) = T + (M − I) X, 12
// parameters. Their nodes are prescribed (part of the constrained set), and for each basis motion
// b^(k) we store the surface rows of u^(k) = −A⁻¹ B b^(k) (B = K_fc), plus b^(k) itself on the
// element's own surface nodes. At run time u = Σ_k c_k u^(k).
//
// Body forces (gravity): a uniform force density b (N/m³) loads node n with V_n b, V_n a quarter of
// the volume of each tet at n (the consistent load of linear tets). The responses to b = e_x, e_y, e_z,
// u^(b_k) = (A⁻¹ F_k)_S, are stored too, so gravity on a body of density ρ adds ρ Σ_k g_k u^(b_k)
// (the density is not part of K, so one asset serves any density). Surface loads (pressure, traction)
// need no more than the Green's block: they act on surface nodes only.
//
// The asset is immutable once built or loaded; its large arrays may live in a memory-mapped file.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/linalg/communicator.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/green/surface_block.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace pliant::green {

/// One control element as given to the builder: the volume nodes it moves rigidly-affinely.
struct ControlElementSpec {
  std::vector<Index> nodes;  ///< volume node indices (any order; duplicates ignored)
};

/// Settings of the precomputation.
struct GreenBuildSettings {
  int threads = 0;  ///< solver threads (each holds its own factor copy); 0 = OpenMP's default
  /// Right-hand sides per block solve (columns); bigger is faster per column but needs
  /// #free DOFs × block × 8 bytes per thread.
  int block_columns = 96;
  /// Relative tolerance of a compressed (hierarchical) surface block, in (0, 1]; 0 stores it dense.
  /// Compressed: near blocks dense, far blocks low-rank factors in float, each block within this
  /// relative Frobenius error (dimensionless).
  double compress_tolerance = 0.0;
  /// Called with the finished fraction in [0, 1] from the calling thread (no printing inside).
  std::function<void(double fraction)> progress;
  /// When set and it becomes true (e.g. from `progress`, on Ctrl-C), the build stops after the
  /// blocks in flight and fails with "green: precomputation cancelled".
  const std::atomic<bool>* cancel = nullptr;
};

/// Per-control-element data of the asset.
struct ControlElement {
  std::vector<Index> volume_nodes;  ///< the element's nodes (ascending, volume numbering)
  /// Moments of the rest positions, for the rotation fit: count, Σ X (unit: m), Σ X Xᵀ (unit: m²).
  double count = 0;
  Vec3 sum = Vec3::Zero();
  Mat3 sum_outer = Mat3::Zero();
};

/// The immutable Green's function asset.
class GreenAsset {
 public:
  GreenAsset() = default;

  /// Surface triangles over surface nodes, with rest positions (unit: m).
  const TriMesh& surface() const { return surface_; }
  Index surface_node_count() const { return static_cast<Index>(surface_.positions.size()); }
  /// Surface node -> volume node.
  const std::vector<Index>& volume_node() const { return volume_node_; }
  /// 1 where a surface node is constrained (fixed or part of a control element): its column of the
  /// Green's block is zero and it cannot be grabbed.
  const std::vector<std::uint8_t>& constrained() const { return constrained_; }
  const std::vector<ControlElement>& control_elements() const { return control_elements_; }

  /// Packed lower triangle of 3×3 node blocks G(i, j), i ≥ j, row-major within a block, at float
  /// offset 9·(i(i+1)/2 + j) (unit: m/N). Null when the block is compressed.
  const float* block() const { return block_; }
  /// The surface block however stored: what the runtime reads.
  const SurfaceBlock& surface_block() const { return *surface_block_; }
  /// True when the surface block is a hierarchical matrix.
  bool compressed() const { return surface_block_->hierarchical() != nullptr; }
  /// Relative tolerance of the compressed block (0 when dense).
  double compress_tolerance() const {
    return compressed() ? surface_block_->hierarchical()->tolerance() : 0.0;
  }
  static std::size_t packed_floats(std::size_t ns) { return 9 * (ns * (ns + 1) / 2); }
  /// Responses of control element e: 3·Ns × 12 column-major (unit: m per unit parameter:
  /// translation columns are dimensionless, linear-part columns are m).
  const float* control_response(std::size_t e) const {
    return control_ + e * 36 * static_cast<std::size_t>(surface_node_count());
  }

  /// Responses to a unit body-force density along x, y and z: 3·Ns × 3 column-major (unit: m per
  /// N/m³), zero on constrained nodes.
  const float* body_force_response() const { return body_force_; }
  /// The 3×3 block G(i, j) of surface nodes i, j (unit: m/N).
  Mat3 green_block(Index i, Index j) const;

  // Provenance, checked when loading (see green_file.hpp).
  std::uint64_t mesh_hash = 0;        ///< hash of rest positions and tets (mesh_hash())
  std::uint64_t constraint_hash = 0;  ///< hash of fixed nodes and control elements
  materials::Material material;       ///< the material it was built for
  Index volume_node_count = 0;        ///< nodes of the volume mesh
  Index tet_count = 0;                ///< tets of the volume mesh
  double precompute_seconds = 0;      ///< wall time of the build (unit: s)

  /// Assembles an asset from its parts (the builder and the file reader use this). `block`,
  /// `control` and `body_force` must stay valid while `storage` is alive (it may own them or a mapping).
  static GreenAsset from_parts(TriMesh surface, std::vector<Index> volume_node,
                               std::vector<std::uint8_t> constrained,
                               std::vector<ControlElement> control_elements,
                               std::shared_ptr<const void> storage, const float* block, const float* control,
                               const float* body_force);
  /// The same with a compressed surface block.
  static GreenAsset from_parts(TriMesh surface, std::vector<Index> volume_node,
                               std::vector<std::uint8_t> constrained,
                               std::vector<ControlElement> control_elements,
                               std::shared_ptr<const void> storage, linalg::HMatrix block,
                               const float* control, const float* body_force);

 private:
  TriMesh surface_;
  std::vector<Index> volume_node_;
  std::vector<std::uint8_t> constrained_;
  std::vector<ControlElement> control_elements_;
  std::shared_ptr<const void> storage_;
  const float* block_ = nullptr;
  std::shared_ptr<const SurfaceBlock> surface_block_;
  const float* control_ = nullptr;
  const float* body_force_ = nullptr;
};

/// Hash of a mesh's rest positions and tets (stored in the asset, compared on load).
std::uint64_t mesh_hash(const TetMesh& mesh);
/// Hash of the constraint set: sorted unique fixed nodes, then each control element's sorted nodes.
std::uint64_t constraint_hash(std::span<const Index> fixed_nodes,
                              std::span<const ControlElementSpec> controls);

/// The content key of the asset build_green_asset makes from these inputs, computed without building:
/// the mesh, material, constraints and the settings that change the stored values (the compression
/// tolerance, the block width), not the thread count or callbacks. Bodies share an asset through
/// pliant::AssetCache by this key; the ranks of a distributed build compare it before they start.
std::uint64_t asset_key(const TetMesh& mesh, const materials::Material& material,
                        std::span<const Index> fixed_nodes, std::span<const ControlElementSpec> controls,
                        const GreenBuildSettings& settings);

/// Bytes the precomputation needs at its peak: the stored block and responses, the factor copies
/// (estimated) and the per-thread right-hand-side blocks. For the CLI's memory check.
std::size_t estimate_build_bytes(const TetMesh& mesh, std::size_t surface_nodes, std::size_t controls,
                                 int threads, int block_columns);

/// Builds the asset: assembles K, eliminates fixed nodes and control-element nodes, factors, and
/// solves for every free surface DOF, every control basis motion and the three unit body forces. Fails with
/// one line on a bad mesh, an out-of-range node, constraints that leave a rigid motion free, or a control
/// element sharing nodes with the fixed set or another element.
Result<GreenAsset> build_green_asset(const TetMesh& mesh, const materials::Material& material,
                                     std::span<const Index> fixed_nodes,
                                     std::span<const ControlElementSpec> controls = {},
                                     const GreenBuildSettings& settings = {});

/// The same build split across the processes of `processes` (e.g. MPI ranks; linalg_mpi): every rank
/// must call it with the same mesh, material, constraints and settings (checked: the ranks fail
/// together when they differ). Each rank factors K once and solves its share of the columns (blocks
/// of `block_columns` surface DOFs, dealt round-robin); rank 0 receives the shares and returns the
/// asset, the other ranks return std::nullopt. The asset equals the single-process one bit for bit,
/// dense or compressed (a compressed block receives its panels in the same order). `progress` and
/// `cancel` act on each rank's own share; a failure or a cancel on any rank fails every rank with
/// the lowest failing rank's message.
Result<std::optional<GreenAsset>> build_green_asset(const TetMesh& mesh, const materials::Material& material,
                                                    std::span<const Index> fixed_nodes,
                                                    std::span<const ControlElementSpec> controls,
                                                    const GreenBuildSettings& settings,
                                                    linalg::Communicator& processes);

}  // namespace pliant::green
