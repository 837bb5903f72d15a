// Writing VTK XML unstructured grids (.vtu) that ParaView opens, with per-node and per-cell fields.
//
// Arrays are stored as base64 inline binary (format="binary", header_type UInt64): about a third
// larger than raw bytes but still valid XML, so the file survives tools that touch text. Positions
// and fields are Float64, connectivity Int64. The file is written atomically.
#pragma once

#include "pliant/core/point_set.hpp"
#include "pliant/core/result.hpp"
#include "pliant/core/tet_mesh.hpp"
#include "pliant/core/tri_mesh.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace pliant::io {

/// One named data array on the nodes or the cells of a mesh.
struct Field {
  std::string name;    ///< array name shown in ParaView (no quotes, '<' or '&')
  int components = 1;  ///< 1 for a scalar, 3 for a vector (any count >= 1 is written)
  std::vector<double>
      values;  ///< #entities × components, entity-major (x0 y0 z0 x1 ...), in the field's unit
};

/// Writes a tetrahedral mesh: `point_data` has one tuple per node, `cell_data` one per tet.
Status write_vtu(const std::filesystem::path& path, const TetMesh& mesh,
                 const std::vector<Field>& point_data = {}, const std::vector<Field>& cell_data = {});

/// Writes a triangle mesh: `point_data` has one tuple per node, `cell_data` one per triangle.
Status write_vtu(const std::filesystem::path& path, const TriMesh& mesh,
                 const std::vector<Field>& point_data = {}, const std::vector<Field>& cell_data = {});

/// Writes a point cloud (one VTK_VERTEX cell per point, as meshless phyxels are): `point_data` has one
/// tuple per point.
Status write_vtu(const std::filesystem::path& path, const PointSet& points,
                 const std::vector<Field>& point_data = {});

}  // namespace pliant::io
