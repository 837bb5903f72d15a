// The built-in demo scenes: what `pliant demo` runs and `pliant view` opens without a file. Their JSON
// is the same as examples/scenes/pipe_drag.json and examples/scenes/membrane_tear.json (a test keeps
// them equal), so users can copy and edit them.
#pragma once

#include <string>
#include <vector>

namespace pliant::scene {

struct DemoScene {
  std::string name;  ///< scene name, also its output subdirectory
  std::string json;  ///< scene-file text (docs/scene-format.md)
};

/// The Nikitina et al. (2003) pipe (7872 nodes, Green's functions, Ecoflex 00-30 silicone) dragged by its
/// free end with a 3 cm soft grab (a reaction of tens of newtons), and the Table 2.1 membrane of Grimm (2005)
/// (1403 nodes, Dragnet mass-spring) pulled at its centre until it tears.
std::vector<DemoScene> demo_scenes();

}  // namespace pliant::scene
