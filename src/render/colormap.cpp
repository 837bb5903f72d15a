#include "pliant/render/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace pliant::render {
namespace {

// Control points in 8-bit sRGB, equally spaced over [0, 1].
struct Rgb8 {
  unsigned char r, g, b;
};

// viridis sampled at t = 0, 0.1, ..., 1.
constexpr Rgb8 kViridis[] = {{68, 1, 84},    {72, 36, 117},  {65, 68, 135},  {53, 95, 141},
                             {42, 120, 142}, {33, 145, 140}, {34, 168, 132}, {68, 191, 112},
                             {122, 209, 81}, {189, 223, 38}, {253, 231, 37}};
// turbo sampled at t = 0, 1/9, ..., 1.
constexpr Rgb8 kTurbo[] = {{48, 18, 59},   {70, 98, 215},  {54, 170, 249}, {26, 228, 182}, {114, 254, 94},
                           {199, 239, 52}, {250, 186, 57}, {246, 107, 25}, {203, 42, 4},   {122, 4, 3}};
constexpr Rgb8 kGreys[] = {{0, 0, 0}, {255, 255, 255}};
// Diverging blue-grey-red after K. Moreland, "Diverging color maps for scientific visualization",
// ISVC 2009 (end points and a neutral centre).
constexpr Rgb8 kCoolWarm[] = {{59, 76, 192}, {141, 176, 254}, {221, 221, 221}, {244, 154, 123}, {180, 4, 38}};

std::span<const Rgb8> table(ColorMap map) {
  switch (map) {
    case ColorMap::turbo:
      return kTurbo;
    case ColorMap::greys:
      return kGreys;
    case ColorMap::coolwarm:
      return kCoolWarm;
    case ColorMap::viridis:
      break;
  }
  return kViridis;
}

constexpr ColorMap kAll[] = {ColorMap::viridis, ColorMap::turbo, ColorMap::greys, ColorMap::coolwarm};

}  // namespace

Rgb sample(ColorMap map, double t) {
  const std::span<const Rgb8> points = table(map);
  if (!(t > 0.0)) t = 0.0;  // NaN too
  if (t > 1.0) t = 1.0;
  const double x = t * static_cast<double>(points.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(x), points.size() - 2);
  const double f = x - static_cast<double>(i);
  const Rgb8& a = points[i];
  const Rgb8& b = points[i + 1];
  const auto mix = [f](unsigned char p, unsigned char q) {
    return static_cast<float>(((1.0 - f) * p + f * q) / 255.0);
  };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

std::string_view name(ColorMap map) {
  switch (map) {
    case ColorMap::turbo:
      return "turbo";
    case ColorMap::greys:
      return "greys";
    case ColorMap::coolwarm:
      return "coolwarm";
    case ColorMap::viridis:
      break;
  }
  return "viridis";
}

Result<ColorMap> color_map_from_name(std::string_view text) {
  std::string choices;
  for (ColorMap m : kAll) {
    if (name(m) == text) return m;
    choices += choices.empty() ? "" : ", ";
    choices += name(m);
  }
  return Error{"unknown colour map '" + std::string(text) + "' (choices: " + choices + ")"};
}

}  // namespace pliant::render
