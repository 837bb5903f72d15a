#include "pliant/scene/tool_cylinders.hpp"

#include "pliant/scene/world.hpp"

namespace pliant::scene {

std::vector<ToolCylinder> tool_cylinders(const World& world) {
  std::vector<ToolCylinder> out;
  out.reserve(world.tools().size() + world.blades().size());
  for (const ScriptedTool& t : world.tools()) {
    const Vec3 centre = world.step_count() > 0 ? t.centre
                        : t.track.empty()      ? t.start
                                               : Vec3(t.start + t.track.front().offset);
    out.push_back({centre, t.axis, t.radius, t.half_length, t.force});
  }
  for (const ScriptedBlade& b : world.blades()) {
    const Vec3 edge = b.edge_b - b.edge_a;
    const double half = 0.5 * edge.norm();
    if (!(half > 0.0)) continue;  // a degenerate edge has no axis to draw
    out.push_back({0.5 * (b.edge_a + b.edge_b), edge / (2.0 * half), 0.02 * half, half, Vec3::Zero()});
  }
  return out;
}

}  // namespace pliant::scene
