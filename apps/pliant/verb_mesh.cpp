// `pliant mesh`: procedural meshes (box, tube, ball, disc, rect, hexdisc, icosphere) and, with gmsh,
// closed surfaces (OBJ, STL, ...) filled with tetrahedra. The output format follows the extension:
// .vtu (tets or triangles), .obj and .stl (triangles; for a tet mesh, its boundary surface).
#include "cli.hpp"

#if PLIANT_HAS_MESHING
#include "pliant/core/geometry.hpp"
#include "pliant/core/quality.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/io/mesh_writers.hpp"
#include "pliant/io/surface_writers.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/disc_membrane.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/surface_check.hpp"
#include "pliant/meshing/tube.hpp"
#include "pliant/meshing/weld.hpp"
#if PLIANT_HAS_MESHING_GMSH
#include "pliant/meshing_gmsh/tetrahedralize.hpp"
#endif

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>

namespace pliant::cli {
namespace {

// ---- option checks: the message names the option, as the user typed it ----

void require_finite(const char* option, double v) {
  if (!std::isfinite(v)) fail(fmt::format("{}: must be a finite number (got {})", option, v));
}
void require_positive(const char* option, double v) {
  if (!(std::isfinite(v) && v > 0)) fail(fmt::format("{}: must be a finite number > 0 (got {})", option, v));
}
void require_at_least(const char* option, long long v, long long lo) {
  if (v < lo) fail(fmt::format("{}: must be at least {} (got {})", option, lo, v));
}
Vec3 to_vec3(const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); }

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// Checked before any work, so a typo in -o does not cost a long meshing run.
void require_output_extension(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext != ".vtu" && ext != ".mesh" && ext != ".obj" && ext != ".stl" && ext != ".off" && ext != ".ply") {
    fail(fmt::format("-o: unsupported output format '{}' for {} (use .vtu, .mesh, .obj, .stl, .off or .ply)",
                     ext, path));
  }
}

// A surface in the format of the extension (checked by require_output_extension).
void write_surface(const std::string& path, const TriMesh& surface) {
  const std::string ext = lower_extension(path);
  unwrap(ext == ".vtu"    ? io::write_vtu(path, surface)
         : ext == ".mesh" ? io::write_medit(path, surface)
         : ext == ".obj"  ? io::write_obj(path, surface)
         : ext == ".off"  ? io::write_off(path, surface)
         : ext == ".ply"  ? io::write_ply(path, surface)
                          : io::write_stl(path, surface));
}

void write_tets(const std::string& path, const TetMesh& mesh) {
  const std::string ext = lower_extension(path);
  if (ext == ".vtu") {
    unwrap(io::write_vtu(path, mesh));
  } else if (ext == ".mesh") {
    unwrap(io::write_medit(path, mesh));
  } else {
    write_surface(path, extract_boundary(mesh).mesh);
  }
  const MeshQuality q = mesh_quality(mesh);
  fmt::print("wrote {}: {} nodes, {} tets{}; volume {:.6g} m³\n", path, mesh.node_count(), mesh.tet_count(),
             ext == ".vtu" || ext == ".mesh" ? "" : " (boundary surface written)", q.total_volume);
  fmt::print(
      "quality: radius ratio min {:.3f} mean {:.3f}; dihedral angles {:.1f}° .. {:.1f}°; tet volume {:.3g} "
      ".. "
      "{:.3g} m³\n",
      q.radius_ratio.min, q.radius_ratio.mean, q.min_dihedral_deg.min, q.max_dihedral_deg.max, q.volume.min,
      q.volume.max);
}

void write_triangles(const std::string& path, const TriMesh& mesh) {
  const std::string ext = lower_extension(path);
  write_surface(path, mesh);
  double area = 0;
  for (const Tri& t : mesh.triangles) {
    area += area_vector(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]]).norm();
  }
  fmt::print("wrote {}: {} nodes, {} edges, {} triangles; area {:.6g} m²\n", path, mesh.node_count(),
             unique_edges(mesh.triangles).size(), mesh.triangle_count(), area);
}

// ---- procedural shapes ----

struct BoxArgs {
  std::string output;
  std::array<double, 3> origin{0, 0, 0}, size{1.0, 0.2, 0.2};
  std::array<Index, 3> cells{10, 2, 2};
  int split = 5;  // the alternating 5-tet split: far less locking than 6 (docs/accuracy.md)
};

