// `pliant mesh`: procedural meshes (box, tube, ball, disc, rect, hexdisc, icosphere) and, with gmsh,
// closed surfaces (OBJ, STL, ...) filled with tetrahedra. The output format follows the extension:
// .vtu (tets or triangles), .obj and .stl (triangles; for a tet mesh, its boundary surface).
#include "cli.hpp"
#include "mesh_units_options.hpp"
#include "option_checks.hpp"

#if PLIANT_HAS_MESHING
#include "pliant/core/geometry.hpp"
#include "pliant/core/quality.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/io/write_mesh.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/disc_membrane.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/sliver_pass.hpp"
#include "pliant/meshing/surface_check.hpp"
#include "pliant/meshing/surface_repair.hpp"
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

// Single-value ranges are checked as the options parse (option_checks.hpp); what remains here
// relates options to each other.

Vec3 to_vec3(const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); }

// Checked before any work, so a typo in -o does not cost a long meshing run.
void require_output_extension(const std::string& path) {
  if (const Status checked = io::check_mesh_output(path); !checked) fail("-o: " + checked.message());
}

void write_tets(const std::string& path, const TetMesh& mesh) {
  unwrap(io::write_mesh(path, mesh));
  const MeshQuality q = mesh_quality(mesh);
  fmt::print("wrote {}: {} nodes, {} tets{}; volume {:.6g} m³\n", path, mesh.node_count(), mesh.tet_count(),
             io::is_volume_format(path) ? "" : " (boundary surface written)", q.total_volume);
  fmt::print(
      "quality: radius ratio min {:.3f} mean {:.3f}; dihedral angles {:.1f}° .. {:.1f}°; tet volume {:.3g} "
      ".. "
      "{:.3g} m³\n",
      q.radius_ratio.min, q.radius_ratio.mean, q.min_dihedral_deg.min, q.max_dihedral_deg.max, q.volume.min,
      q.volume.max);
}

void write_triangles(const std::string& path, const TriMesh& mesh) {
  unwrap(io::write_mesh(path, mesh));
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
  if (a.def.inner_radius >= a.def.outer_radius) {
    fail(fmt::format("--inner-radius: must be less than --outer-radius (got {} ≥ {})", a.def.inner_radius,
                     a.def.outer_radius));
  }
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
  require_output_extension(a.output);
  write_triangles(a.output, unwrap(meshing::hex_disc(a.def)));
}

struct IcosphereArgs {
  std::string output;
  meshing::IcosphereDef def;
};

void run_icosphere(const IcosphereArgs& a) {
  require_output_extension(a.output);
  write_triangles(a.output, unwrap(meshing::icosphere(a.def)));
}

// ---- surface to tets ----

