// PcgDeformer: the same linear quasi-static body solved every frame by warm-started preconditioned CG
// on the full reduced stiffness, without any precomputation.
//
// This is the baseline Nikitina et al. (2003) compare their precomputed Green's functions with: per-frame CG
// reached a visually converged answer (relative residual ~1e-3) at ~200 nodes in real time but needed ~1 s at
// ~3000 nodes. Keeping it in fem lets the benchmark reproduce that comparison on today's
// hardware, and gives a fallback for meshes whose surface block would not fit in memory.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/linalg/pcg.hpp"
#include "pliant/materials/material.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <Eigen/Core>

#include <span>

namespace pliant::fem {

class PcgDeformer {
 public:
  /// Assembles K, eliminates the fixed nodes (all components) and sets up the PCG solver. Fails on a
  /// bad mesh, out-of-range nodes or constraints that leave a rigid motion free.
  static Result<PcgDeformer> build(const TetMesh& mesh, const materials::Material& material,
                                   std::span<const Index> fixed_nodes,
                                   const linalg::PcgSettings& settings = {});

  /// Sets the external force on a volume node (unit: N).
  void set_force(Index node, const Vec3& force) { f_.segment<3>(3 * node) = force; }
  void clear_forces() { f_.setZero(); }

  /// Solves one frame. `warm_start` starts from the previous frame's displacement (the interactive
  /// mode); otherwise from zero. No allocation once warmed up.
  const linalg::PcgReport& solve_frame(bool warm_start = true);

  /// Full displacement (3·#nodes, fixed DOFs 0) of the last frame (unit: m).
  const Eigen::VectorXd& displacement() const { return u_; }
  Index node_count() const { return static_cast<Index>(f_.size() / 3); }

 private:
  PcgDeformer(fem::DofMap dofs, linalg::PcgSolver solver, Index nodes);
  fem::DofMap dofs_;
  linalg::PcgSolver solver_;
  Eigen::VectorXd f_;    // full loads (unit: N)
  Eigen::VectorXd rhs_;  // reduced loads
  Eigen::VectorXd x_;    // reduced solution
  Eigen::VectorXd u_;    // full displacement
  linalg::PcgReport report_;
};

}  // namespace pliant::fem
