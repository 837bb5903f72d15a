// The demo scenes' text. Keep in sync with examples/scenes/ (tests/scene/demo_scenes_test.cpp).
#include "pliant/scene/demo_scenes.hpp"

namespace pliant::scene {

std::vector<DemoScene> demo_scenes() {
  return {{"pipe_drag", R"json({
  "pliant": 1,
  "name": "pipe_drag",
  "time_step": 0.0166667,
  "steps": 120,
  "bodies": [
    {
      "name": "pipe",
      "family": "green",
      "mesh": { "shape": "tube" },
      "material": { "preset": "ecoflex_00_30" },
      "fixed": ["zmin"],
      "green": { "rotation_correction": true }
    }
  ],
  "interactions": [
    { "type": "grab", "body": "pipe", "near": [0.1, 0.0, 0.5], "radius": 0.03,
      "track": [ { "t": 0.0, "offset": [0, 0, 0] },
                 { "t": 1.0, "offset": [0.12, 0.06, 0] },
                 { "t": 2.0, "offset": [-0.08, 0.12, 0] } ] }
  ],
  "output": { "every": 10, "vtu": true, "png": true, "color": "displacement" }
}
)json"},
          {"membrane_tear", R"json({
  "pliant": 1,
  "name": "membrane_tear",
  "time_step": 0.01,
  "steps": 150,
  "bodies": [
    {
      "name": "membrane",
      "family": "springs",
      "mesh": { "shape": "disc", "radius": 0.05, "nodes": 1403, "boundary_nodes": 140 },
      "fixed": ["nodes:1263-1402"],
      "springs": { "method": "dragnet_mass_spring", "stiffness": 50, "damping": 0.015,
                   "mass_damping": 600, "mass_density": 180, "max_stretch": 1.3, "dragnet_factor": 1.0,
                   "tearing": { "mode": "area_preserving", "seed_threshold": 0.04,
                                "edge_threshold": 0.08, "inner_threshold": 0.1 } }
    }
  ],
  "interactions": [
    { "type": "grab", "body": "membrane", "near": [0, 0, 0],
      "track": [ { "t": 0.0, "offset": [0, 0, 0] }, { "t": 1.5, "offset": [0, 0, 0.04] } ] }
  ],
  "output": { "every": 10, "vtu": true, "png": true, "color": "stress" }
}
)json"}};
}

}  // namespace pliant::scene
