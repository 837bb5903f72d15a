// `pliant bench green`: precomputed Green's functions (Nikitina et al. 2003) on pipes of about 1k, 10k
// and 50k nodes: precompute time and block size, surface update after a grab moves (1 and 16
// grabs), haptic reaction rate of 16 grabs, a soft grab of about 20 nodes (surface update and
// haptic reaction rate), and the per-frame PCG baseline the paper compares with (one frame from
// scratch to relative residual 1e-3 and 1e-6).
//
// With --busy it instead times the precompute of a tube with two busy background threads in the same
// process against an idle run, alternating, and reports the ratio: the thread policy
// (core/threads.hpp) keeps it near the fair share of the cores instead of the tens of times slower
// that a multi-threaded BLAS under OpenMP threads gave.
//
// The Green's block is 4.5·Ns² floats; models whose block would exceed kMaxBlockBytes (2 GiB, about
// 11k surface nodes) skip the Green's part and report those fields as null with the reason.
#include "bench.hpp"
#include "pliant/core/threads.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/topology.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/meshing/tube.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"
#include "pliant/models/fem/implicit/pcg_deformer.hpp"
#include "pliant/models/green/green_body.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace pliant::bench {
namespace {

constexpr double kMaxBlockBytes = 2.0 * 1024 * 1024 * 1024;

struct Model {
  const char* name;
  meshing::TubeDef def;
  double compress = 0;  ///< relative tolerance of a hierarchical block; 0 = dense
};

meshing::TubeDef tube(Index around, Index along, Index through) {
  meshing::TubeDef def;
  def.inner_radius = 0.07;
  def.outer_radius = 0.10;
  def.length = 1.0;
  def.segments_around = around;
  def.segments_along = along;
  def.segments_through = through;
  return def;
}

// Mean time of `fn` (unit: µs), repeated until `budget_s` has passed (at least `min_reps` times).
template <class F>
double mean_us(F&& fn, double budget_s, int min_reps) {
  fn();  // warm-up
  Stopwatch clock;
  int reps = 0;
  while (reps < min_reps || clock.seconds() < budget_s) {
    fn();
    ++reps;
  }
  return clock.seconds() * 1e6 / reps;
}

// Threads that keep cores busy (another program, a compiler) for as long as the object lives.
class BusyThreads {
 public:
  explicit BusyThreads(int n) {
    for (int i = 0; i < n; ++i)
      threads_.emplace_back([this] {
        volatile double x = 1.0;
        while (!stop_.load(std::memory_order_relaxed)) x = x * 1.0000001 + 1e-9;
      });
  }
  ~BusyThreads() {
    stop_ = true;
    for (auto& t : threads_) t.join();
  }
  BusyThreads(const BusyThreads&) = delete;
  BusyThreads& operator=(const BusyThreads&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

nlohmann::json run_green_busy(const Context& context) {
  const meshing::TubeDef def = context.quick ? tube(16, 15, 3) : meshing::TubeDef{};
  const int reps = context.quick ? 1 : 2;
  const TetMesh mesh = meshing::tube_mesh(def).value();
  std::vector<Index> fixed;
  for (std::size_t i = 0; i < mesh.node_count(); ++i)
    if (mesh.positions[i].z() < 1e-9) fixed.push_back(static_cast<Index>(i));
  const auto material = materials::material_preset("rubber").value();
  const ThreadPolicy policy = thread_policy();
  auto precompute = [&] {
    const Stopwatch clock;
    auto built = green::build_green_asset(mesh, material, fixed);
    if (!built) throw std::runtime_error(built.message());
    return clock.seconds();
  };
  std::vector<double> idle, busy;
  fmt::print("{:<6} {:>6} {:>6} {:>10}\n", "run", "nodes", "busy", "precomp s");
  for (int r = 0; r < reps; ++r) {  // alternate, so that drift in the machine's load hits both
    idle.push_back(precompute());
    fmt::print("{:<6} {:>6} {:>6} {:>10.2f}\n", r + 1, mesh.node_count(), 0, idle.back());
    {
      const BusyThreads load(2);
      busy.push_back(precompute());
    }
    fmt::print("{:<6} {:>6} {:>6} {:>10.2f}\n", r + 1, mesh.node_count(), 2, busy.back());
  }
  const double idle_s = *std::min_element(idle.begin(), idle.end());
  const double busy_s = *std::min_element(busy.begin(), busy.end());
  const std::optional<int> blas = blas_threads_in_use();
  fmt::print(
      "tube {}x{}x{} ({} nodes): idle {:.2f} s, 2 busy threads {:.2f} s, ratio {:.2f} "
      "({} solver threads from {}, BLAS threads {})\n",
      def.segments_around, def.segments_along, def.segments_through, mesh.node_count(), idle_s, busy_s,
      busy_s / idle_s, policy.solver_threads, policy.source, blas ? std::to_string(*blas) : "n/a");
  return {
      {"model", fmt::format("tube {}x{}x{}", def.segments_around, def.segments_along, def.segments_through)},
      {"nodes", mesh.node_count()},
      {"idle_s", idle},
      {"busy_s", busy},
      {"busy_threads", 2},
      {"ratio", busy_s / idle_s},
      {"solver_threads", policy.solver_threads},
      {"threads_source", policy.source},
      {"blas_threads", blas ? nlohmann::json(*blas) : nlohmann::json(nullptr)}};
}

// Surface displacement under 16 point loads on free surface nodes, from the asset (the runtime's
// force path) against a direct sparse solve of the same loads: relative over the surface.
double surface_error_against_direct(const TetMesh& mesh, const materials::Material& material,
                                    const std::vector<Index>& fixed,
                                    const std::shared_ptr<const green::GreenAsset>& asset) {
  const fem::SparseMatrix K = fem::assemble_stiffness(mesh, material);
  auto dofs = fem::DofMap::from_fixed_nodes(mesh, fixed).value();
  auto chol = linalg::SparseCholesky::factor(dofs.restrict_matrix(K)).value();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(mesh.node_count()));
  green::GreenBody body(asset);
  const Index ns = asset->surface_node_count();
  for (Index k = 0, placed = 0; placed < 16 && k < ns; ++k) {
    const Index i = static_cast<Index>((static_cast<std::int64_t>(k) * 7919) % ns);
    if (asset->constrained()[static_cast<std::size_t>(i)]) continue;
    const Vec3 load(std::cos(placed), std::sin(placed), 0.5);
    body.set_force(i, load);
    f.segment<3>(3 * asset->volume_node()[static_cast<std::size_t>(i)]) += load;
    ++placed;
  }
  body.update();
  const Eigen::VectorXd none = Eigen::VectorXd::Zero(f.size());
  const Eigen::VectorXd u = dofs.expand(chol.solve(dofs.reduced_rhs(K, f, none)), none);
  double num = 0, den = 0;
  for (Index i = 0; i < ns; ++i) {
    const Vec3 ref = u.segment<3>(3 * asset->volume_node()[static_cast<std::size_t>(i)]);
    const Vec3 got = body.state().positions[static_cast<std::size_t>(i)] -
                     asset->surface().positions[static_cast<std::size_t>(i)];
    num += (got - ref).squaredNorm();
    den += ref.squaredNorm();
  }
  return std::sqrt(num / den);
}

// The precompute of `def` by `mpirun -np R` of this very program, R = 1 and 2, one solver thread per
// rank, timed from outside (wall time: start-up, factor, solves, the gather and the write), with the
// fit T(R) = serial + parallel / R that predicts larger jobs. Rows are left out, with one line
// saying why, when mpirun is not on PATH.
nlohmann::json run_mpi_scaling(const meshing::TubeDef& def, const char* name) {
  nlohmann::json out = nlohmann::json::object();
  std::string mpirun;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string d; mpirun.empty() && std::getline(dirs, d, ':');)
      if (!d.empty() && access((d + "/mpirun").c_str(), X_OK) == 0) mpirun = d + "/mpirun";
  }
#if !PLIANT_HAS_LINALG_MPI
  fmt::print("mpi: this pliant was built without MPI (PLIANT_WITH_MPI), scaling rows left out\n");
  out["skipped"] = "built without MPI";
  return out;
#endif
  if (mpirun.empty()) {
    fmt::print("mpi: no mpirun on PATH, scaling rows left out (apt-get install openmpi-bin)\n");
    out["skipped"] = "no mpirun on PATH";
    return out;
  }
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("pliant_mpi_{}", getpid());
  std::filesystem::create_directories(dir);
  const std::string mesh =
      fmt::format("tube:{},{},{},{},{},{}", def.inner_radius, def.outer_radius, def.length,
                  def.segments_around, def.segments_along, def.segments_through);
  out["model"] = name;
  out["rows"] = nlohmann::json::array();
  std::vector<double> seconds;
  for (int ranks : {1, 2}) {
    const std::filesystem::path asset = dir / fmt::format("r{}.green", ranks);
    const std::string command = fmt::format(
        "'{}' -np {} --oversubscribe {}'{}' precompute '{}' --fix 'z<1e-9' --material nikitina2003_rubber "
        "--threads 1 -o '{}' >'{}' 2>&1",
        mpirun, ranks, geteuid() == 0 ? "--allow-run-as-root " : "", self.string(), mesh, asset.string(),
        (dir / "log.txt").string());
    Stopwatch clock;
    const int status = std::system(command.c_str());
    const double wall = clock.seconds();
    if (status != 0) {
      std::ifstream log(dir / "log.txt");
      std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
      std::filesystem::remove_all(dir);
      throw std::runtime_error(
          fmt::format("mpi: `mpirun -np {} pliant precompute` failed:\n{}", ranks, text));
    }
    seconds.push_back(wall);
    out["rows"].push_back({{"ranks", ranks}, {"precompute_s", wall}});
  }
  std::filesystem::remove_all(dir);
  const double parallel = 2.0 * (seconds[0] - seconds[1]), serial = seconds[0] - parallel;
  out["model_fit"] = {{"serial_s", serial},
                      {"parallel_s", parallel},
                      {"predicted_s_16", serial + parallel / 16},
                      {"predicted_s_64", serial + parallel / 64}};
  fmt::print(
      "mpi ({}, one thread per rank): 1 rank {:.2f} s, 2 ranks {:.2f} s; fit T(R) = {:.2f} + {:.2f}/R s "
      "predicts {:.2f} s at 16 ranks, {:.2f} s at 64\n",
      name, seconds[0], seconds[1], serial, parallel, serial + parallel / 16, serial + parallel / 64);
  return out;
}

