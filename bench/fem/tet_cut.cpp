// `pliant bench fem-cut`: one blade cut across the cuttable region of a FEM body. A beam
// 10 × 1.5 × 1.5 m of 10,000 tets (40 × 10 × 5 cells, five tets per cell) has its last 2 m (2,000 tets)
// marked cuttable; a blade sweeps the plane x = 9.03 m across the whole cross-section. Reported: the
// time of cut_tets (split and remove modes; a partial split whose blade edge ends at y = 0.8 m) and of
// apply_tet_cut, median over repetitions, with the counts of what changed. `--quick`: 40 × 10 × 5 cells
// still, 3 repetitions.
#include "pliant/models/fem/cut/tet_cut.hpp"
#include "bench.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/meshing/box.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace pliant::bench {
namespace {

using namespace pliant::fem;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

nlohmann::json run_fem_cut(const Context& context) {
  meshing::BoxDef def;
  def.size = Vec3(10.0, 1.5, 1.5);
  def.cells = {40, 10, 5};
  def.split = meshing::CellSplit::five;
  const TetMesh mesh = meshing::box_mesh(def).value();
  std::vector<std::uint8_t> cuttable(mesh.tet_count(), 0);
  Index region = 0;
  for (std::size_t t = 0; t < mesh.tet_count(); ++t) {
    double x = 0.0;
    for (Index v : mesh.tets[t]) x += 0.25 * mesh.positions[v].x();
    cuttable[t] = x > 8.0;
    region += cuttable[t];
  }
  const double x0 = 9.03;
  const TetCutBlade blade{Vec3(x0, -1.0, -1.0), Vec3(x0, -1.0, 2.5), Vec3(x0, 2.5, -1.0), Vec3(x0, 2.5, 2.5)};
  const int reps = context.quick ? 3 : 51;

  nlohmann::json out;
  out["body"] = {{"nodes", mesh.node_count()}, {"tets", mesh.tet_count()}, {"cuttable_tets", region}};
  out["cuts"] = nlohmann::json::array();
  fmt::print("body: {} nodes, {} tets, {} cuttable; blade plane x = {} m, {} repetitions\n",
             mesh.node_count(), mesh.tet_count(), region, x0, reps);
  fmt::print("{:>7} {:>10} {:>10} {:>10} {:>11} {:>11}\n", "mode", "changed", "new tets", "new nodes",
             "cut ms", "apply ms");
  // Through the whole section, then a partial cut whose blade edge ends mid-section (y = 0.8 m).
  const TetCutBlade partial{Vec3(x0, -1.0, -1.0), Vec3(x0, -1.0, 2.5), Vec3(x0, 0.8, -1.0),
                            Vec3(x0, 0.8, 2.5)};
  struct Case {
    const char* name;
    TetCutMode mode;
    const TetCutBlade* blade;
  };
  for (const Case& c :
       {Case{"split", TetCutMode::split, &blade}, Case{"partial", TetCutMode::split, &partial},
        Case{"remove", TetCutMode::remove, &blade}}) {
    const TetCutMode mode = c.mode;
    std::vector<double> cut_ms, apply_ms;
    TetCutResult last;
    for (int r = 0; r < reps; ++r) {
      Stopwatch clock;
      auto cut = cut_tets(mesh, mesh.positions, cuttable, {}, *c.blade, {mode, 0.1});
      cut_ms.push_back(clock.ms());
      TetMesh copy = mesh;
      std::vector<Vec3> x = mesh.positions, v(mesh.node_count(), Vec3::Zero());
      clock.reset();
      (void)apply_tet_cut(*cut, copy, x, v);
      apply_ms.push_back(clock.ms());
      last = std::move(cut.value());
    }
    const char* name = c.name;
    fmt::print("{:>7} {:>10} {:>10} {:>10} {:>11.3f} {:>11.3f}\n", name, last.removed_tets.size(),
               last.new_tets.size(), last.new_nodes.size(), median(cut_ms), median(apply_ms));
    out["cuts"].push_back({{"mode", name},
                           {"tets_changed", last.removed_tets.size()},
                           {"tets_split", last.tets_split},
                           {"tets_refined", last.tets_refined},
                           {"new_tets", last.new_tets.size()},
                           {"new_nodes", last.new_nodes.size()},
                           {"cut_ms_median", median(cut_ms)},
                           {"apply_ms_median", median(apply_ms)}});
  }
  return out;
}

}  // namespace

PLIANT_REGISTER_BENCH("fem-cut",
                      "one blade cut across a 2k-tet cuttable region of a 10k-tet beam (split and remove "
                      "modes): cut and apply times",
                      run_fem_cut);

}  // namespace pliant::bench