void run_box(const BoxArgs& a) {
  for (int k = 0; k < 3; ++k) {
    require_finite("--origin", a.origin[k]);
    require_positive("--size", a.size[k]);
    require_at_least("--cells", a.cells[k], 1);
  }
  if (a.split != 5 && a.split != 6) fail(fmt::format("--split: must be 5 or 6 (got {})", a.split));
  require_output_extension(a.output);
  const meshing::BoxDef def{.origin = to_vec3(a.origin),
                            .size = to_vec3(a.size),
                            .cells = a.cells,
                            .split = a.split == 5 ? meshing::CellSplit::five : meshing::CellSplit::six};
  write_tets(a.output, unwrap(meshing::box_mesh(def)));
  fmt::print("box {} × {} × {} m, exact volume {:.6g} m³\n", a.size[0], a.size[1], a.size[2],
             def.size.prod());
}

struct TubeArgs {
  std::string output;
  meshing::TubeDef def;
};

void run_tube(const TubeArgs& a) {
  require_positive("--inner-radius", a.def.inner_radius);
  require_positive("--outer-radius", a.def.outer_radius);
  require_positive("--length", a.def.length);
  if (a.def.inner_radius >= a.def.outer_radius) {
    fail(fmt::format("--inner-radius: must be less than --outer-radius (got {} ≥ {})", a.def.inner_radius,
                     a.def.outer_radius));
  }
  require_at_least("--segments-around", a.def.segments_around, 3);
  require_at_least("--segments-along", a.def.segments_along, 1);
  require_at_least("--segments-through", a.def.segments_through, 1);
  require_output_extension(a.output);
  write_tets(a.output, unwrap(meshing::tube_mesh(a.def)));
  const double analytic =
      std::numbers::pi * (a.def.outer_radius * a.def.outer_radius - a.def.inner_radius * a.def.inner_radius) *
      a.def.length;
  fmt::print("tube: polygonal volume {:.6g} m³, circular π(R²−r²)L = {:.6g} m³\n",
             meshing::tube_polygonal_volume(a.def), analytic);
}

struct BallArgs {
  std::string output;
  std::array<double, 3> center{0, 0, 0};
  meshing::BallDef def;
};

void run_ball(const BallArgs& a) {
  for (double c : a.center) require_finite("--center", c);
  require_positive("--radius", a.def.radius);
  require_at_least("--resolution", a.def.resolution, 2);
  if (a.def.resolution % 2 != 0) fail(fmt::format("--resolution: must be even (got {})", a.def.resolution));
  require_output_extension(a.output);
  meshing::BallDef def = a.def;
  def.center = to_vec3(a.center);
  write_tets(a.output, unwrap(meshing::ball_mesh(def)));
  fmt::print("ball: sphere volume 4/3 π r³ = {:.6g} m³ (the mesh is the inscribed polyhedron)\n",
             4.0 / 3.0 * std::numbers::pi * std::pow(def.radius, 3));
}

struct DiscArgs {
  std::string output;
  meshing::DiscMembraneDef def;
};

void run_disc(const DiscArgs& a) {
  require_positive("--radius", a.def.radius);
  require_at_least("--boundary-nodes", a.def.boundary_nodes, 6);
  const auto [lo, hi] = meshing::disc_membrane_node_range(a.def.boundary_nodes);
  if (a.def.nodes < lo || a.def.nodes > hi) {
    fail(fmt::format("--nodes: must be between {} and {} for --boundary-nodes {} (got {})", lo, hi,
                     a.def.boundary_nodes, a.def.nodes));
  }
  require_output_extension(a.output);
  write_triangles(a.output, unwrap(meshing::disc_membrane(a.def)));
}

struct RectArgs {
  std::string output;
  std::array<double, 2> size{0.1, 0.1};
  std::array<Index, 2> cells{20, 20};
  bool uniform = false;
};

void run_rect(const RectArgs& a) {
  for (int k = 0; k < 2; ++k) {
    require_positive("--size", a.size[k]);
    require_at_least("--cells", a.cells[k], 1);
  }
  require_output_extension(a.output);
  const meshing::RectMembraneDef def{.size = Vec2(a.size[0], a.size[1]),
                                     .cells_x = a.cells[0],
                                     .cells_y = a.cells[1],
                                     .alternate_diagonals = !a.uniform};
  write_triangles(a.output, unwrap(meshing::rect_membrane(def)));
}

struct HexDiscArgs {
  std::string output;
  meshing::HexDiscDef def;
};

void run_hexdisc(const HexDiscArgs& a) {
  require_positive("--radius", a.def.radius);
  require_at_least("--rings", a.def.rings, 1);
  require_output_extension(a.output);
  write_triangles(a.output, unwrap(meshing::hex_disc(a.def)));
}

struct IcosphereArgs {
  std::string output;
  meshing::IcosphereDef def;
};

