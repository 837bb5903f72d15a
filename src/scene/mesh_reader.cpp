#include "mesh_reader.hpp"

#include "pliant/core/mesh_transform.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/disc_membrane.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/tube.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace pliant::scene::detail {
namespace {

constexpr long long kMaxIndex = std::numeric_limits<Index>::max();

std::array<Index, 3> cells3(const JsonReader& r) {
  const auto e = r.elements();
  if (e.size() != 3) r.fail_expected("an array of 3 integers");
  return {static_cast<Index>(e[0].integer(1, 100000)), static_cast<Index>(e[1].integer(1, 100000)),
          static_cast<Index>(e[2].integer(1, 100000))};
}

Vec3 positive3(const JsonReader& r) {
  const auto e = r.elements();
  if (e.size() != 3) r.fail_expected("an array of 3 numbers > 0");
  return {e[0].positive(), e[1].positive(), e[2].positive()};
}

// SceneLimits::max_mesh_elements, checked from a shape's parameters before meshing (the meshers'
// own element counts) and from the mesh after reading or meshing.
void check_elements(const JsonReader& m, long double elements, std::size_t limit, const std::string& what) {
  if (limit == 0 || elements <= static_cast<long double>(limit)) return;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%s %.6Lg elements, more than the limit of %zu (SceneLimits::max_mesh_elements; pliant run "
                "--max-elements)",
                what.c_str(), elements, limit);
  m.fail(buf);
}

long double integer_param(const JsonReader& m, const char* key, long long fallback) {
  const auto v = m.find(key);
  return v && json_of(*v).is_number_integer() ? static_cast<long double>(json_of(*v).get<long long>())
                                              : static_cast<long double>(fallback);
}

long double shape_element_estimate(const JsonReader& m, const std::string& shape) {
  auto cells = [&](const char* key, int n, long double fallback) {
    const auto v = m.find(key);
    if (!v || !json_of(*v).is_array() || json_of(*v).size() != static_cast<std::size_t>(n)) return fallback;
    long double p = 1;
    for (const auto& e : json_of(*v))
      p *= e.is_number_integer() ? static_cast<long double>(e.get<long long>()) : 1;
    return p;
  };
  if (shape == "box") {
    const auto c = meshing::BoxDef{}.cells;
    return 6 * cells("cells", 3, static_cast<long double>(c[0]) * c[1] * c[2]);
  }
  if (shape == "tube") {
    const meshing::TubeDef d;
    return 6 * integer_param(m, "segments_around", d.segments_around) *
           integer_param(m, "segments_along", d.segments_along) *
           integer_param(m, "segments_through", d.segments_through);
  }
  if (shape == "ball") {
    const long double n = integer_param(m, "resolution", meshing::BallDef{}.resolution);
    return 6 * n * n * n;
  }
  if (shape == "disc") return 2 * integer_param(m, "nodes", meshing::DiscMembraneDef{}.nodes);
  if (shape == "hexdisc") {
    const long double n = integer_param(m, "rings", meshing::HexDiscDef{}.rings);
    return 6 * n * n;
  }
  if (shape == "rect") {
    const meshing::RectMembraneDef d;
    return 2 * cells("cells", 2, static_cast<long double>(d.cells_x) * d.cells_y);
  }
  if (shape == "icosphere") {
    const long double s = integer_param(m, "subdivisions", meshing::IcosphereDef{}.subdivisions);
    return 20 * std::pow(4.0L, std::clamp<long double>(s, 0, 30));
  }
  return 0;  // an unknown shape: read_mesh_unchecked says which ones exist
}

// The keys of a mesh's units and transform (MeshTransform), accepted beside a file or any shape.
std::vector<std::string_view> with_transform_keys(std::initializer_list<std::string_view> keys) {
  std::vector<std::string_view> all(keys);
  all.insert(all.end(), {"units", "scale", "rotate", "translate"});
  return all;
}

// Units and transform of a scene mesh, applied in MeshTransform's order (units, scale, rotate,
// translate).
MeshTransform read_transform(const JsonReader& m) {
  MeshTransform t;
  if (auto v = m.find("units")) t.metres_per_unit = *metres_per_unit(v->one_of({"m", "cm", "mm"}));
  if (auto v = m.find("scale")) {
    if (json_of(*v).is_array()) {
      const auto e = v->elements();
      if (e.size() != 3) v->fail_expected("a number > 0 or an array of 3 numbers > 0");
      t.scale = {e[0].positive(), e[1].positive(), e[2].positive()};
    } else {
      t.scale = Vec3::Constant(v->positive());
    }
  }
  if (auto v = m.find("rotate")) t.rotation = read_rotation(*v);
  if (auto v = m.find("translate")) t.translate = v->vec3();
  return t;
}

// "mesh": {"file": "beam.msh"} or {"shape": "tube", ...parameters of that shape}.
void read_mesh_unchecked(const JsonReader& m, const std::filesystem::path& dir, BodyInputs& in) {
  if (m.has("file")) {
    m.expect_object(with_transform_keys({"file"}));
    const JsonReader f = m.at("file");
    const std::filesystem::path path = dir / f.string();
    auto read = io::read_mesh_file(path);
    if (!read.ok()) {
      // A relative path that leads nowhere: say what it was resolved against (the scene file's folder,
      // not the working directory).
      std::error_code ec;
      const std::filesystem::path written(f.string());
      if (written.is_relative() && !std::filesystem::exists(path, ec)) {
        const std::filesystem::path base = std::filesystem::absolute(dir.empty() ? "." : dir, ec);
        f.fail(read.message() + " (\"" + written.string() + "\" is relative to the scene file's folder " +
               base.lexically_normal().string() + ")");
      }
      f.fail(read.message());
    }
    io::MeshFile file = std::move(read).value();
    std::vector<std::string> notes;
    if (!file.tets.empty()) {
      in.volume = take(io::read_tet_mesh(path, &notes), f);
    } else {
      in.surface = take(io::read_tri_mesh(path), f);
      notes = file.notices;
    }
    for (const std::string& note : notes)
      in.notices.push_back(f.pointer() + ": " + path.string() + ": " + note);
    return;
  }
  const std::string shape =
      m.at("shape").one_of({"box", "tube", "ball", "disc", "hexdisc", "rect", "icosphere"});
  if (shape == "box") {
    m.expect_object(with_transform_keys({"shape", "origin", "size", "cells", "split"}));
    meshing::BoxDef d;
    if (auto v = m.find("origin")) d.origin = v->vec3();
    if (auto v = m.find("size")) d.size = positive3(*v);
    if (auto v = m.find("cells")) d.cells = cells3(*v);
    if (auto v = m.find("split"))
      d.split = v->one_of({"five", "six"}) == "six" ? meshing::CellSplit::six : meshing::CellSplit::five;
    in.volume = take(meshing::box_mesh(d), m);
  } else if (shape == "tube") {
    m.expect_object(with_transform_keys({"shape", "inner_radius", "outer_radius", "length", "segments_around",
                                         "segments_along", "segments_through"}));
    meshing::TubeDef d;
    d.inner_radius = m.positive_or("inner_radius", d.inner_radius);
    d.outer_radius = m.positive_or("outer_radius", d.outer_radius);
    d.length = m.positive_or("length", d.length);
    d.segments_around = static_cast<Index>(m.integer_or("segments_around", d.segments_around, 3, kMaxIndex));
    d.segments_along = static_cast<Index>(m.integer_or("segments_along", d.segments_along, 1, kMaxIndex));
    d.segments_through =
        static_cast<Index>(m.integer_or("segments_through", d.segments_through, 1, kMaxIndex));
    in.volume = take(meshing::tube_mesh(d), m);
  } else if (shape == "ball") {
    m.expect_object(with_transform_keys({"shape", "center", "radius", "resolution"}));
    meshing::BallDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.resolution = static_cast<Index>(m.integer_or("resolution", d.resolution, 2, kMaxIndex));
    in.volume = take(meshing::ball_mesh(d), m);
  } else if (shape == "disc") {
    m.expect_object(with_transform_keys({"shape", "center", "radius", "nodes", "boundary_nodes"}));
    meshing::DiscMembraneDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.nodes = static_cast<Index>(m.integer_or("nodes", d.nodes, 7, kMaxIndex));
    d.boundary_nodes = static_cast<Index>(m.integer_or("boundary_nodes", d.boundary_nodes, 6, kMaxIndex));
    in.surface = take(meshing::disc_membrane(d), m);
  } else if (shape == "hexdisc") {
    m.expect_object(with_transform_keys({"shape", "center", "radius", "rings"}));
    meshing::HexDiscDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.rings = static_cast<Index>(m.integer_or("rings", d.rings, 1, 10000));
    in.surface = take(meshing::hex_disc(d), m);
  } else if (shape == "rect") {
    m.expect_object(with_transform_keys({"shape", "size", "cells"}));
    meshing::RectMembraneDef d;
    if (auto v = m.find("size")) {
      const auto e = v->elements();
      if (e.size() != 2) v->fail_expected("an array of 2 numbers");
      d.size = {e[0].positive(), e[1].positive()};
    }
    if (auto v = m.find("cells")) {
      const auto e = v->elements();
      if (e.size() != 2) v->fail_expected("an array of 2 integers");
      d.cells_x = static_cast<Index>(e[0].integer(1, 100000));
      d.cells_y = static_cast<Index>(e[1].integer(1, 100000));
    }
    in.surface = take(meshing::rect_membrane(d), m);
  } else {
    m.expect_object(with_transform_keys({"shape", "center", "radius", "subdivisions"}));
    meshing::IcosphereDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.subdivisions = static_cast<Index>(
        m.integer_or("subdivisions", d.subdivisions, 0, meshing::kMaxIcosphereSubdivisions));
    in.surface = take(meshing::icosphere(d), m);
  }
}

}  // namespace

