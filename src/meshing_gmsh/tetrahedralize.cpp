// Surface-to-tetrahedra meshing through gmsh's API (Geuzaine & Remacle, "Gmsh: a 3-D finite element
// mesh generator with built-in pre- and post-processing facilities", IJNME 79(11), 2009). The input
// triangles become a discrete surface, bounded into a volume by a surface loop, and gmsh's 3D Delaunay
// mesher fills it; with remeshing, gmsh first classifies the triangles into smooth patches split at
// sharp edges and reparametrises them (gmsh tutorial 13's approach).
#include "pliant/meshing_gmsh/tetrahedralize.hpp"

#include "core/asan.hpp"
#include "pliant/core/geometry.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/sliver_pass.hpp"
#include "pliant/meshing/surface_check.hpp"

#include <gmsh.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <numbers>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// gmsh 4.8 (Debian 12) leaks the boundary-recovery state (tetgen's recoverboundary,
// meshGRegionBoundaryRecovery, delaunayTriangulation) when it refuses a surface that intersects itself,
// and keeps the discrete geometry of classifySurfaces past gmsh::clear(): allocations no public call
// frees. A sanitizer build would report them as leaks and turn the refusal's exit status 2 into
// LeakSanitizer's 1, so every binary that links this file suppresses leaks inside libgmsh by default,
// with or without LSAN_OPTIONS (tests/sanitizers/lsan.supp says the same for the test runs).
#ifdef PLIANT_ASAN
extern "C" const char* __lsan_default_suppressions();  // LeakSanitizer's hook (sanitizer/lsan_interface.h)
extern "C" const char* __lsan_default_suppressions() { return "leak:libgmsh.so\n"; }
#endif

namespace pliant::meshing_gmsh {

namespace {

std::mutex& gmsh_mutex() {
  static std::mutex m;
  return m;
}

// gmsh holds one global model: initialise for this call, always finalise, even when gmsh throws.
struct GmshSession {
  GmshSession() {
    // No argv, no config files: nothing from the user's ~/.gmshrc changes the result.
    gmsh::initialize(0, nullptr, false);
    gmsh::option::setNumber("General.Terminal", 0);
  }
  ~GmshSession() {
    try {
      gmsh::finalize();
    } catch (...) {  // a destructor must not throw; gmsh's state is reset at the next initialize()
    }
  }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;
};

std::string last_gmsh_error() {
  std::string message;
  try {
    gmsh::logger::getLastError(message);
  } catch (...) {
  }
  return message;
}

// gmsh messages may span lines and carry runs of spaces: squeeze them into one line, and say what the
// common PLC failure means for the user.
std::string one_line(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && (s.empty() || s.back() == ' ')) continue;
    s.push_back(c);
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.find("intersect") != std::string::npos) s += " (the surface intersects itself)";
  return s;
}

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

// gmsh's 3D algorithms: HXT (Marot, Pellerin & Remacle 2019) first, whose own optimisation leaves far
// fewer slivers than the classic Delaunay mesher on kept input surfaces (on 17 real surfaces, 1 to 74
// tets under 10° where Delaunay left 3 to 4909, docs/meshing.md), and Delaunay when HXT fails.
constexpr int kHxt = 10;
constexpr int kDelaunay = 1;

Result<TetMesh> run_gmsh(const TriMesh& surface, bool flip, const TetrahedralizeOptions& options,
                         int algorithm) {
  GmshSession session;
  gmsh::option::setNumber("General.NumThreads", options.threads);
  gmsh::option::setNumber("Mesh.Optimize", options.optimize ? 1 : 0);
  gmsh::option::setNumber("Mesh.Algorithm3D", algorithm);
  if (options.target_size > 0) gmsh::option::setNumber("Mesh.MeshSizeMax", options.target_size);
  gmsh::model::add("pliant");

  const int patch = gmsh::model::addDiscreteEntity(2);
  std::vector<std::size_t> node_tags(surface.positions.size());
  std::vector<double> coords;
  coords.reserve(surface.positions.size() * 3);
  for (std::size_t i = 0; i < surface.positions.size(); ++i) {
    node_tags[i] = i + 1;  // gmsh tags start at 1
    for (int k = 0; k < 3; ++k) coords.push_back(surface.positions[i][k]);
  }
  gmsh::model::mesh::addNodes(2, patch, node_tags, coords);
  std::vector<std::size_t> connectivity;
  connectivity.reserve(surface.triangles.size() * 3);
  for (const Tri& t : surface.triangles) {
    if (flip) {
      connectivity.insert(connectivity.end(),
                          {std::size_t(t[0]) + 1, std::size_t(t[2]) + 1, std::size_t(t[1]) + 1});
    } else {
      connectivity.insert(connectivity.end(),
                          {std::size_t(t[0]) + 1, std::size_t(t[1]) + 1, std::size_t(t[2]) + 1});
    }
  }
  gmsh::model::mesh::addElementsByType(patch, 2, {}, connectivity);  // type 2: 3-node triangle

  std::vector<int> surfaces{patch};
  if (options.remesh_surface) {
    const double angle = options.feature_angle * std::numbers::pi / 180.0;
    gmsh::model::mesh::classifySurfaces(angle, true, true, std::numbers::pi);
    gmsh::model::mesh::createGeometry();
    gmsh::vectorpair entities;
    gmsh::model::getEntities(entities, 2);
    surfaces.clear();
    for (const auto& [dim, tag] : entities) surfaces.push_back(tag);
  }
  const int loop = gmsh::model::geo::addSurfaceLoop(surfaces);
  gmsh::model::geo::addVolume({loop});
  gmsh::model::geo::synchronize();
  gmsh::model::mesh::generate(3);

  std::vector<std::size_t> all_tags;
  std::vector<double> all_coords, parametric;
  gmsh::model::mesh::getNodes(all_tags, all_coords, parametric, -1, -1, false, false);
  std::vector<std::size_t> tet_tags, tet_nodes;
  gmsh::model::mesh::getElementsByType(4, tet_tags, tet_nodes);  // type 4: 4-node tetrahedron
  if (tet_tags.empty()) return Error{"gmsh produced no tetrahedra (is the surface self-intersecting?)"};

  // Tag -> position in gmsh's node list; tags are near-dense, but do not trust that for the memory.
  std::unordered_map<std::size_t, std::size_t> where;
  where.reserve(all_tags.size());
  for (std::size_t i = 0; i < all_tags.size(); ++i) where.emplace(all_tags[i], i);
  // Keep only the nodes tets use (remeshing leaves the old surface nodes behind), in tag order.
  std::vector<Index> index(all_tags.size(), -1);
  for (std::size_t tag : tet_nodes) {
    const auto it = where.find(tag);
    if (it == where.end())
      return Error{"gmsh returned a tetrahedron with unknown node tag " + std::to_string(tag)};
    index[it->second] = 0;
  }
  TetMesh mesh;
  for (std::size_t i = 0; i < all_tags.size(); ++i) {
    if (index[i] < 0) continue;
    index[i] = static_cast<Index>(mesh.positions.size());
    mesh.positions.emplace_back(all_coords[3 * i], all_coords[3 * i + 1], all_coords[3 * i + 2]);
  }
  mesh.tets.resize(tet_tags.size());
  for (std::size_t e = 0; e < tet_tags.size(); ++e) {
    Tet& t = mesh.tets[e];
    for (int k = 0; k < 4; ++k) t[k] = index[where.at(tet_nodes[4 * e + k])];
    const double volume =
        signed_volume(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]], mesh.positions[t[3]]);
    if (volume < 0) std::swap(t[2], t[3]);
    if (volume == 0) {
      return Error{"gmsh produced a flat tetrahedron (" + std::to_string(e) + "); try a --size or --remesh"};
    }
  }
  return mesh;
}

}  // namespace

