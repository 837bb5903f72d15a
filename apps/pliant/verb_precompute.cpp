// `pliant precompute MESH --fix REGION [--control REGION]... [--material NAME | --E PA --nu NU]
//   -o FILE.green [--threads N] [--force] [--max-memory GB] [--compress TOL]`: builds a Green's function
//   asset.
//
// An existing output that matches the mesh, material and constraints is kept; a stale or damaged one
// is reported and rebuilt. Before the solve the memory need is printed and compared with
// --max-memory; a progress bar with ETA goes to stderr. The file appears atomically.
#include "cli.hpp"

#include "option_checks.hpp"
#include "pliant/core/escape.hpp"

#if PLIANT_HAS_GREEN && PLIANT_HAS_IO
#include "pliant/core/region.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/io/atomic_file.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/linalg/communicator.hpp"
#if PLIANT_HAS_LINALG_MPI
#include "pliant/linalg_mpi/mpi_session.hpp"
#endif
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/green/green_asset.hpp"
#include "pliant/models/green/green_file.hpp"
#if PLIANT_HAS_MESHING
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/tube.hpp"
#endif

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>

namespace pliant::cli {
namespace {

// Real soft natural rubber (E = 1.2 MPa); see materials::material_preset.
constexpr const char* kDefaultMaterial = "rubber";

struct PrecomputeArgs {
  std::string mesh;
  std::string fix;
  std::vector<std::string> controls;
  std::string material;
  double youngs = 0;   // (unit: Pa), used when youngs_given
  double poisson = 0;  // used when poisson_given
  bool youngs_given = false, poisson_given = false;
  std::string output;
  int threads = 0;
  bool force = false;
  bool rebuild = false;
  double max_memory_gb = 8.0;
  double compress = 0;  // relative tolerance of a hierarchical block; 0 = dense
  bool compress_given = false;
};

std::vector<double> numbers(const std::string& spec, const std::string& what, std::size_t count) {
  std::vector<double> v;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      v.push_back(std::stod(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      fail(fmt::format("mesh spec '{}': '{}' is not a number", what, item));
    }
  }
  if (v.size() != count)
    fail(fmt::format("mesh spec '{}': expected {} numbers, got {}", what, count, v.size()));
  return v;
}

// A mesh file, or a procedural spec: box:LX,LY,LZ,NX,NY,NZ or tube:RIN,ROUT,LEN,AROUND,ALONG,THROUGH.
TetMesh load_mesh(const std::string& spec, bool speak) {
  if (spec.rfind("box:", 0) == 0 || spec.rfind("tube:", 0) == 0) {
#if PLIANT_HAS_MESHING
    const bool box = spec[0] == 'b';
    const auto v = numbers(spec.substr(box ? 4 : 5), spec, 6);
    auto count = [&](double x) {
      if (!(x >= 1 && x <= 1e6 && x == std::floor(x)))
        fail(fmt::format("mesh spec '{}': bad cell count {}", spec, x));
      return static_cast<Index>(x);
    };
    if (box) {
      meshing::BoxDef def;
      def.size = Vec3(v[0], v[1], v[2]);
      def.cells = {count(v[3]), count(v[4]), count(v[5])};
      return unwrap(meshing::box_mesh(def));
    }
    meshing::TubeDef def;
    def.inner_radius = v[0];
    def.outer_radius = v[1];
    def.length = v[2];
    def.segments_around = count(v[3]);
    def.segments_along = count(v[4]);
    def.segments_through = count(v[5]);
    return unwrap(meshing::tube_mesh(def));
#else
    fail("procedural meshes need the pliant::meshing module");
#endif
  }
  std::vector<std::string> notices;
  TetMesh mesh = unwrap(io::read_tet_mesh(spec, &notices));
  if (speak)
    for (const std::string& notice : notices) fmt::print(stderr, "pliant: notice: {}: {}\n", spec, notice);
  return mesh;
}

std::vector<Index> region_nodes(const TetMesh& mesh, const std::string& text, const std::string& option) {
  const Region region = unwrap(parse_region(text));
  unwrap(check_region(region, mesh.node_count()));
  auto nodes = select_nodes(mesh.positions, region);
  if (nodes.empty()) fail(fmt::format("{} '{}' selects no nodes of the mesh", option, text));
  return nodes;
}

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024.0 * 1024.0)); }

