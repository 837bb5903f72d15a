#include "pliant/render/frame.hpp"

namespace pliant::render {

Aabb bounds(const Frame& frame) {
  Aabb box;
  for (const Surface& s : frame.surfaces)
    for (const Vec3& p : s.positions)
      if (p.allFinite()) box.extend(p);
  return box;
}

}  // namespace pliant::render
