// Shared mass-spring set-ups (tests, benchmarks and the scene layer use the same ones), after seed
// 001's convergence test (Table 2.1): a planar membrane with its rim fixed and the node nearest the
// centroid displaced by a fixed vector; methods are stepped until the largest per-step node motion
// falls below a fraction of the mesh size (the mean spring rest length).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/models/springs/methods.hpp"
#include "pliant/models/springs/spring_mesh.hpp"

namespace pliant::springs {

/// A planar disc membrane scene definition.
struct MembraneSceneDef {
  double radius = 0.05;        ///< disc radius (unit: m)
  Index nodes = 1403;          ///< node count (Table 2.1: 1403; earlier test: 630)
  Index boundary_nodes = 140;  ///< rim nodes (1403 → 4066 springs, 2664 triangles; 630 with 88 → 1799, 1170)
  /// Displacement of the interaction node (unit: m). Default: a quarter radius out of the plane,
  /// which the max stretch 1.1 allows without reaching the fixed rim (|Δ| ≤ 0.458 · r · radius-ish).
  Vec3 displacement = Vec3(0.0, 0.0, 0.0125);
  /// Springs: k (N/m), c (N·s/m), masses, max stretch; node_mass 1 g by default.
  SpringMeshDef springs = {.stiffness = 100.0, .damping = 0.05, .node_mass = 1e-3, .max_stretch = 1.1};
  bool fix_rim = true;  ///< fix the nodes on the rim (edge springs' nodes)
};

/// Table 2.1's membrane: 1403 nodes, 4066 springs, 2664 triangles.
MembraneSceneDef table21_membrane_def();
/// The earlier 630-node, 1799-spring, 1170-triangle membrane.
MembraneSceneDef small_membrane_def();

/// A built scene: the mesh with the interaction node already moved to its target and fixed.
struct MembraneScene {
  SpringMesh mesh;
  Index interaction_node = -1;  ///< node nearest the centroid
  Vec3 target = Vec3::Zero();   ///< its displaced position (unit: m)
  double mesh_size = 0.0;       ///< mean spring rest length (unit: m)
};

/// Builds the scene; fails with the meshing or spring-mesh message.
Result<MembraneScene> membrane_scene(const MembraneSceneDef& def);

/// Sets every spring's stiffness (unit: N/m, times its spring_factor) and damping (unit: N·s/m).
void set_spring_parameters(SpringMesh& mesh, double stiffness, double damping);

/// Outcome of stepping a method until the membrane settles.
struct SettleResult {
  int steps = -1;       ///< steps until the largest step motion fell below 1e-3 · mesh size (-1: never)
  int steps_1e4 = -1;   ///< same for 1e-4 · mesh size (-1: never within the cap)
  bool stable = true;   ///< false if positions became non-finite or left a 100 · radius box
  double total_ms = 0;  ///< wall time of the `steps` steps (unit: ms)
  double mean_ms = 0;   ///< total_ms / steps (unit: ms)
  double max_ms = 0;    ///< slowest of those steps (unit: ms)
};

/// Steps `def`'s method on a copy of the scene: at most max_steps; stops once the step motion fell
/// below 1e-4 · mesh size (or after 1e-3 when want_1e4 is false). A step is counted when its largest
/// node motion is at least the tolerance, so a method that settles in one pass reports 1.
SettleResult settle(const MembraneScene& scene, const MethodDef& def, int max_steps, bool want_1e4 = true);

}  // namespace pliant::springs
