// Guides drawn beside the bodies to read their size and orientation: a floor grid and the world axes
// (the viewer's toggles), and the colour of fixed-node markers.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/tri_mesh.hpp"
#include "pliant/core/types.hpp"
#include "pliant/render/frame.hpp"

#include <array>

namespace pliant::render {

/// Colour of the floor grid's lines: a mid grey that reads on the dark background.
inline constexpr Rgb kGridColor = {0.42f, 0.44f, 0.48f};
/// Colour of fixed-node markers: a yellow apart from the colour maps' ends, the tool grey and the
/// grab magenta.
inline constexpr Rgb kFixedColor = {0.98f, 0.82f, 0.20f};

/// Line spacing of a floor grid over a square of side `extent` (unit: m): 1, 2 or 5 × 10^k, the
/// largest giving at least 10 cells across.
double grid_spacing(double extent);

/// A floor grid in the horizontal plane y = `height` (unit: m; world +Y is up), centred under
/// `around`'s centre and twice its larger horizontal extent wide (at least its diagonal), its lines
/// grid_spacing apart on multiples of the spacing, each a flat strip `line_width` wide (unit: m): two
/// triangles per line, normals +Y.
TriMesh floor_grid(const Aabb& around, double height, double line_width);

/// The world axes as three arrows from `origin` of `length` (unit: m): X red, Y green, Z blue,
/// labelled "X", "Y", "Z".
std::array<Arrow, 3> axes_arrows(const Vec3& origin, double length);

}  // namespace pliant::render
