// Tearing set-ups shared by tests, benchmarks and the scene layer (Grimm 2005, section 3.3.4 and the
// EYESI applications): a cylinder tool moving through a membrane at the thesis' three resolutions, a
// pressurised balloon that bursts from one hole, and a capsulorhexis (a flap pulled around a circle).
//
// Every scene is a TearingScene: a SpringsBody (the family's run time: symplectic Euler, the tearing
// mode, the internal pressure) and its interactions given as DATA (a tool path of times and positions,
// the grabbed flap's path), so one recorded interaction can be replayed with deletion tearing and with
// area-preserving tearing and compared (Grimm 2005, figures 3.10-3.12).
#pragma once

#include "pliant/core/result.hpp"
#include "pliant/core/timing.hpp"
#include "pliant/core/track.hpp"
#include "pliant/core/types.hpp"
#include "pliant/models/springs/spring_mesh.hpp"
#include "pliant/models/springs/springs_body.hpp"
#include "pliant/models/springs/tearing.hpp"

#include <vector>

namespace pliant::springs {

/// A rigid cylinder that pushes every free node inside it radially out to its surface (a SpringsBody
/// obstacle) while its centre follows a recorded path.
struct CylinderTool {
  Vec3 axis = Vec3(0, 1, 0);  ///< unit axis direction
  double radius = 0.006;      ///< (unit: m), > 0
  double half_length = 0.1;   ///< half the cylinder length along the axis (unit: m)
  Track path = {};            ///< centre of the cylinder over time (unit: s, m)
};

/// A running tearing scene: a body and the recorded interactions that drive it. step() moves the
/// interactions to the end of the step and steps the body by its method's dt; it never throws and
/// allocates only while arrays grow.
struct TearingScene {
  SpringsBody body;

  bool has_tool = false;
  CylinderTool tool = {};
  /// Grabs holding nodes, moved rigidly: grab i's target is grab_start[i] + grab_path.at(t) −
  /// grab_path.at(0). A grab whose node deletion tearing removes lets go by itself.
  std::vector<GrabId> grabs = {};
  std::vector<Vec3> grab_start = {};  ///< (unit: m)
  Track grab_path = {};

  double time = 0.0;                       ///< simulated time (unit: s)
  std::vector<TearEvent> events = {};      ///< tears of the last step
  std::vector<TearEvent> all_events = {};  ///< every tear since the start (for replays and statistics)
  Profile profile = {};                    ///< the body's stages in the last step

  const SpringMesh& mesh() const { return body.mesh(); }
  /// One step of the body's time step: move the grabs and the tool, then step the body.
  void step();
  /// Steps until time >= t_end.
  void run_until(double t_end);
};

/// The cylinder-through-membrane scene (Grimm 2005, figures 3.10-3.12).
struct CylinderSceneDef {
  Index rings = 9;  ///< hexagonal disc rings: 9, 33, 53 give the thesis' three meshes
  /// Adds the thesis' coarse-mesh handle (one node, two springs to the rim, fixed): 9 rings then give
  /// 272 nodes / 758 springs / 486 triangles. -1: only for rings == 9.
  int handle = -1;
  double radius = 0.05;  ///< disc radius (unit: m)
  TearMode tear_mode = TearMode::area_preserving;
  TearingDef thresholds = {.seed_threshold = 0.4, .edge_threshold = 0.8, .inner_threshold = 1.6};
  SpringMeshDef springs = {.stiffness = 100.0, .damping = 0.05, .node_mass = 1e-3, .max_stretch = 1.25};
  double dt = 1e-3;            ///< time step (unit: s)
  double tool_radius = 0.006;  ///< (unit: m)
  double duration = 1.0;       ///< length of the recorded tool motion (unit: s)
};

/// The thesis' resolutions: 0 → 9 rings + handle (272/758/486), 1 → 33 (3367/9900/6534),
/// 2 → 53 (8587/25440/16854).
CylinderSceneDef cylinder_scene_def(int resolution, TearMode mode = TearMode::area_preserving);

/// The recorded tool motion used by cylinder_scene: the cylinder (axis along y) starts above the
/// disc centre, moves down through the membrane, then sideways across it (times in s, positions in m).
Track cylinder_tool_path(const CylinderSceneDef& def);

/// Builds the cylinder scene (rim fixed); fails with the meshing message.
Result<TearingScene> cylinder_scene(const CylinderSceneDef& def);

/// The bursting balloon (Grimm 2005, figure 3.8).
struct BalloonSceneDef {
  Index subdivisions = 3;   ///< icosphere subdivisions (642 nodes, 1280 triangles at 3)
  double radius = 0.1;      ///< rest radius (unit: m)
  double inflation = 1.08;  ///< inflated radius / rest radius; pressure is set to hold it (dimensionless)
  /// Thresholds relative to the initial node stress S0 (dimensionless): inner well above S0 so no
  /// hole appears by itself, crack seeds and edges below it so the crack runs without added energy.
  double inner_ratio = 3.0;
  double seed_ratio = 0.3;
  /// Edge threshold / seed threshold: near 1 the crack branches often and the balloon bursts into
  /// many pieces; large, it tears along few cracks.
  double edge_to_seed = 1.5;
  SpringMeshDef springs = {.stiffness = 100.0, .damping = 0.05, .node_mass = 1e-3, .max_stretch = 2.0};
  double dt = 1e-3;              ///< (unit: s)
  double pressure_decay = 0.05;  ///< pressure release time after the puncture (unit: s)
  int tears_per_step = 1;        ///< area-preserving tears at most per step
};

/// Builds the inflated balloon and punctures it (a hole at the top node). `initial_stress` receives
/// S0, the mean node stress before the puncture (unit: N).
Result<TearingScene> balloon_scene(const BalloonSceneDef& def, double* initial_stress = nullptr);

/// Capsulorhexis: a disc membrane with a fixed rim; a hole is cut at radius `start_radius`, one flank
/// of it (the node's copy and its neighbours) is grabbed like forceps hold a flap and pulled around a
/// circle about the centre, lifted by `lift`; the tear follows.
struct CapsulorhexisSceneDef {
  Index rings = 15;
  double radius = 0.05;             ///< (unit: m)
  double start_radius = 0.025;      ///< radius of the grabbed flap's start (unit: m)
  double lift = 0.01;               ///< height of the pulled flap above the membrane (unit: m)
  double turn = 6.283185307179586;  ///< angle the flap is pulled around (unit: rad)
  double duration = 2.0;            ///< time to pull it around (unit: s)
  /// Thresholds in units of k · l0 (dimensionless), as in CylinderSceneDef.
  TearingDef thresholds = {.seed_threshold = 0.05, .edge_threshold = 0.3, .inner_threshold = 0.6};
  SpringMeshDef springs = {.stiffness = 100.0, .damping = 0.05, .node_mass = 1e-3, .max_stretch = 1.15};
  double dt = 1e-3;  ///< (unit: s)
};

Result<TearingScene> capsulorhexis_scene(const CapsulorhexisSceneDef& def);

}  // namespace pliant::springs
