#include "pliant/io/write_mesh.hpp"

#include "io/parse.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/io/mesh_writers.hpp"
#include "pliant/io/surface_writers.hpp"
#include "pliant/io/vtu.hpp"

#include <string>

namespace pliant::io {
using detail::lower_extension;

Status check_mesh_output(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".vtu" || ext == ".mesh" || ext == ".obj" || ext == ".stl" || ext == ".off" || ext == ".ply") {
    return {};
  }
  return Error{"unsupported output format '" + ext + "' for " + path.string() +
               " (use .vtu, .mesh, .obj, .stl, .off or .ply)"};
}

bool is_volume_format(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".vtu" || ext == ".mesh";
}

Status write_mesh(const std::filesystem::path& path, const TriMesh& mesh) {
  if (Status checked = check_mesh_output(path); !checked) return checked;
  const std::string ext = lower_extension(path);
  if (ext == ".vtu") return write_vtu(path, mesh);
  if (ext == ".mesh") return write_medit(path, mesh);
  if (ext == ".obj") return write_obj(path, mesh);
  if (ext == ".off") return write_off(path, mesh);
  if (ext == ".ply") return write_ply(path, mesh);
  return write_stl(path, mesh);
}

Status write_mesh(const std::filesystem::path& path, const TetMesh& mesh) {
  if (Status checked = check_mesh_output(path); !checked) return checked;
  const std::string ext = lower_extension(path);
  if (ext == ".vtu") return write_vtu(path, mesh);
  if (ext == ".mesh") return write_medit(path, mesh);
  return write_mesh(path, extract_boundary(mesh).mesh);
}

}  // namespace pliant::io
