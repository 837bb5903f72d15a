#include "scene_runner.hpp"

#include "cli.hpp"

#include "pliant/io/atomic_file.hpp"
#include "pliant/io/pvd.hpp"
#include "pliant/io/vtu.hpp"

#if PLIANT_HAS_RENDER
#include "pliant/render/offscreen.hpp"
#endif

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace pliant::cli {
namespace {

struct StageStats {
  double total = 0.0;
  double max = 0.0;
};

std::string event_kind_name(scene::BodyEvent::Kind k) {
  switch (k) {
    case scene::BodyEvent::Kind::tear_hole:
      return "tear_hole";
    case scene::BodyEvent::Kind::tear_propagate:
      return "tear_propagate";
    case scene::BodyEvent::Kind::tear_branch:
      return "tear_branch";
    case scene::BodyEvent::Kind::tear_through:
      return "tear_through";
    case scene::BodyEvent::Kind::tear_delete:
      return "tear_delete";
    case scene::BodyEvent::Kind::grab_released:
      return "grab_released";
  }
  return "unknown";
}

// Body names become file names: keep them to a portable set.
void check_file_name(const std::string& name) {
  const bool ok =
      !name.empty() &&
      std::all_of(name.begin(), name.end(),
                  [](char c) {
                    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                  }) &&
      name != "." && name != "..";
  if (!ok)
    fail(fmt::format("body name \"{}\": use letters, digits, '_', '-' or '.' (it names output files)", name));
}

class FrameWriter {
 public:
  FrameWriter(const scene::World& world, const std::filesystem::path& dir) : world_(world), dir_(dir) {
    series_.resize(world.body_count());
  }

  void write(int frame) {
    for (std::size_t b = 0; b < world_.body_count(); ++b) {
      const scene::Body& body = world_.body(static_cast<Index>(b));
      TriMesh mesh;
      const auto x = body.surface_positions();
      const auto x0 = body.surface_rest_positions();
      mesh.positions.assign(x.begin(), x.end());
      mesh.triangles.assign(body.surface_triangles().begin(), body.surface_triangles().end());
      std::vector<io::Field> fields;
      io::Field u{"displacement_vector", 3, std::vector<double>(3 * x.size())};
      for (std::size_t i = 0; i < x.size(); ++i) {
        const Vec3 d = x[i] - x0[i];
        for (int k = 0; k < 3; ++k) u.values[3 * i + static_cast<std::size_t>(k)] = d[k];
      }
      fields.push_back(std::move(u));
      for (scene::SurfaceField& f : body.surface_fields()) fields.push_back({f.name, 1, std::move(f.value)});
      const std::string file = fmt::format("{}_{:05d}.vtu", body.name(), frame);
      unwrap(io::write_vtu(dir_ / file, mesh, fields));
      series_[b].push_back({world_.time(), file});
      unwrap(io::write_pvd(dir_ / (body.name() + ".pvd"), series_[b]));
      ++files_;
    }
  }
  int files() const { return files_; }

 private:
  const scene::World& world_;
  std::filesystem::path dir_;
  std::vector<std::vector<io::PvdEntry>> series_;
  int files_ = 0;
};

#if PLIANT_HAS_RENDER
class PngWriter {
 public:
  PngWriter(const scene::Scene& scene, const std::filesystem::path& dir)
      : dir_(dir), field_(scene.output.color_field) {
    render::OffscreenDef def;
    def.width = scene.output.png_width;
    def.height = scene.output.png_height;
    renderer_ = unwrap(render::OffscreenRenderer::create(def));
  }

  void write(const scene::World& world, int frame) {
    render::Frame f;
    std::vector<std::vector<double>> values(world.body_count());
    double lo = 0.0, hi = 0.0;
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      for (scene::SurfaceField& sf : world.body(static_cast<Index>(b)).surface_fields()) {
        if (sf.name == field_) values[b] = std::move(sf.value);
      }
      for (double v : values[b]) hi = std::max(hi, v);
    }
    // One range for the whole run keeps colours comparable between frames: it only grows.
    range_max_ = std::max(range_max_, hi > lo ? hi : 1e-12);
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      const scene::Body& body = world.body(static_cast<Index>(b));
      render::Surface s;
      s.positions = body.surface_positions();
      s.triangles = body.surface_triangles();
      s.field = values[b];
      s.range_min = 0.0;
      s.range_max = range_max_;
      f.surfaces.push_back(s);
    }
    if (!framed_) {
      camera_.width = renderer_->width();
      camera_.height = renderer_->height();
      camera_.frame(render::bounds(f), 1.25);
      framed_ = true;
    }
    f.camera = camera_;
    f.color_bar = {true, render::ColorMap::viridis, 0.0, range_max_, field_};
    const render::Image image = renderer_->render(f);
    const std::string file = fmt::format("frame_{:05d}.png", frame);
    unwrap(io::write_file_atomically(dir_ / file, unwrap(render::encode_png(image))));
    ++files_;
  }
  int files() const { return files_; }

 private:
  std::filesystem::path dir_;
  std::string field_;
  std::unique_ptr<render::OffscreenRenderer> renderer_;
  render::Camera camera_;
  bool framed_ = false;
  double range_max_ = 0.0;
  int files_ = 0;
};
#endif

}  // namespace

