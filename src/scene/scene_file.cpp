#include "pliant/scene/scene_file.hpp"

#include "collider_reader.hpp"
#include "family_registry.hpp"
#include "interaction_reader.hpp"
#include "json_errors.hpp"
#include "json_reader.hpp"
#include "mesh_reader.hpp"

#include "pliant/core/escape.hpp"
#include "pliant/core/topology.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace pliant::scene {
namespace {
using detail::BodyInputs;
using detail::JsonReader;
using detail::take;

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
  // The World's own field, wherever contact runs (World::contact_pressure).
  if (world.contact_enabled()) names.emplace_back(kContactPressureField);
  if (std::find(names.begin(), names.end(), field) != names.end()) return field;
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "\"" : ", \"") + n + "\"";
  r.fail_expected("a field of these bodies (" + list + ")");
}

// One body object: the shared keys (name, family, mesh or the given mesh, fixed), then the family's.
// `contact`, when given, receives the body's "contact" settings and `render` its "render_mesh"; without
// them (make_body) those keys are refused, since both belong to the World (World::set_contact,
// World::set_render_mesh).
std::unique_ptr<Body> read_body(const JsonReader& b, const std::filesystem::path& file, double dt,
                                const SceneLimits& limits, const BodyMesh* mesh,
                                std::vector<std::string>* notices = nullptr, BodyContact* contact = nullptr,
                                std::optional<TriMesh>* render = nullptr,
                                std::vector<PlausibilityWarning>* warnings = nullptr) {
  const JsonReader fam = b.at("family");
  const detail::FamilyEntry* entry = fam.is_string() ? detail::find_family(fam.string()) : nullptr;
  if (!entry) {
    std::string names;
    for (const detail::FamilyEntry* f : detail::family_entries())
      names += (names.empty() ? "\"" : ", \"") + std::string(f->name) + "\"";
    fam.fail_expected("one of " + names);
  }
  std::vector<std::string_view> keys = {"name", "family", "mesh", "fixed"};
  if (mesh) keys.erase(keys.begin() + 2);
  keys.push_back("contact");
  keys.push_back("render_mesh");
  keys.insert(keys.end(), entry->keys.begin(), entry->keys.end());
  if (mesh && b.has("mesh")) b.at("mesh").fail("the mesh is given twice (as a key and as a mesh object)");
  b.expect_object(keys);
  if (auto c = b.find("contact")) {
    if (!contact) c->fail("contact settings belong to the World: set them with World::set_contact");
    *contact = detail::read_body_contact(*c);
  }
  if (auto r = b.find("render_mesh")) {
    if (!render) r->fail("a render mesh belongs to the World: give it with World::set_render_mesh");
    // The same object as "mesh": a file or a procedural shape, with units and a transform; a volume
    // is drawn through its boundary surface.
    BodyInputs rin;
    detail::read_mesh(*r, file.parent_path(), rin, limits.max_mesh_elements);
    *render = rin.surface ? std::move(*rin.surface) : extract_boundary(*rin.volume).mesh;
    if (notices) notices->insert(notices->end(), rin.notices.begin(), rin.notices.end());
  }
  BodyInputs in;
  in.name = read_file_name(b.at("name"));
  in.directory = file.parent_path();
  in.time_step = dt;
  in.max_threads = limits.max_threads;
  in.write_files = limits.write_files;
  in.max_mesh_elements = limits.max_mesh_elements;
  if (mesh) {
    if (mesh->volume.has_value() == mesh->surface.has_value())
      b.fail("the mesh object must hold either a volume or a surface");
    in.volume = mesh->volume;
    in.surface = mesh->surface;
  } else {
    detail::read_mesh(b.at("mesh"), in.directory, in, limits.max_mesh_elements);
  }
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
  if (notices) notices->insert(notices->end(), in.notices.begin(), in.notices.end());
  if (warnings && in.volume)
    if (auto w = check_tet_quality(in.name, *in.volume)) warnings->push_back(std::move(*w));
  return entry->make(b, std::move(in));
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
    return Error{detail::invalid_json_message(name, e)};
  } catch (const nlohmann::json::exception& e) {
    return Error{detail::invalid_json_message(name, e, json_text)};
  }
  try {
    const JsonReader root = detail::reader_of(doc, name);
    root.expect_object({"pliant", "name", "time_step", "steps", "bodies", "colliders", "instruments",
                        "contact_solver", "interactions", "output"});
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
      for (std::size_t i = 0; i < bi; ++i) {
        if (b.has("name") && bodies[i].has("name") &&
            detail::json_of(b.at("name")) == detail::json_of(bodies[i].at("name")))
          b.at("name").fail("duplicate body name \"" + read_file_name(b.at("name")) + "\" (also " +
                            bodies[i].pointer() + "/name)");
      }
      BodyContact contact;
      std::optional<TriMesh> render;
      const Index index = scene.world->add_body(
          read_body(b, file, dt, limits, nullptr, &scene.notices, &contact, &render, &scene.warnings));
      scene.world->set_contact(index, contact);
      if (render)
        scene.world->set_render_mesh(
            index,
            take(RenderMesh::embed(scene.world->body(index), std::move(*render)), b.at("render_mesh")));
    }
    if (auto list = root.find("colliders")) {
      const auto colliders = list->elements();
      for (std::size_t ci = 0; ci < colliders.size(); ++ci) {
        Collider c = detail::read_collider(colliders[ci], file.parent_path(), limits.max_mesh_elements);
        for (const Collider& other : scene.world->colliders())
          if (other.name == c.name)
            colliders[ci].fail("duplicate collider name \"" + escape_for_message(c.name) +
                               "\" (name colliders apart with \"name\")");
        (void)take(scene.world->add_collider(std::move(c)), colliders[ci]);
      }
    }
    if (auto list = root.find("instruments")) {
      const auto instruments = list->elements();
      for (std::size_t k = 0; k < instruments.size(); ++k) {
        const JsonReader& r = instruments[k];
        Instrument in = detail::read_instrument(r);
        const std::string name = escape_for_message(in.name);
        for (const Collider& other : scene.world->colliders())
          if (other.name == in.name)
            r.fail("duplicate name \"" + name +
                   "\": a collider or instrument has it (name them apart with \"name\")");
        if (in.device)
          for (const Instrument& other : scene.world->instruments())
            if (other.device)
              r.at("device").fail("instrument \"" + name + "\" and instrument \"" +
                                  escape_for_message(other.name) +
                                  "\" are both driven by the device (one device drives one instrument)");
        (void)take(scene.world->add_instrument(std::move(in)), r);
      }
    }
    if (auto solver = root.find("contact_solver"))
      scene.world->contact_solver() = detail::read_contact_solver(*solver);
    if (auto list = root.find("interactions")) {
      for (const JsonReader& r : list->elements())
        detail::read_interaction(r, *scene.world, file.parent_path());
    }
    if (auto out = root.find("output")) {
      out->expect_object({"every", "vtu", "png", "width", "height", "color", "contact_arrows"});
      scene.output.every = static_cast<int>(out->integer_or("every", scene.output.every, 0, 100000000));
      scene.output.vtu = out->boolean_or("vtu", scene.output.vtu);
      scene.output.png = out->boolean_or("png", scene.output.png);
      scene.output.png_width = static_cast<int>(out->integer_or("width", scene.output.png_width, 16, 8192));
      scene.output.png_height =
          static_cast<int>(out->integer_or("height", scene.output.png_height, 16, 8192));
      if (auto c = out->find("color")) scene.output.color_field = read_color_field(*c, *scene.world);
      scene.output.contact_arrows = out->boolean_or("contact_arrows", scene.output.contact_arrows);
    }
    for (PlausibilityWarning& w : check_plausibility(*scene.world)) scene.warnings.push_back(std::move(w));
    return scene;
  } catch (const detail::JsonReadError& e) {
    return Error{e.what()};
  } catch (const nlohmann::json::exception& e) {
    return Error{escape_for_message(name + ": " + e.what(), std::string::npos)};
  }
}

