// Exact triangle–box overlap by the separating axis theorem (Gottschalk, Lin and Manocha 1996, in
// the form of Akenine-Möller 2001): a triangle and an axis-aligned box are disjoint iff one of 13
// axes separates them: the box's 3 face normals, the triangle's normal, and the 9 cross products of
// box edges with triangle edges.
#pragma once

#include "pliant/core/types.hpp"

namespace pliant::impact {

/// Whether triangle (a, b, c) and the closed box centre ± half touch (touching counts). Positions,
/// centre and half-size in m.
bool triangle_overlaps_box(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& centre, const Vec3& half);

}  // namespace pliant::impact
