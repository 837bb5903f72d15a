#include "pliant/scene/scene_file.hpp"

#include "family_registry.hpp"
#include "json_reader.hpp"

#include "pliant/core/escape.hpp"
#include "pliant/io/mesh_file.hpp"
#include "pliant/meshing/ball.hpp"
#include "pliant/meshing/box.hpp"
#include "pliant/meshing/disc_membrane.hpp"
#include "pliant/meshing/hex_disc.hpp"
#include "pliant/meshing/icosphere.hpp"
#include "pliant/meshing/rect_membrane.hpp"
#include "pliant/meshing/tube.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

namespace pliant::scene {
namespace {
using detail::BodyInputs;
using detail::JsonReader;

constexpr long long kMaxIndex = std::numeric_limits<Index>::max();

template <class T>
T take(Result<T> result, const JsonReader& where) {
  if (!result.ok()) where.fail(result.message());
  return std::move(result).value();
}

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
void check_elements(const JsonReader& m, long double elements, std::size_t limit, const char* what) {
  if (limit == 0 || elements <= static_cast<long double>(limit)) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %.6Lg elements, more than this reader's limit of %zu", what, elements,
                limit);
  m.fail(buf);
}

long double integer_param(const JsonReader& m, const char* key, long long fallback) {
  const auto v = m.find(key);
  return v && v->json().is_number_integer() ? static_cast<long double>(v->json().get<long long>())
                                            : static_cast<long double>(fallback);
}

long double shape_element_estimate(const JsonReader& m, const std::string& shape) {
  auto cells = [&](const char* key, int n, long double fallback) {
    const auto v = m.find(key);
    if (!v || !v->json().is_array() || v->json().size() != static_cast<std::size_t>(n)) return fallback;
    long double p = 1;
    for (const auto& e : v->json())
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

void read_mesh_unchecked(const JsonReader& m, const std::filesystem::path& dir, BodyInputs& in);

void read_mesh(const JsonReader& m, const std::filesystem::path& dir, BodyInputs& in,
               std::size_t max_elements) {
  if (m.has("shape") && m.at("shape").json().is_string())
    check_elements(m, shape_element_estimate(m, m.at("shape").string()), max_elements,
                   "the parameters ask for about");
  read_mesh_unchecked(m, dir, in);
  const std::size_t n = in.volume ? in.volume->tets.size() : in.surface ? in.surface->triangles.size() : 0;
  check_elements(m, static_cast<long double>(n), max_elements, "the mesh has");
}

// "mesh": {"file": "beam.msh"} or {"shape": "tube", ...parameters of that shape}.
void read_mesh_unchecked(const JsonReader& m, const std::filesystem::path& dir, BodyInputs& in) {
  if (m.has("file")) {
    m.expect_object({"file"});
    const JsonReader f = m.at("file");
    const std::filesystem::path path = dir / f.string();
    io::MeshFile file = take(io::read_mesh_file(path), f);
    if (!file.tets.empty()) {
      in.volume = take(io::read_tet_mesh(path), f);
    } else {
      in.surface = take(io::read_tri_mesh(path), f);
    }
    return;
  }
  const std::string shape =
      m.at("shape").one_of({"box", "tube", "ball", "disc", "hexdisc", "rect", "icosphere"});
  if (shape == "box") {
    m.expect_object({"shape", "origin", "size", "cells", "split"});
    meshing::BoxDef d;
    if (auto v = m.find("origin")) d.origin = v->vec3();
    if (auto v = m.find("size")) d.size = positive3(*v);
    if (auto v = m.find("cells")) d.cells = cells3(*v);
    if (auto v = m.find("split"))
      d.split = v->one_of({"five", "six"}) == "six" ? meshing::CellSplit::six : meshing::CellSplit::five;
    in.volume = take(meshing::box_mesh(d), m);
  } else if (shape == "tube") {
    m.expect_object({"shape", "inner_radius", "outer_radius", "length", "segments_around", "segments_along",
                     "segments_through"});
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
    m.expect_object({"shape", "center", "radius", "resolution"});
    meshing::BallDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.resolution = static_cast<Index>(m.integer_or("resolution", d.resolution, 2, kMaxIndex));
    in.volume = take(meshing::ball_mesh(d), m);
  } else if (shape == "disc") {
    m.expect_object({"shape", "center", "radius", "nodes", "boundary_nodes"});
    meshing::DiscMembraneDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.nodes = static_cast<Index>(m.integer_or("nodes", d.nodes, 7, kMaxIndex));
    d.boundary_nodes = static_cast<Index>(m.integer_or("boundary_nodes", d.boundary_nodes, 6, kMaxIndex));
    in.surface = take(meshing::disc_membrane(d), m);
  } else if (shape == "hexdisc") {
    m.expect_object({"shape", "center", "radius", "rings"});
    meshing::HexDiscDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.rings = static_cast<Index>(m.integer_or("rings", d.rings, 1, 10000));
    in.surface = take(meshing::hex_disc(d), m);
  } else if (shape == "rect") {
    m.expect_object({"shape", "size", "cells"});
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
    m.expect_object({"shape", "center", "radius", "subdivisions"});
    meshing::IcosphereDef d;
    if (auto v = m.find("center")) d.center = v->vec3();
    d.radius = m.positive_or("radius", d.radius);
    d.subdivisions = static_cast<Index>(
        m.integer_or("subdivisions", d.subdivisions, 0, meshing::kMaxIcosphereSubdivisions));
    in.surface = take(meshing::icosphere(d), m);
  }
}

// The surface point at the surface node nearest to `near`. Only nodes that are corners of a surface
// triangle count: a spring body built from tets lists its interior nodes among its positions too.
SurfacePoint nearest_surface_point(const Body& body, const Vec3& near) {
  const auto x = body.surface_positions();
  const auto tris = body.surface_triangles();
  SurfacePoint best_point;
  std::size_t best_node = 0;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < tris.size(); ++t) {
    for (int c = 0; c < 3; ++c) {
      const auto n = static_cast<std::size_t>(tris[t][c]);
      if (n >= x.size()) continue;
      const double d = (x[n] - near).squaredNorm();
      // Ties go to the lowest node index, then its first triangle: independent of triangle order.
      if (d < best || (d == best && n < best_node)) {
        best = d;
        best_node = n;
        best_point = {static_cast<Index>(t), c == 1 ? 1.0 : 0.0, c == 2 ? 1.0 : 0.0};
      }
    }
  }
  return best_point;
}

std::string format_time(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", t);
  return buf;
}

Index find_body(const World& world, const JsonReader& r) {
  const std::string name = r.string();
  for (std::size_t i = 0; i < world.body_count(); ++i) {
    if (world.body(static_cast<Index>(i)).name() == name) return static_cast<Index>(i);
  }
  std::string names;
  for (std::size_t i = 0; i < world.body_count(); ++i)
    names += (i ? ", \"" : "\"") + world.body(static_cast<Index>(i)).name() + "\"";
  r.fail("no body named \"" + escape_for_message(name) + "\" (bodies: " + names + ")");
}

SurfacePoint read_point(const JsonReader& r, const World& world, Index body) {
  const SurfacePoint p = nearest_surface_point(world.body(body), r.vec3());
  if (p.triangle < 0) r.fail("body has no surface to attach to");
  return p;
}

// "track": [{"t": s, "offset": [m, m, m]}, ...], at least one keyframe, times increasing.
std::vector<Keyframe> read_track(const JsonReader& r) {
  std::vector<Keyframe> track;
  double last_t = -1.0;
  for (const JsonReader& k : r.at("track").elements(1)) {
    k.expect_object({"t", "offset"});
    Keyframe f;
    f.t = k.at("t").non_negative();
    if (f.t <= last_t)
      k.at("t").fail_expected("a time > " + format_time(last_t) + " (the previous keyframe's)");
    last_t = f.t;
    f.offset = k.at("offset").vec3();
    track.push_back(f);
  }
  return track;
}

void read_interaction(const JsonReader& r, World& world) {
  const std::string type = r.at("type").one_of({"grab", "probe", "tool"});
  if (type == "tool") {
    r.expect_object({"type", "shape", "start", "axis", "radius", "length", "stiffness", "track"});
    r.at("shape").one_of({"cylinder"});
    ScriptedTool tool;
    tool.start = r.at("start").vec3();
    if (auto a = r.find("axis")) {
      const Vec3 axis = a->vec3();
      if (!(axis.norm() > 0.0)) a->fail_expected("a non-zero direction");
      tool.axis = axis.normalized();
    }
    tool.radius = r.at("radius").positive();
    tool.half_length = 0.5 * r.at("length").positive();
    tool.stiffness = r.at("stiffness").positive();
    tool.track = read_track(r);
    world.add(std::move(tool));
    return;
  }
  if (type == "grab") {
    r.expect_object({"type", "body", "near", "start", "release", "radius", "track"});
    ScriptedGrab g;
    g.body = find_body(world, r.at("body"));
    g.point = read_point(r.at("near"), world, g.body);
    if (auto v = r.find("radius")) {
      // A soft grab's patch radius in metres; 0 holds one node. A body that holds single points
      // only must not silently ignore a patch it was asked for.
      g.radius = v->non_negative();
      const Body& body = world.body(g.body);
      if (g.radius > 0.0 && !body.soft_grabs())
        v->fail("body \"" + body.name() + "\" (family " + std::string(body.family()) +
                ") holds single nodes only: remove \"radius\" or set it to 0");
    }
    g.start = r.find("start") ? r.at("start").non_negative() : 0.0;
    if (auto v = r.find("release")) {
      // Omitted: held to the end. Given: it must come after the grab starts.
      g.release = v->number();
      if (!(g.release > g.start))
        v->fail_expected("a time > " + format_time(g.start) + " (the grab's start)");
    }
    g.track = read_track(r);
    world.add(std::move(g));
  } else {
    r.expect_object({"type", "body", "near", "force", "start", "end", "ramp"});
    ForceProbe p;
    p.body = find_body(world, r.at("body"));
    p.point = read_point(r.at("near"), world, p.body);
    p.force = r.at("force").vec3();
    p.start = r.find("start") ? r.at("start").non_negative() : 0.0;
    if (auto v = r.find("end")) {
      p.end = v->number();
      if (!(p.end > p.start)) v->fail_expected("a time > " + format_time(p.start) + " (the probe's start)");
    }
    p.ramp = r.find("ramp") ? r.at("ramp").non_negative() : 0.0;
    world.add(p);
  }
}

// Scene names become an output directory (out/NAME) and body names output files (NAME_00010.vtu,
// NAME.pvd): keep both to a portable set.
std::string read_file_name(const JsonReader& r) {
  const std::string name = r.string();
  if (name.empty()) r.fail_expected("a non-empty name");
  const bool portable =
      std::all_of(name.begin(), name.end(),
                  [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                  }) &&
      name != "." && name != "..";
  if (!portable) r.fail_expected("letters, digits, '_', '-' or '.' (the name names output files)");
  return name;
}

std::string bounds_text(const std::vector<Vec3>& x) {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = -lo;
  for (const Vec3& p : x) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu nodes in [%g, %g] x [%g, %g] x [%g, %g] m", x.size(), lo.x(), hi.x(),
                lo.y(), hi.y(), lo.z(), hi.z());
  return buf;
}

// The colour field must be one some body provides, or PNG frames would silently come out blank.
std::string read_color_field(const JsonReader& r, const World& world) {
  const std::string field = r.string();
  std::vector<std::string> names;
  for (std::size_t i = 0; i < world.body_count(); ++i) {
    for (const FieldInfo& f : world.body(static_cast<Index>(i)).fields()) {
      if (std::find(names.begin(), names.end(), f.name) == names.end()) names.emplace_back(f.name);
    }
  }
  if (std::find(names.begin(), names.end(), field) != names.end()) return field;
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "\"" : ", \"") + n + "\"";
  r.fail_expected("a field of these bodies (" + list + ")");
}

