// Determinism above the parallel thresholds: every family's parallel loops stay serial below a size
// (waking threads costs more than small work), so determinism_test.cpp's small bodies run serially on
// two threads as on one. Here each body is larger than every threshold on its step's path, the same
// scene runs on 1 and 2 solver threads with bit-identical state hashes at every step, and the probe
// (omp_team_probe.hpp) proves that the two-thread run really ran parallel regions with two threads and
// the one-thread run none.
//
// The thresholds (src/models/...):
//   fem       tets > 2048 (FemForceModel's loops and ImplicitSolver's assembly, kParallelTets and
//             kParallelNodes, both compared with the tet count), ≥ 64 panels of the modal basis (panel
//             products: 4096 rows at most for 64 panels); the hybrid region's tets > 2048 (its own
//             FemForceModel); StiffnessAssembler's nodes > 4096 only at build (the hybrid body's
//             condensation, Green's precomputation), not reached by these bodies;
//   meshless  phyxels ≥ 2048 (MlsForceModel), surface vertices ≥ 4096 (DrivenSurface), phyxels ≥ 2048
//             (a cut's visibility pass);
//   impact    ≥ 4096 rays or candidate nodes (DentTarget's ray casts and dent weights,
//             DentTargetOptions::parallel_min);
//   green     its precomputation shares right-hand sides among the threads at any size.
// Not covered: PCG's sparse product runs in parallel above 2·10⁶ non-zeros (about 15k nodes), too slow a
// body for this suite under AddressSanitizer (its rows are independent sums in a fixed order). Springs has
// no parallel loop.
#include "scene/parallel/omp_team_probe.hpp"

#include "pliant/core/threads.hpp"
#include "pliant/scene/scene_file.hpp"
#include "scoped_threads.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace pliant::scene {
namespace {

using testing::ScopedThreads;

struct Outcome {
  std::vector<std::uint64_t> hashes;  // the initial state, then after every step
  int parallel_regions = 0;           // distinct regions run with two or more threads
  std::size_t surface_nodes = 0;
};

// Runs `json` for `steps` steps on `threads` solver threads. The probe records the steps (and the
// scene's build too when `probe_build`: green's parallel work is its precomputation).
Outcome run(const std::string& json, int steps, int threads, bool probe_build = false) {
  const ScopedThreads scoped(threads);
  Outcome r;
  if (probe_build) test::probe_parallel_regions(true);
  Result<Scene> scene = parse_scene(json, "parallel_determinism.json");
  EXPECT_TRUE(scene.ok()) << scene.message();
  if (!scene.ok()) {
    test::probe_parallel_regions(false);
    return r;
  }
  World& world = *scene->world;
  r.surface_nodes = world.body(0).surface_positions().size();
  r.hashes.push_back(world.state_hash());
  if (!probe_build) test::probe_parallel_regions(true);
  for (int s = 0; s < steps; ++s) {
    world.step();
    r.hashes.push_back(world.state_hash());
  }
  test::probe_parallel_regions(false);
  r.parallel_regions = test::regions_run_in_parallel();
  return r;
}

// The same hashes at every step on one and two threads; the one-thread run parallel nowhere, the
// two-thread run in at least `min_parallel` distinct regions; the state moves.
void expect_deterministic_in_parallel(const std::string& json, int steps, int min_parallel,
                                      bool probe_build = false) {
  ASSERT_TRUE(test::parallel_probe_available()) << "the probe wraps GCC's libgomp";
  const Outcome one = run(json, steps, 1, probe_build);
  const Outcome two = run(json, steps, 2, probe_build);
  ASSERT_EQ(one.hashes.size(), static_cast<std::size_t>(steps + 1));
  ASSERT_EQ(two.hashes.size(), one.hashes.size());
  for (std::size_t s = 0; s < one.hashes.size(); ++s) EXPECT_EQ(one.hashes[s], two.hashes[s]) << "step " << s;
  for (std::size_t s = 1; s < one.hashes.size(); ++s)
    EXPECT_NE(one.hashes[s], one.hashes[s - 1]) << "step " << s;
  EXPECT_EQ(one.parallel_regions, 0);
  EXPECT_GE(two.parallel_regions, min_parallel) << "regions that ran on two threads";
  std::printf("[ parallel ] %d distinct regions ran on two threads\n", two.parallel_regions);
}

std::string grab(const char* body, const char* near, const char* offset) {
  return std::string(R"({ "type": "grab", "body": ")") + body + R"(", "near": )" + near +
         R"(, "track": [ { "t": 0, "offset": [0, 0, 0] }, { "t": 0.05, "offset": )" + offset + " } ] }";
}

// A corotational bar of 4,900 nodes and 19,440 tets (above 2048), implicit.
TEST(ParallelDeterminism, FemImplicitBarAboveEveryThreshold) {
  const std::string json = R"({ "pliant": 1, "time_step": 0.01, "bodies": [ { "name": "bar", "family": "fem",
      "mesh": { "shape": "box", "size": [0.48, 0.09, 0.09], "cells": [48, 9, 9] }, "fixed": ["xmin"],
      "material": { "E": 50000, "nu": 0.3, "density": 1000 },
      "fem": { "element": "corotational", "damping": { "alpha": 1.0, "beta": 0.01 }, "gravity": [0, 0, -9.81],
               "integrator": "backward_euler", "solver": { "kind": "cholmod" } } } ],
    "interactions": [ )" + grab("bar", "[0.48, 0.09, 0.09]", "[0, 0, 0.01]") +
                           "] }";
  expect_deterministic_in_parallel(json, 3, 2);
}

