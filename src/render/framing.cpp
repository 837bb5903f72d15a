#include "pliant/render/framing.hpp"

#include "pliant/core/topology.hpp"
#include "pliant/render/bitmap_font.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pliant::render {
std::vector<std::uint8_t> main_piece_nodes(std::span<const Vec3> positions, std::span<const Tri> triangles,
                                           double min_fraction) {
  const std::size_t n = positions.size();
  const auto in_range = [n](Index i) { return i >= 0 && static_cast<std::size_t>(i) < n; };
  std::vector<Tri> kept;
  kept.reserve(triangles.size());
  std::vector<std::uint8_t> main(n, 0);
  for (const Tri& t : triangles) {
    if (!in_range(t[0]) || !in_range(t[1]) || !in_range(t[2])) continue;
    kept.push_back(t);
    for (Index a : t) main[static_cast<std::size_t>(a)] = 1;
  }
  const Components pieces = connected_components(static_cast<Index>(n), unique_edges(kept));
  std::vector<std::size_t> size(static_cast<std::size_t>(pieces.count), 0);
  std::size_t total = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (main[i]) {
      ++size[static_cast<std::size_t>(pieces.label[i])];
      ++total;
    }
  const double least = min_fraction * static_cast<double>(total);
  for (std::size_t i = 0; i < n; ++i)
    main[i] = main[i] && static_cast<double>(size[static_cast<std::size_t>(pieces.label[i])]) >= least;
  return main;
}

double color_bar_left(int width, int height) {
  // GlRenderer's overlay layout: the bar is max(8, w/40) wide, w/30 from the right edge, and its value
  // labels ("%.3g", at most 9 glyphs such as "-1.23e-05") end two font pixels left of it.
  const double w = width, h = height;
  const double scale = std::max(1.0, std::round(std::min(w, h) / 300.0));
  const double bar_w = std::max(8.0, std::round(w / 40.0));
  const double bar_x0 = w - std::round(w / 30.0) - bar_w;
  return std::max(0.0, bar_x0 - 2.0 * scale - text_width("-1.23e-05") * scale - 2.0 * scale);
}

bool in_view(const Camera& camera, const Aabb& box, double x0, double y0, double x1, double y1) {
  if (box.empty()) return true;
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner((c & 1) ? box.max.x() : box.min.x(), (c & 2) ? box.max.y() : box.min.y(),
                      (c & 4) ? box.max.z() : box.min.z());
    const Vec3 p = camera.project(corner);
    if (!(camera.orthographic || p.z() > 0.0)) return false;
    if (!(p.x() >= x0 && p.x() <= x1 && p.y() >= y0 && p.y() <= y1)) return false;
  }
  return true;
}

}  // namespace pliant::render
