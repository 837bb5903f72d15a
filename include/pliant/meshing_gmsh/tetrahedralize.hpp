// Surface-to-tetrahedra meshing with gmsh (pliant::meshing_gmsh).
//
// Licence: this module links gmsh, which is GPL-2+; a program that links pliant::meshing_gmsh is
// distributed under the GPL. Everything else in Pliant (procedural meshes included) is MIT and builds
// without it (-DPLIANT_WITH_GMSH=OFF).
#pragma once

#include "pliant/core/quality.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/meshing/sliver_pass.hpp"

namespace pliant::meshing_gmsh {

struct TetrahedralizeOptions {
  /// Largest tet edge length wanted inside the volume (unit: m); 0 lets the spacing grow from the
  /// surface's own triangles. Near the surface the spacing follows the surface triangles, which are
  /// kept as given unless `remesh_surface` is set.
  double target_size = 0.0;
  /// Remesh the surface at `target_size` first (gmsh reparametrises the triangles into patches split
  /// at sharp features, `feature_angle`). Off: the output boundary is exactly the input triangles.
  bool remesh_surface = false;
  /// Dihedral angle above which an edge is a sharp feature kept by remeshing (unit: degrees).
  double feature_angle = 40.0;
  /// Run gmsh's tet optimisation (removes most slivers; costs ~20% more time).
  bool optimize = true;
  /// gmsh worker threads. With 1, gmsh's Delaunay mesher gave the same tets on every run; its HXT
  /// mesher, tried first, did too on most surfaces, but not always on a loaded machine (SOFA's
  /// liver-smooth: 15 470 tets on most runs, 15 490 and 15 512 on two), docs/meshing.md.
  int threads = 1;
  /// After gmsh, tets whose smallest dihedral angle is under this go through meshing::remove_slivers
  /// (unit: degrees; 0 skips the pass).
  double min_dihedral_deg = 10.0;
  /// Let the sliver pass peel slivers off the surface (the boundary then differs from the input by
  /// their volume, reported); off keeps the input triangles exactly.
  bool peel_surface_slivers = true;
};

/// What tetrahedralize did: sizes, time and volumes for reports and the CLI.
struct TetrahedralizeReport {
  Index surface_nodes = 0;        ///< input surface nodes
  Index surface_triangles = 0;    ///< input surface triangles
  bool input_was_inward = false;  ///< the input winding was flipped to face outward first
  double surface_volume = 0.0;    ///< volume enclosed by the input surface (unit: m³)
  double mesh_volume = 0.0;       ///< sum of the output tet volumes (unit: m³)
  double seconds = 0.0;           ///< wall time in gmsh and the sliver pass (unit: s)
  MeshQuality quality;            ///< radius ratio and dihedral angles of the output tets
  meshing::SliverReport slivers;  ///< what the sliver pass did (zeros when it was skipped)
};

/// Fills the closed surface with positively oriented tetrahedra. The surface is checked first
/// (meshing::check_closed_surface: closed, manifold, consistently oriented, one piece; inward winding
/// is flipped); failures, gmsh errors (self-intersecting input, ...) and target sizes that would
/// create more than meshing::kMaxElements tets are returned as one-line errors. Thread-safe: gmsh
/// keeps global state, so calls are serialised by a mutex.
Result<TetMesh> tetrahedralize(const TriMesh& surface, const TetrahedralizeOptions& options = {},
                               TetrahedralizeReport* report = nullptr);

}  // namespace pliant::meshing_gmsh