Result<TetMesh> tetrahedralize(const TriMesh& surface, const TetrahedralizeOptions& options,
                               TetrahedralizeReport* report) {
  if (!(std::isfinite(options.target_size) && options.target_size >= 0)) {
    return Error{"target size must be a finite number ≥ 0 m (got " + num(options.target_size) + ")"};
  }
  if (options.remesh_surface && options.target_size <= 0) {
    return Error{"remeshing the surface needs a target size > 0"};
  }
  if (!(options.feature_angle > 0 && options.feature_angle <= 180)) {
    return Error{"feature angle must be in (0, 180] degrees (got " + num(options.feature_angle) + ")"};
  }
  if (!(options.min_dihedral_deg >= 0 && options.min_dihedral_deg < 60)) {
    return Error{"minimum dihedral angle must be in [0, 60) degrees (got " + num(options.min_dihedral_deg) +
                 ")"};
  }
  if (options.threads < 1)
    return Error{"threads must be at least 1 (got " + std::to_string(options.threads) + ")"};
  auto checked = meshing::check_closed_surface(surface);
  if (!checked) return checked.error();
  // A regular tet of edge h has volume h³/(6√2): refuse sizes that would ask for absurd counts.
  if (options.target_size > 0) {
    const double estimate = checked->volume / (std::pow(options.target_size, 3) / (6.0 * std::sqrt(2.0)));
    if (estimate > static_cast<double>(meshing::kMaxElements)) {
      return Error{"target size " + num(options.target_size) + " m would give about " + num(estimate) +
                   " tetrahedra, more than the limit of " + num(static_cast<double>(meshing::kMaxElements)) +
                   "; use a larger size"};
    }
  }

  Stopwatch clock;
  const auto attempt = [&](int algorithm) -> Result<TetMesh> {
    try {
      return run_gmsh(surface, checked->inward, options, algorithm);
    } catch (const std::string& e) {
      return Error{"gmsh: " + one_line(e)};
    } catch (const std::exception& e) {
      return Error{"gmsh: " + one_line(e.what())};
    } catch (...) {
      const std::string last = last_gmsh_error();
      return Error{"gmsh: " + (last.empty() ? std::string("meshing failed") : one_line(last))};
    }
  };
  Result<TetMesh> mesh = Error{""};
  {
    std::lock_guard<std::mutex> lock(gmsh_mutex());
    mesh = attempt(kHxt);
    if (!mesh) mesh = attempt(kDelaunay);  // its message is the one users know
  }
  if (!mesh) return mesh;
  meshing::SliverReport slivers;
  if (options.min_dihedral_deg > 0) {
    slivers = meshing::remove_slivers(
        *mesh, {.min_dihedral_deg = options.min_dihedral_deg, .peel_boundary = options.peel_surface_slivers});
  }
  if (report != nullptr) {
    report->slivers = slivers;
    report->surface_nodes = static_cast<Index>(surface.positions.size());
    report->surface_triangles = static_cast<Index>(surface.triangles.size());
    report->input_was_inward = checked->inward;
    report->surface_volume = checked->volume;
    report->seconds = clock.seconds();
    report->quality = mesh_quality(*mesh);
    report->mesh_volume = report->quality.total_volume;
  }
  return mesh;
}

}  // namespace pliant::meshing_gmsh
