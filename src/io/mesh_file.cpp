// Format dispatch by extension, file loading, and the TetMesh/TriMesh views of a MeshFile.
#include "pliant/io/mesh_file.hpp"

#include "io/parse.hpp"
#include "io/readers.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <system_error>

namespace pliant::io {
namespace {

Result<std::string> load(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return Error{path.string() + ": cannot open: no such file"};
  if (std::filesystem::is_directory(status)) return Error{path.string() + ": cannot open: it is a directory"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open: " + std::strerror(errno)};
  std::string bytes;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    in.read(bytes.data(), size);
    if (!in) return Error{path.string() + ": read failed"};
  }
  return bytes;
}

std::string plural(std::size_t n, const std::string& kind) {
  if (n == 1) return "1 " + kind;
  if (kind.back() == 'x') return std::to_string(n) + " " + kind + "es";
  if (kind == "hexahedron" || kind == "tetrahedron" || kind == "polyhedron") {
    return std::to_string(n) + " " + kind.substr(0, kind.size() - 2) + "a";
  }
  if (kind.back() == ')') return std::to_string(n) + " × " + kind;
  return std::to_string(n) + " " + kind + "s";
}

}  // namespace

std::string MeshFile::skipped_summary() const {
  std::string out;
  for (const auto& [kind, n] : skipped) out += (out.empty() ? "" : ", ") + plural(n, kind);
  return out;
}

Result<MeshFile> parse_mesh(std::string_view bytes, const std::string& name, const std::string& extension) {
  try {
    if (bytes.empty()) return Error{name + ": empty file"};
    if (extension == ".msh") return detail::read_msh(bytes, name);
    if (extension == ".vtk") return detail::read_vtk(bytes, name);
    if (extension == ".vtu") return detail::read_vtk_xml(bytes, name);
    if (extension == ".vtp") return detail::read_vtk_xml(bytes, name);
    if (extension == ".obj") return detail::read_obj(bytes, name);
    if (extension == ".stl") return detail::read_stl(bytes, name);
    if (extension == ".mesh") return detail::read_medit(bytes, name);
    if (extension == ".off") return detail::read_off(bytes, name);
    if (extension == ".ply") return detail::read_ply(bytes, name);
    return Error{name + ": unknown mesh format '" + extension +
                 "' (supported: .msh .node .ele .vtk .vtu .vtp .mesh .obj .stl .off .ply)"};
  } catch (const detail::ParseFailure& f) {
    return Error{f.message};
  } catch (const std::bad_alloc&) {
    return Error{name + ": out of memory while reading"};
  }
}

Result<MeshFile> read_mesh_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error{path.string() + ": cannot open: it is a directory"};
  const std::string ext = detail::lower_extension(path);
  if (ext == ".node" || ext == ".ele") {
    auto node_path = path, ele_path = path;
    node_path.replace_extension(ext == ".node" ? path.extension() : std::filesystem::path(".node"));
    ele_path.replace_extension(ext == ".ele" ? path.extension() : std::filesystem::path(".ele"));
    auto nodes = load(node_path);
    if (!nodes) return nodes.error();
    auto eles = load(ele_path);
    if (!eles) return Error{eles.message() + " (TetGen meshes need both .node and .ele)"};
    try {
      if (nodes->empty()) return Error{node_path.string() + ": empty file"};
      if (eles->empty()) return Error{ele_path.string() + ": empty file"};
      return detail::read_tetgen(*nodes, node_path.string(), *eles, ele_path.string());
    } catch (const detail::ParseFailure& f) {
      return Error{f.message};
    } catch (const std::bad_alloc&) {
      return Error{path.string() + ": out of memory while reading"};
    }
  }
  if (ext != ".msh" && ext != ".vtk" && ext != ".vtu" && ext != ".vtp" && ext != ".obj" && ext != ".stl" &&
      ext != ".mesh" && ext != ".off" && ext != ".ply") {
    return Error{path.string() + ": unknown mesh format '" + ext +
                 "' (supported: .msh .node .ele .vtk .vtu .vtp .mesh .obj .stl .off .ply)"};
  }
  auto bytes = load(path);
  if (!bytes) return bytes.error();
  return parse_mesh(*bytes, path.string(), ext);
}