// Progress bar with ETA on stderr, redrawn at most ten times a second.
struct ProgressBar {
  Stopwatch clock;
  double last_draw = -1;
  bool tty = isatty(fileno(stderr)) != 0;
  void operator()(double fraction) {
    const double now = clock.seconds();
    if (fraction < 1.0 && now - last_draw < 0.1) return;
    last_draw = now;
    const int width = 30;
    const int filled = static_cast<int>(fraction * width);
    const double eta = fraction > 0.01 ? now * (1.0 - fraction) / fraction : 0.0;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, ' ');
    fmt::print(stderr, "{}solving [{}] {:3.0f}%  {:.1f} s elapsed, ETA {:.1f} s{}", tty ? "\r" : "", bar,
               100 * fraction, now, eta, tty ? "" : "\n");
    if (fraction >= 1.0 && tty) fmt::print(stderr, "\n");
    std::fflush(stderr);
  }
};

// What a precomputation needs, read and checked before any solve.
struct PrecomputeInputs {
  TetMesh mesh;
  materials::Material material;
  std::vector<Index> fixed;
  std::vector<green::ControlElementSpec> controls;
  bool up_to_date = false;  // the output exists and matches: nothing to do
};

PrecomputeInputs read_inputs(const PrecomputeArgs& args, bool speak) {
  if (args.output.empty()) fail("precompute: -o FILE.green is required");
  // Scene files and `pliant info` recognise the asset by its extension: refuse another one up front,
  // before minutes of precomputation.
  if (const std::string ext = std::filesystem::path(args.output).extension().string(); ext != ".green")
    fail(ext.empty()
             ? std::string("precompute: -o must name a .green file (the name given has no extension)")
             : "precompute: -o must name a .green file, not a \"" + escape_for_message(ext) + "\" one");
  if (args.fix.empty() && args.controls.empty())
    fail("precompute: --fix REGION (or --control REGION) is required");
  PrecomputeInputs in;
  in.mesh = load_mesh(args.mesh, speak);
  const TetMesh& mesh = in.mesh;
  std::string material_name;
  if (!args.material.empty()) {
    if (args.youngs_given || args.poisson_given) fail("precompute: give --material or --E/--nu, not both");
    in.material = unwrap(materials::material_preset(args.material));
    material_name = args.material;
  } else if (args.youngs_given || args.poisson_given) {
    if (!args.youngs_given || !args.poisson_given) fail("precompute: --E and --nu go together");
    in.material = unwrap(materials::material_from_young_poisson(args.youngs, args.poisson));
    material_name = "custom";
  } else {
    in.material = unwrap(materials::material_preset(kDefaultMaterial));
    material_name = std::string(kDefaultMaterial) + " (the default)";
  }
  if (!args.fix.empty()) in.fixed = region_nodes(mesh, args.fix, "--fix");
  for (const auto& c : args.controls) in.controls.push_back({region_nodes(mesh, c, "--control")});
  unwrap(fem::check_fem_mesh(mesh));
  if (speak)
    fmt::print("material: {}, E = {:.4g} Pa, nu = {:.4g}, density = {:.4g} kg/m^3\n", material_name,
               in.material.youngs_modulus(), in.material.poisson_ratio(), in.material.density);

  // Only the process that writes the asset reads the old one (the others may not see its disk).
  const std::filesystem::path out(args.output);
  if (speak && std::filesystem::exists(out) && !args.rebuild) {
    const auto mh = green::mesh_hash(mesh);
    const auto ch = green::constraint_hash(in.fixed, in.controls);
    auto existing = green::load_green_file(out);
    Status fresh = existing ? green::check_green_matches(*existing, mh, in.material, ch, out.string())
                            : Status(existing.error());
    if (fresh && existing->compress_tolerance() != args.compress)
      fresh =
          Error{out.string() + ": stale: stored " +
                (existing->compressed() ? fmt::format("compressed to {:g}", existing->compress_tolerance())
                                        : std::string("dense")) +
                (args.compress > 0 ? fmt::format(", asked for --compress {:g}", args.compress)
                                   : std::string(", asked for dense"))};
    if (fresh) {
      fmt::print("{} is up to date ({} surface nodes); nothing to do (--rebuild forces it)\n", out.string(),
                 existing->surface_node_count());
      in.up_to_date = true;
    } else {
      fmt::print(stderr, "pliant: note: {}; rebuilding\n", fresh.message());
    }
  }
  return in;
}

