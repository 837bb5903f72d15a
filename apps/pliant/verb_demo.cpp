// `pliant demo [-o DIR]`: the interim demo. Builds the procedural pipe of the Green's-function paper
// (seed 000), checks it, writes DIR/tube.vtu and DIR/summary.json, and prints a short summary.
// A later scene demo replaces it.
#include "cli.hpp"

#if PLIANT_HAS_MESHING && PLIANT_HAS_IO
#include "pliant/core/geometry.hpp"
#include "pliant/core/quality.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/validate.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/vtu.hpp"
#include "pliant/meshing/tube.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <numbers>
#include <system_error>

namespace pliant::cli {
namespace {

void run_demo(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail(fmt::format("{}: cannot create the output directory ({})", dir, ec.message()));

  const meshing::TubeDef def;
  Stopwatch clock;
  const TetMesh mesh = unwrap(meshing::tube_mesh(def));
  const double build_ms = clock.ms();

  // Checks: core's validation (indices, orientation, degenerate tets, duplicate nodes, manifold
  // boundary, one component), the quality summary, and the volume against the polygonal prism's.
  clock.reset();
  const ValidationReport validation = validate(mesh);
  if (!validation.ok()) fail("demo: the tube mesh is invalid: " + validation.first_error());
  const MeshQuality quality = mesh_quality(mesh);
  const BoundarySurface boundary = extract_boundary(mesh);
  const double total = quality.total_volume;
  const double polygonal = meshing::tube_polygonal_volume(def);
  const double analytic = std::numbers::pi *
                          (def.outer_radius * def.outer_radius - def.inner_radius * def.inner_radius) *
                          def.length;
  const double check_ms = clock.ms();
  std::vector<double> volumes(mesh.tet_count());
  for (std::size_t e = 0; e < mesh.tet_count(); ++e) {
    const Tet& t = mesh.tets[e];
    volumes[e] =
        signed_volume(mesh.positions[t[0]], mesh.positions[t[1]], mesh.positions[t[2]], mesh.positions[t[3]]);
  }

  clock.reset();
  const std::filesystem::path vtu = std::filesystem::path(dir) / "tube.vtu";
  std::vector<double> radius(mesh.node_count());
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    radius[i] = std::hypot(mesh.positions[i].x(), mesh.positions[i].y());
  unwrap(io::write_vtu(vtu, mesh, {{"radius", 1, radius}}, {{"volume", 1, volumes}}));
  const double write_ms = clock.ms();

  nlohmann::json summary = {
      {"demo", "tube"},
      {"tube",
       {{"inner_radius_m", def.inner_radius},
        {"outer_radius_m", def.outer_radius},
        {"length_m", def.length},
        {"segments_around", def.segments_around},
        {"segments_along", def.segments_along},
        {"segments_through", def.segments_through}}},
      {"mesh",
       {{"nodes", mesh.node_count()},
        {"tets", mesh.tet_count()},
        {"surface_nodes", boundary.mesh.node_count()},
        {"surface_triangles", boundary.mesh.triangle_count()},
        {"validation_errors", validation.errors},
        {"validation_warnings", validation.warnings}}},
      {"volume",
       {{"mesh_m3", total},
        {"polygonal_m3", polygonal},
        {"analytic_m3", analytic},
        {"mesh_vs_polygonal_rel_error", std::abs(total - polygonal) / polygonal},
        {"mesh_vs_analytic_rel_error", std::abs(total - analytic) / analytic}}},
      {"quality",
       {{"radius_ratio", {{"min", quality.radius_ratio.min}, {"mean", quality.radius_ratio.mean}}},
        {"min_dihedral_deg",
         {{"min", quality.min_dihedral_deg.min}, {"mean", quality.min_dihedral_deg.mean}}},
        {"max_dihedral_deg",
         {{"max", quality.max_dihedral_deg.max}, {"mean", quality.max_dihedral_deg.mean}}},
        {"tet_volume_m3", {{"min", quality.volume.min}, {"max", quality.volume.max}}},
        {"radius_ratio_histogram", quality.radius_ratio_histogram}}},
      {"timing_ms", {{"build", build_ms}, {"check", check_ms}, {"write_vtu", write_ms}}},
      {"files", {"tube.vtu"}},
  };
  const std::filesystem::path json = std::filesystem::path(dir) / "summary.json";
  unwrap(io::write_file_atomically(json, summary.dump(2) + "\n"));

  fmt::print("pliant demo: procedural tube (pipe of the Green's-function demo)\n");
  fmt::print("  r = {} m, R = {} m, L = {} m; {} × {} × {} segments (around × along × through)\n",
             def.inner_radius, def.outer_radius, def.length, def.segments_around, def.segments_along,
             def.segments_through);
  fmt::print("  {} nodes, {} tets, {} surface triangles; valid ({} warnings)\n", mesh.node_count(),
             mesh.tet_count(), boundary.mesh.triangle_count(), validation.warnings);
  fmt::print(
      "  volume {:.6g} m³ = polygonal {:.6g} m³ (rel. diff {:.1e}); circle π(R²−r²)L = {:.6g} m³ ({:.2f}% "
      "above)\n",
      total, polygonal, std::abs(total - polygonal) / polygonal, analytic, 100 * (analytic - total) / total);
  fmt::print("  quality: radius ratio min {:.3f} mean {:.3f}; dihedral angles {:.1f}° .. {:.1f}°\n",
             quality.radius_ratio.min, quality.radius_ratio.mean, quality.min_dihedral_deg.min,
             quality.max_dihedral_deg.max);
  fmt::print("  wrote {} and {}\n", vtu.string(), json.string());
}

void setup_demo(CLI::App& app) {
  auto dir = std::make_shared<std::string>("out/demo");
  auto* cmd =
      app.add_subcommand("demo", "Interim demo: build and check the procedural tube, write VTU + JSON");
  cmd->add_option("-o,--output", *dir, "Output directory")->capture_default_str();
  cmd->callback([dir] { run_demo(*dir); });
}

}  // namespace
PLIANT_REGISTER_VERB(100, setup_demo);
}  // namespace pliant::cli
#endif
