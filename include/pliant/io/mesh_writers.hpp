// Writing volume meshes as MEDIT .mesh (ASCII), atomically. Surface writers (OBJ, STL, OFF, PLY) are
// in surface_writers.hpp, VTK XML in vtu.hpp.
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"

#include <filesystem>
#include <vector>

namespace pliant::io {

/// MEDIT .mesh ASCII (Frey 2001, "MEDIT: an interactive mesh visualization software", INRIA
/// RT-0253): MeshVersionFormatted 2 (double precision), Dimension 3, Vertices, Triangles (if any),
/// Tetrahedra, End; every reference is 0. Node indices are 0-based here and 1-based in the file.
/// Coordinates (unit: m, as stored) are printed in shortest round-trip form, so they read back exactly.
/// `triangles` are extra boundary patches (e.g. boundary_faces(mesh.tets)); they may be empty.
Status write_medit(const std::filesystem::path& path, const TetMesh& mesh,
                   const std::vector<Tri>& triangles = {});

/// MEDIT .mesh of a triangle surface (Vertices, Triangles, End).
Status write_medit(const std::filesystem::path& path, const TriMesh& mesh);

}  // namespace pliant::io
