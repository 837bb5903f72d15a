// `--units` and `--scale` of the verbs that read a mesh file (`pliant info`, `pliant mesh`): the
// command-line side of a scene mesh's "units" and "scale" (MeshTransform; docs/scene-format.md).
//   pliant info liver.obj --units cm --json     the bounding box, volume and area in metres
//   pliant mesh liver.obj --units cm -o liver.vtu
// Units come first, then the scale, as in a scene file.
#pragma once

#include "option_checks.hpp"

#include "pliant/core/mesh_transform.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace pliant::cli {

struct MeshUnitsArgs {
  std::string units = "m";  ///< the file's length unit: m, cm or mm
  double scale = 1;         ///< factor after the unit change (unit: 1)

  MeshTransform transform() const {
    MeshTransform t;
    t.metres_per_unit = metres_per_unit(units).value_or(1.0);
    t.scale = Vec3::Constant(scale);
    return t;
  }
};

/// Adds --units UNIT and --scale FACTOR to `app`, checked as they parse (one line naming the option).
inline void add_mesh_units_options(CLI::App& app, MeshUnitsArgs& args) {
  app.add_option("--units", args.units,
                 "Length unit of the file's coordinates: m, cm or mm (converted to metres)")
      ->capture_default_str()
      ->transform(CLI::Validator(
          [](std::string& text) {
            return metres_per_unit(text) ? std::string()
                                         : "must be one of " + std::string(known_length_units()) + " (got " +
                                               (text.empty() ? std::string("nothing") : text) + ")";
          },
          "m|cm|mm"));
  add_number(app, "--scale", args.scale, "Scale factor applied after --units (1 = as read)", positive())
      ->capture_default_str();
}

}  // namespace pliant::cli
