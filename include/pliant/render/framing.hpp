// Framing: what the camera of rendered frames keeps in view, so that the bodies of interest fill the
// picture and a fragment falling away or a piece thrown off does not shrink them to a dot.
//
// The rule: a surface is split into its pieces (connected through triangles); a piece that holds
// fewer than `min_fraction` (5 %) of its surface's nodes is an outlier fragment and does not widen
// the frame, nor the colour range of the frames' field. Whole bodies and every piece of 5 % or more do. The
// camera is decided once from the frames and scripted targets known (framed_box), and widened only when a
// body of interest leaves the view (in_view), never zoomed frame by frame.
#pragma once

#include "pliant/core/aabb.hpp"
#include "pliant/core/types.hpp"
#include "pliant/render/camera.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace pliant::render {

/// Per node of a surface (#nodes positions, unit: m; triangles over them), 1 when it belongs to a piece
/// holding at least `min_fraction` of the nodes that triangles use, else 0 (a fragment's node, or one
/// no triangle uses). What frames are framed on and what sets their colour range.
std::vector<std::uint8_t> main_piece_nodes(std::span<const Vec3> positions, std::span<const Tri> triangles,
                                           double min_fraction = 0.05);

/// The pixel column left of which rendered content stays clear of the colour bar (its value labels
/// included) that the renderer draws at the right edge of a `width` × `height` image.
double color_bar_left(int width, int height);

/// Whether every corner of `box` lies in front of the camera and projects inside the pixel rectangle
/// [x0, x1] × [y0, y1] (px right, py down).
bool in_view(const Camera& camera, const Aabb& box, double x0, double y0, double x1, double y1);

}  // namespace pliant::render
