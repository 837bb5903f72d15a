// Length correction of over-stretched springs: Provot 1995 and Wagner 2003's sorted variant.
//
// Provot ("Deformation constraints in a mass-spring model to describe rigid cloth behavior",
// Graphics Interface 1995) limits the stretch of each spring after the integration step: a spring
// longer than its maximum length is shortened to it, moving the free end if the other is fixed and
// both ends equally otherwise (both fixed: skipped). The correction factor scales the shortening;
// above 1 it over-corrects and Grimm (2005) found the iteration unstable near 2.1.
// Wagner et al. 2003 process springs in order of their distance from the interaction point and fix
// the ends of every corrected spring for the rest of the pass, so a correction never undoes one made
// nearer to the interaction.
#pragma once

#include "pliant/models/springs/spring_mesh.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace pliant::springs {

/// One Provot pass over all springs in index order. factor (dimensionless, > 0, 1 = exact) scales
/// the correction. Returns how many springs were corrected.
Index provot_pass(SpringMesh& mesh, double factor);

/// Wagner's sorted length correction, with reusable scratch (no allocation after the first pass).
class SortedLengthCorrection {
 public:
  /// One pass: springs sorted by the distance of their midpoint from `interaction_point` (unit: m),
  /// nodes with inv_mass 0 never move. Returns how many springs were corrected.
  Index pass(SpringMesh& mesh, const Vec3& interaction_point);

 private:
  std::vector<std::pair<double, Index>> order_;
  std::vector<std::uint32_t> node_stamp_;
  std::uint32_t pass_ = 0;
};

}  // namespace pliant::springs
