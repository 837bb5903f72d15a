// Colour maps for scalar fields (displacement magnitude, stress, ...) drawn on surfaces.
//
// The tables are sampled from the published definitions: viridis (S. van der Walt and N. Smith,
// matplotlib 2.0, 2015: perceptually uniform, monotone lightness, readable in grey and by
// colour-blind viewers) and turbo (A. Mikhailov, Google AI blog 2019: a rainbow-like map with smooth
// lightness, for fields where the eye must tell many levels apart). Between control points the
// colour is interpolated linearly in sRGB.
#pragma once

#include "pliant/core/result.hpp"

#include <array>
#include <string>
#include <string_view>

namespace pliant::render {

enum class ColorMap {
  viridis,  ///< perceptually uniform, dark blue (low) to yellow (high); the default
  turbo,    ///< rainbow-like with smooth lightness, dark blue through green to dark red
  greys,    ///< black (low) to white (high)
  coolwarm  ///< diverging blue - white - red, for signed fields centred on 0
};

/// sRGB colour with components in [0, 1].
using Rgb = std::array<float, 3>;

/// Colour of the normalised value t (clamped to [0, 1]; NaN maps to the low end).
Rgb sample(ColorMap map, double t);

/// The map's name ("viridis", ...).
std::string_view name(ColorMap map);

/// The map called `name` (case-sensitive, as name() spells it), or an error listing the choices.
Result<ColorMap> color_map_from_name(std::string_view name);

}  // namespace pliant::render