nlohmann::json run_green(const Context& context) {
  if (context.busy) return run_green_busy(context);
  std::vector<Model> models = {{"tube_1k", tube(16, 15, 3)}, {"tube_1k_c", tube(16, 15, 3), 1e-3}};
  if (!context.quick) {
    models.push_back({"tube_10k", tube(40, 61, 3)});
    models.push_back({"tube_10k_c", tube(40, 61, 3), 1e-3});
  }
  // The compressed 50k-node tube precomputes for hours on 2 cores: it runs only when named.
  std::vector<Model> all = models;
  all.push_back({"tube_50k", tube(80, 155, 3), 1e-3});
  // PLIANT_BENCH_GREEN_MODELS=name,name,... runs only those rows (a long model can be measured alone).
  if (const char* only = std::getenv("PLIANT_BENCH_GREEN_MODELS"); only && *only) {
    std::vector<Model> chosen;
    std::stringstream list(only);
    std::string name;
    while (std::getline(list, name, ',')) {
      auto it = std::find_if(all.begin(), all.end(), [&](const Model& m) { return name == m.name; });
      if (it == all.end()) {
        std::string known;
        for (const Model& m : all) known += std::string(known.empty() ? "" : ", ") + m.name;
        throw std::runtime_error("PLIANT_BENCH_GREEN_MODELS: unknown model '" + name + "' (known: " + known +
                                 ")");
      }
      chosen.push_back(*it);
    }
    models = chosen;
  }
  const double budget = context.quick ? 0.05 : 0.5;
  // The paper's stiff rubber: the figures of docs/benchmarks.md were recorded with it (timings of
  // the Green's updates do not depend on the material; PCG iteration counts do, through ν).
  const auto material = materials::material_preset("nikitina2003_rubber").value();
  nlohmann::json out;
  out["models"] = nlohmann::json::array();
  out["threads"] = solver_threads();
  out["material"] = "nikitina2003_rubber";
  out["block_cap_bytes"] = kMaxBlockBytes;
  fmt::print(
      "{:<11} {:>6} {:>6} {:>7} {:>10} {:>10} {:>8} {:>10} {:>10} {:>11} {:>6} {:>9} {:>11} {:>9} {:>9}\n",
      "model", "nodes", "surf", "tets", "precomp s", "block MB", "rel err", "1grab us", "16grab us",
      "react16 Hz", "patch", "patch us", "reactP Hz", "pcg1e-3", "pcg1e-6");
  for (const Model& model : models) {
    const TetMesh mesh = meshing::tube_mesh(model.def).value();
    std::vector<Index> fixed;
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
      if (mesh.positions[i].z() < 1e-9) fixed.push_back(static_cast<Index>(i));
    const std::size_t ns = extract_boundary(mesh).volume_node.size();
    const double dense_bytes = 4.0 * static_cast<double>(green::GreenAsset::packed_floats(ns));
    const double block_bytes = dense_bytes;  // until a compressed block is built
    nlohmann::json row = {{"name", model.name},
                          {"nodes", mesh.node_count()},
                          {"surface_nodes", ns},
                          {"compressed", model.compress > 0},
                          {"compress_tolerance", model.compress},
                          {"dense_block_bytes", dense_bytes},
                          {"relative_error", nullptr},
                          {"tets", mesh.tet_count()},
                          {"precompute_s", nullptr},
                          {"block_bytes", block_bytes},
                          {"update_us_1grab", nullptr},
                          {"update_us_16grab", nullptr},
                          {"reaction_hz_16", nullptr},
                          {"pcg_frame_ms_1e3", nullptr},
                          {"pcg_frame_ms_1e6", nullptr},
                          {"patch_nodes", nullptr},
                          {"patch_radius_m", nullptr},
                          {"patch_update_us", nullptr},
                          {"patch_reaction_hz", nullptr}};

    // Per-frame PCG baseline: a tip load at the free end, one frame from a cold start.
    Index tip = 0;
    for (std::size_t i = 0; i < mesh.node_count(); ++i)
      if (mesh.positions[i].z() > mesh.positions[static_cast<std::size_t>(tip)].z())
        tip = static_cast<Index>(i);
    for (double tol : {1e-3, 1e-6}) {
      linalg::PcgSettings settings;
      settings.relative_tolerance = tol;
      settings.record_history = false;
      auto pcg = fem::PcgDeformer::build(mesh, material, fixed, settings).value();
      pcg.set_force(tip, Vec3(1.0, 0.0, 0.0));
      const double us = mean_us([&] { pcg.solve_frame(false); }, context.quick ? 0.02 : 0.3, 1);
      row[tol > 1e-4 ? "pcg_frame_ms_1e3" : "pcg_frame_ms_1e6"] = us / 1000.0;
    }

    if (model.compress == 0 && block_bytes > kMaxBlockBytes) {
      row["skipped"] =
          fmt::format("Green's block would be {:.1f} GB (> {:.1f} GB cap): precompute and updates skipped",
                      block_bytes / 1e9, kMaxBlockBytes / 1e9);
    } else {
      green::GreenBuildSettings build_settings;
      build_settings.compress_tolerance = model.compress;
      auto built = green::build_green_asset(mesh, material, fixed, {}, build_settings);
      if (!built) {
        row["error"] = built.message();
      } else {
        row["precompute_s"] = built->precompute_seconds;
        auto asset = std::make_shared<green::GreenAsset>(std::move(built).value());
        row["block_bytes"] = asset->surface_block().stored_bytes();
        if (asset->compressed())
          row["relative_error"] = surface_error_against_direct(mesh, material, fixed, asset);
        // Grab candidates: free surface nodes on the outer half of the pipe, spread along it.
        std::vector<Index> candidates;
        for (Index i = 0; i < asset->surface_node_count(); ++i)
          if (!asset->constrained()[static_cast<std::size_t>(i)] &&
              asset->surface().positions[static_cast<std::size_t>(i)].z() > 0.3)
            candidates.push_back(i);
        auto grabs_of = [&](std::size_t k) {
          std::vector<green::Grab> g;
          for (std::size_t m = 0; m < k; ++m) {
            const Index n = candidates[(m * candidates.size()) / k];
            g.push_back({n, asset->surface().positions[static_cast<std::size_t>(n)]});
          }
          return g;
        };
        for (std::size_t k : {std::size_t{1}, std::size_t{16}}) {
          green::GreenBody body(asset);
          auto grabs = grabs_of(k);
          if (!body.set_grabs(grabs).ok()) continue;
          body.update();
          std::size_t frame = 0;
          // One grab moves per frame (round robin) along a small circle: a rank-3 surface update.
          const double us = mean_us(
              [&] {
                const std::size_t m = frame % k;
                const double a = 0.01 * static_cast<double>(++frame);
                body.move_grab(m, grabs[m].target + 0.01 * Vec3(std::cos(a), std::sin(a), 0.0));
                body.update();
              },
              budget, 10);
          row[k == 1 ? "update_us_1grab" : "update_us_16grab"] = us;
          if (k == 16) {
            // Haptic path: all 16 targets move every sample, only the 48×48 solve runs.
            const double rus = mean_us(
                [&] {
                  const double a = 0.001 * static_cast<double>(++frame);
                  for (std::size_t m = 0; m < k; ++m)
                    body.move_grab(m, grabs[m].target + 0.005 * Vec3(std::cos(a + m), 0.0, std::sin(a)));
                  body.update_grab_forces();
                },
                budget, 100);
            row["reaction_hz_16"] = 1e6 / rus;
          }
        }
        // A soft grab: the free surface nodes around a candidate within a radius grown from twice
        // the mean edge length until the patch holds at least 20 nodes; its handle moves every frame.
        {
          const Index centre = candidates[candidates.size() / 2];
          const auto& rest = asset->surface().positions;
          double radius = 2.0 * green::mean_surface_edge_length(*asset, centre);
          std::vector<Index> patch;
          for (int grow = 0; grow < 20; ++grow, radius *= 1.25) {
            patch =
                green::surface_patch(*asset, rest, centre, rest[static_cast<std::size_t>(centre)], radius);
            if (patch.size() >= 20) break;
          }
          green::GreenBody body(asset);
          const green::Grab grab = green::hold_in_place(patch, rest);
          if (body.set_grabs(std::span<const green::Grab>(&grab, 1)).ok()) {
            body.update();
            row["patch_nodes"] = patch.size();
            row["patch_radius_m"] = radius;
            std::size_t frame = 0;
            row["patch_update_us"] = mean_us(
                [&] {
                  const double a = 0.01 * static_cast<double>(++frame);
                  body.move_grab(0, grab.target + 0.01 * Vec3(std::cos(a), std::sin(a), 0.0));
                  body.update();
                },
                budget, 10);
            const double rus = mean_us(
                [&] {
                  const double a = 0.001 * static_cast<double>(++frame);
                  body.move_grab(0, grab.target + 0.005 * Vec3(std::cos(a), 0.0, std::sin(a)));
                  body.update_grab_forces();
                },
                budget, 100);
            row["patch_reaction_hz"] = 1e6 / rus;
          }
        }
      }
    }
    auto num = [&](const char* key, double scale, int digits) -> std::string {
      return row[key].is_null() ? std::string("-")
                                : fmt::format("{:.{}f}", row[key].get<double>() * scale, digits);
    };
    fmt::print(
        "{:<11} {:>6} {:>6} {:>7} {:>10} {:>10} {:>8} {:>10} {:>10} {:>11} {:>6} {:>9} {:>11} {:>9} {:>9}\n",
        model.name, mesh.node_count(), ns, mesh.tet_count(), num("precompute_s", 1, 2),
        num("block_bytes", 1e-6, 1),
        row["relative_error"].is_null() ? std::string("-")
                                        : fmt::format("{:.1e}", row["relative_error"].get<double>()),
        num("update_us_1grab", 1, 1), num("update_us_16grab", 1, 1), num("reaction_hz_16", 1, 0),
        row["patch_nodes"].is_null() ? std::string("-")
                                     : fmt::format("{}", row["patch_nodes"].get<std::size_t>()),
        num("patch_update_us", 1, 1), num("patch_reaction_hz", 1, 0), num("pcg_frame_ms_1e3", 1, 1),
        num("pcg_frame_ms_1e6", 1, 1));
    if (row.contains("skipped")) fmt::print("  {}: {}\n", model.name, row["skipped"].get<std::string>());
    out["models"].push_back(row);
  }
  fmt::print(
      "(_c rows: the surface block compressed to 1e-3 (hierarchical), rel err: surface displacement under "
      "16\n"
      " point loads against a direct sparse solve;\n"
      " pcg columns: ms per frame from a cold start, Jacobi PCG; updates: one grab moved per frame;\n"
      " patch: nodes of the soft grab, its handle moved per frame (patch us) and its reaction rate)\n");
  // Scaling of the precompute over MPI ranks: the small tube in --quick, the 10k one otherwise.
  out["mpi"] = context.quick ? run_mpi_scaling(tube(16, 15, 3), "tube_1k")
                             : run_mpi_scaling(tube(40, 61, 3), "tube_10k");
  return out;
}

}  // namespace
PLIANT_REGISTER_BENCH(
    "green", "Precomputed Green's functions: precompute, grab updates, haptic reactions, PCG baseline",
    run_green);
}  // namespace pliant::bench