struct SurfaceArgs {
  std::string input, output;
  double size = 0.0;
  bool remesh = false;
  bool keep_surface = false;
  double feature_angle = 40.0;
  int threads = 1;
  double min_dihedral = 10.0;
  double slide_angle = 80.0;
  double slide_tolerance = 0.1;
  bool no_repair = false;
  Index max_hole_edges = 64;
  MeshUnitsArgs units;
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
  if (a.remesh && a.keep_surface) fail("--remesh and --keep-surface contradict each other: give one");
  if (a.remesh && a.size <= 0) fail("--remesh: needs --size H > 0, the edge length of the new surface");
  // --size H asks for tets of edge H. Tets at the boundary take the size of the surface triangles, so
  // without remeshing a fine input surface leaves --size with nothing to do: it remeshes unless the
  // input triangles are to be kept (--keep-surface; H then bounds only the tets inside).
  const bool remesh = a.size > 0 && !a.keep_surface;
  require_output_extension(a.output);
  // Messages name nodes and triangles as the input file numbers them, not as welding renumbered them.
  io::SurfaceNumbering numbering;
  std::vector<Index> first;
  TriMesh read = unwrap(io::read_tri_mesh(a.input, &numbering));
  // In metres before welding and meshing: --size and every reported length are in metres.
  transform_positions(read.positions, a.units.transform());
  const TriMesh surface = meshing::weld_identical_nodes(std::move(read), &first);
  meshing::SurfaceNames names;
  names.triangle = std::move(numbering.triangle);
  for (const Index v : first) names.node.push_back(numbering.node[static_cast<std::size_t>(v)]);
  // A surface that passes the check is meshed as given; otherwise the repairs run and the check is
  // repeated on their result. Errors name the input's own numbers, so they come from the first check.
  TriMesh repaired;
  const TriMesh* to_mesh = &surface;
  if (auto checked = meshing::check_closed_surface(surface, &names); !checked) {
    if (a.no_repair) fail(a.input + ": " + checked.message());
    meshing::RepairReport repair;
    repaired = unwrap(meshing::repair_surface(surface, {.max_hole_edges = a.max_hole_edges}, &repair));
    for (const std::string& line : repair.notices()) fmt::print("notice: repair: {}\n", line);
    if (auto again = meshing::check_closed_surface(repaired); !again) {
      fail(fmt::format("{}: {} (repair could not fix it; after repair: {})", a.input, checked.message(),
                       again.message()));
    }
    to_mesh = &repaired;
  }
  meshing_gmsh::TetrahedralizeReport report;
  const meshing_gmsh::TetrahedralizeOptions options{.target_size = a.size,
                                                    .remesh_surface = remesh,
                                                    .feature_angle = a.feature_angle,
                                                    .threads = a.threads,
                                                    .min_dihedral_deg = 0.0,
                                                    .peel_surface_slivers = !a.keep_surface};
  auto mesh = meshing_gmsh::tetrahedralize(*to_mesh, options, &report);
  if (!mesh) fail(a.input + ": " + mesh.message());
  // The sliver pass runs here rather than inside tetrahedralize, so that surface nodes may slide
  // (unless --keep-surface, which keeps every surface node where the input put it).
  if (a.min_dihedral > 0) {
    report.slivers =
        meshing::remove_slivers(*mesh, {.min_dihedral_deg = a.min_dihedral,
                                        .peel_boundary = !a.keep_surface,
                                        .surface_slide_deg = a.keep_surface ? 0.0 : a.slide_angle,
                                        .surface_tolerance = a.slide_tolerance});
  }
  fmt::print("{}: {} nodes, {} triangles{}, enclosed volume {:.6g} m³\n", a.input, report.surface_nodes,
             report.surface_triangles, report.input_was_inward ? " (inward winding, flipped)" : "",
             report.surface_volume);
  fmt::print("gmsh: {} tets in {:.3f} s{}\n", mesh->tet_count(), report.seconds,
             remesh       ? fmt::format(" (surface remeshed at {} m)", a.size)
             : a.size > 0 ? fmt::format(" (input surface kept, tets inside up to {} m)", a.size)
                          : " (input surface kept)");
  const meshing::SliverReport& sl = report.slivers;
  if (a.min_dihedral > 0) {
    fmt::print(
        "slivers: {} tets under {}° after gmsh (smallest dihedral {:.2f}°); {} interior node moves, "
        "{} flips, {} edge splits, {} surface slivers peeled ({:.3g} m³, {:.2g}% of the volume); "
        "{} left, smallest dihedral {:.2f}°\n",
        sl.slivers_before, a.min_dihedral, sl.min_dihedral_before, sl.nodes_moved, sl.flips, sl.splits,
        sl.tets_peeled, sl.peeled_volume, 100.0 * sl.peeled_volume / std::max(report.surface_volume, 1e-300),
        sl.slivers_after, sl.min_dihedral_after);
    if (sl.slivers_after > 0) {
      fmt::print(
          "warning: {} {} a dihedral angle under {}°, the smallest {:.2f}° at tet {} near "
          "({:.4g}, {:.4g}, {:.4g}) m ({} of its 4 nodes on the surface){}\n",
          sl.slivers_after, sl.slivers_after == 1 ? "tet has" : "tets have", a.min_dihedral,
          sl.min_dihedral_after, sl.worst_tet, sl.worst_center.x(), sl.worst_center.y(), sl.worst_center.z(),
          sl.worst_boundary_nodes,
          remesh || a.keep_surface ? "" : "; --size H remeshes the surface, which usually removes them");
    }
    if (sl.surface_moves > 0) {
      fmt::print(
          "slivers: {} surface nodes slid along the surface ({} moves); the boundary around them within "
          "{:.3g} m of the input (each slide bounded by {:.3g} m, {} of the mean surface edge; peeled "
          "slivers count too); volume {:+.2g}%\n",
          sl.surface_nodes_moved, sl.surface_moves, sl.surface_deviation, sl.surface_tolerance,
          a.slide_tolerance,
          100.0 * (sl.volume_after - sl.volume_before) / std::max(sl.volume_before, 1e-300));
      if (sl.surface_deviation > sl.surface_tolerance)
        fmt::print(
            "warning: the boundary is up to {:.3g} m from the input, more than the slide bound {:.3g} m "
            "(peeled slivers and slides add up): --slide-angle 20 slides less, --keep-surface keeps the "
            "input surface\n",
            sl.surface_deviation, sl.surface_tolerance);
    }
  }
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
                   "Output file: .vtu or .mesh (tets), .obj .stl .off or .ply (boundary surface); required "
                   "with INPUT");
  add_number(*mesh, "--size", surface->size,
             "Tet edge length (m): the surface is remeshed at it and the tets inside follow; 0 = keep the "
             "input surface and let the tets grow from its triangles",
             non_negative())
      ->capture_default_str();
  mesh->add_flag("--remesh", surface->remesh,
                 "Remesh the surface at --size (the default when --size is given, unless --keep-surface)");
  mesh->add_flag(
      "--keep-surface", surface->keep_surface,
      "Keep the input surface triangles exactly: --size then bounds only the tets inside (default: "
      "remeshed when --size is given), and the sliver pass peels no tet off the surface and slides no "
      "surface node");
  add_number(*mesh, "--feature-angle", surface->feature_angle,
             "Sharp-edge angle kept when remeshing (degrees)", between(0, 180))
      ->capture_default_str();
  add_number(*mesh, "--threads", surface->threads, "gmsh threads", whole(1))->capture_default_str();
  add_number(*mesh, "--min-dihedral", surface->min_dihedral,
             "Tets with a dihedral angle under this (degrees) go through the sliver pass after gmsh, and a "
             "warning names the worst left; 0 skips the pass",
             between(0, 50))
      ->capture_default_str();
  add_number(*mesh, "--slide-angle", surface->slide_angle,
             "Surface nodes of slivers slide along the surface where its triangles around them are within "
             "this angle of one plane (degrees); 0 = surface nodes never move (as with --keep-surface)",
             between(0, 89))
      ->capture_default_str();
  add_number(*mesh, "--slide-tolerance", surface->slide_tolerance,
             "Largest distance of the slid surface from the input, as a fraction of the mean surface edge",
             between(1e-6, 1))
      ->capture_default_str();
  add_number(*mesh, "--max-hole-edges", surface->max_hole_edges,
             "Repair fills boundary loops of at most this many edges; 0 fills none", whole(0))
      ->capture_default_str();
  mesh->add_flag("--no-repair", surface->no_repair,
                 "Refuse a surface that is not closed, manifold and free of self-intersections instead of "
                 "repairing it (default: repair, one notice per repair)");
  add_mesh_units_options(*mesh, surface->units);
  mesh->callback([mesh, surface] {
    if (mesh->get_subcommands().empty()) run_surface(*surface);
  });

  auto box = std::make_shared<BoxArgs>();
  auto* c = shape_command(*mesh, "box", "Structured box (beam) of tets", box);
  add_numbers(*c, "--size", box->size, "Edge lengths (m)", positive(), "X,Y,Z");
  add_numbers(*c, "--cells", box->cells, "Cells along x, y and z", whole(1), "NX,NY,NZ");
  add_numbers(*c, "--origin", box->origin, "Minimum corner (m)", finite_number(), "X,Y,Z");
  add_number(*c, "--split", box->split, "Tets per cell: 5 (alternating) or 6 (Kuhn; locks for nu near 0.5)",
             whole(5, 6))
      ->capture_default_str();
  c->callback([box] { run_box(*box); });

  auto tube = std::make_shared<TubeArgs>();
  c = shape_command(*mesh, "tube", "Thick-walled tube (pipe) along z", tube);
  // Flags spell the scene file's keys (inner_radius -> --inner-radius), docs/scene-format.md.
  add_number(*c, "--inner-radius", tube->def.inner_radius, "Inner radius (m)", positive())
      ->capture_default_str();
  add_number(*c, "--outer-radius", tube->def.outer_radius, "Outer radius (m)", positive())
      ->capture_default_str();
  add_number(*c, "--length", tube->def.length, "Length (m)", positive())->capture_default_str();
  add_number(*c, "--segments-around", tube->def.segments_around, "Segments around", whole(3))
      ->capture_default_str();
  add_number(*c, "--segments-along", tube->def.segments_along, "Segments along the axis", whole(1))
      ->capture_default_str();
  add_number(*c, "--segments-through", tube->def.segments_through, "Segments through the wall", whole(1))
      ->capture_default_str();
  c->callback([tube] { run_tube(*tube); });

  auto ball = std::make_shared<BallArgs>();
  c = shape_command(*mesh, "ball", "Solid ball of tets (cube grid mapped to the ball)", ball);
  add_number(*c, "--radius", ball->def.radius, "Radius (m)", positive())->capture_default_str();
  add_number(*c, "--resolution", ball->def.resolution, "Cells across the diameter (even)", whole(2))
      ->capture_default_str();
  add_numbers(*c, "--center", ball->center, "Centre (m)", finite_number(), "X,Y,Z");
  c->callback([ball] { run_ball(*ball); });

  auto disc = std::make_shared<DiscArgs>();
  c = shape_command(*mesh, "disc", "Disc membrane with exact node and rim-node counts (z = 0)", disc);
  add_number(*c, "--radius", disc->def.radius, "Radius (m)", positive())->capture_default_str();
  add_number(*c, "--nodes", disc->def.nodes, "Total nodes", whole(1))->capture_default_str();
  add_number(*c, "--boundary-nodes", disc->def.boundary_nodes, "Nodes on the rim", whole(6))
      ->capture_default_str();
  c->callback([disc] { run_disc(*disc); });

  auto rect = std::make_shared<RectArgs>();
  c = shape_command(*mesh, "rect", "Rectangular membrane of triangles (z = 0)", rect);
  add_numbers(*c, "--size", rect->size, "Extent (m)", positive(), "X,Y");
  add_numbers(*c, "--cells", rect->cells, "Cells along x and y", whole(1), "NX,NY");
  c->add_flag("--uniform", rect->uniform, "All diagonals the same way (default: alternating)");
  c->callback([rect] { run_rect(*rect); });

  auto hex = std::make_shared<HexDiscArgs>();
  c = shape_command(*mesh, "hexdisc", "Regular hexagonal disc of equilateral triangles (z = 0)", hex);
  add_number(*c, "--radius", hex->def.radius, "Centre-to-corner distance (m)", positive())
      ->capture_default_str();
  add_number(*c, "--rings", hex->def.rings, "Rings of triangles n: 3n(n+1)+1 nodes", whole(1))
      ->capture_default_str();
  c->callback([hex] { run_hexdisc(*hex); });

  auto ico = std::make_shared<IcosphereArgs>();
  c = shape_command(*mesh, "icosphere", "Icosphere surface (subdivided icosahedron)", ico);
  add_number(*c, "--radius", ico->def.radius, "Radius (m)", positive())->capture_default_str();
  add_number(*c, "--subdivisions", ico->def.subdivisions, "Subdivision levels",
             whole(0, meshing::kMaxIcosphereSubdivisions))
      ->capture_default_str();
  c->callback([ico] { run_icosphere(*ico); });
}

}  // namespace
PLIANT_REGISTER_VERB(200, setup_mesh);
}  // namespace pliant::cli
#endif
