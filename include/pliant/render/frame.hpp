// Frame: everything one rendered image shows, as plain data that borrows the caller's arrays.
//
// The scene layer, the CLI and the viewer fill a Frame from their bodies each time they draw; the
// GlRenderer turns it into pixels in whatever OpenGL context is current (EGL offscreen or a GLFW
// window). Spans point into the caller's storage and must stay valid until draw() returns.
#pragma once

#include "pliant/core/types.hpp"
#include "pliant/render/camera.hpp"
#include "pliant/render/colormap.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::render {

enum class Shading {
  smooth,  ///< per-vertex normals (area-weighted mean of the adjacent faces), computed every frame
  flat,    ///< one normal per triangle: facets visible, shows the mesh resolution
  unlit    ///< colour only, no lighting (exact colour-map colours, e.g. for checking a field)
};

/// One triangle surface. Both sides are lit, so open membranes and torn surfaces read correctly.
struct Surface {
  std::span<const Vec3> positions;  ///< #nodes current positions (unit: m)
  std::span<const Tri> triangles;   ///< node triples; orientation only matters for nothing (two-sided)
  /// Optional per-node scalar (same length as positions), coloured with `color_map` over
  /// [range_min, range_max]; empty: the surface is drawn in `color`.
  std::span<const double> field;
  ColorMap color_map = ColorMap::viridis;
  double range_min = 0.0;             ///< field value drawn at the map's low end (unit: the field's)
  double range_max = 1.0;             ///< field value drawn at the map's high end (unit: the field's)
  Rgb color = {0.80f, 0.62f, 0.55f};  ///< uniform colour without a field (sRGB, [0, 1])
  Shading shading = Shading::smooth;
  bool wireframe = false;  ///< draw triangle edges over the surface
};

/// An arrow from `origin` to `tip` (for example a grab's reaction force scaled to a length), with an
/// optional text label (e.g. "1.25 N") drawn beside the tip.
struct Arrow {
  Vec3 origin = Vec3::Zero();  ///< tail (unit: m)
  Vec3 tip = Vec3::Zero();     ///< head (unit: m)
  Rgb color = {0.95f, 0.25f, 0.15f};
  double radius = 0.0;  ///< shaft radius (unit: m); 0: 1/80 of the camera's scene radius
  std::string label;    ///< drawn in the built-in bitmap font (digits, A-Z, . - + e /)
};

/// Colour bar: the surface field's map and range, drawn at the image's right edge with its min and
/// max values and a label. A degenerate range (range_max ≤ range_min: a field with one value, such as
/// a body at rest) draws the bar in the map's low-end colour with that one value.
struct ColorBar {
  bool visible = false;
  ColorMap color_map = ColorMap::viridis;
  double range_min = 0.0;
  double range_max = 1.0;
  std::string label;  ///< e.g. color_bar_label("displacement", "m") (drawn in upper case)
};

/// The colour bar's label for a field and its unit: "displacement (m)", or the bare name without a
/// unit. The bitmap font draws it as "DISPLACEMENT (M)".
std::string color_bar_label(std::string_view field, std::string_view unit);

struct Frame {
  std::vector<Surface> surfaces;
  std::vector<Arrow> arrows;
  Camera camera;
  ColorBar color_bar;
  /// Text in the image's top-left corner, e.g. the simulated time "t = 0.250 s" (drawn in upper case
  /// in the built-in bitmap font); empty: none.
  std::string caption;
  Rgb background = {0.16f, 0.17f, 0.20f};  ///< clear colour (sRGB, [0, 1])
};

/// Bounding box of every surface's positions (unit: m), for Camera::frame.
Aabb bounds(const Frame& frame);

}  // namespace pliant::render