// The rest of "invalid JSON..." for a json::exception other than a parse error. nlohmann's
// out_of_range.406 names the token ("number overflow parsing '1e400'") but not where it
// is: find it in the text for a line and column.
std::string number_overflow_message(const std::string& what, std::string_view text) {
  const auto q0 = what.find('\'');
  const auto q1 = q0 == std::string::npos ? q0 : what.find('\'', q0 + 1);
  if (q1 == std::string::npos) return ": " + what;
  const std::string token = what.substr(q0 + 1, q1 - q0 - 1);
  std::string where = ": ";
  if (const auto at = text.find(token); at != std::string_view::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    const auto nl = text.rfind('\n', at);
    const auto column = at - (nl == std::string_view::npos ? 0 : nl + 1) + 1;
    where = " at line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
  }
  return where + "number " + token + " is out of the range of a double (about 1.8e308)";
}

}  // namespace

Result<Scene> parse_scene(std::string_view json_text, const std::filesystem::path& file) {
  return parse_scene(json_text, file, SceneLimits{});
}

Result<Scene> parse_scene(std::string_view json_text, const std::filesystem::path& file,
                          const SceneLimits& limits) {
  const std::string name = file.string();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann reports "[json.exception.parse_error.101] parse error at line 3, column 7: ...".
    std::string what = e.what();
    const auto at = what.find("at line");
    return Error{escape_for_message(name, std::string::npos) + ": invalid JSON " +
                 escape_for_message(at != std::string::npos ? what.substr(at) : what, std::string::npos)};
  } catch (const nlohmann::json::exception& e) {
    // A number beyond the double range (1e400) is out_of_range.406 "number overflow parsing '1e400'".
    return Error{escape_for_message(name, std::string::npos) + ": invalid JSON" +
                 escape_for_message(number_overflow_message(e.what(), json_text), std::string::npos)};
  }
  try {
    const JsonReader root(doc, name);
    root.expect_object({"pliant", "name", "time_step", "steps", "bodies", "interactions", "output"});
    const JsonReader version = root.at("pliant");
    if (const long long v = version.integer(1, 1000000); v != kSceneFormatVersion) {
      version.fail("unsupported scene format version " + std::to_string(v) + " (this pliant reads version " +
                   std::to_string(kSceneFormatVersion) + ")");
    }
    Scene scene;
    scene.name = root.has("name") ? read_file_name(root.at("name")) : file.stem().string();
    scene.steps = static_cast<int>(root.integer_or("steps", scene.steps, 1, 100000000));
    const double dt = root.find("time_step") ? root.at("time_step").number_in(0.0, 10.0, true) : 1.0 / 60.0;
    scene.world = std::make_unique<World>(dt);

    const auto bodies = root.at("bodies").elements(1);
    for (std::size_t bi = 0; bi < bodies.size(); ++bi) {
      const JsonReader& b = bodies[bi];
      const JsonReader fam = b.at("family");
      const detail::FamilyEntry* entry =
          fam.json().is_string() ? detail::find_family(fam.json().get<std::string>()) : nullptr;
      if (!entry) {
        std::string names;
        for (const detail::FamilyEntry* f : detail::family_entries())
          names += (names.empty() ? "\"" : ", \"") + std::string(f->name) + "\"";
        fam.fail_expected("one of " + names);
      }
      std::vector<std::string_view> keys = {"name", "family", "mesh", "fixed"};
      keys.insert(keys.end(), entry->keys.begin(), entry->keys.end());
      b.expect_object(keys);
      BodyInputs in;
      in.name = read_file_name(b.at("name"));
      for (std::size_t i = 0; i < bi; ++i) {
        if (scene.world->body(static_cast<Index>(i)).name() == in.name)
          b.at("name").fail("duplicate body name \"" + in.name + "\" (also " + bodies[i].pointer() +
                            "/name)");
      }
      in.directory = file.parent_path();
      in.time_step = dt;
      in.max_threads = limits.max_threads;
      in.write_files = limits.write_files;
      read_mesh(b.at("mesh"), in.directory, in, limits.max_mesh_elements);
      if (!entry->why_fixed.empty() && !b.has("fixed"))
        b.fail("missing required key \"fixed\" (" + std::string(entry->why_fixed) + ")");
      if (auto fixed = b.find("fixed")) {
        const std::vector<Vec3>& nodes = in.volume ? in.volume->positions : in.surface->positions;
        for (const JsonReader& r : fixed->elements()) {
          const std::string text = r.string();
          Region region = take(parse_region(text), r);
          if (Status s = check_region(region, nodes.size()); !s.ok()) r.fail(s.message());
          // A support that holds nothing is a typo or a wrong unit, never what was meant.
          if (select_nodes(nodes, region).empty())
            r.fail("region \"" + escape_for_message(text) + "\" selects no node of the mesh (" +
                   bounds_text(nodes) + ")");
          in.fixed.push_back(std::move(region));
        }
      }
      scene.world->add_body(entry->make(b, std::move(in)));
    }
    if (auto list = root.find("interactions")) {
      for (const JsonReader& r : list->elements()) read_interaction(r, *scene.world);
    }
    if (auto out = root.find("output")) {
      out->expect_object({"every", "vtu", "png", "width", "height", "color"});
      scene.output.every = static_cast<int>(out->integer_or("every", scene.output.every, 0, 100000000));
      scene.output.vtu = out->boolean_or("vtu", scene.output.vtu);
      scene.output.png = out->boolean_or("png", scene.output.png);
      scene.output.png_width = static_cast<int>(out->integer_or("width", scene.output.png_width, 16, 8192));
      scene.output.png_height =
          static_cast<int>(out->integer_or("height", scene.output.png_height, 16, 8192));
      if (auto c = out->find("color")) scene.output.color_field = read_color_field(*c, *scene.world);
    }
    return scene;
  } catch (const detail::JsonReadError& e) {
    return Error{e.what()};
  } catch (const nlohmann::json::exception& e) {
    return Error{escape_for_message(name + ": " + e.what(), std::string::npos)};
  }
}

Result<Scene> load_scene(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open scene file"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scene(text.str(), path);
}

}  // namespace pliant::scene