void run_icosphere(const IcosphereArgs& a) {
  require_positive("--radius", a.def.radius);
  if (a.def.subdivisions < 0 || a.def.subdivisions > 10) {
    fail(fmt::format("--subdivisions: must be between 0 and 10 (got {})", a.def.subdivisions));
  }
  require_output_extension(a.output);
  write_triangles(a.output, unwrap(meshing::icosphere(a.def)));
}

// ---- surface to tets ----

struct SurfaceArgs {
  std::string input, output;
  double size = 0.0;
  bool remesh = false;
  double feature_angle = 40.0;
  int threads = 1;
};

// The procedural shapes, each a subcommand of `pliant mesh` (setup_mesh below).
constexpr const char* kShapes = "box, tube, ball, disc, rect, hexdisc, icosphere";

void run_surface(const SurfaceArgs& a) {
  if (a.input.empty())
    fail(fmt::format("mesh: give a surface file to fill with tets, or a shape: {}", kShapes));
  // A bare word that is no file is a misspelt shape, not a missing mesh file.
  if (std::filesystem::path(a.input).extension().empty() && !std::filesystem::exists(a.input))
    fail(fmt::format("mesh: unknown shape '{}' (shapes: {}; or a surface file to fill with tets)", a.input,
                     kShapes));
  if (a.output.empty()) fail("mesh: -o OUTPUT is required");
#if PLIANT_HAS_MESHING_GMSH
  if (!(std::isfinite(a.size) && a.size >= 0))
    fail(fmt::format("--size: must be a finite number ≥ 0 (got {})", a.size));
  if (a.remesh && a.size <= 0) fail("--remesh: needs --size H > 0, the edge length of the new surface");
  require_at_least("--threads", a.threads, 1);
  require_output_extension(a.output);
  // Messages name nodes and triangles as the input file numbers them, not as welding renumbered them.
  io::SurfaceNumbering numbering;
  std::vector<Index> first;
  const TriMesh surface =
      meshing::weld_identical_nodes(unwrap(io::read_tri_mesh(a.input, &numbering)), &first);
  meshing::SurfaceNames names;
  names.triangle = std::move(numbering.triangle);
  for (const Index v : first) names.node.push_back(numbering.node[static_cast<std::size_t>(v)]);
  if (auto checked = meshing::check_closed_surface(surface, &names); !checked)
    fail(a.input + ": " + checked.message());
  meshing_gmsh::TetrahedralizeReport report;
  const meshing_gmsh::TetrahedralizeOptions options{.target_size = a.size,
                                                    .remesh_surface = a.remesh,
                                                    .feature_angle = a.feature_angle,
                                                    .threads = a.threads};
  auto mesh = meshing_gmsh::tetrahedralize(surface, options, &report);
  if (!mesh) fail(a.input + ": " + mesh.message());
  fmt::print("{}: {} nodes, {} triangles{}, enclosed volume {:.6g} m³\n", a.input, report.surface_nodes,
             report.surface_triangles, report.input_was_inward ? " (inward winding, flipped)" : "",
             report.surface_volume);
  fmt::print("gmsh: {} tets in {:.3f} s\n", mesh->tet_count(), report.seconds);
  write_tets(a.output, *mesh);
#else
  fail(
      "mesh: this build of pliant has no gmsh, so it cannot fill surfaces with tetrahedra (rebuild with "
      "-DPLIANT_WITH_GMSH=ON and libgmsh-dev); procedural shapes work: pliant mesh box|tube|ball|...");
#endif
}

template <class Args>
CLI::App* shape_command(CLI::App& mesh, const char* name, const char* help, std::shared_ptr<Args> args) {
  auto* cmd = mesh.add_subcommand(name, help);
  cmd->add_option("-o,--output", args->output, "Output file: .vtu, .mesh, .obj, .stl, .off or .ply")
      ->required();
  return cmd;
}

