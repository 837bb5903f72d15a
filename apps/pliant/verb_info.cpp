// `pliant info FILE [--json] [-o OUT]`: what a mesh file holds and whether it can be simulated.
//
// Prints the format, counts (nodes, tetrahedra, triangles, unique edges), bounding box, volume,
// surface area, tetrahedron quality statistics and the validation findings. An error-severity
// finding (inverted or degenerate tet, ...) prints the report first and then fails with the first
// error as the one-line message, so scripts can gate on the exit status. Extensions with a
// registered handler (PLIANT_REGISTER_INFO, e.g. ".green") are passed to it instead. The report goes
// to stdout, or with -o to a file (written atomically; an error-severity finding still fails after
// the report is written).
#include "cli.hpp"
#include "mesh_units_options.hpp"

#include "pliant/core/quality.hpp"
#include "pliant/core/self_intersection.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/core/validate.hpp"
#if PLIANT_HAS_IO
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/mesh_file.hpp"
#endif

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <memory>

namespace pliant::cli {
namespace {

struct InfoArgs {
  std::string path;
  std::string output;  // empty: stdout
  bool json = false;
  MeshUnitsArgs units;
};

// The report on stdout, or in the -o file.
void emit(const InfoArgs& args, const std::string& report) {
  if (args.output.empty()) {
    std::fputs(report.c_str(), stdout);
    std::fflush(stdout);
    return;
  }
#if PLIANT_HAS_IO
  unwrap(io::write_file_atomically(args.output, report));
#else
  fail("-o: this build of pliant has no io module to write files");
#endif
}

#if PLIANT_HAS_IO
nlohmann::json stats_json(const QualityStats& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

std::string point_text(const Vec3& p) { return fmt::format("({:.4g}, {:.4g}, {:.4g})", p.x(), p.y(), p.z()); }

// Triangles that cross each other: one error finding (the count and the first pairs, numbered as the
// file numbers its faces) and, in JSON, the first pairs with their points.
void add_self_intersections(const TriMesh& mesh, const std::vector<long long>& triangle_ids,
                            ValidationReport& report, nlohmann::json& j) {
  const SelfIntersections found = find_self_intersections(mesh);
  // The file's face numbers while each face is one triangle; once polygons were split, the triangles
  // of one face share its number, so they are named by index with the face's number after it.
  const bool file_numbers = triangle_ids.size() == mesh.triangles.size();
  bool one_per_face = file_numbers;
  for (std::size_t t = 1; one_per_face && t < triangle_ids.size(); ++t)
    one_per_face = triangle_ids[t] != triangle_ids[t - 1];
  const auto name = [&](Index t) {
    return one_per_face ? triangle_ids[static_cast<std::size_t>(t)] : static_cast<long long>(t);
  };
  const auto text = [&](Index t) {
    if (!file_numbers || one_per_face) return std::to_string(name(t));
    return fmt::format("{} (face {})", t, triangle_ids[static_cast<std::size_t>(t)]);
  };
  nlohmann::json pairs = nlohmann::json::array();
  for (const TriangleCrossing& c : found.pairs) {
    nlohmann::json pair = {{"triangles", {name(c.first), name(c.second)}},
                           {"point", {c.point.x(), c.point.y(), c.point.z()}}};
    if (file_numbers && !one_per_face) {
      pair["faces"] = {triangle_ids[static_cast<std::size_t>(c.first)],
                       triangle_ids[static_cast<std::size_t>(c.second)]};
    }
    pairs.push_back(pair);
  }
  j["self_intersections"] = {{"total", found.total}, {"pairs", pairs}};
  if (found.none()) return;
  std::string message = fmt::format("surface intersects itself in {} triangle pair{}", found.total,
                                    found.total == 1 ? "" : "s");
  constexpr std::size_t kNamed = 3;
  for (std::size_t k = 0; k < std::min(kNamed, found.pairs.size()); ++k) {
    const TriangleCrossing& c = found.pairs[k];
    message += fmt::format("{} triangles {} and {} cross near {}", k == 0 ? ":" : ";", text(c.first),
                           text(c.second), point_text(c.point));
  }
  if (found.total > static_cast<Index>(kNamed))
    message += fmt::format("; and {} more", found.total - static_cast<Index>(kNamed));
  report.findings.push_back({Severity::error, "self_intersection", message, found.pairs.front().first});
  report.counts["self_intersection"] = found.total;
  report.errors += found.total;
}

void describe_mesh(const InfoArgs& args) {
  io::MeshFile file = unwrap(io::read_mesh_file(args.path));
  // Every length below (bounding box, volume, area, tet sizes) is in metres after --units/--scale.
  const MeshTransform transform = args.units.transform();
  transform_positions(file.positions, transform);
  if (file.tets.empty() && file.triangles.empty()) {
    const std::string found = file.skipped_summary();
    fail(args.path + ": no tetrahedra or triangles" + (found.empty() ? "" : " (found " + found + ")"));
  }
  nlohmann::json j;
  j["file"] = args.path;
  j["format"] = file.format;
  j["nodes"] = file.positions.size();
  j["tets"] = file.tets.size();
  j["triangles"] = file.triangles.size();
  j["line_elements"] = file.edges.size();
  nlohmann::json skipped = nlohmann::json::object();
  for (const auto& [kind, n] : file.skipped) skipped[kind] = n;
  j["skipped"] = skipped;
  j["notices"] = file.notices;
  j["units"] = args.units.units;
  j["scale"] = args.units.scale;

  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Vec3& p : file.positions) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  if (file.positions.empty()) lo = hi = Vec3::Zero();
  j["bounding_box"] = {{"min", {lo.x(), lo.y(), lo.z()}}, {"max", {hi.x(), hi.y(), hi.z()}}};

  ValidationReport report;
  const bool volume_mesh = !file.tets.empty();
  if (volume_mesh) {
    const TetMesh mesh{std::move(file.positions), std::move(file.tets)};
    j["edges"] = unique_edges(mesh.tets).size();
    report = validate(mesh);
    const MeshQuality q = mesh_quality(mesh);
    const BoundarySurface boundary = extract_boundary(mesh);
    j["volume"] = q.total_volume;
    j["surface_area"] = surface_area(boundary.mesh);
    j["boundary_triangles"] = boundary.mesh.triangles.size();
    j["quality"] = {{"radius_ratio", stats_json(q.radius_ratio)},
                    {"min_dihedral_deg", stats_json(q.min_dihedral_deg)},
                    {"max_dihedral_deg", stats_json(q.max_dihedral_deg)},
                    {"aspect", stats_json(q.aspect)},
                    {"tet_volume", stats_json(q.volume)},
                    {"radius_ratio_histogram", q.radius_ratio_histogram},
                    {"worst_tet", q.worst_tet},
                    {"inverted", q.inverted_count}};
  } else {
    const TriMesh mesh{std::move(file.positions), std::move(file.triangles)};
    j["edges"] = unique_edges(mesh.triangles).size();
    report = validate(mesh);
    j["surface_area"] = surface_area(mesh);
    // A volume only means something for a closed surface.
    const bool closed = report.count("open_edge") == 0 && report.count("non_manifold_edge") == 0;
    j["closed"] = closed;
    j["volume"] = closed ? nlohmann::json(enclosed_volume(mesh)) : nlohmann::json(nullptr);
    add_self_intersections(mesh, file.triangle_ids, report, j);
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : report.findings) {
    findings.push_back({{"severity", to_string(f.severity)}, {"code", f.code}, {"message", f.message}});
  }
  j["validation"] = {{"errors", report.errors}, {"warnings", report.warnings}, {"findings", findings}};

  std::string out;
  if (args.json) {
    out = j.dump(2) + "\n";
  } else {
    out += fmt::format("{}\n  format          {}\n", args.path, file.format);
    out += fmt::format(
        "  nodes           {}\n  tetrahedra      {}\n  triangles       {}\n  edges           {}\n",
        j["nodes"].get<std::size_t>(), j["tets"].get<std::size_t>(), j["triangles"].get<std::size_t>(),
        j["edges"].get<std::size_t>());
    if (!file.edges.empty()) out += fmt::format("  line elements   {}\n", file.edges.size());
    if (!file.skipped.empty()) out += fmt::format("  not read        {}\n", file.skipped_summary());
    for (const std::string& notice : file.notices) out += fmt::format("  notice          {}\n", notice);
    out += fmt::format("  bounding box    [{:.6g}, {:.6g}, {:.6g}] .. [{:.6g}, {:.6g}, {:.6g}]\n", lo.x(),
                       lo.y(), lo.z(), hi.x(), hi.y(), hi.z());
    if (!j["volume"].is_null()) out += fmt::format("  volume          {:.9g}\n", j["volume"].get<double>());
    out += fmt::format(
        "  surface area    {:.9g}{}\n", j["surface_area"].get<double>(),
        volume_mesh ? fmt::format(" ({} boundary triangles)", j["boundary_triangles"].get<std::size_t>())
                    : "");
    if (volume_mesh) {
      const auto& q = j["quality"];
      const auto row = [&](const char* name, const char* key) {
        out +=
            fmt::format("  {:<15} min {:.4g}  mean {:.4g}  max {:.4g}\n", name, q[key]["min"].get<double>(),
                        q[key]["mean"].get<double>(), q[key]["max"].get<double>());
      };
      out += fmt::format("quality\n");
      row("radius ratio", "radius_ratio");
      row("min dihedral°", "min_dihedral_deg");
      row("max dihedral°", "max_dihedral_deg");
      row("aspect", "aspect");
      std::string hist;
      for (const auto& n : q["radius_ratio_histogram"]) hist += fmt::format(" {}", n.get<long long>());
      out += fmt::format("  ratio histogram{}  (bins of 0.1 from 0)\n", hist);
    }
    out += fmt::format("validation        {} errors, {} warnings\n", report.errors, report.warnings);
    for (const Finding& f : report.findings)
      out += fmt::format("  {}: {}\n", to_string(f.severity), f.message);
  }
  emit(args, out);
  if (!report.ok()) fail(args.path + ": " + report.first_error());
}
#endif

void run_info(const InfoArgs& args) {
  std::string ext = std::filesystem::path(args.path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (const InfoHandler handler = find_info_handler(ext)) {
    emit(args, handler(args.path, args.json));
    return;
  }
#if PLIANT_HAS_IO
  describe_mesh(args);
#else
  fail(args.path + ": this build of pliant has no mesh reader (the io module is missing)");
#endif
}

void setup_info(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  auto* cmd = app.add_subcommand(
      "info",
      "Describe a mesh (.msh .node .ele .vtk .vtu .vtp .mesh .obj .stl .off .ply) or asset file: "
      "counts, size, quality, problems.");
  cmd->add_option("file", args->path, "The file to describe")->required();
  cmd->add_option("-o,--output", args->output, "Write the description to this file (default: stdout)");
  cmd->add_flag("--json", args->json, "Describe in JSON (default: text)");
  add_mesh_units_options(*cmd, args->units);
  cmd->callback([args] { run_info(*args); });
}

}  // namespace
PLIANT_REGISTER_VERB(200, setup_info);
}  // namespace pliant::cli