void read_mesh(const JsonReader& m, const std::filesystem::path& dir, BodyInputs& in,
               std::size_t max_elements) {
  if (m.has("shape") && m.at("shape").is_string())
    check_elements(m, shape_element_estimate(m, m.at("shape").string()), max_elements,
                   m.at("shape").string() + ": the parameters ask for about");
  read_mesh_unchecked(m, dir, in);
  const MeshTransform transform = read_transform(m);
  if (in.volume) transform_positions(in.volume->positions, transform);
  if (in.surface) transform_positions(in.surface->positions, transform);
  const std::size_t n = in.volume ? in.volume->tets.size() : in.surface ? in.surface->triangles.size() : 0;
  check_elements(m, static_cast<long double>(n), max_elements, "the mesh has");
}

Eigen::Quaterniond read_rotation(const JsonReader& r) {
  constexpr const char* kForms =
      "a unit quaternion [w, x, y, z], {\"quaternion\": [w, x, y, z]} or {\"axis\": [x, y, z], \"degrees\": "
      "a}";
  const auto quaternion = [](const JsonReader& q) {
    if (!q.is_array() || q.size() != 4) q.fail_expected("a unit quaternion [w, x, y, z]");
    const auto e = q.elements();
    return take(quaternion_rotation(e[0].number(), e[1].number(), e[2].number(), e[3].number()), q);
  };
  if (r.is_array()) return quaternion(r);
  if (!r.is_object()) r.fail_expected(kForms);
  if (r.has("quaternion")) {
    r.expect_object({"quaternion"});
    return quaternion(r.at("quaternion"));
  }
  r.expect_object({"axis", "degrees"});
  const JsonReader axis = r.at("axis");
  return take(axis_angle_rotation(axis.vec3(), r.at("degrees").number()), axis);
}

}  // namespace pliant::scene::detail