// The hybrid region: 9,720 corotational tets (above 2048) on a condensed linear half.
TEST(ParallelDeterminism, FemHybridBarAboveEveryThreshold) {
  const std::string json = R"({ "pliant": 1, "time_step": 0.01, "bodies": [ { "name": "bar", "family": "fem",
      "mesh": { "shape": "box", "size": [0.48, 0.09, 0.09], "cells": [48, 9, 9] }, "fixed": ["xmin"],
      "material": { "E": 50000, "nu": 0.3, "density": 1000 },
      "fem": { "damping": { "alpha": 1.0, "beta": 0.001 },
               "hybrid": { "operational": { "box": { "min": [0.24, -1, -1], "max": [1, 1, 1] } } } } } ],
    "interactions": [ )" + grab("bar", "[0.48, 0.09, 0.09]", "[0, 0, 0.01]") +
                           "] }";
  expect_deterministic_in_parallel(json, 3, 1);
}

// A modal bar of 1,701 nodes: a basis of 5,103 rows, over 64 panels in any precision.
TEST(ParallelDeterminism, FemModalBarAboveThePanelThreshold) {
  const std::string json = R"({ "pliant": 1, "time_step": 0.01, "bodies": [ { "name": "bar", "family": "fem",
      "mesh": { "shape": "box", "size": [0.2, 0.08, 0.08], "cells": [20, 8, 8] }, "fixed": ["xmin"],
      "material": { "E": 50000, "nu": 0.3, "density": 1000 },
      "fem": { "gravity": [0, 0, -9.81], "damping": { "alpha": 1.0, "beta": 0.001 },
               "modal": { "modes": 10, "warping": true } } } ],
    "interactions": [ )" + grab("bar", "[0.2, 0.08, 0.08]", "[0, 0, 0.01]") +
                           "] }";
  expect_deterministic_in_parallel(json, 4, 1);
}

// An MLS slab of about 2,900 phyxels (above 2048) driving a surface of over 4,096 vertices, cut by a
// blade while grabbed.
TEST(ParallelDeterminism, MeshlessSlabAboveEveryThresholdWithACut) {
  const std::string json =
      R"({ "pliant": 1, "time_step": 0.005, "bodies": [ { "name": "tissue", "family": "meshless",
      "mesh": { "shape": "box", "origin": [-0.06, -0.02, -0.03], "size": [0.12, 0.02, 0.06], "cells": [60, 6, 30] },
      "fixed": ["ymin"], "material": { "E": 20000, "nu": 0.3, "density": 1000 },
      "meshless": { "spacing": 0.004, "volume_stiffness": 20000, "mass_damping": 5, "gravity": [0, -9.81, 0] } } ],
    "interactions": [
      { "type": "blade", "edge": [[-0.045, 0.02, 0.0015], [-0.04, -0.008, 0.0015]],
        "track": [ { "t": 0.0, "offset": [0, 0, 0] }, { "t": 0.02, "offset": [0.03, 0, 0] } ] },
      )" +
      grab("tissue", "[0.06, 0.0, 0.03]", "[0, 0.005, 0]") + "] }";
  const Outcome probe = run(json, 0, 1);
  EXPECT_GE(probe.surface_nodes, 4096u) << "the driven surface's threshold";
  expect_deterministic_in_parallel(json, 5, 2);
}

// An impact plate of 65 × 65 = 4,225 vertices under a projectile that lands in its middle: the falloff
// radius (half the plate) puts every vertex among the candidates of the dent's weights (above 4096).
TEST(ParallelDeterminism, ImpactPlateAboveTheRayThreshold) {
  const std::string json =
      R"({ "pliant": 1, "time_step": 0.01, "bodies": [ { "name": "plate", "family": "impact",
      "mesh": { "shape": "rect", "size": [0.2, 0.2], "cells": [64, 64] },
      "impact": { "resistance": 0.25, "falloff_radius": 0.1, "projectile_deceleration": 40 } } ],
    "interactions": [ { "type": "projectile", "start": [0.1, 0.1, 0.02], "velocity": [0, 0, -3], "mass": 0.5 } ] })";
  const Outcome probe = run(json, 0, 1);
  EXPECT_GE(probe.surface_nodes, 4096u);
  expect_deterministic_in_parallel(json, 6, 1);
}

// A Green block: its precomputation runs on every thread at any size (recorded from the build on).
TEST(ParallelDeterminism, GreenBlockPrecomputedOnTwoThreads) {
  const std::string json =
      R"({ "pliant": 1, "time_step": 0.01, "bodies": [ { "name": "block", "family": "green",
      "mesh": { "shape": "box", "size": [0.02, 0.02, 0.04], "cells": [4, 4, 8] },
      "material": { "E": 2e5, "nu": 0.45 }, "fixed": ["zmin"] } ],
    "interactions": [ )" +
      grab("block", "[0.02, 0.02, 0.04]", "[0.004, 0.002, 0]") + "] }";
  expect_deterministic_in_parallel(json, 4, 1, /*probe_build=*/true);
}

}  // namespace
}  // namespace pliant::scene