// Threads per process: --threads, else OMP_NUM_THREADS, else this machine's cores shared by the
// processes an MPI launcher started on it (two ranks on 2 cores: one thread each).
int precompute_threads(const PrecomputeArgs& args) {
  if (args.threads > 0) set_threads(args.threads);  // wins over OMP_NUM_THREADS (core/threads.hpp)
  const char* per_machine = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (args.threads > 0 || std::getenv("OMP_NUM_THREADS") != nullptr || per_machine == nullptr)
    return solver_threads();
  const int local = std::max(1, std::atoi(per_machine));
  return std::max(1, solver_threads() / local);
}

// Runs on every process of the job (one without MPI). Each step that can fail is agreed: when one
// process fails, all stop there together, rank 0 reports the lowest failing rank's message and the
// others exit 2 silently, so no process waits forever on a partner that left.
void run_precompute(const PrecomputeArgs& args, linalg::Communicator& processes) {
  const bool root = processes.rank() == 0;
  const int ranks = processes.size();
  const auto together = [&](const std::function<void()>& step) {
    std::string error;
    try {
      step();
    } catch (const UserError& e) {
      error = e.what();
    } catch (const std::bad_alloc&) {
      error = "out of memory (the input asks for more than this machine has)";
    }
    const int failed = processes.first_failed(error.empty());
    if (failed < 0) return;
    processes.broadcast(error, failed);
    if (root) fail(ranks > 1 && failed > 0 ? fmt::format("rank {}: {}", failed, error) : error);
    throw QuietError(error);
  };

  PrecomputeInputs in;
  together([&] { in = read_inputs(args, root); });
  std::string up_to_date = in.up_to_date ? "1" : "0";
  processes.broadcast(up_to_date, 0);
  if (up_to_date == "1") return;
  const TetMesh& mesh = in.mesh;

  const int threads = precompute_threads(args);
  const std::size_t ns = extract_boundary(mesh).volume_node.size();
  green::GreenBuildSettings settings;
  settings.threads = threads;
  settings.compress_tolerance = args.compress;
  // A compressed block's size is only known once built: the dense size bounds it.
  const double block = 4.0 * static_cast<double>(green::GreenAsset::packed_floats(ns));
  const double need = static_cast<double>(
      green::estimate_build_bytes(mesh, ns, in.controls.size(), threads, settings.block_columns));
  if (root) {
    fmt::print("{} nodes, {} tets, {} surface nodes, {} control elements, {} threads{}\n", mesh.node_count(),
               mesh.tet_count(), ns, in.controls.size(), threads,
               ranks > 1 ? fmt::format(" in each of {} processes", ranks) : std::string());
    fmt::print("memory: about {} at peak{} (Green's block {}, file about {})\n", gib(need),
               ranks > 1 ? " per process" : "", gib(block),
               gib(block + 144.0 * static_cast<double>(ns * in.controls.size())));
  }
  together([&] {
    if (need > args.max_memory_gb * 1024.0 * 1024.0 * 1024.0 && !args.force)
      fail(fmt::format(
          "precompute: needs about {}, more than --max-memory {} GiB (use --force, fewer --threads or a "
          "coarser surface)",
          gib(need), args.max_memory_gb));
  });

  ProgressBar bar;
  if (root) settings.progress = [&bar](double f) { bar(f); };
  std::optional<green::GreenAsset> built;
  together([&] {
    built = unwrap(green::build_green_asset(mesh, in.material, in.fixed, in.controls, settings, processes));
  });
  // Rank 0 alone holds and writes the asset; the others learn whether it was written.
  together([&] {
    if (!root) return;
    const green::GreenAsset& asset = *built;
    if (asset.compressed())
      fmt::print("compressed block: {} ({:.1f}x smaller than dense at tolerance {:g})\n",
                 gib(static_cast<double>(asset.surface_block().stored_bytes())),
                 block / static_cast<double>(asset.surface_block().stored_bytes()), args.compress);
    const std::filesystem::path out(args.output);
    unwrap(io::write_file_atomically(out, [&](std::ostream& os) { return green::write_green(asset, os); }));
    fmt::print("wrote {} ({}, precomputed in {:.2f} s{})\n", out.string(),
               gib(static_cast<double>(std::filesystem::file_size(out))), asset.precompute_seconds,
               ranks > 1 ? fmt::format(" by {} processes", ranks) : std::string());
  });
}

