// `pliant bench fem`: PCG preconditioners against CHOLMOD on clamped beams of about 1k, 10k and 50k
// nodes (relative residual 1e-6), plus assembly time. The survey of Huang & Wang (2007) (Frank et al. 2001)
// compares Cholesky, CG, Jacobi-PCG and SSOR-PCG on 375 and 2,187 DOF; this extends the comparison to
// block-Jacobi and incomplete Cholesky and to 150k DOF.
#include "bench.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/linalg/edge_stiffness.hpp"
#include "pliant/linalg/pcg.hpp"
#include "pliant/linalg/sparse_cholesky.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/models/fem/assembly/assembly.hpp"
#include "pliant/models/fem/assembly/dirichlet.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>

namespace pliant::bench {
namespace {

using namespace pliant::fem;
using namespace pliant::linalg;

struct Beam {
  TetMesh mesh;
  double assembly_s = 0.0;
  // Nikitina et al.'s (2003) edge store against the sparse matrix: memory and one product K u (serial both).
  std::size_t edge_store_bytes = 0, sparse_bytes = 0;
  double edge_product_s = 0.0, sparse_product_s = 0.0;
  SparseMatrix A;
  Eigen::VectorXd b;
};

// A steel beam 10n × n × n cells (1 m × 0.1 m × 0.1 m), clamped at x = 0, tip load 1 kN down.
Beam make_beam(Index n) {
  Beam beam;
  meshing::BoxDef def;
  def.size = Vec3(1.0, 0.1, 0.1);
  def.cells = {10 * n, n, n};
  def.split = meshing::CellSplit::six;  // the split of the recorded figures (docs/benchmarks.md)
  beam.mesh = meshing::box_mesh(def).value();
  const TetMesh& mesh = beam.mesh;
  const materials::Material steel = materials::material_preset("steel").value();
  auto assembler = StiffnessAssembler::build(mesh).value();
  SparseMatrix K;
  assembler.assemble(mesh, steel, K);  // warm-up: pattern and first touch
  const Stopwatch clock;
  assembler.assemble(mesh, steel, K);
  beam.assembly_s = clock.seconds();
  {
    const EdgeStiffness store = assemble_edge_stiffness(mesh, steel);
    beam.edge_store_bytes = store.memory_bytes();
    beam.sparse_bytes = static_cast<std::size_t>(K.nonZeros()) * (sizeof(double) + sizeof(int)) +
                        static_cast<std::size_t>(K.cols() + 1) * sizeof(int);
    const Eigen::VectorXd u = Eigen::VectorXd::Ones(K.rows());
    Eigen::VectorXd g(K.rows());
    constexpr int kRepeats = 10;
    store.multiply(u, g);  // warm-up
    Stopwatch product_clock;
    for (int r = 0; r < kRepeats; ++r) store.multiply(u, g);
    beam.edge_product_s = product_clock.seconds() / kRepeats;
    product_clock.reset();
    for (int r = 0; r < kRepeats; ++r) g.noalias() = K * u;  // column-major: Eigen keeps this serial
    beam.sparse_product_s = product_clock.seconds() / kRepeats;
  }
  std::vector<Index> clamp, tip;
  for (std::size_t i = 0; i < mesh.node_count(); ++i) {
    if (mesh.positions[i].x() < 1e-9) clamp.push_back(static_cast<Index>(i));
    if (mesh.positions[i].x() > 1.0 - 1e-9) tip.push_back(static_cast<Index>(i));
  }
  const DofMap map = DofMap::from_fixed_nodes(mesh, clamp).value();
  Eigen::VectorXd f = Eigen::VectorXd::Zero(K.rows());
  for (Index v : tip) f[3 * v + 2] = -1000.0 / static_cast<double>(tip.size());
  beam.A = map.restrict_matrix(K);
  beam.b = map.restrict_vector(f);
  return beam;
}

nlohmann::json run_fem(const Context& context) {
  if (context.threads > 0) omp_set_num_threads(context.threads);
  const std::vector<Index> sizes = context.quick ? std::vector<Index>{3} : std::vector<Index>{4, 9, 16};
  nlohmann::json out;
  out["tolerance"] = 1e-6;
  out["threads"] = omp_get_max_threads();
  out["beams"] = nlohmann::json::array();
  fmt::print("{:>7} {:>8} {:>8} {:>10} | {:<16} {:>7} {:>10} {:>10} {:>10}\n", "nodes", "tets", "DOF",
             "assembly", "solver", "iters", "setup (s)", "solve (s)", "total (s)");
  for (Index n : sizes) {
    Beam beam = make_beam(n);
    nlohmann::json row;
    row["cells"] = {10 * n, n, n};
    row["nodes"] = beam.mesh.node_count();
    row["tets"] = beam.mesh.tet_count();
    row["dofs"] = beam.A.rows();
    row["assembly_s"] = beam.assembly_s;
    row["edge_store"] = {{"bytes", beam.edge_store_bytes}, {"product_s", beam.edge_product_s}};
    row["sparse_csc"] = {{"bytes", beam.sparse_bytes}, {"product_s", beam.sparse_product_s}};
    row["solvers"] = nlohmann::json::array();
    const double bnorm = beam.b.norm();
    bool first = true;
    auto print = [&](const std::string& name, int iters, double setup, double solve) {
      if (first)
        fmt::print("{:>7} {:>8} {:>8} {:>9.3f}s | ", beam.mesh.node_count(), beam.mesh.tet_count(),
                   beam.A.rows(), beam.assembly_s);
      else
        fmt::print("{:>36} | ", "");
      first = false;
      fmt::print("{:<16} {:>7} {:>10.4f} {:>10.4f} {:>10.4f}\n", name,
                 iters < 0 ? std::string("-") : std::to_string(iters), setup, solve, setup + solve);
    };
    for (auto pc : {Preconditioner::none, Preconditioner::jacobi, Preconditioner::block_jacobi,
                    Preconditioner::ssor, Preconditioner::incomplete_cholesky}) {
      PcgSettings settings;
      settings.preconditioner = pc;
      settings.relative_tolerance = 1e-6;
      settings.max_iterations = 50000;
      const Stopwatch setup_clock;
      auto solver = PcgSolver::build(beam.A, settings);
      const double setup = setup_clock.seconds();
      if (!solver) {
        row["solvers"].push_back(
            {{"name", std::string("pcg_") + std::string(to_string(pc))}, {"error", solver.message()}});
        continue;
      }
      Eigen::VectorXd x = Eigen::VectorXd::Zero(beam.A.rows());
      const PcgReport report = solver->solve(beam.b, x);
      const std::string name = "pcg_" + std::string(to_string(pc));
      print(name, report.iterations, setup, report.solve_seconds);
      row["solvers"].push_back({{"name", name},
                                {"iterations", report.iterations},
                                {"converged", report.converged},
                                {"relative_residual", (beam.A * x - beam.b).norm() / bnorm},
                                {"setup_s", setup},
                                {"solve_s", report.solve_seconds}});
    }
    std::vector<CholeskyBackend> backends{CholeskyBackend::cholmod_supernodal};
    if (beam.A.rows() <= 40000) backends.push_back(CholeskyBackend::eigen_simplicial_ldlt);
    for (auto backend : backends) {
      const Stopwatch factor_clock;
      auto chol = SparseCholesky::factor(beam.A, backend);
      const double factor_s = factor_clock.seconds();
      if (!chol) continue;
      const Stopwatch solve_clock;
      const Eigen::VectorXd x = chol->solve(beam.b);
      const double solve_s = solve_clock.seconds();
      const std::string name(to_string(backend) == "cholmod_supernodal" ? "cholmod" : "eigen_ldlt");
      print(name, -1, factor_s, solve_s);
      row["solvers"].push_back({{"name", name},
                                {"factor_s", factor_s},
                                {"solve_s", solve_s},
                                {"factor_nonzeros", chol->factor_nonzeros()},
                                {"relative_residual", (beam.A * x - beam.b).norm() / bnorm}});
    }
    out["beams"].push_back(row);
  }
  fmt::print("\nK·u, one product, serial:\n{:>7} {:>14} {:>14} {:>14} {:>14}\n", "nodes", "edge store MB",
             "edge store ms", "sparse CSC MB", "sparse CSC ms");
  for (const auto& row : out["beams"])
    fmt::print(
        "{:>7} {:>14.2f} {:>14.3f} {:>14.2f} {:>14.3f}\n", row["nodes"].get<std::size_t>(),
        row["edge_store"]["bytes"].get<double>() / 1e6, row["edge_store"]["product_s"].get<double>() * 1e3,
        row["sparse_csc"]["bytes"].get<double>() / 1e6, row["sparse_csc"]["product_s"].get<double>() * 1e3);
  return out;
}

}  // namespace

PLIANT_REGISTER_BENCH("fem", "PCG preconditioners vs CHOLMOD on clamped beams (1k-50k nodes), assembly time",
                      run_fem);

}  // namespace pliant::bench
