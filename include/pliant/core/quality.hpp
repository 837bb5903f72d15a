// Element quality: how far each tetrahedron is from regular, and mesh-wide summaries. Reported by
// `pliant info` and by the mesher; slivers (flat tets with all nodes near one plane) ruin the
// conditioning of stiffness matrices long before they invert.
//
// Measures (all equal to their optimum on a regular tetrahedron):
// - radius ratio ρ = 3·r_in / r_circ ∈ (0, 1], 1 for a regular tet and → 0 for any degeneracy,
//   slivers included (the standard normalisation, e.g. in J. R. Shewchuk, "What is a good linear
//   finite element?", 2002). Negative for inverted tets (signed volume).
// - dihedral angles: the six angles between face pairs, regular arccos(1/3) ≈ 70.53°. Small angles
//   hurt interpolation, angles near 180° hurt the stiffness matrix's conditioning.
// - aspect = longest edge / (2√6·r_in) ≥ 1, 1 for a regular tet.
#pragma once

#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <array>
#include <vector>

namespace pliant {

/// Quality of one tetrahedron.
struct TetQuality {
  double volume = 0;            ///< signed volume (unit: m³)
  double radius_ratio = 0;      ///< 3·r_in/r_circ: 1 regular, 0 degenerate, < 0 inverted
  double min_dihedral_deg = 0;  ///< smallest dihedral angle (unit: degree)
  double max_dihedral_deg = 0;  ///< largest dihedral angle (unit: degree)
  double aspect = 0;            ///< longest edge / (2√6·r_in): 1 regular, +∞ degenerate
};
TetQuality tet_quality(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// min / mean / max of one measure over the tets.
struct QualityStats {
  double min = 0;
  double mean = 0;
  double max = 0;
};

/// Mesh-wide quality summary.
struct MeshQuality {
  Index tet_count = 0;  ///< tets measured (those whose node indices exist)
  QualityStats radius_ratio;
  QualityStats min_dihedral_deg;  ///< statistics of each tet's smallest dihedral angle (unit: degree)
  QualityStats max_dihedral_deg;  ///< statistics of each tet's largest dihedral angle (unit: degree)
  QualityStats aspect;
  QualityStats volume;  ///< (unit: m³)
  /// Tets per radius-ratio bin [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0]; inverted (< 0) tets count in
  /// bin 0.
  std::array<Index, 10> radius_ratio_histogram{};
  Index worst_tet = -1;      ///< tet with the smallest radius ratio
  Index inverted_count = 0;  ///< tets with negative volume
  double total_volume = 0;   ///< Σ signed volumes (unit: m³)
};
/// Summary over all tets. Tets naming nodes outside the mesh are skipped (validate() reports them),
/// as are such elements in the functions below.
MeshQuality mesh_quality(const TetMesh& mesh);

/// Σ signed tet volumes (unit: m³).
double total_volume(const TetMesh& mesh);
/// Σ triangle areas (unit: m²).
double surface_area(const TriMesh& mesh);
/// Volume enclosed by a closed, outward-oriented surface by the divergence theorem (unit: m³).
double enclosed_volume(const TriMesh& mesh);

}  // namespace pliant
