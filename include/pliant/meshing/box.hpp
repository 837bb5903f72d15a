// Structured tetrahedral box (and beam): an nx × ny × nz grid of cubes, each split into 5 or 6 tets.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/types.hpp"

#include <array>

namespace pliant::meshing {

/// How a grid cell (hexahedron) is split into tetrahedra.
enum class CellSplit {
  /// Six tets around the cell's main diagonal (Freudenthal/Kuhn). Every cell is split alike, so
  /// neighbouring faces always conform; the mesh is anisotropic (all diagonals parallel) and locks
  /// badly for nearly incompressible materials (ν = 0.49: 0.67 of the converged cantilever
  /// deflection at 12k nodes, docs/accuracy.md).
  six,
  /// Five tets: one central regular-ish tet and four corners. Faces conform only when the split
  /// alternates with the parity of i + j + k, which the builder does. More accurate than `six` at
  /// every ν (about twice in bending), and far less prone to locking as ν → 0.5: the default.
  five,
};

/// A box [origin, origin + size] meshed on a structured grid. A beam is a box with one long axis.
struct BoxDef {
  Vec3 origin = Vec3::Zero();               ///< minimum corner (unit: m)
  Vec3 size = Vec3(1.0, 0.2, 0.2);          ///< edge lengths along x, y, z (unit: m), each > 0
  std::array<Index, 3> cells = {10, 2, 2};  ///< grid cells along x, y, z, each ≥ 1
  CellSplit split = CellSplit::five;        ///< tets per cell (five since 2026; six on request)
};

/// Builds the box: (nx+1)(ny+1)(nz+1) nodes numbered x fastest, then y, then z; every tet
/// positively oriented. Fails (naming the field) on non-positive or non-finite sizes, zero cells, or
/// more elements than `kMaxElements`.
Result<TetMesh> box_mesh(const BoxDef& def);

/// Upper bound on the elements any procedural builder creates, so that a typo like `--cells 10000`
/// gives an error instead of exhausting memory (2·10⁷ tets ≈ 1.3 GB with nodes and topology).
inline constexpr long long kMaxElements = 20'000'000;

}  // namespace pliant::meshing