void setup_mesh(CLI::App& app) {
  auto* mesh = app.add_subcommand(
      "mesh",
      "Make a mesh: fill a closed surface (OBJ, STL, ...) with tets (needs gmsh), or build a procedural "
      "shape (pliant mesh SHAPE --help). Output by extension: .vtu, .mesh, .obj, .stl, .off, .ply.");
  mesh->require_subcommand(0, 1);
  auto surface = std::make_shared<SurfaceArgs>();
  mesh->add_option("input", surface->input, "Closed surface to fill with tetrahedra (.obj, .stl, .msh, ...)");
  mesh->add_option("-o,--output", surface->output,
                   "Output file: .vtu or .mesh (tets), .obj .stl .off or .ply (boundary surface)");
  mesh->add_option("--size", surface->size, "Largest tet edge length inside (m); 0 = follow the surface")
      ->capture_default_str();
  mesh->add_flag("--remesh", surface->remesh, "Remesh the surface at --size first (keeps sharp edges)");
  mesh->add_option("--feature-angle", surface->feature_angle, "Sharp-edge angle kept by --remesh (degrees)")
      ->capture_default_str();
  mesh->add_option("--threads", surface->threads, "gmsh threads")->capture_default_str();
  mesh->callback([mesh, surface] {
    if (mesh->get_subcommands().empty()) run_surface(*surface);
  });

  auto box = std::make_shared<BoxArgs>();
  auto* c = shape_command(*mesh, "box", "Structured box (beam) of tets", box);
  c->add_option("--size", box->size, "Edge lengths X Y Z (m)")->capture_default_str();
  c->add_option("--cells", box->cells, "Cells along X Y Z")->capture_default_str();
  c->add_option("--origin", box->origin, "Minimum corner X Y Z (m)")->capture_default_str();
  c->add_option("--split", box->split,
                "Tets per cell: 5 (alternating, default) or 6 (Kuhn; locks for nu near 0.5)")
      ->capture_default_str();
  c->callback([box] { run_box(*box); });

  auto tube = std::make_shared<TubeArgs>();
  c = shape_command(*mesh, "tube", "Thick-walled tube (pipe) along z", tube);
  // Flags spell the scene file's keys (inner_radius -> --inner-radius), docs/scene-format.md.
  c->add_option("--inner-radius", tube->def.inner_radius, "Inner radius (m)")->capture_default_str();
  c->add_option("--outer-radius", tube->def.outer_radius, "Outer radius (m)")->capture_default_str();
  c->add_option("--length", tube->def.length, "Length (m)")->capture_default_str();
  c->add_option("--segments-around", tube->def.segments_around, "Segments around")->capture_default_str();
  c->add_option("--segments-along", tube->def.segments_along, "Segments along the axis")
      ->capture_default_str();
  c->add_option("--segments-through", tube->def.segments_through, "Segments through the wall")
      ->capture_default_str();
  c->callback([tube] { run_tube(*tube); });

  auto ball = std::make_shared<BallArgs>();
  c = shape_command(*mesh, "ball", "Solid ball of tets (cube grid mapped to the ball)", ball);
  c->add_option("--radius", ball->def.radius, "Radius (m)")->capture_default_str();
  c->add_option("--resolution", ball->def.resolution, "Cells across the diameter (even)")
      ->capture_default_str();
  c->add_option("--center", ball->center, "Centre X Y Z (m)")->capture_default_str();
  c->callback([ball] { run_ball(*ball); });

  auto disc = std::make_shared<DiscArgs>();
  c = shape_command(*mesh, "disc", "Disc membrane with exact node and rim-node counts (z = 0)", disc);
  c->add_option("--radius", disc->def.radius, "Radius (m)")->capture_default_str();
  c->add_option("--nodes", disc->def.nodes, "Total nodes")->capture_default_str();
  c->add_option("--boundary-nodes", disc->def.boundary_nodes, "Nodes on the rim")->capture_default_str();
  c->callback([disc] { run_disc(*disc); });

  auto rect = std::make_shared<RectArgs>();
  c = shape_command(*mesh, "rect", "Rectangular membrane of triangles (z = 0)", rect);
  c->add_option("--size", rect->size, "Extent X Y (m)")->capture_default_str();
  c->add_option("--cells", rect->cells, "Cells along X Y")->capture_default_str();
  c->add_flag("--uniform", rect->uniform, "All diagonals the same way (default: alternating)");
  c->callback([rect] { run_rect(*rect); });

  auto hex = std::make_shared<HexDiscArgs>();
  c = shape_command(*mesh, "hexdisc", "Regular hexagonal disc of equilateral triangles (z = 0)", hex);
  c->add_option("--radius", hex->def.radius, "Centre-to-corner distance (m)")->capture_default_str();
  c->add_option("--rings", hex->def.rings, "Rings of triangles n: 3n(n+1)+1 nodes")->capture_default_str();
  c->callback([hex] { run_hexdisc(*hex); });

  auto ico = std::make_shared<IcosphereArgs>();
  c = shape_command(*mesh, "icosphere", "Icosphere surface (subdivided icosahedron)", ico);
  c->add_option("--radius", ico->def.radius, "Radius (m)")->capture_default_str();
  c->add_option("--subdivisions", ico->def.subdivisions,
                fmt::format("Subdivision levels (0..{})", meshing::kMaxIcosphereSubdivisions))
      ->capture_default_str();
  c->callback([ico] { run_icosphere(*ico); });
}

}  // namespace
PLIANT_REGISTER_VERB(200, setup_mesh);
}  // namespace pliant::cli
#endif