Result<TetMesh> read_tet_mesh(const std::filesystem::path& path) { return read_tet_mesh(path, nullptr); }

Result<TetMesh> read_tet_mesh(const std::filesystem::path& path, std::vector<std::string>* notices) {
  auto file = read_mesh_file(path);
  if (!file) return file.error();
  if (file->tets.empty()) {
    std::string found = file->skipped_summary();
    if (!file->triangles.empty())
      found = plural(file->triangles.size(), "triangle") + (found.empty() ? "" : ", " + found);
    return Error{path.string() + ": no tetrahedra" + (found.empty() ? "" : " (found " + found + ")")};
  }
  if (notices) notices->insert(notices->end(), file->notices.begin(), file->notices.end());
  // Nodes in no tetrahedron: dropped with a notice, the rest renumbered in file order.
  std::vector<Index> remap(file->positions.size(), -1);
  for (const Tet& t : file->tets) {
    for (const Index v : t) remap[static_cast<std::size_t>(v)] = 0;
  }
  std::vector<long long> dropped;
  std::vector<Vec3> kept;
  kept.reserve(file->positions.size());
  for (std::size_t i = 0; i < remap.size(); ++i) {
    if (remap[i] < 0) {
      dropped.push_back(file->node_ids.empty() ? static_cast<long long>(i) : file->node_ids[i]);
      continue;
    }
    remap[i] = static_cast<Index>(kept.size());
    kept.push_back(file->positions[i]);
  }
  if (dropped.empty()) return TetMesh{std::move(file->positions), std::move(file->tets)};
  for (Tet& t : file->tets) {
    for (Index& v : t) v = remap[static_cast<std::size_t>(v)];
  }
  if (notices) {
    std::string which;
    for (std::size_t k = 0; k < dropped.size() && k < 5; ++k)
      which += (k ? ", " : "") + std::to_string(dropped[k]);
    if (dropped.size() > 5) which += ", ...";
    notices->push_back("dropped " + plural(dropped.size(), "node") + " that belong to no tetrahedron (" +
                       which + " as the file numbers them); the other nodes are renumbered in order");
  }
  return TetMesh{std::move(kept), std::move(file->tets)};
}

Result<TriMesh> read_tri_mesh(const std::filesystem::path& path) { return read_tri_mesh(path, nullptr); }

Result<TriMesh> read_tri_mesh(const std::filesystem::path& path, SurfaceNumbering* numbering) {
  auto file = read_mesh_file(path);
  if (!file) return file.error();
  if (file->triangles.empty()) {
    std::string found = file->skipped_summary();
    if (!file->tets.empty())
      found = plural(file->tets.size(), "tetrahedron") + (found.empty() ? "" : ", " + found);
    return Error{path.string() + ": no triangles" + (found.empty() ? "" : " (found " + found + ")")};
  }
  // Compact: keep only the nodes the triangles use, in file order.
  std::vector<Index> remap(file->positions.size(), -1);
  for (const Tri& t : file->triangles) {
    for (const Index v : t) remap[v] = 0;
  }
  TriMesh mesh;
  for (std::size_t i = 0; i < remap.size(); ++i) {
    if (remap[i] == 0) {
      remap[i] = static_cast<Index>(mesh.positions.size());
      mesh.positions.push_back(file->positions[i]);
    }
  }
  mesh.triangles.reserve(file->triangles.size());
  for (const Tri& t : file->triangles) mesh.triangles.push_back({remap[t[0]], remap[t[1]], remap[t[2]]});
  if (numbering) {
    numbering->node.assign(mesh.positions.size(), 0);
    for (std::size_t i = 0; i < remap.size(); ++i) {
      if (remap[i] >= 0) {
        numbering->node[static_cast<std::size_t>(remap[i])] =
            file->node_ids.empty() ? static_cast<long long>(i) : file->node_ids[i];
      }
    }
    numbering->triangle = file->triangle_ids;
    if (numbering->triangle.empty()) {
      for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        numbering->triangle.push_back(static_cast<long long>(t));
    }
  }
  return mesh;
}

}  // namespace pliant::io
