// Writing triangle surfaces as Wavefront OBJ and STL (atomically).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/tri_mesh.hpp"

#include <filesystem>

namespace pliant::io {

/// OBJ with "v" and triangular "f" lines. Coordinates are printed in shortest round-trip form
/// (exact for a correctly rounding reader; tinyobjloader comes within a few ulp).
Status write_obj(const std::filesystem::path& path, const TriMesh& mesh);

enum class StlEncoding { binary, ascii };

/// STL with a facet normal per triangle. Binary (the default) stores float32 coordinates, so values
/// read back rounded to single precision; ASCII prints doubles that read back exactly. STL keeps no
/// shared nodes: a reader merges corners with identical coordinates.
Status write_stl(const std::filesystem::path& path, const TriMesh& mesh,
                 StlEncoding encoding = StlEncoding::binary);

}  // namespace pliant::io
