// Writing triangle surfaces as Wavefront OBJ, STL, OFF and PLY (atomically).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"

#include <filesystem>

namespace pliant::io {

/// OBJ with "v" and triangular "f" lines. Coordinates are printed in shortest round-trip form
/// (read back exactly by Pliant's reader).
Status write_obj(const std::filesystem::path& path, const TriMesh& mesh);

enum class StlEncoding { binary, ascii };

/// STL with a facet normal per triangle. Binary (the default) stores float32 coordinates, so values
/// read back rounded to single precision; ASCII prints doubles that read back exactly. STL keeps no
/// shared nodes: a reader merges corners with identical coordinates.
Status write_stl(const std::filesystem::path& path, const TriMesh& mesh,
                 StlEncoding encoding = StlEncoding::binary);

/// OFF (Geomview's Object File Format): "OFF", counts, one "x y z" line per node (unit: m, as stored,
/// shortest round-trip form, so values read back exactly) and "3 a b c" per triangle (0-based).
Status write_off(const std::filesystem::path& path, const TriMesh& mesh);

enum class PlyEncoding { ascii, binary_little_endian, binary_big_endian };

/// PLY (Turk 1994): element vertex with double x y z (unit: m, as stored), element face with
/// "list uchar int vertex_indices". Every encoding reads back bit-identical.
Status write_ply(const std::filesystem::path& path, const TriMesh& mesh,
                 PlyEncoding encoding = PlyEncoding::binary_little_endian);

}  // namespace pliant::io
