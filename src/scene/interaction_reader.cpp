#include "interaction_reader.hpp"

#include "family_registry.hpp"
#include "mesh_reader.hpp"

#include "pliant/core/escape.hpp"

#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pliant::scene::detail {
namespace {

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

}  // namespace

void read_interaction(const JsonReader& r, World& world, const std::filesystem::path& directory) {
  const std::string type = r.at("type").one_of({"grab", "probe", "tool", "projectile", "blade"});
  if (type == "blade") {
    r.expect_object({"type", "edge", "track"});
    const std::vector<JsonReader> ends = r.at("edge").elements();
    if (ends.size() != 2) r.at("edge").fail_expected("two points [[x, y, z], [x, y, z]]");
    ScriptedBlade blade;
    blade.a = ends[0].vec3();
    blade.b = ends[1].vec3();
    if (!((blade.b - blade.a).norm() > 0.0)) r.at("edge").fail_expected("two distinct points");
    blade.track = read_track(r);
    world.add(std::move(blade));
    return;
  }
  if (type == "projectile") {
    r.expect_object({"type", "start", "velocity", "acceleration", "mass", "time", "mesh"});
    ScriptedProjectile p;
    p.start = r.at("start").vec3();
    p.velocity = r.at("velocity").vec3();
    if (auto a = r.find("acceleration")) p.acceleration = a->vec3();
    p.mass = r.positive_or("mass", p.mass);
    if (auto v = r.find("time")) p.time = v->non_negative();
    if (auto m = r.find("mesh")) {
      BodyInputs in;
      read_mesh(*m, directory, in, 10'000'000);
      if (!in.surface) m->fail("a projectile's mesh must be a surface (triangles), not a volume");
      p.shape = std::make_shared<const TriMesh>(std::move(*in.surface));
    }
    world.add(std::move(p));
    return;
  }
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

}  // namespace pliant::scene::detail