nlohmann::json run_scene(scene::Scene& scene, const RunOptions& options) {
  scene::World& world = *scene.world;
  for (std::size_t b = 0; b < world.body_count(); ++b)
    check_file_name(world.body(static_cast<Index>(b)).name());
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) fail(fmt::format("{}: cannot create output directory: {}", options.out_dir.string(), ec.message()));
  const int steps = options.steps >= 0 ? options.steps : scene.steps;
  const int every = scene.output.every;

  FrameWriter vtu(world, options.out_dir);
#if PLIANT_HAS_RENDER
  std::unique_ptr<PngWriter> png;
  if (options.render || scene.output.png) png = std::make_unique<PngWriter>(scene, options.out_dir);
#else
  if (options.render || scene.output.png)
    fail("this pliant was built without the render module (PLIANT_WITH_RENDER=OFF)");
#endif
  auto write_frame = [&](int frame) {
    if (scene.output.vtu) vtu.write(frame);
#if PLIANT_HAS_RENDER
    if (png) png->write(world, frame);
#endif
  };

  std::map<std::string, StageStats> stages;
  std::vector<std::string> stage_order;
  std::map<std::string, int> events;
  constexpr std::size_t kMaxLoggedEvents = 10000;
  nlohmann::json event_log = nlohmann::json::array();
  std::vector<double> tool_max_force(world.tools().size(), 0.0);
  std::vector<int> tool_max_contacts(world.tools().size(), 0);
  int frame = 0;
  write_frame(frame++);
  Stopwatch wall;
  for (int s = 1; s <= steps; ++s) {
    world.step();
    auto note = [&](const std::string& name, double ms) {
      auto [it, inserted] = stages.try_emplace(name);
      if (inserted) stage_order.push_back(name);
      it->second.total += ms;
      it->second.max = std::max(it->second.max, ms);
    };
    for (const auto& st : world.profile().stages) note(st.name, st.ms);
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      for (const auto& st : world.body_profile(static_cast<Index>(b)).stages) {
        note(world.body(static_cast<Index>(b)).name() + "/" + st.name, st.ms);
      }
    }
    for (const scene::WorldEvent& e : world.events()) {
      const std::string kind = event_kind_name(e.event.kind);
      ++events[kind];
      if (event_log.size() < kMaxLoggedEvents) {
        const Vec3& p = e.event.position;
        event_log.push_back({{"step", s},
                             {"time_s", e.time},
                             {"body", world.body(e.body).name()},
                             {"kind", kind},
                             {"node", e.event.node},
                             {"position_m", {p.x(), p.y(), p.z()}}});
      }
    }
    for (std::size_t k = 0; k < world.tools().size(); ++k) {
      const scene::ScriptedTool& tool = world.tools()[k];
      tool_max_force[k] = std::max(tool_max_force[k], tool.force.norm());
      tool_max_contacts[k] = std::max(tool_max_contacts[k], tool.contacts);
    }
    // A blown-up body would fill every later frame with NaN: stop with the step and the body.
    for (std::size_t b = 0; b < world.body_count(); ++b) {
      const scene::Body& body = world.body(static_cast<Index>(b));
      for (const Vec3& x : body.surface_positions()) {
        if (!x.allFinite()) {
          fail(fmt::format(
              "scene {}: step {}: body \"{}\" became unstable (non-finite positions); lower its time step "
              "or stiffness",
              scene.name, s, body.name()));
        }
      }
    }
    if ((every > 0 && s % every == 0) || s == steps) write_frame(frame++);
  }
  const double wall_s = wall.seconds();

  nlohmann::json summary;
  summary["scene"] = scene.name;
  summary["steps"] = steps;
  summary["time_s"] = world.time();
  summary["wall_s"] = wall_s;
  summary["state_hash"] = fmt::format("{:016x}", world.state_hash());
  if (options.load_s >= 0.0) summary["load_s"] = options.load_s;
  summary["events"] = events;
  summary["event_log"] = event_log;  // the first 10000 events, in order
  nlohmann::json bodies = nlohmann::json::array();
  for (std::size_t b = 0; b < world.body_count(); ++b) {
    const scene::Body& body = world.body(static_cast<Index>(b));
    double max_disp = 0.0;
    std::size_t non_finite = 0;
    const auto x = body.surface_positions();
    const auto x0 = body.surface_rest_positions();
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!x[i].allFinite()) {
        ++non_finite;
        continue;
      }
      max_disp = std::max(max_disp, (x[i] - x0[i]).norm());
    }
    bodies.push_back({{"name", body.name()},
                      {"family", body.family()},
                      {"surface_nodes", x.size()},
                      {"surface_triangles", body.surface_triangles().size()},
                      {"max_displacement_m", max_disp},
                      {"non_finite_nodes", non_finite},
                      {"series", body.name() + ".pvd"}});
  }
  summary["bodies"] = bodies;
  nlohmann::json tools = nlohmann::json::array();
  for (std::size_t k = 0; k < world.tools().size(); ++k) {
    const Vec3 c = world.tools()[k].centre;
    tools.push_back({{"max_force_n", tool_max_force[k]},
                     {"max_contacts", tool_max_contacts[k]},
                     {"final_centre_m", {c.x(), c.y(), c.z()}}});
  }
  summary["tools"] = tools;
  nlohmann::json stage_json = nlohmann::json::array();
  for (const std::string& name : stage_order) {
    const StageStats& st = stages[name];
    stage_json.push_back(
        {{"stage", name}, {"mean_ms", steps > 0 ? st.total / steps : 0.0}, {"max_ms", st.max}});
  }
  summary["stages"] = stage_json;
  summary["vtu_files"] = vtu.files();
#if PLIANT_HAS_RENDER
  summary["png_files"] = png ? png->files() : 0;
#else
  summary["png_files"] = 0;
#endif
  unwrap(io::write_file_atomically(options.out_dir / "summary.json", summary.dump(2) + "\n"));

  if (options.print_table) {
    fmt::print("scene {}: {} steps, {:.3f} s simulated, {:.2f} s wall{}\n", scene.name, steps, world.time(),
               wall_s, options.load_s >= 0.0 ? fmt::format(" (+ {:.2f} s to build)", options.load_s) : "");
    fmt::print("  {:<34} {:>10} {:>10}\n", "stage", "mean ms", "max ms");
    for (const auto& st : stage_json) {
      fmt::print("  {:<34} {:>10.3f} {:>10.3f}\n", st["stage"].get<std::string>(),
                 st["mean_ms"].get<double>(), st["max_ms"].get<double>());
    }
    for (const auto& [kind, count] : events) fmt::print("  events {}: {}\n", kind, count);
    fmt::print("  wrote {} VTU frames, {} PNG frames, summary.json in {}\n", vtu.files(),
               summary["png_files"].get<int>(), options.out_dir.string());
  }
  return summary;
}

}  // namespace pliant::cli
