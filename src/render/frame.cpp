#include "pliant/render/frame.hpp"

namespace pliant::render {

Aabb bounds(const Frame& frame) {
  Aabb box;
  for (const Surface& s : frame.surfaces)
    for (const Vec3& p : s.positions)
      if (p.allFinite()) box.extend(p);
  return box;
}

std::string color_bar_label(std::string_view field, std::string_view unit) {
  std::string label(field);
  if (!unit.empty()) label += " (" + std::string(unit) + ")";
  return label;
}

}  // namespace pliant::render