Result<Scene> load_scene(const std::filesystem::path& path) { return load_scene(path, SceneLimits{}); }

Result<Scene> load_scene(const std::filesystem::path& path, const SceneLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open scene file"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scene(text.str(), path, limits);
}

Result<std::unique_ptr<Body>> make_body(std::string_view body_json, const std::filesystem::path& file,
                                        double time_step, const BodyMesh* mesh, const SceneLimits& limits) {
  const std::string name = file.string();
  if (!(time_step > 0.0 && time_step <= 10.0))
    return Error{name + ": time step must be in (0, 10] s, got " + std::to_string(time_step)};
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(body_json);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{detail::invalid_json_message(name, e)};
  } catch (const nlohmann::json::exception& e) {
    return Error{detail::invalid_json_message(name, e, body_json)};
  }
  try {
    return read_body(detail::reader_of(doc, name), file, time_step, limits, mesh);
  } catch (const detail::JsonReadError& e) {
    return Error{e.what()};
  } catch (const nlohmann::json::exception& e) {
    return Error{escape_for_message(name + ": " + e.what(), std::string::npos)};
  }
}

namespace {
// Parses JSON text given in code and reads it with `read`, every failure as one line naming `file`.
template <class T, class Read>
Result<T> read_json_text(std::string_view text, const std::filesystem::path& file, Read read) {
  const std::string name = file.string();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{detail::invalid_json_message(name, e)};
  } catch (const nlohmann::json::exception& e) {
    return Error{detail::invalid_json_message(name, e, text)};
  }
  try {
    return read(detail::reader_of(doc, name));
  } catch (const detail::JsonReadError& e) {
    return Error{e.what()};
  } catch (const nlohmann::json::exception& e) {
    return Error{escape_for_message(name + ": " + e.what(), std::string::npos)};
  }
}
}  // namespace

Result<Collider> make_collider(std::string_view collider_json, const std::filesystem::path& file,
                               const SceneLimits& limits) {
  return read_json_text<Collider>(collider_json, file, [&](const JsonReader& r) {
    return detail::read_collider(r, file.parent_path(), limits.max_mesh_elements);
  });
}

Result<Instrument> make_instrument(std::string_view instrument_json, const std::filesystem::path& file) {
  return read_json_text<Instrument>(instrument_json, file,
                                    [&](const JsonReader& r) { return detail::read_instrument(r); });
}

Result<BodyContact> make_body_contact(std::string_view contact_json, const std::filesystem::path& file) {
  return read_json_text<BodyContact>(contact_json, file,
                                     [](const JsonReader& r) { return detail::read_body_contact(r); });
}

}  // namespace pliant::scene