void run_precompute(const PrecomputeArgs& args) {
#if PLIANT_HAS_LINALG_MPI
  linalg::MpiSession mpi;
  run_precompute(args, mpi.communicator());
#else
  if (linalg::launched_by_mpi())
    fail(
        "precompute: started by an MPI launcher, but this pliant was built without MPI (configure with "
        "-DPLIANT_WITH_MPI=ON and Open MPI installed: apt-get install libopenmpi-dev openmpi-bin)");
  run_precompute(args, linalg::single_process());
#endif
}

void setup_precompute(CLI::App& app) {
  auto args = std::make_shared<PrecomputeArgs>();
  auto* cmd = app.add_subcommand(
      "precompute",
      "Precompute the surface Green's function of a linear FEM body into a .green asset.\n"
      "MESH is a tet mesh file (.msh .vtu .vtk .mesh .node/.ele) or box:LX,LY,LZ,NX,NY,NZ or "
      "tube:RIN,ROUT,LEN,AROUND,ALONG,THROUGH.\n"
      "Under `mpirun -np N` the solves are split across the N processes and rank 0 writes the same asset "
      "(docs/green.md).");
  cmd->add_option("mesh", args->mesh, "Tet mesh file or procedural spec")->required();
  cmd->add_option("--fix", args->fix,
                  "Fixed nodes (region syntax: xmin, x<0.1, box:..., nodes:...; default: none, and then "
                  "--control is required)");
  cmd->add_option("--control", args->controls,
                  "Nodes of a control element (repeatable; region syntax; default: none)");
  std::string presets;
  for (const std::string& n : materials::material_preset_names())
    presets += (presets.empty() ? "" : ", ") + n;
  const materials::Material fallback = materials::material_preset(kDefaultMaterial).value();
  cmd->add_option(
         "--material", args->material,
         fmt::format("Material preset, one of: {} (default {}: E = {:.3g} MPa, nu = {:.3g})", presets,
                     kDefaultMaterial, fallback.youngs_modulus() / 1e6, fallback.poisson_ratio()))
      ->default_str(kDefaultMaterial);
  auto* youngs = add_number(*cmd, "--E", args->youngs,
                            "Young's modulus (Pa), with --nu instead of --material (default: the material's)",
                            positive());
  auto* poisson = add_number(*cmd, "--nu", args->poisson,
                             "Poisson's ratio, with --E instead of --material (default: the material's)",
                             finite_number());
  cmd->add_option("-o,--output", args->output, "Output .green file")->required();
  add_number(*cmd, "--threads", args->threads, "Solver threads (0 = OMP_NUM_THREADS, else all cores)",
             whole(0))
      ->capture_default_str();
  cmd->add_flag("--force", args->force,
                "Run even when the memory estimate exceeds --max-memory (default: refuse)");
  cmd->add_flag("--rebuild", args->rebuild,
                "Rebuild even when the output is up to date (default: keep an up-to-date file)");
  add_number(*cmd, "--max-memory", args->max_memory_gb, "Refuse above this memory estimate (GiB)", positive())
      ->capture_default_str();
  auto* compress = cmd->add_option(
      "--compress", args->compress,
      "Store the surface block as a hierarchical matrix (low-rank far blocks in float) to this relative "
      "tolerance, in (0, 1], e.g. 1e-3 (default: dense)");
  cmd->callback([args, youngs, poisson, compress] {
    args->compress_given = compress->count() > 0;
    if (args->compress_given && !(args->compress > 0.0 && args->compress <= 1.0))
      fail(fmt::format("precompute: --compress {}: the tolerance must be a number in (0, 1], e.g. 1e-3",
                       args->compress));
    args->youngs_given = youngs->count() > 0;
    args->poisson_given = poisson->count() > 0;
    run_precompute(*args);
  });
}

}  // namespace
PLIANT_REGISTER_VERB(300, setup_precompute);
}  // namespace pliant::cli
#endif
